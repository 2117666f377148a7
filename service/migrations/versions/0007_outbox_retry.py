"""outbox: `requeued_at`, when an operator last re-queued a row (the retry horizon starts afresh there)

One delivery policy now retries a row until a give-up horizon measured from its creation; an
operator's `flask outbox requeue` restarts that horizon without rewriting when the email was queued.

Revision ID: 0007_outbox
Revises: 0006
"""
from typing import Sequence, Union

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision: str = "0007_outbox"
down_revision: Union[str, Sequence[str], None] = "0006"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    with op.batch_alter_table("outbox") as batch:
        batch.add_column(sa.Column("requeued_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("outbox") as batch:
        batch.drop_column("requeued_at")
