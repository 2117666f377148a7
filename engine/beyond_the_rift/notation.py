"""Moves as short text (the contract's `move_text` / `parse_move`), after the command summary of section 3.8.

A move is its type as a verb (underscores typed as hyphens: `discard-ap`, `done-final`, `no-aid`), then
its arguments: card, enemy, terrain and item ids as the view shows them (`BV01a`, `E3`, `T1a`,
`IT-LONGBOW`; any case), heroes by their id (`brannoc`), a card's mode and an option counted from 1.

    attack BV01a            attack BV01a mode 2       attack BV01a nopledge
    play IM06a              open T1a                  spend 7
    choose E3               choose brannoc            choose any            choose ally:TR20a
    pledge IM02a to brannoc unpledge IM02a            option 2
    defend BV03a            spend                     recover F07           keep
    reward IT-LONGBOW equip tamsin                    reward IT-BOOTS stash
    mode ask-if             set margin 4              set heavy_margin off  set use_wounds yes
    set aid FO03 for brannoc                          set tiebreak first:isolde

Two words may also be typed apart (`done final`, `no aid`).  Anything else is read in the generic
`type key=value` form of engine/kit.py (or as JSON), so every move has a text.
"""

from __future__ import annotations

from .. import kit
from ..errors import IllegalMove
from .content import CONTENT

NO_ARGS = frozenset(("draw", "cycle", "board", "done", "done_final", "undone", "resolve", "no_aid", "cancel",
                     "finish", "keep", "pass", "plan", "confirm"))
CARD = frozenset(("attack", "play", "wound", "discard_ap", "discard", "add", "add_wound", "aid", "pick", "bottom",
                  "react", "defend", "aid_defense", "defend_wound", "unpledge", "recover"))
ONE_ID = {"engage": "enemy", "disengage": "enemy", "open": "door", "interact": "terrain", "to_ally": "ally"}
TYPES = NO_ARGS | CARD | set(ONE_ID) | {"choose", "spend", "option", "pledge", "mode", "setting", "reward"}
REWARD_TO = ("equip", "stash", "return")


class Unreadable(ValueError):
    pass


# ---- writing ---------------------------------------------------------------------------------------

def _hero(state: dict, seat) -> str:
    if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < state["n"]:
        return state["heroes"][seat]["hero"]
    raise Unreadable("not a seat")


def _value_text(state: dict, key: str, value) -> list[str]:
    if value is None:
        return ["off"]
    if isinstance(value, bool):
        return ["yes" if value else "no"]
    if isinstance(value, int):
        return [str(value)]
    if key == "aid" and isinstance(value, dict) and set(value) == {"to", "card"}:
        return [value["card"], "for", _hero(state, value["to"])]
    if isinstance(value, str) and value and " " not in value:
        if key == "tiebreak" and value.startswith("first:") and value[6:].isdigit():
            return ["first:" + _hero(state, int(value[6:]))]
        return [value]
    raise Unreadable("no short form")


def _words(state: dict, move: dict) -> list[str]:
    t = move.get("type")
    if t not in TYPES:
        raise Unreadable("no short form")
    if t == "setting":
        return ["set", str(move["key"]), *_value_text(state, move["key"], move["value"])]
    out = [t.replace("_", "-")]
    if t == "mode":
        return out + [str(move["mode"]).replace("_", "-")]
    if t == "choose":
        v = move["value"]
        return out + [_hero(state, v) if isinstance(v, int) else str(v)]
    if t == "spend":
        return out + ([str(move["n"])] if "n" in move else [])
    if t == "option":
        return out + [str(move["value"] + 1)]
    if t == "pledge":
        return out + [move["card"], "to", _hero(state, move["to"])]
    if t == "reward":
        return out + [move["item"], move["to"]] + ([_hero(state, move["seat"])] if move["to"] == "equip" else [])
    if t in ONE_ID:
        return out + [move[ONE_ID[t]]]
    if t in CARD:
        out.append(move["card"])
        if "mode" in move:
            out += ["mode", str(move["mode"] + 1)]
        if move.get("nopledge"):
            out.append("nopledge")
    return out


def move_text(state: dict, move: dict) -> str:
    """The short form when it reads back to exactly this move, else the generic `type key=value` form."""
    try:
        text = " ".join(_words(state, move))
        if parse(state, text) == move:
            return text
    except (Unreadable, KeyError, TypeError, ValueError):
        pass
    return kit.move_text(move)


# ---- reading ---------------------------------------------------------------------------------------

def _id(state: dict, token: str) -> str:
    """An id as typed, in the case the game spells it (cards, enemies, items), else as typed."""
    if token in state["cards"]:
        return token
    low = token.lower()
    for known in (*state["cards"], *(e["id"] for e in state["enemies"]), *CONTENT.items):
        if known.lower() == low:
            return known
    return token


