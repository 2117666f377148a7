"""Small tools every engine uses: a JSON copy, the per-move event sink, turn order, results, and the
default text form of moves.  Pure functions of plain JSON data, like the engines themselves."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from engine.errors import IllegalMove
from engine.shapes import Event, Move, Result, State


def jcopy(x: Any) -> Any:
    """A copy of plain JSON data (dicts, lists, scalars); several times faster than copy.deepcopy.
    Exact type tests, not isinstance: JSON data holds no subclasses, and replay speed hangs on this."""
    t = type(x)
    if t is dict:
        # The dict copied whole in C, then only its containers replaced: a quarter faster than a
        # comprehension over every item, as most values are scalars (Riftwalker's replay copies a
        # power stack per "control" event).
        out = x.copy()
        for k, v in x.items():
            if type(v) is dict or type(v) is list:
                out[k] = jcopy(v)
        return out
    if t is list:
        return [(jcopy(v) if (type(v) is dict or type(v) is list) else v) for v in x]
    return x


class Sink:
    """The events of one move, applied as they are emitted to a working state the move owns.

    A move is worked out on `state` (a copy the caller made) by emitting facts: each is applied at
    once with the game's `evolve`, so later steps of the move see its effect, and kept in order in
    `events`, which `play` returns.  Engines subclass it to add their own helpers.
    """

    def __init__(self, state: State, evolve: Callable[[State, Event], State]):
        self.s = state
        self._evolve = evolve
        self.events: list[Event] = []

    def emit(self, event: Event) -> None:
        self.s = self._evolve(self.s, event)
        self.events.append(event)


# ---- words -----------------------------------------------------------------------------------------


def plural(count: int, word: str, many: str | None = None) -> str:
    """A count and its noun, agreed in English: "1 card", "2 cards", "0 cards"; `many` for a plural not
    made with -s ("1 hero", "3 heroes").  Only where a count is put in words: no i18n yet."""
    return f"{count} {word if count == 1 else many or word + 's'}"


# ---- turn order ------------------------------------------------------------------------------------


def next_seat(seat: int, players: int, step: int = 1) -> int:
    """The seat `step` places after `seat` round a table of `players`."""
    return (seat + step) % players


def others(seat: int, players: int) -> list[int]:
    """The other seats, in table order after `seat`."""
    return [(seat + k) % players for k in range(1, players)]


# ---- results ---------------------------------------------------------------------------------------


def result(scores: Sequence[float] | Mapping[Any, float], winners: Iterable[int], **extra: Any) -> Result:
    """A `Result`: `scores` by seat (a list indexed by seat, or a mapping with int or str seat keys)
    keyed by seat as a string; `winners` sorted; `extra` keys as given."""
    if isinstance(scores, Mapping):
        by_seat = {str(int(seat)): value for seat, value in scores.items()}
    else:
        by_seat = {str(seat): value for seat, value in enumerate(scores)}
    out: Result = {"scores": dict(sorted(by_seat.items(), key=lambda kv: int(kv[0]))),
                   "winners": sorted(int(w) for w in winners)}
    out.update(extra)  # type: ignore[typeddict-item]
    return out


# ---- moves as text ---------------------------------------------------------------------------------
# `play card=fire-5a loc=2`: the move's type, then key=value pairs in the move's own key order.  A value
# that reads as itself is written bare (numbers, true/false/null, simple words); anything else as
# compact JSON, so every JSON move round-trips.

_BARE = re.compile(r"[A-Za-z_][A-Za-z0-9_.:+\-]*")
_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_KEYWORDS = {"true", "false", "null"}


class UnreadableMove(ValueError):
    """A text that spells no move (engine.core turns it into IllegalMove "unreadable")."""


def _value_text(value: Any) -> str:
    if isinstance(value, str) and _BARE.fullmatch(value) and value not in _KEYWORDS:
        return value
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def move_text(move: Move) -> str:
    """The default text form of a move (see above)."""
    kind = move.get("type")
    parts = [kind if isinstance(kind, str) and _BARE.fullmatch(kind) else "?"]
    if parts[0] == "?":
        return json.dumps(move, separators=(",", ":"), ensure_ascii=False)
    for key, value in move.items():
        if key == "type":
            continue
        if not _KEY.fullmatch(key):  # a key no word can spell: the whole move as JSON
            return json.dumps(move, separators=(",", ":"), ensure_ascii=False)
        parts.append(f"{key}={_value_text(value)}")
    return " ".join(parts)


def parse_move(text: str) -> Move:
    """The move a `move_text` spells; raises engine.IllegalMove (code "unreadable") otherwise."""
    try:
        return _parse(text)
    except UnreadableMove as exc:
        raise IllegalMove(f"{text[:80]!r} is not a move: {exc}", "unreadable") from None


def _parse(text: str) -> Move:
    if not isinstance(text, str):
        raise UnreadableMove("a move is written as text")
    text = text.strip()
    if text.startswith("{"):
        try:
            found = json.loads(text)
        except ValueError:
            raise UnreadableMove("it is not valid JSON") from None
        if not isinstance(found, dict) or not isinstance(found.get("type"), str):
            raise UnreadableMove("a move is an object with a type")
        return found
    head, _, rest = text.partition(" ")
    if not _BARE.fullmatch(head):
        raise UnreadableMove("it starts with no move type")
    move: Move = {"type": head}
    decoder = json.JSONDecoder()
    at = 0
    rest = rest.strip()
    while at < len(rest):
        found = _KEY.match(rest, at)
        if not found or found.end() >= len(rest) or rest[found.end()] != "=":
            raise UnreadableMove(f"expected key=value at {rest[at:at + 20]!r}")
        key, at = found.group(), found.end() + 1
        if key in move:
            raise UnreadableMove(f"{key} is given twice")
        bare = _BARE.match(rest, at)
        if rest[at:at + 1] in ('"', "[", "{") or not bare:
            try:
                value, at = decoder.raw_decode(rest, at)
            except ValueError:
                raise UnreadableMove(f"the value of {key} is not readable") from None
        else:
            word = bare.group()
            at = bare.end()
            value = json.loads(word) if word in _KEYWORDS else word
        if at < len(rest) and not rest[at].isspace():
            raise UnreadableMove(f"the value of {key} runs on into {rest[at:at + 10]!r}")
        while at < len(rest) and rest[at].isspace():
            at += 1
        move[key] = value
    return move
