"""drop the snapshots of Beyond the Rift games set up under rules version 1

Rules version 2 added party settings, WHEN lines and allies' modifiers to the state and applies the
round's tie-break rotation.  The engine fills the new fields in when it replays a version-1 game from
its events, but a stored snapshot of such a game still has the old shape.  Snapshots are a cache
(service/store.py): without them the state is replayed from event 1, and new ones are taken as the
game goes on.

Revision ID: 0005
Revises: 0004
"""
from typing import Sequence, Union

from alembic import op

revision: str = "0005"
down_revision: Union[str, Sequence[str], None] = "0004"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.execute("DELETE FROM snapshots WHERE game_id IN "
               "(SELECT id FROM games WHERE name = 'beyond-the-rift' AND rules_version = '1')")


def downgrade() -> None:
    pass  # nothing to restore: the snapshots come back as the games go on
