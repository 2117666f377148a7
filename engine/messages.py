"""Messages, not sentences (issue #26): what a game says, as a key and typed arguments.

An engine that speaks in messages returns a `Message` where it used to return a sentence: a key
(`"event.flip"`) naming a sentence of the game's message catalog, and arguments that are facts
only: a seat, a card id, a place, a count, a list of card ids, a word of the game's vocabulary (an
element, a step), or another message.  The service words a message for one reader in one language
(service/views/wording.py): the catalog gives the sentence, a `Seat` becomes the reader-relative
name, a `Card` the card's name, a `Count` picks the plural form.  No engine makes a sentence on this
path, and no regular expression ever edits one.

Pure, like the rest of the engine: frozen dataclasses of JSON-like values, `to_json`/`from_json` for
stored data (the outbox keeps the timed-out moves as messages, never as words).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Union


@dataclass(frozen=True)
class Seat:
    """A seat (0-based): worded as the reader-relative name (a player's name, "your partner"; "you"
    where the catalog has the message's reader form, see service/views/wording.py)."""

    n: int


@dataclass(frozen=True)
class Card:
    """A physical card by id: worded as the card's name in the reader's language."""

    id: str


@dataclass(frozen=True)
class Cards:
    """Several cards by id, worded as a list in the reader's language ("A, B, C" / "A, B і C")."""

    ids: tuple[str, ...]


@dataclass(frozen=True)
class Place:
    """A place on the table: `kind` ("slot", "location"), `index` 0-based.  Worded by the catalog's
    `place.<kind>.<index>` entry if it has one, else `place.<kind>` with {n} = index + 1."""

    kind: str
    index: int


@dataclass(frozen=True)
class Count:
    """A count of things: chooses the message's plural form (CLDR's rules: Ukrainian has three)."""

    n: int


@dataclass(frozen=True)
class Number:
    """A number that is not a count of things (a value, a turn number): no plural follows it."""

    n: int


@dataclass(frozen=True)
class Term:
    """A word of the game's vocabulary, translated in the catalog under context `kind`:
    Term("element", "Fire")."""

    kind: str
    word: str


@dataclass(frozen=True)
class Clause:
    """A message inside another, worded as a clause (its first letter lower-cased where the
    language has case): "Go ahead: {step}"."""

    message: Message


@dataclass(frozen=True)
class Joined:
    """Messages worded one after another, separated by the catalog's `separator` message
    ("sep.semicolon": "; ")."""

    messages: tuple[Message, ...]
    separator: str


Arg = Union[Seat, Card, Cards, Place, Count, Number, Term, Clause, Joined, "Message", None]


@dataclass(frozen=True)
class Message:
    """A catalog key and its arguments (by name).  Build with `msg("event.flip", actor=Seat(0), ...)`."""

    key: str
    args: tuple[tuple[str, Arg], ...] = field(default=())

    def arg(self, name: str) -> Arg:
        return dict(self.args).get(name)

    def to_json(self) -> dict[str, Any]:
        return {"key": self.key, "args": {name: _arg_json(value) for name, value in self.args}}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Message:
        return cls(str(data["key"]), tuple((str(k), _arg_from(v)) for k, v in dict(data.get("args") or {}).items()))

    def walk(self):
        """This message and every message inside it (for checks: which keys a message uses)."""
        yield self
        for _name, value in self.args:
            if isinstance(value, Message):
                yield from value.walk()
            elif isinstance(value, Clause):
                yield from value.message.walk()
            elif isinstance(value, Joined):
                for inner in value.messages:
                    yield from inner.walk()


def msg(key: str, **args: Arg) -> Message:
    return Message(key, tuple(args.items()))


def _arg_json(value: Arg) -> Any:
    if value is None:
        return None
    if isinstance(value, Message):
        return {"message": value.to_json()}
    if isinstance(value, Clause):
        return {"clause": value.message.to_json()}
    if isinstance(value, Joined):
        return {"joined": [m.to_json() for m in value.messages], "separator": value.separator}
    if isinstance(value, Seat):
        return {"seat": value.n}
    if isinstance(value, Card):
        return {"card": value.id}
    if isinstance(value, Cards):
        return {"cards": list(value.ids)}
    if isinstance(value, Place):
        return {"place": value.kind, "index": value.index}
    if isinstance(value, Count):
        return {"count": value.n}
    if isinstance(value, Number):
        return {"number": value.n}
    if isinstance(value, Term):
        return {"term": value.kind, "word": value.word}
    raise TypeError(f"not a message argument: {value!r}")


def _arg_from(data: Any) -> Arg:
    if data is None:
        return None
    if "message" in data:
        return Message.from_json(data["message"])
    if "clause" in data:
        return Clause(Message.from_json(data["clause"]))
    if "joined" in data:
        return Joined(tuple(Message.from_json(m) for m in data["joined"]), str(data["separator"]))
    if "seat" in data:
        return Seat(int(data["seat"]))
    if "card" in data:
        return Card(str(data["card"]))
    if "cards" in data:
        return Cards(tuple(str(c) for c in data["cards"]))
    if "place" in data:
        return Place(str(data["place"]), int(data["index"]))
    if "count" in data:
        return Count(int(data["count"]))
    if "number" in data:
        return Number(int(data["number"]))
    if "term" in data:
        return Term(str(data["term"]), str(data["word"]))
    raise ValueError(f"not a message argument: {data!r}")


__all__ = ["Arg", "Card", "Cards", "Clause", "Count", "Joined", "Message", "Number", "Place", "Seat", "Term", "msg"]
