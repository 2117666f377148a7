"""merge the deadlines, history and campaigns branches into one head

Revision ID: 0004
Revises: 0003_campaigns, 0003_deadlines, 0003_history
"""
from typing import Sequence, Union

revision: str = "0004"
down_revision: Union[str, Sequence[str], None] = ("0003_campaigns", "0003_deadlines", "0003_history")
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    pass  # a merge point only: the three branches touch different tables


def downgrade() -> None:
    pass
