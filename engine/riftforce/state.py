"""The Riftforce state and `evolve`, which folds one event (a fact) into it.

State layout (plain JSON; lists indexed by seat, never int-keyed dicts):

    v          layout version
    mode       "duel" | "team" (rules §10) | "solo" (rules §11)
    players    2 (duel), 3 or 4 (team), 1 (solo)
    options    {"guilds": "base" | "all"} (duel); see team.py and solo.py for the other modes
    phase      "draft" | "play" | "over"
    draft      during the draft: {"offer": [guild], "picks": [[guild], [guild]], "dealt": [g0, g1],
               "first": seat, "removed": [guild]}  (removed: the unseen base removal); else None.
               Solo adds "trainer" (the trainer's guilds so far) and, once the player kept 4,
               "trainer_offer" (the guilds that may still be given to it: solo.py)
    start      seat holding the start marker (acts first), None until the draft deals it
    turn       seat whose decision it is; None when over
    turns      how many turns have begun (engine.Turn.number): the first draft pick is turn 1;
               every later pick that hands the draft to another seat and every `turn` event
               begins one (a seat that picks again, as in solo's keep-4, goes on with its turn)
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
    pending    the action in progress (see moves.py), or None
    last       summary of the last completed action (words.py words it), or None
    result     {"scores": [a, b] (by side), "winners": [seat], "reason": ...} when over, else None

Seats and sides.  Per-seat lists (guilds, deck, hand, discard, actions) have one entry per seat;
the board has two sides and `score` one entry per side.  The side of a seat is `seat % 2` in every
mode: in the duel that is the seat itself; in team play seats 0 and 2 form team 0 and seats 1 (and
3) team 1 (team.py); in solo the trainer is stored as seat 1 (it never acts through moves; its
bots are its "elementals", solo.py).  Keeping sides fixed by seat parity lets every rule find a
seat's side without looking anything up.

Team mode adds `order` (seats by turn-order position), `pos` (index of the current position),
`zones` (per seat: the locations its Check & Draw scores) and `captor` ({card: seat} for cards a
Music took, whose owner is then no longer the owner of their guild).  Solo adds `plans` (the face-up
plan pile, index 0 = top), `plan_discard`, `plan` (the plan being carried out, or None) and
`plans_done`.  Those lists are mutated in place and copied by `copy_state`.

Aliasing discipline (it is what makes `copy_state` cheap): `pending`, `last`, `result`, `options`
and `guilds` are only ever *replaced*, never mutated in place, so copies may share them.  Lists
taken from events are copied before they are stored in a list that later mutates.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, overload

from .cards import GUILD

LOCATIONS = 5
MIDDLE = 2
TARGET = 12
TEAM_LOCATIONS = 6  # team play: 3 green + 3 grey locations in one row (rules §10)

State = dict[str, Any]
Event = dict[str, Any]


@overload
def copy_state(s: State) -> State: ...


@overload
def copy_state(s: None) -> None: ...


def copy_state(s: State | None) -> State | None:
    """A hand-written copy of exactly the parts `evolve` mutates in place (see the docstring)."""
    if s is None:
        return None
    c = s.copy()
    c["deck"] = [x[:] for x in s["deck"]]
    c["hand"] = [x[:] for x in s["hand"]]
    c["discard"] = [x[:] for x in s["discard"]]
    c["board"] = [[a[:], b[:]] for a, b in s["board"]]
    c["damage"] = s["damage"].copy()
    c["score"] = s["score"][:]
    c["actions"] = s["actions"][:]
    dr = s["draft"]
    if dr is not None:
        dr = dr.copy()
        dr["offer"] = dr["offer"][:]
        dr["picks"] = [x[:] for x in dr["picks"]]
        c["draft"] = dr
    if s["mode"] != "duel":
        for key in ("plans", "plan_discard"):
            if key in s:
                c[key] = s[key][:]
        if "captor" in s:
            c["captor"] = s["captor"].copy()
    return c


# ---- one function per event type ------------------------------------------------------------------

def _setup(s: State | None, e: Event) -> State:
    mode = e.get("mode", "duel")
    # Solo keeps the trainer as seat 1, so every mode but team has two seat entries.
    seats = e["players"] if mode == "team" else 2
    s = {
        "v": 1,
        "mode": mode,
        "players": e["players"],
        "options": dict(e["options"]),
        "phase": "draft",
        "draft": None,
        "start": None,
        "turn": None,
        "turns": 0,
        "guilds": [[] for _ in range(seats)],
        "deck": [[] for _ in range(seats)],
        "hand": [[] for _ in range(seats)],
        "discard": [[] for _ in range(seats)],
        "board": [[[], []] for _ in range(TEAM_LOCATIONS if mode == "team" else LOCATIONS)],
        "damage": {},
        "limbo": None,
        "score": [0, 0],
        "actions": [0] * seats,
        "ending": False,
        "pending": None,
        "last": None,
        "result": None,
    }
    if mode == "team":
        s.update({"order": [], "pos": 0, "zones": [], "captor": {}})
    elif mode == "solo":
        s.update({"plans": [], "plan_discard": [], "plan": None, "plans_done": 0})
    return s


def _draft(s: State, e: Event) -> State:
    if "quota" in e:  # team and solo drafts (rules §9, §11)
        return _quota_draft(s, e)
    dealt = e["dealt"]
    s["draft"] = {
        "offer": list(e["offer"]),
        "picks": [[dealt[0]], [dealt[1]]],
        "dealt": list(dealt),
        "first": e["first"],
        "removed": list(e["removed"] or []),
    }
    s["turn"] = e["first"]
    s["turns"] = 1
    return s


def _quota_draft(s: State, e: Event) -> State:
    """Picks in turn-order positions (`order`, cycled), skipping players who hold their quota."""
    n = len(s["guilds"])
    picks: list[list[str]] = [[] for _ in range(n)]
    for seat, g in enumerate(e["dealt"]):
        picks[seat].append(g)
    s["draft"] = {"offer": list(e["offer"]), "picks": picks, "dealt": list(e["dealt"]),
                  "first": e["first"], "removed": [], "order": list(e["order"]),
                  "quota": list(e["quota"]), "pos": 0}
    if "trainer" in e:
        s["draft"]["trainer"] = list(e["trainer"])
    s["turn"] = e["first"]
    s["turns"] = 1
    if "order" in s:
        s["order"] = list(e["order"])
        s["zones"] = [list(z) for z in e["zones"]]
    return s


def _quota_pick(s: State, e: Event) -> State:
    seat, g = e["seat"], e["guild"]
    d = s["draft"]
    d["offer"].remove(g)
    d["picks"][seat].append(g)
    order, quota, picks = d["order"], d["quota"], d["picks"]
    for step in range(1, len(order) + 1):
        pos = (d["pos"] + step) % len(order)
        if len(picks[order[pos]]) < quota[order[pos]]:
            d["pos"] = pos
            s["turn"] = order[pos]
            if order[pos] != seat:  # the draft passes to another seat: its turn begins
                s["turns"] = s.get("turns", 0) + 1
            break
    s["last"] = {"seat": seat, "action": "pick", "guild": g}
    return s


def _pick(s: State, e: Event) -> State:
    seat, g = e["seat"], e["guild"]
    d = s["draft"]
    if "quota" in d:
        return _quota_pick(s, e)
    d["offer"].remove(g)
    d["picks"][seat].append(g)
    picks = d["picks"]
    other = 1 - seat
    # Alternate picks; a player who already holds 4 is skipped and the other goes on picking in
    # the same turn (rules §3, §9).  The last pick begins no turn: the `turn` event after the draft does.
    if len(picks[other]) < 4:
        s["turn"] = other
        s["turns"] = s.get("turns", 0) + 1
    elif len(picks[seat]) < 4:
        s["turn"] = seat
    s["last"] = {"seat": seat, "action": "pick", "guild": g}
    return s


def _trainer_draft(s: State, e: Event) -> State:
    """Solo, after the keep: the guilds the trainer got at once and those it may still be given."""
    d = s["draft"]
    d["trainer"] = list(e["given"])
    d["trainer_offer"] = list(e["offer"])
    return s


def _give(s: State, e: Event) -> State:
    d = s["draft"]
    g = e["guild"]
    # Replaced, not mutated: `copy_state` shares these lists between copies.
    d["trainer"] = d["trainer"] + [g]
    d["trainer_offer"] = [x for x in d["trainer_offer"] if x != g]
    s["last"] = {"seat": e["seat"], "action": "give", "guild": g}
    return s


def _draft_end(s: State, e: Event) -> State:
    d = s["draft"]
    s["guilds"] = [p[:] for p in d["picks"]]
    if "trainer" in e:  # solo: the trainer's 4 guilds (no summoners; its cards are bots)
        s["guilds"][1] = list(e["trainer"])
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
    # `.get`: a state snapshotted before the counter existed (rules_version "1") still evolves.
    s["turns"] = s.get("turns", 0) + 1
    if "pos" in e:  # team play: the turn-order position (the lone player of 3 holds two)
        s["pos"] = e["pos"]
    return s


def _enter(s: State, e: Event) -> State:
    seat, card, src = e["seat"], e["card"], e["from"]
    if src == "hand":
        s["hand"][seat].remove(card)
    elif src == "deck":
        s["deck"][seat].remove(card)
    else:  # "capture": the card waits in limbo since its capture
        s["limbo"] = None
    s["board"][e["loc"]][seat & 1].append(card)
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
    board, side, card = s["board"], e["seat"] & 1, e["card"]
    board[e["from"]][side].remove(card)
    board[e["to"]][side].append(card)
    return s


def _destroyed(s: State, e: Event) -> State:
    seat, card = e["seat"], e["card"]
    s["board"][e["loc"]][seat & 1].remove(card)
    s["damage"].pop(card, None)
    s["discard"][e["pile"]].append(card)
    captor = s.get("captor")
    if captor and captor.get(card, e["pile"]) != e["pile"]:
        del captor[card]  # sent back to its first owner: the guild decides ownership again
    return s


def _captured(s: State, e: Event) -> State:
    card = e["card"]
    s["board"][e["from"]][1 - (e["seat"] & 1)].remove(card)
    s["damage"].pop(card, None)
    s["limbo"] = card
    if "captor" in s:
        s["captor"][card] = e["seat"]
    return s


def _score(s: State, e: Event) -> State:
    seat = e["team"] if "team" in e else e["seat"]  # team play scores a team (a side)
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


# ---- solo: the trainer's plan pile (rules §11) --------------------------------------------------

def _plans(s: State, e: Event) -> State:
    s["plans"] = list(e["order"])
    return s


def _plan(s: State, e: Event) -> State:
    """The trainer takes the top plan and carries it out (it leaves the pile at once)."""
    s["plan"] = s["plans"].pop(0)
    return s


def _plan_end(s: State, e: Event) -> State:
    s["plan_discard"].append(s["plan"])
    s["plan"] = None
    s["pending"] = None
    s["plans_done"] += 1
    s["actions"][1] += 1
    return s


def _plans_recycled(s: State, e: Event) -> State:
    # Turned face up without shuffling: the same order repeats (rules §11).
    s["plans"] = s["plan_discard"]
    s["plan_discard"] = []
    return s


EVOLVERS: dict[str, Callable[[Any, Event], State]] = {
    "setup": _setup,
    "draft": _draft,
    "pick": _pick,
    "draft_end": _draft_end,
    "trainer_draft": _trainer_draft,
    "give": _give,
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
    "plans": _plans,
    "plan": _plan,
    "plan_end": _plan_end,
    "plans_recycled": _plans_recycled,
}


def evolve(s: State | None, e: Event) -> State:
    return EVOLVERS[e["type"]](s, e)


# ---- small readers shared by rules and views --------------------------------------------------------

def locate(s: State, card: str) -> tuple[int, int]:
    """(loc, side) of a board elemental; raises ValueError if it is not on the board."""
    for loc, sides in enumerate(s["board"]):
        if card in sides[0]:
            return loc, 0
        if card in sides[1]:
            return loc, 1
    raise ValueError(f"{card} is not on the board")


def adjacent(loc: int, n: int = LOCATIONS) -> list[int]:
    """Neighbours in the row of n; the ends do not wrap (rules §1; team play's row of 6, §10)."""
    return [l for l in (loc - 1, loc + 1) if 0 <= l < n]


def others(loc: int, n: int = LOCATIONS) -> list[int]:
    return [l for l in range(n) if l != loc]


def controls(s: State, seat: int) -> list[int]:
    """Locations where `seat`'s side has an elemental and the other side none (rules §4C, §10)."""
    side = seat & 1
    return [l for l, sides in enumerate(s["board"]) if sides[side] and not sides[1 - side]]


def owner(s: State, card: str, side: int) -> int:
    """The seat a board elemental on `side` belongs to.  In the duel and solo that is the side;
    in team play the seat holding its guild, unless a Music captured it (`captor`)."""
    if s["mode"] != "team":
        return side
    seat = s["captor"].get(card)
    if seat is not None:
        return seat
    g = GUILD[card]
    for seat, guilds in enumerate(s["guilds"]):
        if g in guilds:
            return seat
    return side


# ---- pure apply: copy only what the event will change ------------------------------------------------

def _pair(pair: list, seat: int) -> list:
    """A copy of a per-seat (or per-side) list with the one entry at `seat` copied too."""
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
        _board(c, s, e["loc"], seat & 1)
    elif t == "move":
        _board(c, s, e["from"], e["seat"] & 1)
        _board(c, s, e["to"], e["seat"] & 1)
    elif t == "destroyed" and "captor" not in s:
        _board(c, s, e["loc"], e["seat"] & 1)
        c["damage"] = s["damage"].copy()
        c["discard"] = _pair(s["discard"], e["pile"])
    elif t == "captured" and "captor" not in s:
        _board(c, s, e["from"], 1 - (e["seat"] & 1))
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
    else:  # "pick" (mutates the draft), the solo plan events, team captures: the full copy is safe
        c = copy_state(s)
    return evolve(c, e)
