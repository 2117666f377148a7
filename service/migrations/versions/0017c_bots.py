"""bots: votes to hand a seat that timed out twice over for good, and the handovers that passed

Two new tables (service/play/handover.py); nothing existing changes.

Revision ID: 0017c
Revises: 0016
"""
from typing import Sequence, Union

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision: str = "0017c"
down_revision: Union[str, Sequence[str], None] = "0016"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.create_table(
        "seat_votes",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("games.id"), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("voter", sa.Integer(), nullable=False),
        sa.Column("target", sa.String(length=10), nullable=False),
        sa.Column("address", sa.String(length=254), nullable=False),
        sa.Column("name", sa.String(length=80), nullable=False),
        sa.Column("created_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.UniqueConstraint("game_id", "seat", "voter", name="uq_seat_votes_voter"),
    )
    op.create_table(
        "seat_handovers",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("games.id"), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("target", sa.String(length=10), nullable=False),
        sa.Column("address", sa.String(length=254), nullable=False),
        sa.Column("name", sa.String(length=80), nullable=False),
        sa.Column("inviter", sa.String(length=254), nullable=False),
        sa.Column("invitation_id", sa.Integer(), sa.ForeignKey("invitations.id"), nullable=True),
        sa.Column("status", sa.String(length=10), nullable=False),
        sa.Column("after_seq", sa.Integer(), nullable=True),
        sa.Column("former_key", sa.String(length=16), nullable=True),
        sa.Column("created_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.Column("done_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True),
    )
    op.create_index("ix_seat_handovers_game_seat", "seat_handovers", ["game_id", "seat"])


def downgrade() -> None:
    op.drop_index("ix_seat_handovers_game_seat", table_name="seat_handovers")
    op.drop_table("seat_handovers")
    op.drop_table("seat_votes")
