"""Shared helpers for the Riftwalker tests: arrange a position, then play moves through the contract."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import engine
from engine.riftwalker import flow
from engine.riftwalker.cards import CARDS
from engine.riftwalker.state import all_card_ids

G = engine.get("riftwalker")
BENCH = Path(__file__).resolve().parents[3] / "bench" / "riftwalker_balance.py"


def _load_greedy():
    """The greedy bot of bench/riftwalker_balance.py (a script, not a package: loaded by path)."""
    spec = importlib.util.spec_from_file_location("riftwalker_balance", BENCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.greedy


# The balance bench's bot: its element choices make lines, so its games end in a few hundred decisions.
GREEDY = _load_greedy()


def new_state(players=2, seed=0):
    return engine.replay(G, G.start(players, {}, seed))


def ecard(up, down):
    """(element card id, index of the up face) for the card with faces `up` and `down` (§2)."""
    for cid, faces in CARDS.element_cards.items():
        if set(faces) == {up, down}:
            return [cid, faces.index(up)]
    raise KeyError((up, down))


def _pull(state, cid):
    """Take a rift card out of wherever it is (its beneath cards go to the rift-deck bottom)."""
    for zone in (state["rdeck"], state["limbo"], *state["hands"]):
        if cid in zone:
            zone.remove(cid)
            return
    for piles in (state["explored"], state["scored"]):
        for pile in piles:
            for i, rift in enumerate(pile):
                if rift["id"] == cid:
                    pile.pop(i)
                    state["rdeck"].extend(b["id"] for b in rift["beneath"])
                    return
                for j, b in enumerate(rift["beneath"]):
                    if b["id"] == cid:
                        rift["beneath"].pop(j)
                        return
    raise KeyError(cid)


def _rift(spec, seat):
    if isinstance(spec, str):
        spec = (spec, 0)
    cid, rot, *rest = spec
    beneath = rest[0] if rest else []
    return {"id": cid, "rot": rot,
            "beneath": [{"id": b[0], "face": b[1], "by": b[2] if len(b) > 2 else seat} for b in beneath]}


def arrange(state, *, seat=0, step="element", element=None, hands=None, explored=None, scored=None,
            grid=None, deck_top=None, number=5):
    """Put named cards where a test needs them, keeping every card exactly once (the rest move to
    the rift-deck bottom).  hands/explored/scored: {seat: [...]} replace that seat's zone; a rift is
    "ID" or ("ID", rot) or ("ID", rot, [(beneath id, face, by)]).  grid: 9 (up, down) pairs."""
    for zone_name, spec in (("hands", hands), ("explored", explored), ("scored", scored)):
        for s, items in (spec or {}).items():
            old = state[zone_name][s]
            state[zone_name][s] = []
            for x in old:
                if zone_name == "hands":
                    state["rdeck"].append(x)
                else:
                    state["rdeck"].append(x["id"])
                    state["rdeck"].extend(b["id"] for b in x["beneath"])
            for item in items:
                rift = _rift(item, s)
                for cid in [rift["id"]] + [b["id"] for b in rift["beneath"]]:
                    _pull(state, cid)
                state[zone_name][s].append(rift["id"] if zone_name == "hands" else rift)
    for cid in reversed(deck_top or []):
        _pull(state, cid)
        state["rdeck"].insert(0, cid)
    if grid is not None:
        cards = [ecard(u, d) for u, d in grid]
        used = {c[0] for c in cards}
        assert len(used) == 9, "a grid uses 9 different element cards"
        state["grid"] = cards
        state["edeck"] = [c for c in CARDS.element_cards if c not in used]
    state["turn"] = flow.new_turn(seat, number)
    state["turn"]["step"] = step
    state["turn"]["element"] = element
    state["stack"] = []
    state["end"] = {"by": None, "reason": None, "left": []}
    state["over"] = False
    state["exhausted"] = False
    flow.advance(flow.Sim(state))  # rest at a real choice, as every played state does
    check_conserved(state)
    return state


def check_conserved(state):
    ids = all_card_ids(state)
    assert sorted(ids) == sorted(CARDS.rifts), "every rift card is somewhere, exactly once"
    assert len(state["grid"]) == 9 and len(state["edeck"]) == len(CARDS.element_cards) - 9
    assert len({c for c, _ in state["grid"]} | set(state["edeck"])) == len(CARDS.element_cards)


def legal(state, seat=None):
    who = G.to_act(state)
    if seat is None:
        seat = who[0]
    return G.legal_moves(state, seat)


def do(state, *moves, seat=None, log=None):
    """Play moves (each by whoever must decide now, or `seat`) through play + apply; return the state."""
    for move in moves:
        who = G.to_act(state)[0] if seat is None else seat
        assert move in G.legal_moves(state, who), (move, G.legal_moves(state, who))
        events = G.play(state, who, move, None)
        json.dumps(events)
        for e in events:
            state = G.apply(state, e)
        if log is not None:
            log.extend(events)
        check_conserved(state)
    return state


def words_of(before, events, seat):
    """Each event's sentence for `seat`, worded from the state it was applied to (`before` is the
    state before the first of them, as `do(before, ..., log=events)` played them)."""
    out, state = [], before
    for event in events:
        out.append(G.describe_event(event, seat, state))
        state = G.apply(state, event)
    return out


def hand_of(state, seat):
    return list(state["hands"][seat])


def explored_ids(state, seat):
    return [r["id"] for r in state["explored"][seat]]


def scored_ids(state, seat):
    return [r["id"] for r in state["scored"][seat]]


def rift(state, cid):
    for piles in (state["explored"], state["scored"]):
        for pile in piles:
            for r in pile:
                if r["id"] == cid:
                    return r
    return None


# A grid with no line at all, whose hidden faces are known: rows of distinct up faces.
NO_LINE = [("Wind", "Fire"), ("Fire", "Life"), ("Life", "Storm"),
           ("Storm", "Earth"), ("Earth", "Water"), ("Water", "Wind"),
           ("Wind", "Life"), ("Fire", "Storm"), ("Life", "Earth")]
# Top row all Fire: a Fire line (§4.3).
FIRE_LINE = [("Fire", "Wind"), ("Fire", "Life"), ("Fire", "Storm"),
             ("Storm", "Earth"), ("Earth", "Water"), ("Water", "Wind"),
             ("Wind", "Life"), ("Life", "Water"), ("Storm", "Water")]
