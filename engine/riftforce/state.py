"""The Riftforce state and `evolve`, which folds one event (a fact) into it.

State layout (plain JSON; lists indexed by seat, never int-keyed dicts):

    v          layout version
    mode       "duel" (room for the team/solo modes of rules §10-§11 later)
    players    2
    options    {"guilds": "base" | "all"}
    phase      "draft" | "play" | "over"
    draft      during the draft: {"offer": [guild], "picks": [[guild], [guild]], "dealt": [g0, g1],
               "first": seat, "removed": [guild]}  (removed: the unseen base removal); else None
    start      seat holding the start marker (acts first), None until the draft deals it
    turn       seat whose decision it is; None when over
    guilds     [[guild x4], [guild x4]] after the draft
    deck       [[card], [card]]  draw piles, index 0 = top
    hand       [[card], [card]]
    discard    [[card], [card]]  index -1 = top (face up)
    board      board[loc][seat] = [card, ...], front (oldest, next to the location card) first
    damage     {card: n} for damaged elementals on the board only (card ids are strings)
    limbo      a card captured by Music waiting for its new location, else None
    score      [rf0, rf1]
    actions    [n0, n1] actions completed (the end rule compares them by rounds)
    ending     True once any score reached 12 (rules §6, Q4)
    pending    the action in progress (see rules.py), or None
    last       summary of the last completed action (see view.py for its words), or None
    result     {"scores": [a, b], "winners": [seat]} when over, else None

Aliasing discipline (it is what makes `copy_state` cheap): `pending`, `last`, `result`, `options`
and `guilds` are only ever *replaced*, never mutated in place, so copies may share them.  Lists
taken from events are copied before they are stored in a list that later mutates.
"""

from __future__ import annotations

from typing import Any, Callable

LOCATIONS = 5
MIDDLE = 2
TARGET = 12

State = dict[str, Any]
Event = dict[str, Any]


def copy_state(s: State | None) -> State | None:
    """A hand-written copy of exactly the parts `evolve` mutates in place (see the docstring)."""
    if s is None:
        return None
    c = s.copy()
    d, h, x = s["deck"], s["hand"], s["discard"]
    c["deck"] = [d[0][:], d[1][:]]
    c["hand"] = [h[0][:], h[1][:]]
    c["discard"] = [x[0][:], x[1][:]]
    c["board"] = [[a[:], b[:]] for a, b in s["board"]]
    c["damage"] = s["damage"].copy()
    c["score"] = s["score"][:]
    c["actions"] = s["actions"][:]
    dr = s["draft"]
    if dr is not None:
        dr = dr.copy()
        dr["offer"] = dr["offer"][:]
        dr["picks"] = [dr["picks"][0][:], dr["picks"][1][:]]
        c["draft"] = dr
    return c


# ---- one function per event type ------------------------------------------------------------------

def _setup(s: State | None, e: Event) -> State:
    return {
        "v": 1,
        "mode": e.get("mode", "duel"),
        "players": e["players"],
        "options": dict(e["options"]),
        "phase": "draft",
        "draft": None,
        "start": None,
        "turn": None,
        "guilds": [[], []],
        "deck": [[], []],
        "hand": [[], []],
        "discard": [[], []],
        "board": [[[], []] for _ in range(LOCATIONS)],
        "damage": {},
        "limbo": None,
        "score": [0, 0],
        "actions": [0, 0],
        "ending": False,
        "pending": None,
        "last": None,
        "result": None,
    }


def _draft(s: State, e: Event) -> State:
    dealt = e["dealt"]
    s["draft"] = {
        "offer": list(e["offer"]),
        "picks": [[dealt[0]], [dealt[1]]],
        "dealt": list(dealt),
        "first": e["first"],
        "removed": list(e["removed"] or []),
    }
    s["turn"] = e["first"]
    return s


