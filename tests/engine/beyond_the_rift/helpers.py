"""Shared helpers of the Beyond the Rift tests: start a game, arrange a situation by editing the state
(test setup only), play moves through the contract, and two playout drivers (random and greedy)."""

from __future__ import annotations

import json
import random

import engine
from engine.beyond_the_rift import GAME as G
from engine.beyond_the_rift import model as m

CARRY = {
    "old-friends-1": None,
    "old-friends-2": {"campaign": "old-friends", "won": ["old-friends-1"]},
    "old-friends-3": {"campaign": "old-friends", "won": ["old-friends-1", "old-friends-2"]},
    "tutorial": None,
}
SCENARIOS = ["tutorial", "old-friends-1", "old-friends-2", "old-friends-3"]


def new(n: int = 1, scenario: str = "tutorial", seed: int = 0, **options):
    opts = {"scenario": scenario, **options}
    if CARRY.get(scenario) and "carry" not in opts:
        opts["carry"] = CARRY[scenario]
    events = G.start(n, opts, seed)
    return engine.replay(G, events), list(events)


def play(state, seat, move, seed=0, log=None):
    """Play one move through the contract; check `play` left its input alone and `apply` agrees."""
    before = json.dumps(state, sort_keys=True)
    events = G.play(state, seat, move, random.Random(seed))
    assert json.dumps(state, sort_keys=True) == before, "play mutated its input"
    new = state
    for ev in events:
        new = G.apply(new, ev)
    if log is not None:
        log += events
    return new, events


def decisions(state, seat):
    """The seat's legal moves less the standing orders (mode / setting), which are legal at any time."""
    return [mv for mv in G.legal_moves(state, seat) if G.move_section(mv) is None]


def types(events):
    return [e["type"] for e in events]


def of(events, t):
    return [e for e in events if e["type"] == t]


# ---- arranging situations (editing the state is test setup only) -----------------------------------

def instances(state, defid):
    return sorted(c for c, d in state["cards"].items() if d == defid)


def _take_card(state, cid):
    for h in state["heroes"]:
        for zone in ("hand", "deck", "discard"):
            if cid in h[zone]:
                h[zone].remove(cid)
                return
    for pile in state["piles"].values():
        if cid in pile:
            pile.remove(cid)
            return


def give(state, seat, *defids):
    """Put cards of these definitions into a hero's hand (from anywhere outside play)."""
    out = []
    for d in defids:
        free = [c for c in instances(state, d) if c not in state["heroes"][seat]["hand"] and c not in out]
        cid = free[0]
        _take_card(state, cid)
        state["heroes"][seat]["hand"].append(cid)
        if m.kind(state, cid) in ("wound", "fatigue"):
            state["owner"][cid] = seat
        out.append(cid)
    return out


def hand(state, seat, *defids, ap=None):
    """Replace a hero's hand (old cards go to the bottom of their deck)."""
    h = state["heroes"][seat]
    for c in list(h["hand"]):
        h["hand"].remove(c)
        if m.kind(state, c) == "hero":
            h["deck"].append(c)
        else:
            state["piles"][m.kind(state, c)].append(c)
            state["owner"].pop(c, None)
    cards = give(state, seat, *defids)
    if ap is not None:
        h["ap"] = ap
    return cards


def clear_enemies(state):
    for e in list(state["enemies"]):
        state["piles"]["enemy"].append(e["card"])
    state["enemies"] = []


def place(state, etype, area=-1):
    """Put an enemy of this type into play (from the enemy deck, summon pool, aside, or a fresh card)."""
    cid = None
    for src in (state["piles"]["enemy"], state["aside"], *state["summon"].values()):
        for c in src:
            if state["cards"][c] == etype:
                cid = c
                src.remove(c)
                break
        if cid:
            break
    if cid is None:
        cid = f"{etype}x{len(state['cards'])}"
        state["cards"][cid] = etype
    eid = f"E{state['next_e']}"
    state["enemies"].append({"id": eid, "card": cid, "type": etype, "area": area, "att": [], "tmp": [],
                             "seq": state["next_e"]})
    state["next_e"] += 1
    if etype not in state["entered"]:
        state["entered"].append(etype)
    return eid


