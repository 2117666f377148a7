"""A person's profile line, what other players read of them on an invitation (and `GET /api/me/profile`
shows the person their own): games played per game, how many finished, how many of their turns timed
out in their last RECENT games, how soon they usually move, and their ratings (service/play/ratings.py).  Never their address: the line is
about the person, named as the game at hand names them.

Counted from what the store keeps anyway:
- a game counts when the person's seat played it (players.consent "": not an unanswered or declined
  invitation);
- a timed-out turn is a run of events of kind "timeout" by their seat with no other event between
  (the sweep plays a timed-out turn's decisions one after the other: service/play/timeouts.py);
- the time to move is, for each turn of theirs (a `turns` row naming their seat, begun by another seat's
  event or the game's), from the event the turn began after to their first own move before the next
  turn began; a turn that timed out has none.
  The median of those, over their last RECENT games.
"""

from __future__ import annotations

import bisect
import statistics
from collections import Counter
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import sqlalchemy as sa
from sqlmodel import Session, col

from service.games import adapter
from service.lang import ENGLISH, Words, and_list, in_language, translations
from service.store.inboxes import key as inbox_key
from service.store.models import Event, Game, Player, TurnStart, as_utc
from service.views.leaderboard import ratings_of
from service.views.my_games import title_of
from service.views.times import span_words

RECENT = 20


@dataclass(frozen=True)
class Profile:
    per_game: list[tuple[str, int]]  # (the game's title, games played), most played first
    played: int
    finished: int
    recent: int  # the games the two figures below look at (at most RECENT)
    timeouts: int  # timed-out turns in those games
    median_move: timedelta | None  # None: no move timed yet
    # (game title and mode title, display rating, rated games), most played first (service/play/ratings.py)
    ratings: tuple[tuple[str, int, int], ...] = ()

    def public(self) -> dict[str, Any]:
        return {
            "played": self.played,
            "finished": self.finished,
            "per_game": [{"game": name, "played": count} for name, count in self.per_game],
            "recent_games": self.recent,
            "timeouts_recent": self.timeouts,
            "median_move_seconds": round(self.median_move.total_seconds()) if self.median_move else None,
            "ratings": [{"game": name, "rating": rating, "games": games} for name, rating, games in self.ratings],
        }

    def line(self, name: str, language: str = ENGLISH) -> str:
        """The profile in one line of neutral words (no pronoun is guessed): "Ann: 12 games (9 finished:
        Riftforce 8, Riftwalker 4), 1 timed-out turn in the last 20, usually moves within 3 hours"
        (in `language`: the invitation page's)."""
        said = translations(language)
        if not self.played:
            return said.gettext("%(name)s: no games played here yet") % {"name": name}
        games = listed([f"{title} {count}" for title, count in self.per_game], language)
        parts = [
            said.ngettext(
                "%(name)s: %(num)d game (%(finished)d finished; %(games)s)",
                "%(name)s: %(num)d games (%(finished)d finished; %(games)s)",
                self.played,
            )
            % {"name": name, "num": self.played, "finished": self.finished, "games": games},
            said.ngettext(
                "%(num)d timed-out turn in the last %(recent)d",
                "%(num)d timed-out turns in the last %(recent)d",
                self.timeouts,
            )
            % {"num": self.timeouts, "recent": self.recent},
        ]
        if self.median_move is not None:
            parts.append(
                said.gettext("usually moves within %(span)s")
                % {"span": span_words(self.median_move.total_seconds(), language)}
            )
        if self.ratings:
            parts.append(
                said.gettext("rated %(ratings)s")
                % {
                    "ratings": listed(
                        [
                            said.gettext("%(rating)d in %(game)s")
                            % {"rating": rating, "game": in_language(game, language)}
                            for game, rating, _ in self.ratings
                        ],
                        language,
                    )
                }
            )
        return ("，" if language.startswith("zh") else ", ").join(parts)


def listed(items: list[str], language: str) -> str:
    """The profile's lists (its games, its ratings): English as before ("Riftforce 8, Riftwalker 4"), the
    others by the language's list pattern (lang.and_list: "Riftforce 8、Riftwalker 4", never an ASCII ", "
    in Chinese)."""
    return ", ".join(items) if language == ENGLISH else and_list(items, language)


