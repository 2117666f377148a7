"""lobby: open games and their joinings, rematches, ratings and rated games

New tables only; nothing existing changes.

Revision ID: 0017d
Revises: 0016
"""
from typing import Sequence, Union

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision: str = "0017d"
down_revision: Union[str, Sequence[str], None] = "0016"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

S = sqlmodel.sql.sqltypes.AutoString
T = sqlmodel.sql.sqltypes.UTCDateTime


def upgrade() -> None:
    op.create_table(
        "open_games",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("key", S(length=16), nullable=False),
        sa.Column("mode", S(length=20), nullable=False),
        sa.Column("seats", sa.Integer(), nullable=False),
        sa.Column("listed", sa.Boolean(), nullable=False),
        sa.Column("deadline_hours", sa.Integer(), nullable=True),
        sa.Column("policy", S(length=20), nullable=False),
        sa.Column("reminders", sa.JSON(), nullable=False),
        sa.Column("status", S(length=10), nullable=False),
        sa.Column("created_at", T(), nullable=False),
        sa.Column("expires_at", T(), nullable=False),
        sa.Column("ended_at", T(), nullable=True),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"]),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("game_id"),
    )
    op.create_index("ix_open_games_status", "open_games", ["status", "expires_at"])
    op.create_table(
        "joinings",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("open_game_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("address", S(length=254), nullable=False),
        sa.Column("nonce", S(length=32), nullable=False),
        sa.Column("created_at", T(), nullable=False),
        sa.Column("confirmed_at", T(), nullable=True),
        sa.Column("lapsed_at", T(), nullable=True),
        sa.ForeignKeyConstraint(["open_game_id"], ["open_games.id"]),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"]),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_joinings_open_game", "joinings", ["open_game_id"])
    op.create_table(
        "rematches",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("asked_by", sa.Integer(), nullable=False),
        sa.Column("seating", S(length=10), nullable=False),
        sa.Column("order", sa.JSON(), nullable=False),
        sa.Column("accepted", sa.JSON(), nullable=False),
        sa.Column("created_at", T(), nullable=False),
        sa.Column("started_at", T(), nullable=True),
        sa.Column("new_game_id", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"]),
        sa.ForeignKeyConstraint(["new_game_id"], ["games.id"]),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("game_id", name="uq_rematches_game"),
    )
    op.create_table(
        "ratings",
        sa.Column("person", S(length=254), nullable=False),
        sa.Column("game", S(length=40), nullable=False),
        sa.Column("mode", S(length=20), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("ordinal", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("updated_at", T(), nullable=False),
        sa.PrimaryKeyConstraint("person", "game", "mode"),
    )
    op.create_index("ix_ratings_board", "ratings", ["game", "mode", "ordinal"])
    op.create_table(
        "rated_games",
        sa.Column("game_id", sa.Integer(), nullable=False, autoincrement=False),
        sa.Column("reason", S(length=20), nullable=False),
        sa.Column("changes", sa.JSON(), nullable=False),
        sa.Column("rated_at", T(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"]),
        sa.PrimaryKeyConstraint("game_id"),
    )


def downgrade() -> None:
    op.drop_table("rated_games")
    op.drop_index("ix_ratings_board", table_name="ratings")
    op.drop_table("ratings")
    op.drop_table("rematches")
    op.drop_index("ix_joinings_open_game", table_name="joinings")
    op.drop_table("joinings")
    op.drop_index("ix_open_games_status", table_name="open_games")
    op.drop_table("open_games")
