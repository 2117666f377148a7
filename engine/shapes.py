"""The shapes of what crosses the engine boundary: plain JSON data (dicts with string keys, lists, str,
int, bool, None), plus the two small records the contract returns (engine/core.py)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Required, TypedDict

State = dict[str, Any]
Event = dict[str, Any]
Move = dict[str, Any]
View = dict[str, Any]


class Result(TypedDict, total=False):
    """The end of a game, the same shape for every game.

    `scores` has every seat, keyed by the seat number as a string (JSON object keys are strings, so
    a stored result reads back the same as the live one); `winners` lists seats (empty: nobody won,
    e.g. a lost cooperative game).  `outcome` is "win" or "loss" where the players win or lose
    together.  A game may add keys of its own (Riftforce solo: the trainer's score); the service
    reads those only through the game's adapter.
    """

    scores: Required[dict[str, float]]
    winners: Required[list[int]]
    outcome: str


@dataclass(frozen=True)
class Turn:
    """Whose turn it is, as the game counts turns.

    `number` counts the turns begun so far and grows by at least one whenever a new turn begins
    (several turns may begin within one move, e.g. when an automatic opponent plays inside it);
    `seats` are the seats whose turn it is: when the number changes, each of them starts a new turn
    (an email, a fresh clock).  A decision asked of another seat inside a turn (a forced discard, a
    defense prompt) is not a new turn: that seat is simply among `to_act`.  `phase` is the game's
    own name for the part of the turn or round ("draft", "play", "hero", ...), for display.
    """

    number: int
    phase: str
    seats: tuple[int, ...]
