"""channels: webhooks, feed keys, and the outbox's channel (issue #23, other channels than email)

- `webhooks`: a person's webhook targets (generic signed JSON, Discord, Slack).
- `feed_keys`: the random id of a person's calendar and Atom feed URLs.
- `outbox.channel` ("email" | "webhook", server default "email": every existing row stays an email)
  and `outbox.webhook_id` (the target of a webhook row; NULL for emails).  Plain ADD COLUMNs, so the
  outbox table is not copied on SQLite.

Revision ID: 0015d
Revises: 0014
"""
from typing import Sequence, Union

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision: str = "0015d"
down_revision: Union[str, Sequence[str], None] = "0014"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.create_table(
        "webhooks",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("person", sa.String(length=254), nullable=False),
        sa.Column("url", sa.String(length=2000), nullable=False),
        sa.Column("shape", sa.String(length=10), nullable=False),
        sa.Column("secret", sa.String(length=64), nullable=False),
        sa.Column("created_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.Column("disabled_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True),
    )
    op.create_index("ix_webhooks_person", "webhooks", ["person"])
    op.create_table(
        "feed_keys",
        sa.Column("person", sa.String(length=254), primary_key=True),
        sa.Column("feed_id", sa.String(length=32), nullable=False, unique=True),
        sa.Column("created_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    )
    op.add_column("outbox", sa.Column("channel", sa.String(length=10), nullable=False, server_default="email"))
    op.add_column("outbox", sa.Column("webhook_id", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("outbox") as batch:
        batch.drop_column("webhook_id")
        batch.drop_column("channel")
    op.drop_table("feed_keys")
    op.drop_index("ix_webhooks_person", table_name="webhooks")
    op.drop_table("webhooks")
