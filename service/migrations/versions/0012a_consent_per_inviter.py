"""consent per inviter, and one spelling of an address (issue #21, items 1, 2 and 5)

- players.address_key: the address as one inbox (service/store/inboxes.py), filled from `email`.
- people: keyed by the address's key; rows of case variants (VIC@ and vic@) are merged into one:
  never-email wins (the earliest), the earliest consent is kept, the latest chosen time zone, the
  vacation under way, the latest link pacing and bounce mark.
- invitations.address and .inviter: keys.
- consents (address, inviter): who accepts mail from whose games.  Every seat that may be emailed today
  (players.consent "") keeps being emailed: its address consents to the inviter (seat 0) of each game
  it is seated in, so no running game stops emailing anyone.
- namings: the games naming an address that has not accepted its inviter (the per-address caps).

Revision ID: 0012a
Revises: 0011
"""
import unicodedata
from typing import Sequence, Union

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision: str = "0012a"
down_revision: Union[str, Sequence[str], None] = "0011"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def key(email: str) -> str:
    """service/store/inboxes.py's key as of this migration (a copy: a later change there must not change
    what this migration did)."""
    local, at, domain = email.strip().rpartition("@")
    if not at:
        return email.strip().casefold()
    domain = unicodedata.normalize("NFC", domain.strip().rstrip(".")).lower()
    if "xn--" in domain:
        try:
            domain = domain.encode("ascii").decode("idna").lower()
        except UnicodeError:
            pass
    return f"{local.casefold()}@{domain}"


def _earliest(values: list) -> object:
    found = [v for v in values if v is not None]
    return min(found) if found else None


def _latest(values: list) -> object:
    found = [v for v in values if v is not None]
    return max(found) if found else None


def _merged(rows: list[dict]) -> dict:
    """One person of the rows of an inbox's spellings."""
    chosen = max(rows, key=lambda r: (r["time_zone_set_at"] is not None, str(r["time_zone_set_at"] or "")))
    away = [r for r in rows if r["vacation_since"] is not None]
    bounced = max(rows, key=lambda r: str(r["bounced_at"] or ""))
    year = max(r["allowance_year"] for r in rows)
    return {
        "time_zone": chosen["time_zone"], "time_zone_set_at": chosen["time_zone_set_at"],
        "vacation_since": away[0]["vacation_since"] if away else None,
        "vacation_until": away[0]["vacation_until"] if away else None,
        "allowance_year": year,
        "allowance_used_seconds": max(r["allowance_used_seconds"] for r in rows if r["allowance_year"] == year),
        "never_email_at": _earliest([r["never_email_at"] for r in rows]),
        "fresh_link_sent_at": _latest([r["fresh_link_sent_at"] for r in rows]),
        "account_link_sent_at": _latest([r["account_link_sent_at"] for r in rows]),
        "bounced_at": bounced["bounced_at"], "bounce_status": bounced["bounce_status"],
        "bounces_cleared_at": _latest([r["bounces_cleared_at"] for r in rows]),
        "consented_at": _earliest([r["consented_at"] for r in rows]),
    }


def upgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("address_key", sqlmodel.sql.sqltypes.AutoString(length=254), nullable=True))
    bind = op.get_bind()
    players = bind.execute(sa.text("SELECT id, email FROM players")).all()
    for player_id, email in players:
        bind.execute(sa.text("UPDATE players SET address_key = :k WHERE id = :id"), {"k": key(email), "id": player_id})
    with op.batch_alter_table("players") as batch:
        batch.alter_column("address_key", existing_type=sqlmodel.sql.sqltypes.AutoString(length=254), nullable=False)
    op.create_index("ix_players_address_key", "players", ["address_key"])

    # people: one row per inbox, keyed.
    people = [dict(row._mapping) for row in bind.execute(sa.text("SELECT * FROM people")).all()]
    groups: dict[str, list[dict]] = {}
    for row in people:
        groups.setdefault(key(row["email"]), []).append(row)
    for k, rows in groups.items():
        if len(rows) == 1 and rows[0]["email"] == k:
            continue
        merged = _merged(rows)
        for row in rows:
            bind.execute(sa.text("DELETE FROM people WHERE email = :e"), {"e": row["email"]})
        columns = ["email", *merged]
        bind.execute(sa.text(f"INSERT INTO people ({', '.join(columns)}) VALUES ({', '.join(':' + c for c in columns)})"),
                     {"email": k, **merged})

    for invitation_id, address, inviter in bind.execute(sa.text("SELECT id, address, inviter FROM invitations")).all():
        bind.execute(sa.text("UPDATE invitations SET address = :a, inviter = :i WHERE id = :id"),
                     {"a": key(address), "i": key(inviter), "id": invitation_id})

    op.create_table(
        "consents",
        sa.Column("address", sqlmodel.sql.sqltypes.AutoString(length=254), nullable=False),
        sa.Column("inviter", sqlmodel.sql.sqltypes.AutoString(length=254), nullable=False),
        sa.Column("created_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.PrimaryKeyConstraint("address", "inviter"),
    )
    # Whoever may be emailed in a game today keeps being emailed by its inviter's games.
    op.execute(
        "INSERT INTO consents (address, inviter, created_at) "
        "SELECT DISTINCT p.address_key, c.address_key, CURRENT_TIMESTAMP FROM players p "
        "JOIN players c ON c.game_id = p.game_id AND c.seat = 0 "
        "WHERE p.consent = '' AND p.address_key <> c.address_key")

    op.create_table(
        "namings",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("address", sqlmodel.sql.sqltypes.AutoString(length=254), nullable=False),
        sa.Column("inviter", sqlmodel.sql.sqltypes.AutoString(length=254), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("new_inviter", sa.Boolean(), nullable=False),
        sa.Column("created_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"]),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_namings_address_created", "namings", ["address", "created_at"])


def downgrade() -> None:
    # The merged people rows stay merged (their keys are valid addresses); consent goes back to per address.
    op.drop_index("ix_namings_address_created", table_name="namings")
    op.drop_table("namings")
    op.drop_table("consents")
    op.drop_index("ix_players_address_key", table_name="players")
    with op.batch_alter_table("players") as batch:
        batch.drop_column("address_key")
