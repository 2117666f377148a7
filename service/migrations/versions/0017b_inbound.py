"""inbound: every received message kept (inbound_messages), and a person's reply confirmations setting
(reply_settings)

New tables only; nothing existing changes.

Revision ID: 0017b
Revises: 0016
"""
from typing import Sequence, Union

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision: str = "0017b"
down_revision: Union[str, Sequence[str], None] = "0016"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.create_table(
        "inbound_messages",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("received_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.Column("rcpt", sqlmodel.sql.sqltypes.AutoString(length=320), nullable=False),
        sa.Column("sender", sqlmodel.sql.sqltypes.AutoString(length=320), nullable=False),
        sa.Column("message_id", sqlmodel.sql.sqltypes.AutoString(length=250), nullable=False),
        sa.Column("size", sa.Integer(), nullable=False),
        sa.Column("truncated", sa.Boolean(), nullable=False),
        sa.Column("raw", sa.LargeBinary(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=True),
        sa.Column("game_id", sa.Integer(), nullable=True),
        sa.Column("seq", sa.Integer(), nullable=True),
        sa.Column("outcome", sqlmodel.sql.sqltypes.AutoString(length=20), nullable=False),
        sa.Column("detail", sqlmodel.sql.sqltypes.AutoString(length=500), nullable=False),
        sa.Column("error", sqlmodel.sql.sqltypes.AutoString(length=2000), nullable=True),
        sa.Column("answer_id", sa.Integer(), nullable=True),
        sa.Column("done_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_inbound_messages_player_received", "inbound_messages", ["player_id", "received_at"])
    op.create_index("ix_inbound_messages_outcome", "inbound_messages", ["outcome", "id"])
    op.create_table(
        "reply_settings",
        sa.Column("person", sqlmodel.sql.sqltypes.AutoString(length=254), nullable=False),
        sa.Column("confirmations", sa.Boolean(), nullable=False),
        sa.Column("changed_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.PrimaryKeyConstraint("person"),
    )


def downgrade() -> None:
    op.drop_table("reply_settings")
    op.drop_index("ix_inbound_messages_outcome", table_name="inbound_messages")
    op.drop_index("ix_inbound_messages_player_received", table_name="inbound_messages")
    op.drop_table("inbound_messages")
