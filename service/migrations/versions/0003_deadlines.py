"""deadlines: per-game time control, per-seat clocks, people (time zone, vacation, allowance)

Revision ID: 0003_deadlines
Revises: 0002
"""
from typing import Sequence, Union

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision: str = "0003_deadlines"
down_revision: Union[str, Sequence[str], None] = "0002"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.create_table(
        "game_clocks",
        sa.Column("game_id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("deadline_hours", sa.Integer(), nullable=True),
        sa.Column("policy", sqlmodel.sql.sqltypes.AutoString(length=20), nullable=False),
        sa.Column("reminders", sa.JSON(), nullable=False),
        sa.Column("paused_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True),
        sa.Column("timeout_streak", sa.Integer(), nullable=False),
        sa.Column("end_due_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True),
        sa.Column("ended_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"]),
        sa.PrimaryKeyConstraint("game_id"),
    )
    op.create_index("ix_game_clocks_end_due", "game_clocks", ["end_due_at"], unique=False)
    op.create_table(
        "deadlines",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("started_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.Column("due_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True),
        sa.Column("remaining_seconds", sa.Integer(), nullable=True),
        sa.Column("reminders_done", sa.Integer(), nullable=False),
        sa.Column("next_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"]),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"]),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("game_id", "seat", name="uq_deadlines_game_seat"),
    )
    op.create_index("ix_deadlines_next_at", "deadlines", ["next_at"], unique=False)
    op.create_index("ix_deadlines_player_id", "deadlines", ["player_id"], unique=False)
    op.create_table(
        "people",
        sa.Column("email", sqlmodel.sql.sqltypes.AutoString(length=254), nullable=False),
        sa.Column("time_zone", sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
        sa.Column("vacation_since", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True),
        sa.Column("vacation_until", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True),
        sa.Column("allowance_year", sa.Integer(), nullable=False),
        sa.Column("allowance_used_seconds", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("email"),
    )
    op.create_index("ix_people_vacation_until", "people", ["vacation_until"], unique=False)
    op.create_index("ix_players_email", "players", ["email"], unique=False)


def downgrade() -> None:
    op.drop_index("ix_players_email", table_name="players")
    op.drop_index("ix_people_vacation_until", table_name="people")
    op.drop_table("people")
    op.drop_index("ix_deadlines_player_id", table_name="deadlines")
    op.drop_index("ix_deadlines_next_at", table_name="deadlines")
    op.drop_table("deadlines")
    op.drop_index("ix_game_clocks_end_due", table_name="game_clocks")
    op.drop_table("game_clocks")
