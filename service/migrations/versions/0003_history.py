"""history: games.history_public, the switch for a game's public (spectator) history

Revision ID: 0003_history
Revises: 0002
"""
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = "0003_history"
down_revision: Union[str, Sequence[str], None] = "0002"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    # A server default so the rows of games created before this migration get the default too:
    # history is public unless the game's creator turns it off.
    with op.batch_alter_table("games") as batch:
        batch.add_column(
            sa.Column("history_public", sa.Boolean(), nullable=False, server_default=sa.true())
        )


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("history_public")
