"""What the delivery of an email reads of its rows, in one statement.

A delivery reads its outbox row, the game and every seat, and then asks, one by one, for the game's
clock and the reader's settings, language and notification state of the game: eight ORM reads of ~0.3
ms of SQLAlchemy's Python each, for rows SQLite finds in microseconds.  Here they are one statement on
the DB-API cursor (service/store/prepared.py), joined from the outbox row, the rows made ORM objects of
the session (service/store/attach.py), so the rest of the delivery reads them as before: `session.get`
finds them, and a `keep_rows` session (db.read_session) knows which of them there is none of.  The
seats are the statement's rows (in seat order), the rest repeated on each.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from sqlmodel import Session, SQLModel

from service.store.attach import attached, columns, table
from service.store.db import known
from service.store.models import Game, GameClock, NotifyGame, Outbox, Person, PersonLanguage, Player
from service.store.prepared import Prepared
from service.store.rows import MAX_ID

OUTBOX, GAMES, PLAYERS = table(Outbox), table(Game), table(Player)
CLOCKS, PEOPLE, LANGUAGES, NOTIFY = table(GameClock), table(Person), table(PersonLanguage), table(NotifyGame)
_READER = PLAYERS.alias("reader")  # the row's seat: whose settings are read (the seats are `players`)
# The models read, in the statement's order: one row of each, then the seat of each of its rows.
_MODELS: tuple[type[SQLModel], ...] = (Outbox, Game, GameClock, Person, PersonLanguage, NotifyGame, Player)
_WIDTHS = [len(columns(model)) for model in _MODELS]
_READ = Prepared(
    sa.select(*[column for model in _MODELS for column in columns(model)])
    .select_from(
        OUTBOX.join(GAMES, GAMES.c.id == OUTBOX.c.game_id)
        .join(_READER, _READER.c.id == OUTBOX.c.player_id)
        .outerjoin(CLOCKS, CLOCKS.c.game_id == GAMES.c.id)
        .outerjoin(PEOPLE, PEOPLE.c.email == _READER.c.address_key)
        .outerjoin(LANGUAGES, LANGUAGES.c.person == _READER.c.address_key)
        .outerjoin(NOTIFY, sa.and_(NOTIFY.c.email == _READER.c.address_key, NOTIFY.c.game_id == GAMES.c.id))
        .join(PLAYERS, PLAYERS.c.game_id == GAMES.c.id)
    )
    .where(OUTBOX.c.id == sa.bindparam("row_id"))
    .order_by(PLAYERS.c.seat)
)


def email_rows(session: Session, row_id: int) -> tuple[Outbox, Game, list[Player]] | None:
    """The outbox row `row_id` (None: there is none), its game and the game's seats in seat order, read
    with the game's clock and the settings, language and game notification state of the row's seat's
    address, all in `session` as if it had loaded them (its `get` of any of them runs no statement)."""
    if not 0 < row_id < MAX_ID:
        return None
    rows = _READ.rows(session.connection(), {"row_id": row_id})
    if not rows:
        return None
    row, game, clock, person, language, notify, _ = _split(rows[0])
    outbox_row, game_row = attached(session, Outbox, row), attached(session, Game, game)
    players = [attached(session, Player, _split(seat)[-1]) for seat in rows]
    reader = next(player for player in players if player.id == outbox_row.player_id)
    # Those that may be absent: None when the outer join found none (every column NULL, its key's too).
    for model, values, ident in ((GameClock, clock, game_row.id), (Person, person, reader.address_key),
                                 (PersonLanguage, language, reader.address_key),
                                 (NotifyGame, notify, (reader.address_key, game_row.id))):
        found = any(value is not None for value in values)
        known(session, model, ident, attached(session, model, values) if found else None)
    return outbox_row, game_row, players


def _split(values: Sequence[Any]) -> list[Sequence[Any]]:
    """A row of the statement cut into each model's values."""
    parts, start = [], 0
    for width in _WIDTHS:
        parts.append(values[start:start + width])
        start += width
    return parts
