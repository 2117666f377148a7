"""link generations, never-email, and the pacing of mailed links

- players.link_generation: every link standing for the player carries it; "send me a fresh link" bumps
  it.  Existing rows start at 0, the generation of every link minted before (they carry none).
- people.never_email_at: set by the RFC 8058 one-click or the account page; delivery skips them.
- people.fresh_link_sent_at, people.account_link_sent_at: when such a link was last mailed (pacing).
- outbox.skip_reason: why a skipped row was not sent.

Revision ID: 0007_links
Revises: 0006
"""
from typing import Sequence, Union

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision: str = "0007_links"
down_revision: Union[str, Sequence[str], None] = "0006"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("link_generation", sa.Integer(), nullable=False, server_default="0"))
    with op.batch_alter_table("people") as batch:
        batch.add_column(sa.Column("never_email_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True))
        batch.add_column(sa.Column("fresh_link_sent_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True))
        batch.add_column(sa.Column("account_link_sent_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True))
    with op.batch_alter_table("outbox") as batch:
        batch.add_column(sa.Column("skip_reason", sqlmodel.sql.sqltypes.AutoString(length=40), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("outbox") as batch:
        batch.drop_column("skip_reason")
    with op.batch_alter_table("people") as batch:
        batch.drop_column("account_link_sent_at")
        batch.drop_column("fresh_link_sent_at")
        batch.drop_column("never_email_at")
    with op.batch_alter_table("players") as batch:
        batch.drop_column("link_generation")