def profile(session: Session, email: str) -> Profile:
    """The profile of the address (any spelling), in four queries whatever its number of games."""
    me = inbox_key(email)
    seats = session.execute(
        sa.select(Game.id, Game.name, Game.status, Player.seat)  # type: ignore[call-overload]
        .join(Player, col(Player.game_id) == col(Game.id))
        .where(
            col(Player.address_key) == me, col(Player.consent) == "", col(Game.status).in_(("active", "finished"))
        )  # not a lobby's game waiting for players
        .order_by(col(Game.id).desc())
    ).all()
    per_game = Counter(title_of(row.name) for row in seats)
    recent = {row.id: row.seat for row in seats[:RECENT]}
    timeouts, median = 0, None
    if recent:
        timeouts = _timed_out_turns(session, me, list(recent))
        median = _median_move(session, me, recent)
    return Profile(
        per_game=sorted(per_game.items(), key=lambda item: (-item[1], item[0])),
        played=len(seats),
        finished=sum(1 for row in seats if row.status == "finished"),
        recent=len(recent),
        timeouts=timeouts,
        median_move=median,
        ratings=tuple(_ratings(session, me)),
    )


def _ratings(session: Session, me: str) -> list[tuple[str, int, int]]:
    """The person's ratings, each named by its game and (when the game has several) its mode."""
    named = []
    for game, mode, rating, games in ratings_of(session, me):
        found = adapter(game)
        title = title_of(game)
        if len(found.modes()) > 1:  # "Riftforce duel": the mode's message id, worded by `line` (issue #26)
            chosen = found.mode(mode)
            title = Words(chosen.rated or chosen.title)
        named.append((title, rating, games))
    return named


def _own_events(me: str, ids: list[int], kind: str) -> sa.Select[Any]:
    """(game_id, seq, created_at) of the events of one kind the person's seat caused in these games."""
    return (
        sa.select(Event.game_id, Event.seq, Event.created_at)  # type: ignore[call-overload]
        .join(Player, sa.and_(col(Player.game_id) == col(Event.game_id), col(Player.seat) == col(Event.actor)))
        .where(col(Event.game_id).in_(ids), col(Event.kind) == kind, col(Player.address_key) == me)
        .order_by(col(Event.game_id), col(Event.seq))
    )


def _timed_out_turns(session: Session, me: str, ids: list[int]) -> int:
    runs, last = 0, None
    for row in session.execute(_own_events(me, ids, "timeout")):
        if last != (row.game_id, row.seq - 1):
            runs += 1
        last = (row.game_id, row.seq)
    return runs


def _median_move(session: Session, me: str, seats: dict[int, int]) -> timedelta | None:
    starts: dict[int, list[tuple[int, Any, list[Any]]]] = {}
    for row in session.execute(
        sa.select(TurnStart.game_id, TurnStart.seq, TurnStart.seats, Event.created_at, Event.actor)  # type: ignore[call-overload]
        .join(Event, sa.and_(col(Event.game_id) == col(TurnStart.game_id), col(Event.seq) == col(TurnStart.seq)))
        .where(col(TurnStart.game_id).in_(list(seats)))
        .order_by(col(TurnStart.game_id), col(TurnStart.seq))
    ):
        # A turn the seat's own decision began (a game counting a new turn inside the seat's own run of
        # decisions) is no wait of theirs: it counts for the seat only when another's doing began it.
        seats_now = [seat for seat in row.seats or [] if seat != row.actor]
        starts.setdefault(row.game_id, []).append((row.seq, as_utc(row.created_at), seats_now))
    moves: dict[int, list[tuple[int, Any]]] = {}
    for row in session.execute(_own_events(me, list(seats), "move")):
        moves.setdefault(row.game_id, []).append((row.seq, as_utc(row.created_at)))
    waits = []
    for game_id, turns in starts.items():
        mine = moves.get(game_id, [])
        seqs = [seq for seq, _ in mine]
        for index, (seq, began, turn_seats) in enumerate(turns):
            if seats[game_id] not in turn_seats:
                continue
            ends = turns[index + 1][0] if index + 1 < len(turns) else None
            first = bisect.bisect_right(seqs, seq)
            if first < len(mine) and (ends is None or mine[first][0] <= ends):
                waits.append((mine[first][1] - began).total_seconds())
    return timedelta(seconds=statistics.median(waits)) if waits else None
