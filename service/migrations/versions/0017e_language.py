"""i18n: a person's language (person_languages)

A new table only; nothing existing changes.

Revision ID: 0017e
Revises: 0018
"""
from typing import Sequence, Union

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision: str = "0017e"
down_revision: Union[str, Sequence[str], None] = "0018"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.create_table(
        "person_languages",
        sa.Column("person", sqlmodel.sql.sqltypes.AutoString(length=254), nullable=False),
        sa.Column("language", sqlmodel.sql.sqltypes.AutoString(length=16), nullable=False),
        sa.Column("changed_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.PrimaryKeyConstraint("person"),
    )


def downgrade() -> None:
    op.drop_table("person_languages")
