"""outbox_sent_in: outbox.sent_in, the row whose email carried this one (a sweep's digest)

When one sweep times out several games of one address, the timed_out emails go out as one email
naming every game (service/mail/digest.py): the row whose delivery sent it keeps `sent_in` NULL; every
other row it carried is "sent" with `sent_in` naming it, so each game's outbox says which email told it.

Revision ID: 0012edges
Revises: 0011
"""
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = "0012edges"
down_revision: Union[str, Sequence[str], None] = "0011"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    with op.batch_alter_table("outbox") as batch:
        batch.add_column(sa.Column("sent_in", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("outbox") as batch:
        batch.drop_column("sent_in")
