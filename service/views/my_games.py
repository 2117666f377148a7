"""A signed-in person's games, grouped as their start page shows them (and `GET /api/me/games`):

- your turn now (soonest deadline first; untimed games after, the longest waiting first),
- waiting for others (who is to play; the soonest deadline, then the longest waiting first),
- invitations to answer (the person's seat waits for their "accept": newest first),
- waiting for players: the open games of the lobby (service/play/lobby.py) the person opened or joined
  (confirmed), not started yet: the seats left, the link to share (newest first),
- finished (the result to the person, the day it ended; newest first), without the ones they hid.

Plain data, no templates: the page and its JSON twin both render `my_games`.  It reads everything in
one statement whatever the number of games (a start page of 50 games must answer fast: issue #23,
bench/home.py).

What a row says is public to any player of the game already (who is to act, deadlines, the result):
nothing of hands, nothing of whether another seat accepted its invitation (that is the creator's to
read), never another person's address.  Names are shown as service/names.py makes them.
A seat the person never had a say in is left out: one whose creator has not confirmed the game (a
stranger may type any address into the form: nothing of such a game reaches the address), and one
whose invitation the person declined.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from babel.lists import format_list
from sqlalchemy.orm import aliased
from sqlmodel import Session, col

import engine
from service.games import adapter
from service.lang import ENGLISH, in_language, known, translations
from service.names import player_name
from service.store.inboxes import key as inbox_key
from service.store.models import (
    BOT_CONSENT,
    Deadline,
    Game,
    GameClock,
    HiddenGame,
    Invitation,
    OpenGame,
    Person,
    PersonLanguage,
    Player,
    as_utc,
)
from service.views.times import day_words, soon_time, span_words
from service.views.wording import word

# players.consent (service/play/consent.py): "" played or accepted; these two keep a seat out of the
# person's list (see the module's words), ASKED puts it among the invitations.
ASKED, DECLINED, UNCONFIRMED = "asked", "declined", "creator"
_BOT = BOT_CONSENT  # players.consent of a bot's seat (service/play/bots.py: "bot:LEVEL")
YOUR_TURN, WAITING, INVITATIONS, LOBBY, FINISHED = "your_turn", "waiting", "invitations", "lobby", "finished"
GROUPS = (YOUR_TURN, WAITING, INVITATIONS, LOBBY, FINISHED)
GROUP_TITLES = {YOUR_TURN: "Your turn", WAITING: "Waiting for others", INVITATIONS: "Invitations to answer",
                LOBBY: "Waiting for players", FINISHED: "Finished"}
OPEN = "open"  # games.status of a lobby's game not started yet


def group_titles(language: str) -> dict[str, str]:
    """GROUP_TITLES in `language` (the msgids are spelled out for the catalog's extraction)."""
    words = translations(language)
    return {YOUR_TURN: words.gettext("Your turn"), WAITING: words.gettext("Waiting for others"),
            INVITATIONS: words.gettext("Invitations to answer"), LOBBY: words.gettext("Waiting for players"),
            FINISHED: words.gettext("Finished")}


@dataclass(frozen=True)
class Row:
    game_id: int
    game: str  # the engine's name
    title: str  # "Riftforce #12"
    players: str  # who plays whom: "Ann vs Bo", "Ann & Cy vs Bo & Di", "Ann vs the trainer"
    mode: str  # "Duel", "Team play", "3 players"
    group: str
    status: str  # one line: "Your turn: due Sat 14:00", "Bo to play, 2 days left", "You won 12–7"
    invited: bool  # the person's seat waits for their answer to an invitation (the group INVITATIONS)
    due_at: datetime | None  # the person's deadline (your turn) or the soonest one waited on
    since: datetime  # when the game last changed
    hidden: bool = False
    # An open game of the lobby (the group LOBBY): its open_games id and key (its page's link, to share),
    # the seats nobody has taken, and whether the person opened it (and so may cancel it).
    open_id: int | None = None
    open_key: str | None = field(default=None, repr=False)
    seats_left: int = 0
    opened_by_me: bool = False

    def public(self) -> dict[str, Any]:
        """The row as JSON data (times in UTC ISO form)."""
        found = {"game": self.game, "id": self.game_id, "title": self.title, "players": self.players,
                 "mode": self.mode, "group": self.group, "status": self.status,
                 "due_at": self.due_at.isoformat() if self.due_at else None, "since": self.since.isoformat(),
                 "hidden": self.hidden}
        if self.open_id is not None:
            found |= {"seats_left": self.seats_left, "opened_by_me": self.opened_by_me}
        return found


@dataclass(frozen=True)
class CoPlayer:
    """Someone the person played with: their name as the person's latest game with them named them,
    and (for the server only: never sent to a browser) their address key."""

    name: str
    address: str = field(repr=False)
    # Their seat in that game (service/people/address_book.py names it in a "new game with" link).
    player_id: int = 0
    row_key: str | None = field(default=None, repr=False)


@dataclass
class MyGames:
    groups: dict[str, list[Row]]
    hidden: int  # finished games hidden (not in `groups` unless asked for)
    co_players: list[CoPlayer]
    # The person's session generation (service/people/sessions.py) as the same statement read it; None
    # when there was no row to carry it (no games, or no person).
    generation: int | None = None
    # The person's language setting as the same statement read it (None: never chosen, or no row), and
    # the language the rows' words were made in (the setting, else the caller's).
    language: str | None = None
    words_language: str = ENGLISH

    @property
    def awaiting(self) -> int:
        """The games that wait on the person: their turn, and invitations to answer."""
        return len(self.groups[YOUR_TURN]) + len(self.groups[INVITATIONS])


# Built once: making a statement costs more than SQLAlchemy's cached compile of it, and the start page
# is every signed-in visit.  Core rows, not ORM objects: the page reads a few columns of 50 games.
#
# One statement, run outside a transaction (`single_reads`: on PostgreSQL a BEGIN and a ROLLBACK would
# be two round trips more, and three statements under READ COMMITTED saw three snapshots anyway): a
# row per seat of the person (`my_seat`) and player of that game (`seat`), in game, seat, player
# order, with the player's deadline (unique per game and seat: `deadline_seat` tells a stopped clock,
# a deadline row without a due time, from no clock), and the person's time zone and session generation.
#
# The JSON columns come as their text (CAST: psycopg would decode every one of the game's, a third of
# the request on PostgreSQL): the words they make are kept per text (_game_words, _acting, _ending),
# so a page decodes only what it has not seen.
_ME: sa.BindParameter[str] = sa.bindparam("me")


def _moment(column: Any) -> Any:
    """A time column as the driver's plain time (as_utc gives it its zone where it is used): the
    column type's own conversion ran for every row, the game's times for each of its players, and
    cost a quarter of the query on SQLite."""
    return sa.type_coerce(col(column), sa.DateTime(timezone=True)).label(column.key)


_MINE = aliased(Player, name="mine")
_ZONE = sa.select(col(Person.time_zone)).where(col(Person.email) == _ME).scalar_subquery()
# The person's session generation, for the signed-in check of the start page (service/web/home.py
# `generation_with_games`): read here, it costs no statement of its own.
_GENERATION = sa.select(col(Person.session_generation)).where(col(Person.email) == _ME).scalar_subquery()
# The person's language (issue #26): read here too, so the start page's words cost no statement either.
_LANGUAGE = sa.select(col(PersonLanguage.language)).where(col(PersonLanguage.person) == _ME).scalar_subquery()
_ROWS: Any = (  # (mypy infers Never for a labelled column of an outer-joined table)
    sa.select(col(_MINE.seat).label("my_seat"), col(_MINE.consent).label("my_consent"), col(Game.id).label("game_id"),
              col(Game.name).label("game"), sa.cast(col(Game.options), sa.Text).label("options"), col(Game.status),
              sa.cast(col(Game.to_act), sa.Text).label("to_act"), sa.cast(col(Game.result), sa.Text).label("result"),
              _moment(Game.updated_at), _moment(GameClock.paused_at), col(HiddenGame.game_id).label("hidden_id"),
              col(Player.id), col(Player.row_key), col(Player.seat), col(Player.name), col(Player.address_key),
              col(Player.consent), col(Deadline.seat).label("deadline_seat"), _moment(Deadline.due_at),
              _ZONE.label("zone"), _GENERATION.label("generation"), _LANGUAGE.label("language"),
              col(OpenGame.id).label("open_id"), col(OpenGame.key).label("open_key"),
              col(OpenGame.seats).label("open_seats"))
    .select_from(_MINE)
    .join(Game, col(Game.id) == col(_MINE.game_id))
    .join(Player, col(Player.game_id) == col(Game.id))
    .outerjoin(Deadline, sa.and_(col(Deadline.game_id) == col(Player.game_id), col(Deadline.seat) == col(Player.seat)))
    .outerjoin(GameClock, col(GameClock.game_id) == col(Game.id))
    # an open game of the lobby: its link and seat count (open_games.game_id is unique: one row at most)
    .outerjoin(OpenGame, sa.and_(col(OpenGame.game_id) == col(Game.id), col(Game.status) == OPEN))
    # hidden_games' key is (email, game_id): at most one row joins a seat.
    .outerjoin(HiddenGame, sa.and_(col(HiddenGame.game_id) == col(Game.id), col(HiddenGame.email) == _ME))
    .where(col(_MINE.address_key) == _ME, col(_MINE.consent).not_in((DECLINED, UNCONFIRMED)),
           # an open game waiting for players is shown with its seats left, to its confirmed seats only
           # (service/play/lobby.py: a join's seat holds consent "joining" until confirmed); one that
           # expired or was cancelled is not shown
           col(Game.status).in_(("active", "finished", OPEN)),
           sa.or_(col(Game.status) != OPEN, col(_MINE.consent) == ""))
    .order_by(col(Game.id), col(_MINE.seat), col(Player.seat))
)


@dataclass(slots=True)
class _Seat:
    """One seat of the person: its game's columns, and the names of the game's players in seat order."""

    seat: int
    consent: str
    game_id: int
    game: str
    options: str | None  # JSON text
    status: str
    to_act: str | None  # JSON text
    result: str | None  # JSON text
    updated_at: datetime
    paused_at: datetime | None
    hidden: bool
    names: list[tuple[int, str]]  # (seat, stored name) of each player: the key of the game's words
    # An open game's: (open_games id, key, seats in all); its `names` are its filled seats only.
    lobby: tuple[int, str, int] | None = None


def my_games(conn: sa.Connection, email: str, now: datetime, show_hidden: bool = False,
             language: str = ENGLISH) -> MyGames:
    """The person's games (`email`: any spelling of their address), grouped; `show_hidden`: the
    finished games they hid, and only those, in the finished group.  One query (see _ROWS).  The rows'
    words are in the person's language setting, else in `language` (the page's: their browser's)."""
    me = inbox_key(email)
    seats: list[_Seat] = []
    due: dict[tuple[int, int], datetime | None] = {}
    # The people the person played with: the other seats of games where both played (neither an
    # unanswered invitation nor a declined one), each once, as in the latest such game (its first
    # seat of theirs): address key -> (game id, seat, stored name, player id, row key).
    played_with: dict[str, tuple[int, int, str, int, str | None]] = {}
    zone = "UTC"
    generation: int | None = None
    chosen: str | None = None
    last: tuple[int, int] | None = None
    names: list[tuple[int, str]] = []
    # Rows unpacked by position: a row's attributes by name were a third of this loop.
    for (my_seat, my_consent, game_id, game, options, status, to_act, result, updated_at, paused_at, hidden_id,
         player_id, row_key, seat, name, address_key, consent, deadline_seat, due_at, zone_name, row_generation,
         row_language, open_id, open_key, open_seats) in conn.execute(
            _ROWS, {"me": me}).all():
        if (game_id, my_seat) != last:
            last, names = (game_id, my_seat), []
            zone, generation, chosen = zone_name or "UTC", row_generation, known(row_language)
            seats.append(_Seat(my_seat, my_consent, game_id, game, options, status, to_act, result, updated_at,
                               paused_at, hidden_id is not None, names,
                               (open_id, open_key, open_seats) if open_id is not None else None))
        if status == OPEN:
            if consent == "" or consent.startswith(_BOT):  # a filled seat; a held one is a stranger's yet
                names.append((seat, name))
            continue  # nobody has played with anyone in it yet
        names.append((seat, name))
        if deadline_seat is not None:
            due[(game_id, seat)] = as_utc(due_at) if due_at else None
        if my_consent == "" and consent == "" and address_key != me:
            latest = played_with.get(address_key)
            if latest is None or latest[0] < game_id:
                played_with[address_key] = (game_id, seat, name, player_id, row_key)

    words_language = chosen or language
    groups: dict[str, list[Row]] = {group: [] for group in GROUPS}
    for seat in seats:
        if show_hidden and (seat.consent == ASKED or seat.status == "active" or not seat.hidden):
            continue  # not a hidden finished game: not on the hidden games' page (no words made)
        shown = _row(seat, due, zone, now, words_language)
        if shown.group == FINISHED and shown.hidden != show_hidden:
            continue
        if show_hidden and shown.group != FINISHED:
            continue
        groups[shown.group].append(shown)
    far = datetime.max.replace(tzinfo=now.tzinfo)
    groups[YOUR_TURN].sort(key=lambda r: (r.due_at or far, r.since))
    groups[WAITING].sort(key=lambda r: (r.due_at or far, r.since))
    groups[INVITATIONS].sort(key=lambda r: -r.game_id)
    groups[LOBBY].sort(key=lambda r: -r.game_id)
    groups[FINISHED].sort(key=lambda r: (r.since, r.game_id), reverse=True)
    hidden = {seat.game_id for seat in seats if seat.hidden and seat.status == "finished"}
    co_players = [CoPlayer(_name(name, seat), address, player_id, row_key)
                  for address, (_, seat, name, player_id, row_key) in played_with.items()]
    return MyGames(groups, len(hidden), sorted(co_players, key=lambda co: co.name.lower()), generation, chosen,
                   words_language)


# The same few names come back in every row of a page (and every page of a person): cleaning each
# again was a fifth of the rows' cost.
_name = functools.lru_cache(maxsize=4096)(player_name)


@dataclass(frozen=True, eq=False)
class _Words:
    """What a game's row says that only its start options and its players' names decide."""

    names: dict[int, str]  # seat: name as shown (shared by every row of the game: never changed)
    title: str
    players: str
    mode: str


@functools.lru_cache(maxsize=4096)
def _game_words(game: str, options: str | None, seats: tuple[tuple[int, str], ...], game_id: int,
                language: str = ENGLISH) -> _Words:
    """A game's words, kept by everything they are made from (the stored texts themselves, so a
    changed name or option makes a new entry, never a stale row): an adapter's mode and players'
    words were half of a row's cost, and they do not change while the game is played."""
    found = adapter(game)
    start = _json(options) or {}
    names = {seat: _name(name, seat) for seat, name in seats}
    count = len(seats)
    mode = (in_language(found.mode_of(start).title, language) if len(found.modes()) > 1
            else translations(language).ngettext("%(num)d player", "%(num)d players", count) % {"num": count})
    return _Words(names, f"{title_of(game)} #{game_id}",
                  found.players_words(list(names.values()), found.teams_of(start, len(seats)), language), mode)


@functools.lru_cache(maxsize=1024)
def _acting(to_act: str | None) -> tuple[int, ...]:
    """The seats to act, from the column's text (a handful of texts over all games)."""
    return tuple(_json(to_act) or ())


@functools.lru_cache(maxsize=4096)
def _ending(game: str, result: str | None, seats: tuple[tuple[int, str], ...], viewer: int,
            language: str = ENGLISH) -> str:
    """The result to the viewer (without its day) in `language`, kept as _game_words are."""
    decoded = _json(result)
    names = {seat: _name(name, seat) for seat, name in seats}
    found = adapter(game)
    message = found.end_message(decoded) if decoded else None
    why = word(message, game, language, viewer, names) if message is not None else None
    return _result(found.result_words(decoded, names, viewer, language, why), decoded, viewer)


def _json(text: str | None) -> Any:
    return None if text is None else json.loads(text)


def _open_row(seat: _Seat, language: str) -> Row:
    """An open game's row: who is in so far, the seats left."""
    assert seat.lobby is not None
    open_id, open_key, count = seat.lobby
    say = translations(language)
    found = adapter(seat.game)
    start = _json(seat.options) or {}
    mode = (in_language(found.mode_of(start).title, language) if len(found.modes()) > 1
            else say.ngettext("%(num)d player", "%(num)d players", count) % {"num": count})
    left = max(0, count - len(seat.names))
    status = say.ngettext("%(num)d seat left", "%(num)d seats left", left) % {"num": left}
    return Row(game_id=seat.game_id, game=seat.game, title=f"{title_of(seat.game)} #{seat.game_id}",
               players=_and([_name(name, at) for at, name in seat.names], language), mode=mode, group=LOBBY,
               status=status, invited=False, due_at=None, since=as_utc(seat.updated_at), open_id=open_id,
               open_key=open_key, seats_left=left, opened_by_me=seat.seat == 0)


def _row(seat: _Seat, due: dict[tuple[int, int], datetime | None], zone: str, now: datetime,
         language: str = ENGLISH) -> Row:
    if seat.lobby is not None:
        return _open_row(seat, language)
    key = tuple(seat.names)  # in seat order (_ROWS)
    words = _game_words(seat.game, seat.options, key, seat.game_id, language)
    say = translations(language)
    names = words.names
    since = as_utc(seat.updated_at)
    to_act = _acting(seat.to_act)
    due_at: datetime | None = None
    if seat.consent == ASKED:
        group = INVITATIONS
        status = (say.gettext("Confirm that you started this game") if seat.seat == 0
                  else say.gettext("%(name)s invited you") % {"name": names.get(0, say.gettext("Someone"))})
    elif seat.status != "active":
        group = FINISHED
        status = _ending(seat.game, seat.result, key, seat.seat, language)
        day = day_words(since, zone, language)
        status = f"{status} · {day}" if status else say.gettext("Ended %(day)s") % {"day": day}
    elif seat.seat in to_act:
        group = YOUR_TURN
        due_at = due.get((seat.game_id, seat.seat))
        if due_at is not None:
            status = say.gettext("Your turn: due %(time)s") % {"time": soon_time(due_at, zone, now, language)}
        elif (seat.game_id, seat.seat) in due:
            status = say.gettext("Your turn (your clock is stopped)")
        else:
            status = say.gettext("Your turn")
    else:
        group = WAITING
        others = [names.get(s, say.gettext("Player %(num)d") % {"num": s + 1}) for s in to_act]
        dues = [at for s in to_act if (at := due.get((seat.game_id, s))) is not None]
        due_at = min(dues) if dues else None
        if seat.paused_at is not None:
            status = say.gettext("Paused: the clocks start again when someone plays")
        elif not others:
            status = say.gettext("The game is ending")
        elif due_at is not None:
            status = say.gettext("%(names)s to play, %(span)s left") % {
                "names": _and(others, language), "span": span_words(max(0.0, (due_at - now).total_seconds()), language)}
        else:
            status = say.gettext("%(names)s to play, for %(span)s") % {
                "names": _and(others, language), "span": span_words((now - since).total_seconds(), language)}
    return Row(game_id=seat.game_id, game=seat.game, title=words.title, players=words.players, mode=words.mode,
               group=group, status=status, invited=group == INVITATIONS, due_at=due_at, since=since, hidden=seat.hidden)


def title_of(name: str) -> str:
    """The game's title by its engine name (positions.title's words, from the name alone)."""
    rules = engine.get(name)
    return rules.title or rules.name


def _and(names: list[str], language: str = ENGLISH) -> str:
    """"Bo", "Bo and Cy", "Bo, Cy and Di" (in other languages CLDR's list: "Bo і Cy", "Bo和Cy")."""
    if language != ENGLISH:
        return format_list(names, locale=language)
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _result(words: str, result: dict[str, Any] | None, viewer: int) -> str:
    """The result to the viewer with the scores when the words have none, the winners' first, then the
    viewer's ("You won 12–7", "Bo won 12–7")."""
    scores = (result or {}).get("scores")
    if not words or not isinstance(scores, dict) or not scores or any(ch.isdigit() for ch in words):
        return words
    winners = {str(seat) for seat in (result or {}).get("winners", [])}
    order = sorted(scores, key=lambda seat: (str(seat) not in winners, str(seat) != str(viewer), str(seat)))
    shown = [scores[seat] for seat in order]
    if not all(isinstance(value, int | float) and not isinstance(value, bool) for value in shown):
        return words
    said = words.rstrip(".\u3002")
    return f"{said} {'–'.join(str(value) for value in shown)}"


def my_seat(session: Session, email: str, game_id: int) -> Player | None:
    """The person's seat in the game, if it is among their games (see the module's words)."""
    return session.execute(sa.select(Player).where(
        col(Player.game_id) == game_id, col(Player.address_key) == inbox_key(email),
        col(Player.consent).not_in((DECLINED, UNCONFIRMED))).order_by(col(Player.seat)).limit(1)).scalar_one_or_none()


def my_invitation(session: Session, email: str, game_id: int) -> Invitation | None:
    """The invitation that asks the person about the game: one asks for every game of its inviter
    (a second game of the same inviter sends none), so the latest unanswered one of the game's creator."""
    creator = sa.select(col(Player.address_key)).where(col(Player.game_id) == game_id, col(Player.seat) == 0)
    return session.execute(sa.select(Invitation).where(
        col(Invitation.address) == inbox_key(email), col(Invitation.status) == ASKED,
        col(Invitation.inviter) == creator.scalar_subquery()).order_by(col(Invitation.id).desc()).limit(1)
    ).scalar_one_or_none()
