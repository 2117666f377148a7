"""merge table talk (0017a) and received mail (0017b) into one head

Revision ID: 0018
Revises: 0017a, 0017b
"""
from typing import Sequence, Union

revision: str = "0018"
down_revision: Union[str, Sequence[str], None] = ("0017a", "0017b")
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    pass  # a merge point only: each branch adds its own tables


def downgrade() -> None:
    pass
