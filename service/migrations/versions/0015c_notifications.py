"""notifications: the person's notification mode, digest hour and quiet hours (people), and a
per-game mode and last visit (notify_games)

Everybody stays on "every" (an email at every change of turn, as before), with no quiet hours.  A seat
whose turn emails are off (`players.turn_emails`, the RFC 8058 unsubscribe of one game) keeps that
flag: it is the per-game "none", so nothing needs carrying over and the unsubscribe keeps working.

Revision ID: 0015c
Revises: 0014
"""
from typing import Sequence, Union

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision: str = "0015c"
down_revision: Union[str, Sequence[str], None] = "0014"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    with op.batch_alter_table("people") as batch:
        batch.add_column(sa.Column("notify_mode", sqlmodel.sql.sqltypes.AutoString(length=20), nullable=False, server_default="every"))
        batch.add_column(sa.Column("digest_hour", sa.Integer(), nullable=False, server_default="7"))
        batch.add_column(sa.Column("quiet_start", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("quiet_end", sa.Integer(), nullable=True))
    op.create_table(
        "notify_games",
        sa.Column("email", sqlmodel.sql.sqltypes.AutoString(length=254), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False, autoincrement=False),
        sa.Column("mode", sqlmodel.sql.sqltypes.AutoString(length=20), nullable=True),
        sa.Column("visited_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"]),
        sa.PrimaryKeyConstraint("email", "game_id"),
    )


def downgrade() -> None:
    op.drop_table("notify_games")
    with op.batch_alter_table("people") as batch:
        batch.drop_column("quiet_end")
        batch.drop_column("quiet_start")
        batch.drop_column("digest_hour")
        batch.drop_column("notify_mode")
