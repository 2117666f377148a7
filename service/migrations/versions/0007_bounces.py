"""bounces: reports received for sent emails; people: when their address was judged undeliverable

Revision ID: 0007_bounces
Revises: 0006
"""
from typing import Sequence, Union

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision: str = "0007_bounces"
down_revision: Union[str, Sequence[str], None] = "0006"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.create_table(
        "bounces",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("email", sqlmodel.sql.sqltypes.AutoString(length=254), nullable=False),
        sa.Column("outbox_id", sa.Integer(), nullable=False),
        sa.Column("kind", sqlmodel.sql.sqltypes.AutoString(length=10), nullable=False),
        sa.Column("status", sqlmodel.sql.sqltypes.AutoString(length=16), nullable=False),
        sa.Column("diagnostic", sqlmodel.sql.sqltypes.AutoString(length=500), nullable=False),
        sa.Column("received_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(["outbox_id"], ["outbox.id"]),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_bounces_email_received", "bounces", ["email", "received_at"])
    with op.batch_alter_table("people") as batch:
        batch.add_column(sa.Column("bounced_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True))
        batch.add_column(sa.Column("bounce_status", sqlmodel.sql.sqltypes.AutoString(length=16), nullable=True))
        batch.add_column(sa.Column("bounces_cleared_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("people") as batch:
        batch.drop_column("bounces_cleared_at")
        batch.drop_column("bounce_status")
        batch.drop_column("bounced_at")
    op.drop_index("ix_bounces_email_received", table_name="bounces")
    op.drop_table("bounces")
