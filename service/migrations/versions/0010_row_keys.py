"""row keys: links, return paths and Message-IDs name their row by a random key beside the id

A restore resets the id counters, so rows made after it reuse the ids of the rows it rolled back; a
link, return path or Message-ID that named its row by id alone then reached the new row.

- players.row_key, invitations.row_key, outbox.row_key: 16 random hex digits, set by the code on
  every new row.  Existing rows keep NULL, "made before keys": their links, return paths and
  Message-IDs, already out there without a key, keep working (games under way go on), while a row
  made from now on accepts only those that carry its key.

Revision ID: 0010b
Revises: 0009
"""
from typing import Sequence, Union

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision: str = "0010b"
down_revision: Union[str, Sequence[str], None] = "0009"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

TABLES = ("players", "invitations", "outbox")


def upgrade() -> None:
    for table in TABLES:
        with op.batch_alter_table(table) as batch:
            batch.add_column(sa.Column("row_key", sqlmodel.sql.sqltypes.AutoString(length=16), nullable=True))


def downgrade() -> None:
    for table in reversed(TABLES):
        with op.batch_alter_table(table) as batch:
            batch.drop_column("row_key")
