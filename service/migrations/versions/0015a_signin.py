"""signin: sign-in requests (the emailed link and code) and personal API tokens

`signin_requests`: one row per "email me a sign-in link"; its link names it by id and nonce, and its code
is derived from the nonce with SECRET_KEY, so the table holds nothing that signs anyone in by itself.
`personal_tokens`: a person's API tokens, kept as their SHA-256 only.  Both tables start empty: nobody
was signed in before, and no token existed.

Revision ID: 0015a
Revises: 0014
"""
from typing import Sequence, Union

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision: str = "0015a"
down_revision: Union[str, Sequence[str], None] = "0014"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.create_table(
        "signin_requests",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("address", sqlmodel.sql.sqltypes.AutoString(length=254), nullable=False),
        sa.Column("nonce", sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False),
        sa.Column("created_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.Column("used_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True),
        sa.Column("wrong_codes", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_signin_requests_address_created", "signin_requests", ["address", "created_at"])
    op.create_table(
        "personal_tokens",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("person", sqlmodel.sql.sqltypes.AutoString(length=254), nullable=False),
        sa.Column("name", sqlmodel.sql.sqltypes.AutoString(length=60), nullable=False),
        sa.Column("token_hash", sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
        sa.Column("created_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.Column("last_used_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True),
        sa.Column("revoked_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("token_hash"),
    )
    op.create_index("ix_personal_tokens_person", "personal_tokens", ["person"])


def downgrade() -> None:
    op.drop_index("ix_personal_tokens_person", table_name="personal_tokens")
    op.drop_table("personal_tokens")
    op.drop_index("ix_signin_requests_address_created", table_name="signin_requests")
    op.drop_table("signin_requests")
