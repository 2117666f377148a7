"""hidden_games: the finished games a person hid from their "my games" page

One row per (person's address key, game); nothing existing changes.

Revision ID: 0015b
Revises: 0014
"""
from typing import Sequence, Union

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision: str = "0015b"
down_revision: Union[str, Sequence[str], None] = "0014"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.create_table(
        "hidden_games",
        sa.Column("email", sqlmodel.sql.sqltypes.AutoString(length=254), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False, autoincrement=False),
        sa.Column("hidden_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"]),
        sa.PrimaryKeyConstraint("email", "game_id"),
    )


def downgrade() -> None:
    op.drop_table("hidden_games")
