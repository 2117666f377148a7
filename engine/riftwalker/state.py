"""The state: its layout, the setup events, `evolve` (events -> state) and a fast copy.

Layout (plain JSON; per-seat data are lists indexed by seat):

    players     number of seats
    grid        9 slots in reading order, each [element card id, index of the face that is up]
    edeck       element deck, top first (the top card's two faces are public, §2)
    rdeck       rift deck, top first (hidden)
    exhausted   the rift deck has held 0 cards at some moment (H5); never resets
    limbo       rift cards the active player is looking at during a search
    hands       [[card id]] per seat
    explored    [[rift]] per seat; rift = {"id", "rot" (0..2), "beneath": [{"id", "face", "by"}]}
    scored      [[rift]] per seat, orientation kept
    turns       the number of the last turn begun (kept once the game is over, when turn is None)
    turn, stack, end, over   control: see flow.py

Physical events change only the physical fields (and "turn" events the count of turns); the one
"control" event at the end of each `play` sets the control fields.  So `evolve` is a plain fold
with no rules in it.
"""

from __future__ import annotations

from engine import kit

from .cards import CARDS

LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
THRESHOLD = {2: 7, 3: 6, 4: 5}  # rifts in a score pile that trigger the end (§7)
HAND = 3


# ---- reading the state ---------------------------------------------------------------------------

def up_face(slot) -> str:
    return CARDS.element_cards[slot[0]][slot[1]]


def lines(state) -> list[str]:
    """Elements that have a line of three face-up cards now (row, column or main diagonal)."""
    grid = state["grid"]
    ups = [up_face(s) for s in grid]
    found = []
    for a, b, c in LINES:
        if ups[a] == ups[b] == ups[c] and ups[a] not in found:
            found.append(ups[a])
    return found


def line_positions(state) -> list[tuple[str, tuple]]:
    ups = [up_face(s) for s in state["grid"]]
    return [(ups[a], (a, b, c)) for a, b, c in LINES if ups[a] == ups[b] == ups[c]]


def value(rift) -> int:
    """Printed value in the current orientation (§1 D); bonus never counts here (A10)."""
    return CARDS.rifts[rift["id"]].track[rift["rot"]]


def find_explored(state, cid):
    """(owner seat, index) of an explored rift, or (None, None)."""
    for seat, pile in enumerate(state["explored"]):
        for i, rift in enumerate(pile):
            if rift["id"] == cid:
                return seat, i
    return None, None


def explored_rift(state, cid):
    seat, i = find_explored(state, cid)
    return None if seat is None else state["explored"][seat][i]


def all_card_ids(state) -> list[str]:
    """Every rift card id anywhere (used to check that cards are conserved)."""
    out = list(state["rdeck"]) + list(state["limbo"])
    for seat in range(state["players"]):
        out += state["hands"][seat]
        for pile in (state["explored"][seat], state["scored"][seat]):
            for rift in pile:
                out.append(rift["id"])
                out += [b["id"] for b in rift["beneath"]]
    return out


# ---- copying -------------------------------------------------------------------------------------

def copy_turn(t):
    if t is None:
        return None
    out = dict(t)
    out["activated"] = t["activated"][:]
    out["grants"] = [dict(g) for g in t["grants"]]  # a grant's "el" list is never mutated
    return out


def _copy_rift(r):
    return {"id": r["id"], "rot": r["rot"], "beneath": [dict(b) for b in r["beneath"]]}


def copy_state(state):
    if state is None:
        return None
    out = dict(state)
    out["grid"] = [s[:] for s in state["grid"]]
    out["edeck"] = state["edeck"][:]
    out["rdeck"] = state["rdeck"][:]
    out["limbo"] = state["limbo"][:]
    out["hands"] = [h[:] for h in state["hands"]]
    out["explored"] = [[_copy_rift(r) for r in pile] for pile in state["explored"]]
    out["scored"] = [[_copy_rift(r) for r in pile] for pile in state["scored"]]
    out["turn"] = copy_turn(state["turn"])
    out["stack"] = kit.jcopy(state["stack"]) if state["stack"] else []
    e = state["end"]
    out["end"] = {"by": e["by"], "reason": e["reason"], "left": e["left"][:]}
    return out


# ---- evolve ----------------------------------------------------------------------------------------

def _take_top(state, k):
    cards = state["rdeck"][:k]
    del state["rdeck"][:k]
    if not state["rdeck"]:
        state["exhausted"] = True  # H5: the first moment the deck holds 0 cards
    return cards


def _remove_explored(state, owner, cid):
    pile = state["explored"][owner]
    for i, rift in enumerate(pile):
        if rift["id"] == cid:
            return pile.pop(i)
    raise KeyError(cid)


