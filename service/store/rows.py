"""Reading games and their players."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa
from sqlmodel import Session, col, select

from service.errors import GameNotFound, NotFound
from service.names import player_name
from service.store.db import known
from service.store.inboxes import key as inbox_key
from service.store.models import Game, GameClock, Person, Player, Rematch, TalkOpen

if TYPE_CHECKING:  # (current imports this module)
    from service.store.current import PlayerRow

MAX_ID = 2**62  # above any id, and above what the databases' integers hold


def get_game(session: Session, game_id: int, lock: bool = False) -> Game:
    """The game's row; `lock`: FOR UPDATE, so writers that start from it take turns (PostgreSQL; a
    SQLite write transaction holds the database anyway)."""
    if not 0 < game_id < MAX_ID:
        raise GameNotFound(game_id)
    game = session.get(Game, game_id, with_for_update=lock or None)
    if game is None:
        raise GameNotFound(game_id)
    return game


@dataclass(frozen=True)
class GamePage:
    """A game's row and the rows of it its player page reads (`game_page`): its clock (None: untimed,
    from before clocks), whether spectators may read its talk now, the rematch it was started by."""

    game: Game
    clock: GameClock | None
    talk_open: TalkOpen | None
    rematch: Rematch | None


_GAME_PAGE = (  # built once: a page's statement, not made again for each page
    sa.select(Game, GameClock, TalkOpen, Rematch)
    .outerjoin(GameClock, col(GameClock.game_id) == col(Game.id))
    .outerjoin(TalkOpen, col(TalkOpen.game_id) == col(Game.id))
    .outerjoin(Rematch, col(Rematch.new_game_id) == col(Game.id))
    .where(col(Game.id) == sa.bindparam("game_id"))
)


def game_page(session: Session, game_id: int) -> GamePage:
    """The game with its clock, its talk's opening and the rematch that started it, in one statement
    (outer joins; the player page's, issue #27: four reads before).  In a `keep_rows` session
    (db.read_session) what it found, or that there is none, answers the session's later `get`s of the
    clock and the talk's opening without a statement."""
    if not 0 < game_id < MAX_ID:
        raise GameNotFound(game_id)
    rows = session.execute(_GAME_PAGE, {"game_id": game_id}).all()
    if not rows:
        raise GameNotFound(game_id)
    if len(rows) > 1:  # two rematches naming this game: what `rematch_of`'s scalar_one_or_none refused
        raise sa.exc.MultipleResultsFound("several rematches started this game")
    game, clock, talk_open, rematch = rows[0]
    known(session, GameClock, game_id, clock)
    known(session, TalkOpen, game_id, talk_open)
    return GamePage(game, clock, talk_open, rematch)


def get_player(session: Session, player_id: int) -> Player:
    """The player a signed link names; NotFound when no such player is here (another database's link)."""
    player = session.get(Player, player_id) if 0 < player_id < MAX_ID else None
    if player is None:
        raise NotFound("This link belongs to no game here.", "This link cannot be used")
    return player


# Built once (issue #27): the player page and every email read a game's seats and people, and making
# the statement again cost about as much as running it.
_PLAYERS = select(Player).where(col(Player.game_id) == sa.bindparam("game_id")).order_by(col(Player.seat))
_PEOPLE = select(Person).where(col(Person.email).in_(sa.bindparam("keys", expanding=True)))


def players_of(session: Session, game_id: int) -> list[Player]:
    return list(session.exec(_PLAYERS, params={"game_id": game_id}))


def player_names(session: Session, game_id: int) -> dict[int, str]:
    """Each seat's name as shown to others (service/names.py: no link can pass)."""
    rows = session.execute(sa.select(col(Player.seat), col(Player.name)).where(col(Player.game_id) == game_id)).all()
    return {row.seat: player_name(row.name, row.seat) for row in rows}


class People(dict[str, Person]):
    """The stored people of some addresses by inbox key (`people_of`): what `get` finds is a stored row.
    An address without one gets its unsaved row of defaults from `person_of` once per mapping, kept in
    `defaults` (not among the items): a page asks for the reader's twice, and building a SQLModel row
    costs ~60 µs (issue #27)."""

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.defaults: dict[str, Person] = {}


def person_of(session: Session, email: str, people: Mapping[str, Person] | None = None) -> Person:
    """For reads (pages, emails): a person's stored settings, or an unsaved row with the defaults.  Any
    spelling of the address finds its inbox's row (service/store/inboxes.py).  `people`: the rows of the
    addresses concerned, read already (`people_of`): no statement, an address without a row included
    (its defaults made once for a `People` mapping: callers only read them)."""
    email = inbox_key(email)
    if people is not None:
        found = people.get(email)
        if found is not None:
            return found
        if isinstance(people, People):
            made = people.defaults.get(email)
            if made is None:
                made = people.defaults[email] = Person(email=email)
            return made
        return Person(email=email)
    return session.get(Person, email) or Person(email=email)


def people_of(session: Session, emails: Iterable[str]) -> People:
    """The stored people of these addresses (any spelling), by inbox key, in one statement; an address
    without a row is not in it (`person_of` gives its defaults)."""
    keys = sorted({inbox_key(email) for email in emails})
    if not keys:
        return People()
    return People((person.email, person) for person in session.exec(_PEOPLE, params={"keys": keys}))


_SEATS_AND_PEOPLE = (
    select(Player, Person).outerjoin(Person, col(Person.email) == col(Player.address_key))
    .where(col(Player.game_id) == sa.bindparam("game_id")).order_by(col(Player.seat))
)


def seats_and_people(session: Session, game_id: int) -> tuple[list[Player], People]:
    """`players_of` and `people_of` of their addresses in one statement (the player page's, issue #27):
    the seats joined to their people by the seat's `address_key`.  A seat whose key is not its address's
    (`inbox_key(email)`) has its people read as `people_of` does."""
    players: list[Player] = []
    people = People()
    for player, person in session.execute(_SEATS_AND_PEOPLE, {"game_id": game_id}):
        players.append(player)
        if person is not None:
            people[person.email] = person
    if any(player.address_key != inbox_key(player.email) for player in players):
        people = people_of(session, [player.email for player in players])
    return players, people


def person_for_update(session: Session, email: str) -> Person:
    """For writes: the person's row, created on first use and locked (FOR UPDATE) in the caller's
    write transaction.  Concurrent first uses both insert; the loser's row is simply not needed."""
    email = inbox_key(email)
    # The dialect's own module, imported here: the engine loads only its own, and importing both at
    # the top mapped PostgreSQL's (~2 MB) into every process of a SQLite deployment.
    if session.get_bind().dialect.name == "postgresql":
        from sqlalchemy.dialects.postgresql import insert
    else:  # the same on_conflict_do_nothing(), another class to mypy
        from sqlalchemy.dialects.sqlite import insert  # type: ignore[assignment]
    session.execute(insert(Person).values(
        email=email, time_zone="UTC", allowance_year=0, allowance_used_seconds=0,
    ).on_conflict_do_nothing(index_elements=["email"]))
    found = session.get(Person, email, with_for_update=True, populate_existing=True)
    assert found is not None
    return found


def seat_names(players: Iterable[Player | PlayerRow]) -> dict[int, str]:
    """Each seat's name as shown to others (service/names.py: no link can pass)."""
    return {player.seat: player_name(player.name, player.seat) for player in players}