def _seat(state: dict, token: str) -> int:
    low = token.lower()
    for seat, h in enumerate(state["heroes"]):
        if h["hero"] == low:
            return seat
    raise Unreadable(f"{token!r} is not a hero of this party")


def _int(token: str) -> int:
    if not token.isdigit():
        raise Unreadable(f"{token!r} is not a number")
    return int(token)


def _value(state: dict, key: str, words: list[str]):
    if key == "aid":
        if len(words) != 3 or words[1].lower() != "for":
            raise Unreadable("set aid <card> for <hero>")
        return {"to": _seat(state, words[2]), "card": words[0].upper()}
    if len(words) != 1:
        raise Unreadable(f"set {key} takes one value")
    word = words[0]
    low = word.lower()
    if low in ("off", "yes", "no"):
        return {"off": None, "yes": True, "no": False}[low]
    if word.isdigit():
        return int(word)
    if key == "tiebreak" and low.startswith("first:") and not low[6:].isdigit():
        return f"first:{_seat(state, word[6:])}"
    if key == "react":
        return word.upper()
    return word


def parse(state: dict, text: str) -> dict:
    words = text.split()
    if not words:
        raise Unreadable("it is empty")
    verb = words[0].lower().replace("-", "_")
    rest = words[1:]
    if rest and f"{verb}_{rest[0].lower().replace('-', '_')}" in TYPES:
        verb = f"{verb}_{rest[0].lower().replace('-', '_')}"
        rest = rest[1:]
    if verb == "set":
        if not rest:
            raise Unreadable("set <setting> <value>")
        return {"type": "setting", "key": rest[0].lower(), "value": _value(state, rest[0].lower(), rest[1:])}
    if verb not in TYPES:
        raise Unreadable(f"{words[0]!r} is no move of Beyond the Rift")
    move: dict = {"type": verb}
    if verb in NO_ARGS:
        if rest:
            raise Unreadable(f"{verb} takes nothing more")
        return move
    if verb == "spend" and not rest:  # a defense: one unit of AP at the board's rate
        return move
    if not rest:
        raise Unreadable(f"{verb} needs more")
    if verb == "mode":
        move["mode"] = rest[0].lower().replace("-", "_")
        tail = rest[1:]
    elif verb == "choose":
        token = rest[0]
        low = token.lower()
        if low == "any":
            move["value"] = "any"
        elif low.startswith("ally:"):
            move["value"] = "ally:" + _id(state, token[5:])
        elif any(h["hero"] == low for h in state["heroes"]):
            move["value"] = _seat(state, token)
        else:
            move["value"] = _id(state, token)
        tail = rest[1:]
    elif verb == "spend":
        move["n"] = _int(rest[0])
        tail = rest[1:]
    elif verb == "option":
        move["value"] = _int(rest[0]) - 1
        tail = rest[1:]
    elif verb == "pledge":
        if len(rest) != 3 or rest[1].lower() != "to":
            raise Unreadable("pledge <card> to <hero>")
        return {"type": "pledge", "card": _id(state, rest[0]), "to": _seat(state, rest[2])}
    elif verb == "reward":
        if len(rest) < 2 or rest[1].lower() not in REWARD_TO:
            raise Unreadable("reward <item> equip <hero> | stash | return")
        move.update(item=_id(state, rest[0]), to=rest[1].lower())
        if move["to"] == "equip":
            if len(rest) != 3:
                raise Unreadable("reward <item> equip <hero>")
            move["seat"] = _seat(state, rest[2])
            return move
        tail = rest[2:]
    elif verb in ONE_ID:
        move[ONE_ID[verb]] = _id(state, rest[0])
        tail = rest[1:]
    else:  # a card, then "mode N" and, for an attack, "nopledge"
        move["card"] = _id(state, rest[0])
        tail = rest[1:]
        if len(tail) >= 2 and tail[0].lower() == "mode":
            move["mode"] = _int(tail[1]) - 1
            tail = tail[2:]
        if verb == "attack" and tail and tail[0].lower() == "nopledge":
            move["nopledge"] = True
            tail = tail[1:]
    if tail:
        raise Unreadable(f"{' '.join(tail)!r} is not understood after {verb}")
    return move


def parse_move(state: dict, text: str) -> dict:
    """The move a text spells (short form, generic form or JSON); IllegalMove "unreadable" otherwise."""
    if not isinstance(text, str):
        raise IllegalMove("a move is written as text", "unreadable")
    text = text.strip()
    if "=" in text or text.startswith(("{", "[")):
        move = kit.parse_move(text)
        if move.get("type") not in TYPES:
            raise IllegalMove(f"{text[:80]!r} is not a move of Beyond the Rift", "unreadable")
        return move
    try:
        return parse(state, text)
    except Unreadable as exc:
        raise IllegalMove(f"{text[:80]!r} is not a move: {exc}", "unreadable") from None
