"""people_sessions: people.session_generation, what every signed-in browser's cookie is bound to

A browser signed in as a person (service/web/auth.py) holds the generation its sign-in was made in;
"sign out everywhere" increments it, and every cookie of the earlier generation stops counting.
Existing people start at 0: nobody was signed in before.

Revision ID: 0014
Revises: 0013
"""
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = "0014"
down_revision: Union[str, Sequence[str], None] = "0013"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    with op.batch_alter_table("people") as batch:
        batch.add_column(sa.Column("session_generation", sa.Integer(), nullable=False, server_default="0"))


def downgrade() -> None:
    with op.batch_alter_table("people") as batch:
        batch.drop_column("session_generation")
