"""merge the four parts of "a home for every player" into one head: sign-in (0015a), hidden games
(0015b), notifications (0015c) and channels (0015d)

Revision ID: 0016
Revises: 0015a, 0015b, 0015c, 0015d
"""
from typing import Sequence, Union

revision: str = "0016"
down_revision: Union[str, Sequence[str], None] = ("0015a", "0015b", "0015c", "0015d")
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    pass  # a merge point only: each branch adds its own tables and columns


def downgrade() -> None:
    pass
