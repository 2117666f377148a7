"""merge the trust branches (link generations, bounces, outbox retries, consent) into one head

Revision ID: 0008
Revises: 0007_links, 0007_bounces, 0007_outbox, 0007_consent
"""
from typing import Sequence, Union

revision: str = "0008"
down_revision: Union[str, Sequence[str], None] = ("0007_links", "0007_bounces", "0007_outbox", "0007_consent")
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    pass  # a merge point only: each branch adds its own columns and tables


def downgrade() -> None:
    pass