def _bury(state, rift):
    """A rift leaves play to the rift-deck bottom: itself, then everything beneath it (§4.4)."""
    state["rdeck"].append(rift["id"])
    state["rdeck"].extend(b["id"] for b in rift["beneath"])


def _setup(event):
    n = event["players"]
    return {
        "game": "riftwalker",
        "players": n,
        "grid": [list(s) for s in event["grid"]],
        "edeck": list(event["edeck"]),
        "rdeck": list(event["rdeck"]),
        "exhausted": False,
        "limbo": [],
        "hands": [[] for _ in range(n)],
        "explored": [[] for _ in range(n)],
        "scored": [[] for _ in range(n)],
        "first": event["first"],
        "turns": 0,
        "turn": None,
        "stack": [],
        "end": {"by": None, "reason": None, "left": []},
        "over": False,
    }


def evolve(state, event):
    t = event["type"]
    if t == "setup":
        return _setup(event)
    if t == "control":
        # Half of a log's events, so copy_turn is spelled out here (a call and an empty grants list's
        # comprehension were a third of this branch); the same copies as copy_turn and copy_state make.
        turn = event["turn"]
        if turn is not None:
            grants = turn["grants"]
            turn = dict(turn)
            turn["activated"] = turn["activated"][:]
            turn["grants"] = [dict(g) for g in grants] if grants else []
        state["turn"] = turn
        stack = event["stack"]
        state["stack"] = kit.jcopy(stack) if stack else []
        e = event["end"]
        state["end"] = {"by": e["by"], "reason": e["reason"], "left": e["left"][:]}
        state["over"] = event["over"]
        return state
    handler = _EVOLVE.get(t)
    if handler is not None:
        handler(state, event)
    return state  # other events (activate, grant, end_triggered...) change nothing the state keeps


def _turn(state, e):
    state["turns"] = e["number"]


def _deal(state, e):
    state["hands"][e["seat"]].extend(_take_top(state, len(e["cards"])))


def _flip(state, e):
    slot = state["grid"][e["slot"]]
    slot[1] = 1 - slot[1]


def _place(state, e):
    card = state["edeck"].pop(0)
    state["edeck"].append(state["grid"][e["slot"]][0])
    state["grid"][e["slot"]] = [card, e["up"]]


def _swap(state, e):
    g = state["grid"]
    g[e["a"]], g[e["b"]] = g[e["b"]], g[e["a"]]


def _explore(state, e):
    state["hands"][e["seat"]].remove(e["card"])
    state["explored"][e["seat"]].append({"id": e["card"], "rot": 0, "beneath": []})


def _shift(state, e):
    seat, i = find_explored(state, e["rift"])
    state["explored"][seat][i]["rot"] += 1


def _return(state, e):
    rift = _remove_explored(state, e["owner"], e["rift"])
    state["hands"][e["owner"]].append(rift["id"])
    state["rdeck"].extend(b["id"] for b in rift["beneath"])


def _discard(state, e):
    zone, owner, cid = e["zone"], e["owner"], e["card"]
    if zone == "hand":
        state["hands"][owner].remove(cid)
        state["rdeck"].append(cid)
    elif zone == "explored":
        _bury(state, _remove_explored(state, owner, cid))
    else:
        pile = state["scored"][owner]
        for i, rift in enumerate(pile):
            if rift["id"] == cid:
                _bury(state, pile.pop(i))
                break


def _burst(state, e):
    rift = _remove_explored(state, e["owner"], e["rift"])
    state["scored"][e["owner"]].append(rift)  # H6: beneath cards go with it


def _draw(state, e):
    state["hands"][e["seat"]].extend(_take_top(state, len(e["cards"])))


def _look(state, e):
    state["limbo"].extend(_take_top(state, len(e["cards"])))


def _take(state, e):
    state["limbo"].remove(e["card"])
    state["hands"][e["seat"]].append(e["card"])


def _bottom(state, e):
    state["limbo"].remove(e["card"])
    state["rdeck"].append(e["card"])


def _tuck(state, e):
    src = e["src"]
    if src == "hand":
        state["hands"][e["seat"]].remove(e["card"])
    elif src == "explored":
        tucked = _remove_explored(state, e["owner"], e["card"])
        state["rdeck"].extend(b["id"] for b in tucked["beneath"])
    else:
        _take_top(state, 1)
    host = explored_rift(state, e["host"])
    host["beneath"].append({"id": e["card"], "face": e["face"], "by": e["seat"]})


_EVOLVE = {
    "turn": _turn, "deal": _deal, "flip": _flip, "grow": _flip, "place": _place, "swap": _swap,
    "explore": _explore, "shift": _shift, "return": _return, "discard": _discard,
    "burst": _burst, "draw": _draw, "look": _look, "take": _take, "bottom": _bottom,
    "tuck": _tuck,
}
