"""time_zone: people.time_zone_set_at, when the person chose their time zone (NULL: never)

A person who never chose a zone has times in UTC until a page learns their browser's zone.  The zones
already stored other than UTC were chosen by someone: they count as chosen now.  A stored "UTC" is the
default for almost everyone who has it, so it counts as not chosen; the few who picked UTC on purpose
get their browser's zone on their next visit, told so on the page with a way to change it back.

Revision ID: 0010e
Revises: 0009
"""
from typing import Sequence, Union

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision: str = "0010e"
down_revision: Union[str, Sequence[str], None] = "0009"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    with op.batch_alter_table("people") as batch:
        batch.add_column(sa.Column("time_zone_set_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True))
    op.execute("UPDATE people SET time_zone_set_at = CURRENT_TIMESTAMP WHERE time_zone <> 'UTC'")


def downgrade() -> None:
    with op.batch_alter_table("people") as batch:
        batch.drop_column("time_zone_set_at")