def responses(state, *values):
    """Stack the Response deck so that the next draws show these values (sigil-free when possible)."""
    pile = state["piles"]["response"] + state["piles"]["response_discard"]
    state["piles"]["response_discard"] = []
    chosen = []
    for v in values:
        cands = [c for c in pile if c not in chosen and state["cards"][c] == f"R{v}"] or \
                [c for c in pile if c not in chosen and state["cards"][c].startswith(f"R{v}")]
        chosen.append(cands[0])
    state["piles"]["response"] = chosen + [c for c in pile if c not in chosen]


def sigil_response(state, value):
    pile = state["piles"]["response"]
    c = [c for c in pile if state["cards"][c] == f"R{value}S"][0]
    pile.remove(c)
    pile.insert(0, c)


def all_done(state, except_seat=None):
    for i, h in enumerate(state["heroes"]):
        if i != except_seat:
            h["status"] = "done"


def finish(state, seat=0, log=None):
    """The last hero declares done: the enemy, quest, draw and end phases run."""
    all_done(state, except_seat=seat)
    return play(state, seat, {"type": "done"}, log=log)


# ---- playouts -----------------------------------------------------------------------------------

def random_chooser(state, seat, moves, rng):
    progress = [mv for mv in moves if mv["type"] in ("done", "resolve", "confirm", "no_aid", "finish", "plan")]
    if progress and rng.random() < 0.3:
        return rng.choice(progress)
    return rng.choice(moves)


def greedy_chooser(state, seat, moves, rng):
    """A simple player: clears terrain when free, attacks doors and enemies with everything it can add,
    defends by plan.  Good enough to win scenarios sometimes, which random play never does."""
    by = {}
    for mv in moves:
        by.setdefault(mv["type"], []).append(mv)
    for t in ("discard", "add", "pick", "bottom", "recover"):
        if t in by:
            return by[t][0]
    if "choose" in by:
        bosses = [mv for mv in by["choose"] if isinstance(mv["value"], str) and m.enemy(state, mv["value"])
                  and m.enemy(state, mv["value"])["type"] in ("O3", "C5")]
        doors = [mv for mv in by["choose"] if isinstance(mv["value"], str) and mv["value"].startswith("T")]
        return (bosses or doors or by["choose"])[0]
    if "spend" in by and "n" in by["spend"][-1]:
        return by["spend"][-1]
    if "plan" in by:
        return by["plan"][0]
    for t in ("no_aid", "pass", "resolve", "finish", "keep"):
        if t in by:
            return by[t][0]
    if "interact" in by:
        return by["interact"][0]
    if "disengage" in by and any(t["door"] for t in G.view(state, None)["terrain"]):
        return by["disengage"][0]
    if "open" in by and state["heroes"][seat]["ap"] >= 9:
        return by["open"][0]
    if "attack" in by and rng.random() < 0.8:
        return rng.choice(by["attack"])
    if "play" in by and rng.random() < 0.7:
        return rng.choice(by["play"])
    return by.get("done", moves)[0]


def playout(n, scenario, seed, chooser=random_chooser, options=None, max_moves=4000):
    opts = dict(options or {})
    state, log = new(n, scenario, seed, **opts)
    rng = random.Random(seed)
    moves = 0
    while G.result(state) is None:
        seats = G.to_act(state)
        assert seats, f"stuck: phase {state['phase']}, prompt {state['prompt']}"
        seat = rng.choice(seats)
        legal = G.legal_moves(state, seat)
        assert legal, f"seat {seat} listed in to_act without moves"
        move = chooser(state, seat, legal, rng)
        events = G.play(state, seat, move, random.Random(rng.getrandbits(32)))
        for ev in events:
            state = G.evolve(state, ev)
        log += events
        moves += 1
        assert moves < max_moves, "the playout does not end"
    return state, log
