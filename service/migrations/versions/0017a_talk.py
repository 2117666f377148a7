"""talk: table talk (messages, mutes, reports, "tell me at once", how far emails told it, games opened
to spectators)

New tables only; nothing existing changes.

Revision ID: 0017a
Revises: 0016
"""
from typing import Sequence, Union

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision: str = "0017a"
down_revision: Union[str, Sequence[str], None] = "0016"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.create_table(
        "talk_messages",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("channel", sqlmodel.sql.sqltypes.AutoString(length=10), nullable=False),
        sa.Column("text", sqlmodel.sql.sqltypes.AutoString(length=1000), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("source", sqlmodel.sql.sqltypes.AutoString(length=10), nullable=False),
        sa.Column("created_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.Column("deleted_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"]),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"]),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_talk_messages_game", "talk_messages", ["game_id", "id"])
    op.create_index("ix_talk_messages_player_created", "talk_messages", ["player_id", "created_at"])
    op.create_table(
        "talk_mutes",
        sa.Column("person", sqlmodel.sql.sqltypes.AutoString(length=254), nullable=False),
        sa.Column("muted", sqlmodel.sql.sqltypes.AutoString(length=254), nullable=False),
        sa.Column("created_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.PrimaryKeyConstraint("person", "muted"),
    )
    op.create_table(
        "talk_reports",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("message_id", sa.Integer(), nullable=False),
        sa.Column("reporter", sa.Integer(), nullable=False),
        sa.Column("reason", sqlmodel.sql.sqltypes.AutoString(length=500), nullable=False),
        sa.Column("text", sqlmodel.sql.sqltypes.AutoString(length=1000), nullable=False),
        sa.Column("created_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(["message_id"], ["talk_messages.id"]),
        sa.ForeignKeyConstraint(["reporter"], ["players.id"]),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("message_id", "reporter", name="uq_talk_reports_message_reporter"),
    )
    op.create_table(
        "talk_at_once",
        sa.Column("person", sqlmodel.sql.sqltypes.AutoString(length=254), nullable=False),
        sa.Column("created_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.PrimaryKeyConstraint("person"),
    )
    op.create_table(
        "talk_told",
        sa.Column("player_id", sa.Integer(), nullable=False, autoincrement=False),
        sa.Column("upto", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"]),
        sa.PrimaryKeyConstraint("player_id"),
    )
    op.create_table(
        "talk_open",
        sa.Column("game_id", sa.Integer(), nullable=False, autoincrement=False),
        sa.Column("opened_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"]),
        sa.PrimaryKeyConstraint("game_id"),
    )


def downgrade() -> None:
    op.drop_table("talk_open")
    op.drop_table("talk_told")
    op.drop_table("talk_at_once")
    op.drop_table("talk_reports")
    op.drop_table("talk_mutes")
    op.drop_index("ix_talk_messages_player_created", table_name="talk_messages")
    op.drop_index("ix_talk_messages_game", table_name="talk_messages")
    op.drop_table("talk_messages")
