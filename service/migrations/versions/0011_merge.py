"""merge the second trust pass's branches (game secrets, row keys, chosen time zones) into one head

Revision ID: 0011
Revises: 0010a, 0010b, 0010e
"""
from typing import Sequence, Union

revision: str = "0011"
down_revision: Union[str, Sequence[str], None] = ("0010a", "0010b", "0010e")
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    pass  # a merge point only: each branch adds its own columns


def downgrade() -> None:
    pass
