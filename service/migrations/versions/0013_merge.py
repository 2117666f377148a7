"""merge consent per inviter (0012a) with the timeout digest's outbox.sent_in (0012edges) into one head

Revision ID: 0013
Revises: 0012a, 0012edges
"""
from typing import Sequence, Union

revision: str = "0013"
down_revision: Union[str, Sequence[str], None] = ("0012a", "0012edges")
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    pass  # a merge point only: each branch adds its own tables and columns


def downgrade() -> None:
    pass
