"""game secret: games.secret and games.commitment replace games.seed

A game's randomness comes from a secret (service/store/deal.py), drawn from the operating system's
random source for every game a player starts, and its SHA-256 commitment is published at the start.
An existing game's secret is its seed as text: `Random(f"{secret}:{seq}")` and `start(seed=int(secret))`
are then exactly what the seed gave, so its log replays and its next moves draw as before, and its
Message-IDs (service/mail/threads.py hashes the seed's text for games dealt from a seed) stay the same.

Downgrade: a drawn secret does not fit the old BIGINT seed; such a game gets its secret modulo 2**63,
which keeps the log (the events are stored) but not the randomness of its later moves, nor a replay of
its setup from that seed.

Revision ID: 0010a
Revises: 0009
"""
import hashlib
from typing import Sequence, Union

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision: str = "0010a"
down_revision: Union[str, Sequence[str], None] = "0009"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

BATCH = 1000
SEED_LIMIT = 2**63

games = sa.table("games", sa.column("id", sa.Integer), sa.column("seed", sa.BigInteger),
                 sa.column("secret", sa.String), sa.column("commitment", sa.String))


def _rewrite(values) -> None:
    """Fill each games row's new columns from its old ones, `values(row) -> dict`, a batch at a time."""
    bind = op.get_bind()
    last = 0
    while True:
        rows = bind.execute(sa.select(games.c.id, games.c.seed, games.c.secret).where(games.c.id > last)
                            .order_by(games.c.id).limit(BATCH)).all()
        if not rows:
            return
        bind.execute(sa.update(games).where(games.c.id == sa.bindparam("b_id")),
                     [{"b_id": row.id, **values(row)} for row in rows])
        last = rows[-1].id


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("secret", sqlmodel.sql.sqltypes.AutoString(length=80), nullable=True))
        batch.add_column(sa.Column("commitment", sqlmodel.sql.sqltypes.AutoString(length=64), nullable=True))
    _rewrite(lambda row: {"secret": str(row.seed),
                          "commitment": hashlib.sha256(str(row.seed).encode("ascii")).hexdigest()})
    with op.batch_alter_table("games") as batch:
        batch.alter_column("secret", existing_type=sqlmodel.sql.sqltypes.AutoString(length=80), nullable=False)
        batch.alter_column("commitment", existing_type=sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False)
        batch.drop_column("seed")


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("seed", sa.BigInteger(), nullable=True))
    _rewrite(lambda row: {"seed": int(row.secret) % SEED_LIMIT})
    with op.batch_alter_table("games") as batch:
        batch.alter_column("seed", existing_type=sa.BigInteger(), nullable=False)
        batch.drop_column("commitment")
        batch.drop_column("secret")
