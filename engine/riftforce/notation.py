"""Moves as short text, for replies by email, the turn composer and bots (`move_text`,
`parse_move`).  Locations are counted from 1, as people count them (data counts from 0):

    pick fire                 {"type": "pick", "guild": "fire"}
    give acid                 {"type": "give", "guild": "acid"}    (solo: a guild for the trainer)
    play fire-5a @3           {"type": "play", "card": "fire-5a", "loc": 2}
    end                       {"type": "end_play"}
    discard ice-6b            {"type": "activate", "card": "ice-6b"}           (starts an Activate)
    activate ice-6a           {"type": "activate_elemental", "card": "ice-6a"}
    done                      {"type": "done"}
    check                     {"type": "check"}
    move @4, aim @2, place @2, push @4      {"type": "move_to" | "aim" | "place" | "push", "loc": l}
    target fire-7a, heal water-6c, bot ice-5a     {"type": "target" | "heal" | "bot", "card": id}

Reading is kinder than writing: any case; "@" may be left out; a card may be named without its
copy letter ("fire-5", "Fire 5") when only one card of that guild and number can be chosen now;
and the generic `play card=fire-5a loc=2` form (engine.kit) is read too.  Whether the move is
legal is `play`'s to say.
"""

from __future__ import annotations

import re
from typing import Any

from engine import kit
from engine.errors import IllegalMove

from .cards import CARDS, GUILD_NAME
from .moves import legal_moves
from .state import State

Move = dict[str, Any]

# Move type -> the word that writes it, by what the move names.
_CARD_WORD = {"activate": "discard", "activate_elemental": "activate", "target": "target",
              "heal": "heal", "bot": "bot"}
_LOC_WORD = {"move_to": "move", "aim": "aim", "place": "place", "push": "push"}
_ALONE_WORD = {"check": "check", "end_play": "end", "done": "done"}
# Word -> move type; the move types themselves are read too ("end_play", "move_to"...).
_TYPE = {word: kind for table in (_CARD_WORD, _LOC_WORD, _ALONE_WORD) for kind, word in table.items()}
_TYPE.update({"pick": "pick", "give": "give", "play": "play", "end_play": "end_play", "move_to": "move_to",
              "activate_elemental": "activate_elemental"})
_CARD_SPEC = re.compile(r"([a-z]+)([5-7])([a-d]?)")


def _is_loc(value: Any) -> bool:
    return type(value) is int and value >= 0


def move_text(move: Move) -> str:
    """The text of a move (see the module docstring); an unusual move falls back to kit's form."""
    kind = move.get("type")
    keys = set(move) - {"type"}
    if kind in ("pick", "give") and keys == {"guild"} and move["guild"] in GUILD_NAME:
        return f"{kind} {move['guild']}"
    if kind == "play" and keys == {"card", "loc"} and move["card"] in CARDS and _is_loc(move["loc"]):
        return f"play {move['card']} @{move['loc'] + 1}"
    if kind in _CARD_WORD and keys == {"card"} and move["card"] in CARDS:
        return f"{_CARD_WORD[kind]} {move['card']}"
    if kind in _LOC_WORD and keys == {"loc"} and _is_loc(move["loc"]):
        return f"{_LOC_WORD[kind]} @{move['loc'] + 1}"
    if kind in _ALONE_WORD and not keys:
        return _ALONE_WORD[kind]
    return kit.move_text(move)


def _unreadable(text: str, why: str) -> IllegalMove:
    return IllegalMove(f"{text[:80]!r} is not a move: {why}", "unreadable")


def parse_move(s: State, seat: int, text: Any) -> Move:
    """The move `text` spells; IllegalMove (code "unreadable") for anything else."""
    if not isinstance(text, str) or not text.strip():
        raise _unreadable(str(text), "nothing is written")
    raw = text.strip()
    if raw.startswith("{") or "=" in raw:
        return kit.parse_move(raw)
    verb, *args = raw.lower().replace(",", " ").split()
    kind = _TYPE.get(verb)
    if kind is None:
        raise _unreadable(raw, f"{verb!r} is no Riftforce move (try check, play, discard, pick)")
    if kind in _ALONE_WORD:
        if args:
            raise _unreadable(raw, f"{verb} takes nothing after it")
        return {"type": kind}
    if kind in ("pick", "give"):
        guild = "".join(args)
        if guild not in GUILD_NAME:
            raise _unreadable(raw, f"name a guild, e.g. {kind} fire")
        return {"type": kind, "guild": guild}
    if kind in _LOC_WORD:
        if len(args) != 1:
            raise _unreadable(raw, f"give one location, e.g. {verb} @2")
        return {"type": kind, "loc": _loc(raw, args[0])}
    if kind == "play":
        if len(args) < 2:
            raise _unreadable(raw, "give a card and a location, e.g. play fire-5a @3")
        loc = _loc(raw, args[-1])
        return {"type": "play", "card": _card(s, seat, kind, raw, args[:-1]), "loc": loc}
    if not args:
        raise _unreadable(raw, f"name a card, e.g. {verb} fire-5a")
    return {"type": kind, "card": _card(s, seat, kind, raw, args)}


def _loc(raw: str, word: str) -> int:
    digits = word[1:] if word.startswith("@") else word
    if not digits.isdigit() or int(digits) < 1:
        raise _unreadable(raw, f"{word!r} is not a location (they are counted from 1, e.g. @3)")
    return int(digits) - 1


def _card(s: State, seat: int, kind: str, raw: str, words: list[str]) -> str:
    """A card id from "fire-5a", or from "fire-5" / "fire 5" when the legal moves of that kind
    hold one card of that guild and number (copies in hand are offered by one id)."""
    found = _CARD_SPEC.fullmatch("".join(words).replace("-", ""))
    if found is None or found.group(1) not in GUILD_NAME:
        raise _unreadable(raw, "name a card as guild-number, e.g. fire-5a")
    guild, number, copy = found.groups()
    if copy:
        return f"{guild}-{number}{copy}"
    prefix = f"{guild}-{number}"
    ids = sorted({m["card"] for m in legal_moves(s, seat) if m["type"] == kind
                  and isinstance(m.get("card"), str) and m["card"][:-1] == prefix})
    if len(ids) > 1:
        raise _unreadable(raw, f"several cards fit: say which, e.g. {' or '.join(ids)}")
    return ids[0] if ids else f"{prefix}a"
