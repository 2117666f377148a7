"""campaigns: Beyond the Rift's campaign games linked, with rewards and the carry-over (issue 8)

Revision ID: 0003_campaigns
Revises: 0002
"""
from typing import Sequence, Union

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision: str = "0003_campaigns"
down_revision: Union[str, Sequence[str], None] = "0002"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.create_table(
        "campaigns",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sqlmodel.sql.sqltypes.AutoString(length=40), nullable=False),
        sa.Column("created_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_table(
        "campaign_games",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("campaign_id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("scenario", sqlmodel.sql.sqltypes.AutoString(length=40), nullable=False),
        sa.Column("carry", sa.JSON(), nullable=True),
        sa.Column("rewards", sa.JSON(), nullable=True),
        sa.Column("follow_up_started_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True),
        sa.Column("follow_up_game_id", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(["campaign_id"], ["campaigns.id"]),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"]),
        sa.ForeignKeyConstraint(["follow_up_game_id"], ["games.id"]),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("game_id", name="uq_campaign_games_game"),
    )
    op.create_index("ix_campaign_games_campaign", "campaign_games", ["campaign_id"], unique=False)


def downgrade() -> None:
    op.drop_index("ix_campaign_games_campaign", table_name="campaign_games")
    op.drop_table("campaign_games")
    op.drop_table("campaigns")
