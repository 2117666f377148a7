"""invitation consent: an address that never played gets one short invitation and nothing more until
it accepts

- players.consent: "" (may be emailed), "asked" (held until the address accepts), "declined".
- people.consented_at: when the address accepted (or, for every address that already has a seat in
  some game, this migration: existing players are not asked again).
- invitations: one row per invitation email, with its answer; the per-address daily limit counts them.
- outbox.status gains "held" (no schema change: a string).

Revision ID: 0007_consent
Revises: 0006
"""
from typing import Sequence, Union

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision: str = "0007_consent"
down_revision: Union[str, Sequence[str], None] = "0006"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("consent", sqlmodel.sql.sqltypes.AutoString(length=20), nullable=False,
                                   server_default=""))
    with op.batch_alter_table("people") as batch:
        batch.add_column(sa.Column("consented_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True))
    op.create_table(
        "invitations",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("address", sqlmodel.sql.sqltypes.AutoString(length=254), nullable=False),
        sa.Column("inviter", sqlmodel.sql.sqltypes.AutoString(length=254), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("status", sqlmodel.sql.sqltypes.AutoString(length=20), nullable=False),
        sa.Column("created_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.Column("answered_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"]),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"]),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_invitations_address_created", "invitations", ["address", "created_at"])
    op.create_index("ix_invitations_address_inviter", "invitations", ["address", "inviter"])
    # Everyone who already has a seat has played with us: consented, so nobody is asked again.  A
    # person row is made for the addresses that have none yet (as service/people/vacations.py would).
    op.execute(
        "INSERT INTO people (email, time_zone, allowance_year, allowance_used_seconds) "
        "SELECT DISTINCT email, 'UTC', 0, 0 FROM players "
        "WHERE email NOT IN (SELECT email FROM people)"
    )
    op.execute("UPDATE people SET consented_at = CURRENT_TIMESTAMP "
               "WHERE email IN (SELECT email FROM players)")


def downgrade() -> None:
    # The older code knows no consent: emails held for an address that never agreed are dropped, not
    # sent (sending them is what consent prevents).
    op.execute("UPDATE outbox SET status = 'skipped' WHERE status = 'held'")
    op.drop_index("ix_invitations_address_inviter", table_name="invitations")
    op.drop_index("ix_invitations_address_created", table_name="invitations")
    op.drop_table("invitations")
    with op.batch_alter_table("people") as batch:
        batch.drop_column("consented_at")
    with op.batch_alter_table("players") as batch:
        batch.drop_column("consent")
