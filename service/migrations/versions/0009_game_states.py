"""game_states: each game's current state in one row beside games (the move path's cache)

Empty at first: a game's row is written by its next move (which rebuilds the state from the log once),
so the upgrade replays nothing.

Revision ID: 0009
Revises: 0008
"""
from typing import Sequence, Union

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision: str = "0009"
down_revision: Union[str, Sequence[str], None] = "0008"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.create_table(
        "game_states",
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("games.id"), primary_key=True, autoincrement=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("rules_version", sqlmodel.sql.sqltypes.AutoString(length=20), nullable=False),
        sa.Column("state", sa.JSON(), nullable=False),
        sa.Column("snapshot_seq", sa.Integer(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("game_states")