def _pick(s: State, e: Event) -> State:
    seat, g = e["seat"], e["guild"]
    d = s["draft"]
    d["offer"].remove(g)
    d["picks"][seat].append(g)
    picks = d["picks"]
    other = 1 - seat
    # Alternate picks; a player who already holds 4 is skipped (rules §3, §9).
    if len(picks[other]) < 4:
        s["turn"] = other
    elif len(picks[seat]) < 4:
        s["turn"] = seat
    s["last"] = {"seat": seat, "action": "pick", "guild": g}
    return s


def _draft_end(s: State, e: Event) -> State:
    d = s["draft"]
    s["guilds"] = [d["picks"][0][:], d["picks"][1][:]]
    s["draft"] = None
    s["start"] = e["start"]
    s["phase"] = "play"
    return s


def _deck(s: State, e: Event) -> State:
    s["deck"][e["seat"]] = list(e["order"])
    return s


def _reshuffle(s: State, e: Event) -> State:
    seat = e["seat"]
    s["deck"][seat] = list(e["order"])
    s["discard"][seat] = []
    return s


def _draw(s: State, e: Event) -> State:
    seat, cards = e["seat"], e["cards"]
    del s["deck"][seat][: len(cards)]
    s["hand"][seat].extend(cards)
    return s


def _turn(s: State, e: Event) -> State:
    s["turn"] = e["seat"]
    return s


def _enter(s: State, e: Event) -> State:
    seat, card, src = e["seat"], e["card"], e["from"]
    if src == "hand":
        s["hand"][seat].remove(card)
    elif src == "deck":
        s["deck"][seat].remove(card)
    else:  # "capture": the card waits in limbo since its capture
        s["limbo"] = None
    s["board"][e["loc"]][seat].append(card)
    return s


def _discard(s: State, e: Event) -> State:
    seat, card = e["seat"], e["card"]
    s["hand"][seat].remove(card)
    s["discard"][seat].append(card)
    return s


def _fact(s: State, e: Event) -> State:
    """Events that only record what happened (an activation) and change nothing by themselves."""
    return s


def _damage(s: State, e: Event) -> State:
    dmg = s["damage"]
    card = e["card"]
    dmg[card] = dmg.get(card, 0) + e["amount"]
    return s


def _heal(s: State, e: Event) -> State:
    dmg = s["damage"]
    card = e["card"]
    left = dmg.get(card, 0) - e["amount"]
    if left > 0:
        dmg[card] = left
    else:
        dmg.pop(card, None)
    return s


def _move(s: State, e: Event) -> State:
    board, seat, card = s["board"], e["seat"], e["card"]
    board[e["from"]][seat].remove(card)
    board[e["to"]][seat].append(card)
    return s


def _destroyed(s: State, e: Event) -> State:
    seat, card = e["seat"], e["card"]
    s["board"][e["loc"]][seat].remove(card)
    s["damage"].pop(card, None)
    s["discard"][e["pile"]].append(card)
    return s


def _captured(s: State, e: Event) -> State:
    card = e["card"]
    s["board"][e["from"]][1 - e["seat"]].remove(card)
    s["damage"].pop(card, None)
    s["limbo"] = card
    return s


def _score(s: State, e: Event) -> State:
    seat = e["seat"]
    s["score"][seat] += e["points"]
    if s["score"][seat] >= TARGET:
        s["ending"] = True
    return s


def _pending(s: State, e: Event) -> State:
    s["pending"] = e["pending"]
    return s


def _action_end(s: State, e: Event) -> State:
    s["actions"][e["seat"]] += 1
    s["last"] = e["summary"]
    s["pending"] = None
    return s


def _game_over(s: State, e: Event) -> State:
    s["phase"] = "over"
    s["turn"] = None
    s["pending"] = None
    s["result"] = {"scores": list(e["scores"]), "winners": list(e["winners"]),
                   "reason": e.get("reason", "score")}
    return s


EVOLVERS: dict[str, Callable[[Any, Event], State]] = {
    "setup": _setup,
    "draft": _draft,
    "pick": _pick,
    "draft_end": _draft_end,
    "deck": _deck,
    "reshuffle": _reshuffle,
    "draw": _draw,
    "turn": _turn,
    "enter": _enter,
    "discard": _discard,
    "activated": _fact,
    "damage": _damage,
    "heal": _heal,
    "move": _move,
    "destroyed": _destroyed,
    "captured": _captured,
    "score": _score,
    "pending": _pending,
    "action_end": _action_end,
    "game_over": _game_over,
}


