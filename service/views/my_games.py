"""A signed-in person's games, grouped as their start page shows them (and `GET /api/me/games`):

- your turn now (soonest deadline first; untimed games after, the longest waiting first),
- waiting for others (who is to play; the soonest deadline, then the longest waiting first),
- invitations to answer (the person's seat waits for their "accept": newest first),
- finished (the result to the person, the day it ended; newest first), without the ones they hid.

Plain data, no templates: the page and its JSON twin both render `my_games`.  It reads everything in
a fixed number of queries whatever the number of games (a start page of 50 games must answer fast).

What a row says is public to any player of the game already (who is to act, deadlines, the result):
nothing of hands, nothing of whether another seat accepted its invitation (that is the creator's to
read), never another person's address.  Names are shown as service/names.py makes them.
A seat the person never had a say in is left out: one whose creator has not confirmed the game (a
stranger may type any address into the form: nothing of such a game reaches the address), and one
whose invitation the person declined.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlmodel import Session, col

import engine
from service.games import adapter
from service.names import player_name
from service.store.inboxes import key as inbox_key
from service.store.models import (
    Deadline,
    Game,
    GameClock,
    HiddenGame,
    Invitation,
    Person,
    Player,
    as_utc,
)
from service.views.times import day_words, soon_time, span_words

# players.consent (service/play/consent.py): "" played or accepted; these two keep a seat out of the
# person's list (see the module's words), ASKED puts it among the invitations.
ASKED, DECLINED, UNCONFIRMED = "asked", "declined", "creator"
YOUR_TURN, WAITING, INVITATIONS, FINISHED = "your_turn", "waiting", "invitations", "finished"
GROUPS = (YOUR_TURN, WAITING, INVITATIONS, FINISHED)
GROUP_TITLES = {YOUR_TURN: "Your turn", WAITING: "Waiting for others", INVITATIONS: "Invitations to answer",
                FINISHED: "Finished"}


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

    def public(self) -> dict[str, Any]:
        """The row as JSON data (times in UTC ISO form)."""
        return {"game": self.game, "id": self.game_id, "title": self.title, "players": self.players,
                "mode": self.mode, "group": self.group, "status": self.status,
                "due_at": self.due_at.isoformat() if self.due_at else None, "since": self.since.isoformat(),
                "hidden": self.hidden}


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

    @property
    def awaiting(self) -> int:
        """The games that wait on the person: their turn, and invitations to answer."""
        return len(self.groups[YOUR_TURN]) + len(self.groups[INVITATIONS])


# Built once: making a statement costs more than SQLAlchemy's cached compile of it, and the start page
# is every signed-in visit.  Core rows, not ORM objects: the page reads a few columns of 50 games.
_ME: sa.BindParameter[str] = sa.bindparam("me")
_IDS: sa.BindParameter[list[int]] = sa.bindparam("ids", expanding=True)
_SEATS = (
    sa.select(col(Player.seat), col(Player.consent), col(Game.id).label("game_id"), col(Game.name), col(Game.options),
              col(Game.status), col(Game.to_act), col(Game.result), col(Game.updated_at), col(GameClock.paused_at),
              col(HiddenGame.game_id).label("hidden_id"))
    .join(Game, col(Game.id) == col(Player.game_id))
    .outerjoin(GameClock, col(GameClock.game_id) == col(Game.id))
    # hidden_games' key is (email, game_id): at most one row joins a seat.
    .outerjoin(HiddenGame, sa.and_(col(HiddenGame.game_id) == col(Game.id), col(HiddenGame.email) == _ME))
    .where(col(Player.address_key) == _ME, col(Player.consent).not_in((DECLINED, UNCONFIRMED)),
           # an open game waiting for players (or one that expired so) is the lobby's (service/play/lobby.py)
           col(Game.status).in_(("active", "finished")))
)
# Every seat of those games with its deadline (unique per game and seat): `deadline_seat` tells a stopped
# clock (a deadline row without a due time) from no clock.
_EVERYONE: Any = (  # (mypy infers Never for a labelled column of an outer-joined table)
    sa.select(col(Player.id), col(Player.row_key), col(Player.game_id), col(Player.seat), col(Player.name),
              col(Player.address_key), col(Player.consent), col(Deadline.seat).label("deadline_seat"), col(Deadline.due_at))
    .outerjoin(Deadline, sa.and_(col(Deadline.game_id) == col(Player.game_id), col(Deadline.seat) == col(Player.seat)))
    .where(col(Player.game_id).in_(_IDS))
    .order_by(col(Player.game_id), col(Player.seat))
)
_TIME_ZONE = sa.select(col(Person.time_zone)).where(col(Person.email) == _ME)


def my_games(session: Session, email: str, now: datetime, show_hidden: bool = False) -> MyGames:
    """The person's games (`email`: any spelling of their address), grouped; `show_hidden`: the
    finished games they hid, and only those, in the finished group.  Three queries."""
    me = inbox_key(email)
    conn = session.connection()
    seats = conn.execute(_SEATS, {"me": me}).all()
    everyone: dict[int, list[Any]] = {}
    due: dict[tuple[int, int], datetime | None] = {}
    if seats:
        for row in conn.execute(_EVERYONE, {"ids": list({seat.game_id for seat in seats})}):
            everyone.setdefault(row.game_id, []).append(row)
            if row.deadline_seat is not None:
                due[(row.game_id, row.seat)] = as_utc(row.due_at) if row.due_at else None
    hidden = {seat.game_id for seat in seats if seat.hidden_id is not None}
    zone = conn.execute(_TIME_ZONE, {"me": me}).scalar() or "UTC"

    groups: dict[str, list[Row]] = {group: [] for group in GROUPS}
    for seat in seats:
        players = everyone.get(seat.game_id, [])
        shown = _row(seat, players, due, zone, now, seat.game_id in hidden)
        if shown.group == FINISHED and shown.hidden != show_hidden:
            continue
        if show_hidden and shown.group != FINISHED:
            continue
        groups[shown.group].append(shown)
    far = datetime.max.replace(tzinfo=now.tzinfo)
    groups[YOUR_TURN].sort(key=lambda r: (r.due_at or far, r.since))
    groups[WAITING].sort(key=lambda r: (r.due_at or far, r.since))
    groups[INVITATIONS].sort(key=lambda r: -r.game_id)
    groups[FINISHED].sort(key=lambda r: (r.since, r.game_id), reverse=True)
    return MyGames(groups, len(hidden & {s.game_id for s in seats if s.status == "finished"}),
                   co_players(list(seats), everyone, me))


# The same few names come back in every row of a page (and every page of a person): cleaning each
# again was a fifth of the rows' cost.
_name = functools.lru_cache(maxsize=4096)(player_name)


def _row(seat: Any, players: list[Any], due: dict[tuple[int, int], datetime | None], zone: str, now: datetime, hidden: bool) -> Row:
    found = adapter(seat.name)
    names = {p.seat: _name(p.name, p.seat) for p in players}
    ordered = list(names.values())  # `players` come in seat order (_EVERYONE)
    modes = found.modes()
    mode = found.mode_of(seat.options).title if len(modes) > 1 else f"{len(players)} player{'s' * (len(players) != 1)}"
    since = as_utc(seat.updated_at)
    due_at: datetime | None = None
    if seat.consent == ASKED:
        group = INVITATIONS
        status = ("Confirm that you started this game" if seat.seat == 0
                  else f"{names.get(0, 'Someone')} invited you")
    elif seat.status != "active":
        group = FINISHED
        status = _result(found.result_words(seat.result, names, seat.seat), seat.result, seat.seat)
        status = f"{status} · {day_words(since, zone)}" if status else f"Ended {day_words(since, zone)}"
    elif seat.seat in (seat.to_act or []):
        group = YOUR_TURN
        due_at = due.get((seat.game_id, seat.seat))
        if due_at is not None:
            status = f"Your turn: due {soon_time(due_at, zone, now)}"
        elif (seat.game_id, seat.seat) in due:
            status = "Your turn (your clock is stopped)"
        else:
            status = "Your turn"
    else:
        group = WAITING
        others = [names.get(s, f"Player {s + 1}") for s in seat.to_act or []]
        dues = [at for s in seat.to_act or [] if (at := due.get((seat.game_id, s))) is not None]
        due_at = min(dues) if dues else None
        if seat.paused_at is not None:
            status = "Paused: the clocks start again when someone plays"
        elif not others:
            status = "The game is ending"
        elif due_at is not None:
            status = f"{_and(others)} to play, {span_words(max(0.0, (due_at - now).total_seconds()))} left"
        else:
            status = f"{_and(others)} to play, for {span_words((now - since).total_seconds())}"
    return Row(game_id=seat.game_id, game=seat.name, title=f"{title_of(seat.name)} #{seat.game_id}",
               players=found.players_words(ordered, found.teams_of(seat.options, len(players))), mode=mode,
               group=group, status=status,
               invited=group == INVITATIONS, due_at=due_at, since=since, hidden=hidden)


def title_of(name: str) -> str:
    """The game's title by its engine name (positions.title's words, from the name alone)."""
    rules = engine.get(name)
    return rules.title or rules.name


def _and(names: list[str]) -> str:
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
    return f"{words.rstrip('.')} {'–'.join(str(value) for value in shown)}"


def co_players(seats: list[Any], everyone: dict[int, list[Any]], me: str) -> list[CoPlayer]:
    """The people the person played with: the other seats, in games where both played (neither an
    unanswered invitation nor a declined one), each once, named as in the latest such game."""
    named: dict[str, tuple[int, str, Any]] = {}
    for seat in seats:
        if seat.consent != "":
            continue
        for other in everyone.get(seat.game_id, []):
            if other.address_key == me or other.consent != "":
                continue
            latest = named.get(other.address_key)
            if latest is None or latest[0] < seat.game_id:
                named[other.address_key] = (seat.game_id, player_name(other.name, other.seat), other)
    return sorted((CoPlayer(name, address, other.id, other.row_key) for address, (_, name, other) in named.items()),
                  key=lambda c: c.name.lower())


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
