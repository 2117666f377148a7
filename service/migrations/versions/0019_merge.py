"""merge the seat handovers (0017c), the lobby (0017d: open games, joinings, rematches, ratings) and
the reader's language (0017e) into one head

Revision ID: 0019
Revises: 0017c, 0017d, 0017e
"""
from typing import Sequence, Union

revision: str = "0019"
down_revision: Union[str, Sequence[str], None] = ("0017c", "0017d", "0017e")
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    pass  # a merge point only: each branch adds its own tables


def downgrade() -> None:
    pass