def evolve(s: State | None, e: Event) -> State:
    return EVOLVERS[e["type"]](s, e)


# ---- small readers shared by rules and views --------------------------------------------------------

def locate(s: State, card: str) -> tuple[int, int]:
    """(loc, seat) of a board elemental; raises ValueError if it is not on the board."""
    for loc, sides in enumerate(s["board"]):
        if card in sides[0]:
            return loc, 0
        if card in sides[1]:
            return loc, 1
    raise ValueError(f"{card} is not on the board")


def adjacent(loc: int) -> list[int]:
    """Neighbours in the row; the ends do not wrap (rules §1)."""
    return [l for l in (loc - 1, loc + 1) if 0 <= l < LOCATIONS]


def others(loc: int) -> list[int]:
    return [l for l in range(LOCATIONS) if l != loc]


def controls(s: State, seat: int) -> list[int]:
    """Locations where `seat` has an elemental and the opponent none (rules §4C)."""
    return [l for l, sides in enumerate(s["board"]) if sides[seat] and not sides[1 - seat]]


# ---- pure apply: copy only what the event will change ------------------------------------------------

def _pair(pair: list, seat: int) -> list:
    """A copy of a [seat0, seat1] list pair with the seat's list copied too."""
    new = pair[:]
    new[seat] = pair[seat][:]
    return new


def _board(c: State, s: State, loc: int, seat: int) -> None:
    """Give `c` its own board[loc][seat] (and the containers above it), sharing the rest."""
    if c["board"] is s["board"]:
        c["board"] = s["board"][:]
    board = c["board"]
    if board[loc] is s["board"][loc]:
        board[loc] = board[loc][:]
    board[loc][seat] = board[loc][seat][:]


def apply(s: State | None, e: Event) -> State:
    """`evolve` on a copy of `s` that duplicates only the parts this event mutates.

    The service applies events one at a time on states it keeps, so a full copy per event would
    dominate; here a damage event copies one small dict.  Parts not listed are shared with `s`,
    which is safe because `evolve` only mutates what is listed (and replaces the rest).
    """
    if s is None:
        return evolve(None, e)
    c = s.copy()
    t = e["type"]
    if t in ("damage", "heal"):
        c["damage"] = s["damage"].copy()
    elif t == "draw":
        c["deck"] = _pair(s["deck"], e["seat"])
        c["hand"] = _pair(s["hand"], e["seat"])
    elif t == "enter":
        seat = e["seat"]
        if e["from"] in ("hand", "deck"):
            c[e["from"]] = _pair(s[e["from"]], seat)
        _board(c, s, e["loc"], seat)
    elif t == "move":
        _board(c, s, e["from"], e["seat"])
        _board(c, s, e["to"], e["seat"])
    elif t == "destroyed":
        _board(c, s, e["loc"], e["seat"])
        c["damage"] = s["damage"].copy()
        c["discard"] = _pair(s["discard"], e["pile"])
    elif t == "captured":
        _board(c, s, e["from"], 1 - e["seat"])
        c["damage"] = s["damage"].copy()
    elif t == "discard":
        c["hand"] = _pair(s["hand"], e["seat"])
        c["discard"] = _pair(s["discard"], e["seat"])
    elif t == "score":
        c["score"] = s["score"][:]
    elif t == "action_end":
        c["actions"] = s["actions"][:]
    elif t in ("deck", "reshuffle"):
        c["deck"] = s["deck"][:]
        c["discard"] = s["discard"][:]
    elif t in ("turn", "pending", "activated", "game_over", "draft", "draft_end"):
        pass  # these only replace top-level values
    else:  # "pick" (mutates the draft) and anything new: the full copy is always safe
        c = copy_state(s)
    return evolve(c, e)
