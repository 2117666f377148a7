"""rematch closures: a rematch a player declined ("No thanks")

A new table only; nothing existing changes.  (A lobby game's bot seats and a cancelled open game need
no column: bot seats are players rows, "cancelled" a status.)

Revision ID: 0020c
Revises: 0019
"""
from typing import Sequence, Union

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision: str = "0020c"
down_revision: Union[str, Sequence[str], None] = "0019"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

S = sqlmodel.sql.sqltypes.AutoString
T = sqlmodel.sql.sqltypes.UTCDateTime


def upgrade() -> None:
    op.create_table(
        "rematch_closures",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("asked_by", sa.Integer(), nullable=False),
        sa.Column("declined_by", sa.Integer(), nullable=False),
        sa.Column("seating", S(length=10), nullable=False),
        sa.Column("closed_at", T(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"]),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_rematch_closures_game", "rematch_closures", ["game_id"])


def downgrade() -> None:
    op.drop_index("ix_rematch_closures_game", table_name="rematch_closures")
    op.drop_table("rematch_closures")
