"""Moves as short text (`Riftwalker.move_text` / `parse_move`), for email replies, the turn composer
and bots.  The notation is documented, with examples, in the package docstring.

A move's text is its type (underscores written as hyphens) and its one argument: slots, players and
options are counted from 1, as people read them ("flip 1" is the top-left slot); cards are their
ids.  Reading is forgiving: any letter case, underscores or hyphens, and a card may be named
instead of given by id when the name picks one card (or one of the seat's legal moves).  Anything
else falls back to the generic `type key=value` form of engine/kit.py, which every move has.
"""

from __future__ import annotations

import re

from engine import kit
from engine.errors import IllegalMove

from .cards import CARDS
from .flow import decision

SLOT = ("flip", "grow", "put", "swap", "swap_with")  # {"slot": 0..8}, written 1..9
CARD = {"explore": "card", "discard": "card", "tuck": "card", "take": "card", "bottom": "card",
        "shift": "rift", "activate": "rift", "return": "rift", "force_burst": "rift"}
COUNTED = {"target": "seat", "choose": "option"}  # seats and options, written from 1
BARE = ("skip", "done", "do", "search", "tuck_top")
_RIFT_IDS = {cid.upper(): cid for cid in CARDS.rifts}
_BY = re.compile(r"\s+by\s+", re.IGNORECASE)


def _shape(move, key, kind, lowest=None) -> bool:
    """`move` is exactly {"type", key} with a value of `kind` (bool is not an int here), at least
    `lowest` for numbers, so the short form reads back to the same move."""
    if len(move) != 2 or key not in move or type(move[key]) is not kind:
        return False
    return lowest is None or lowest <= move[key] <= 998


def _grant_by(state, rift, grant) -> bool:
    """Whether the grant's source rift names it: no other unused grant comes from the same rift."""
    grants = (state or {}).get("turn") and state["turn"]["grants"]
    if not grants or type(grant) is not int or not 0 <= grant < len(grants):
        return False
    source = grants[grant]["rift"]
    return source is not None and [g["rift"] for g in grants if not g["used"]].count(source) == 1


def move_text(state, seat, move) -> str:
    t = move.get("type") if isinstance(move, dict) else None
    verb = t.replace("_", "-") if isinstance(t, str) else ""
    if t in SLOT and _shape(move, "slot", int, 0):
        return f"{verb} {move['slot'] + 1}"
    if t in CARD and _shape(move, CARD[t], str) and move[CARD[t]] in CARDS.rifts:
        return f"{verb} {move[CARD[t]]}"
    if t in COUNTED and _shape(move, COUNTED[t], int, 0):
        return f"{verb} {move[COUNTED[t]] + 1}"
    if t == "draw" and _shape(move, "n", int, 1):
        return f"draw {move['n']}"
    if t == "place" and _shape(move, "element", str) and move["element"] in CARDS.elements:
        return f"place {move['element']}"
    if t in BARE and len(move) == 1:
        return verb
    if t == "burst" and move.get("rift") in CARDS.rifts:
        if move.keys() == {"type", "rift", "via"} and move["via"] == "line":
            return f"burst {move['rift']}"
        if move.keys() == {"type", "rift", "via", "grant"} and move["via"] == "power" \
                and _grant_by(state, move["rift"], move["grant"]):
            return f"burst {move['rift']} by {state['turn']['grants'][move['grant']]['rift']}"
    return kit.move_text(move)


def _unreadable(text, why) -> IllegalMove:
    return IllegalMove(f"{text[:80]!r} is not a move: {why}", "unreadable")


def _number(text, word, lowest=1) -> int:
    if not re.fullmatch(r"\d{1,3}", word) or int(word) < lowest:
        raise _unreadable(text, f"expected a number from {lowest}, got {word!r}")
    return int(word)


def _card(text, words, state, seat, t, key) -> str:
    """A card id from an id or a name (any case); a name shared by several cards (Venture) must pick
    one of the seat's legal moves of that type."""
    if not words:
        raise _unreadable(text, f"{t.replace('_', '-')} needs a card")
    said = " ".join(words)
    if said.upper() in _RIFT_IDS:
        return _RIFT_IDS[said.upper()]
    named = [cid for cid, card in CARDS.rifts.items() if card.name.lower() == said.lower()]
    if len(named) > 1 and state is not None:
        who, moves = decision(state)
        legal = {m.get(key) for m in moves if m.get("type") == t} if who == seat else set()
        named = [cid for cid in named if cid in legal]
    if len(named) != 1:
        raise _unreadable(text, f"no single card is called {said!r}: give its id")
    return named[0]


def parse_move(state, seat, text) -> dict:
    if not isinstance(text, str):
        raise IllegalMove("a move is written as text", "unreadable")
    clean = text.strip()
    if not clean or clean.startswith("{") or "=" in clean:
        return kit.parse_move(clean)
    head, *words = clean.split()
    t = head.lower().replace("-", "_")
    if t in BARE:
        if words:
            raise _unreadable(text, f"{head} takes nothing after it")
        return {"type": t}
    if t == "burst":
        rift, by = (_BY.split(" ".join(words), maxsplit=1) + [None])[:2]
        move = {"type": "burst", "rift": _card(text, rift.split(), state, seat, "burst", "rift"), "via": "line"}
        if by is None:
            return move
        source = _card(text, by.split(), None, seat, "burst", "rift")
        grants = state["turn"]["grants"] if state is not None and state.get("turn") else []
        ready = [k for k, g in enumerate(grants) if g["rift"] == source and not g["used"]]
        if len(ready) != 1:
            raise _unreadable(text, f"no single burst-step power of {source} is ready")
        return {"type": "burst", "rift": move["rift"], "via": "power", "grant": ready[0]}
    if t in CARD:
        return {"type": t, CARD[t]: _card(text, words, state, seat, t, CARD[t])}
    if len(words) != 1:
        raise _unreadable(text, "expected one word after the move's name" if t in (*SLOT, *COUNTED, "draw", "place")
                          else f"{head!r} is not a Riftwalker move")
    word = words[0]
    if t in SLOT:
        return {"type": t, "slot": _number(text, word) - 1}
    if t in COUNTED:
        return {"type": t, COUNTED[t]: _number(text, word) - 1}
    if t == "draw":
        return {"type": "draw", "n": _number(text, word)}
    if t == "place":
        for element in CARDS.elements:
            if element.lower() == word.lower():
                return {"type": "place", "element": element}
        raise _unreadable(text, f"{word!r} is not an element ({', '.join(CARDS.elements)})")
    raise _unreadable(text, f"{head!r} is not a Riftwalker move")
