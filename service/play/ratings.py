"""Ratings per game and mode (openskill's Plackett-Luce model: it rates teams and more than two sides).

One `ratings` row per person (address key), game and mode: mu and sigma, the games counted, and the
ordinal (mu - 3 sigma) the leaderboard sorts by.  `rate` runs inside the transaction that records a
game's end (service/play/ending.py), so a game's ratings change with its recorded end or not at all;
its `rated_games` row makes it idempotent: a game is judged once (a second run finds the row and does
nothing).

Which games count (judged from facts every game's Result and adapter share; the core names no game):
- a game of fewer than two sides (a solo game against the trainer) is not rated: "solo";
- a game whose players win or lose together (its result has an `outcome`, a cooperative game, or the
  adapter names a common foe, `against`) is not rated: "cooperative";
- a game with a seat that is no person (a bot: a players row without an address) is not rated: "bot";
- every other game that finished is rated, a forfeit on timeout among them (the forfeiting seat loses).
  A game that never finished is never rated: only a recorded end rates.

Ranks from the result: the winners share the first place; the others follow by their score, best first,
equal scores tying (no scores, as after a forfeit: the others tie behind the winners).  Teams (the
adapter's `teams_of`) are rated as teams: a team ranks by its best seat.

Shown as a display number (service/views/leaderboard.py `display`): 1500 + 24 x ordinal, rounded (a new player shows 1500 after a
first game's worth of uncertainty is taken off), never with an address.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from functools import cache
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa
from sqlmodel import Session, col

from service.games import adapter
from service.store.models import Game, Player, RatedGame, Rating
from service.views.leaderboard import display

if TYPE_CHECKING:
    from openskill.models import PlackettLuce


@cache
def model() -> PlackettLuce:
    """The rating model, openskill loaded when a game is first rated: the worker that sends emails and the
    web that shows leaderboards never need it (~1 MB; tests/worker/test_lean_processes.py)."""
    from openskill.models import PlackettLuce

    return PlackettLuce()

COOPERATIVE, SOLO, BOT = "cooperative", "solo", "bot"


def mode_of(game: Game) -> str:
    """The mode a game is rated in: its adapter's Mode.name ("" for a game played one way)."""
    return adapter(game.name).mode_of(game.options or {}).name


def rated(game_name: str) -> bool:
    """Whether games of this game are ever rated (not a cooperative game)."""
    return adapter(game_name).against is None


def sides(game: Game, seats: int) -> list[list[int]]:
    """The sides the game was played by: its teams, else one side per seat."""
    teams = [list(team) for team in adapter(game.name).teams_of(game.options or {}, seats) if team]
    alone = [[seat] for seat in range(seats) if not any(seat in team for team in teams)]  # 3-player team play
    return teams + alone


def ranks(result: Mapping[str, Any], groups: Sequence[Sequence[int]]) -> list[int]:
    """Each side's place (1 best; equal places tie) from a Result: winners first, then by best score."""
    winners = {int(seat) for seat in result.get("winners", [])}
    scores = {int(seat): float(score) for seat, score in (result.get("scores") or {}).items()}

    def standing(side: Sequence[int]) -> tuple[int, float]:
        won = any(seat in winners for seat in side)
        return (0 if won else 1, -max((scores.get(seat, 0.0) for seat in side), default=0.0))

    keys = [standing(side) for side in groups]
    return [1 + sum(1 for other in keys if other < key) for key in keys]


def unrated_reason(game: Game, players: Sequence[Player], result: Mapping[str, Any]) -> str:
    """Why the game is not rated, or "" when it is."""
    if "outcome" in result or not rated(game.name):
        return COOPERATIVE
    if any(not player.email for player in players):
        return BOT
    if len(sides(game, len(players))) < 2:
        return SOLO
    return ""


def rate(session: Session, game: Game, players: Sequence[Player], result: Mapping[str, Any], now: datetime) -> bool:
    """Judge a finished game once, in the caller's transaction; True when this call rated it."""
    if session.get(RatedGame, game.id) is not None:
        return False
    reason = unrated_reason(game, players, result)
    if reason:
        session.add(RatedGame(game_id=game.id, reason=reason, rated_at=now))
        session.flush()
        return False
    mode = mode_of(game)
    groups = sides(game, len(players))
    by_seat = {player.seat: player.address_key for player in players}
    people = sorted({by_seat[seat] for side in groups for seat in side})
    if session.get_bind().dialect.name == "postgresql":
        # Two games of one person ending at once would each read the old rating: one at a time per
        # person (in key order, so two such transactions never wait on each other in a circle).
        for person in people:
            session.execute(sa.text("SELECT pg_advisory_xact_lock(hashtextextended(:k, 0))"),
                            {"k": f"rating:{game.name}:{mode}:{person}"})
    found = {row.person: row for row in session.execute(sa.select(Rating).where(
        col(Rating.game) == game.name, col(Rating.mode) == mode, col(Rating.person).in_(people))).scalars()}
    rater = model()
    current = {person: (rater.rating(mu=found[person].mu, sigma=found[person].sigma) if person in found
                        else rater.rating()) for person in people}
    teams = [[current[by_seat[seat]] for seat in side] for side in groups]
    after = rater.rate(teams, ranks=[float(place) for place in ranks(result, groups)])
    changes: dict[str, Any] = {}
    for side, rated_side in zip(groups, after):
        for seat, new in zip(side, rated_side):
            person = by_seat[seat]
            old = current[person]
            changes[str(seat)] = [display(old.mu, old.sigma), display(new.mu, new.sigma)]
            row = found.get(person) or Rating(person=person, game=game.name, mode=mode, mu=0.0, sigma=0.0, ordinal=0.0)
            row.mu, row.sigma, row.ordinal = new.mu, new.sigma, new.mu - 3 * new.sigma
            row.games += 1
            row.updated_at = now
            session.add(row)
    session.add(RatedGame(game_id=game.id, reason="", changes=changes, rated_at=now))
    session.flush()
    return True
