"""Golden seeded playthroughs: the moves (with the seed of each call's rng) are replayed through the
engine and the events must equal the stored ones exactly.  Regenerate after an intended rules change
with BTR_REGEN_GOLDEN=1 (and bump rules_version)."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest

import engine

from .helpers import CARRY, G, greedy_chooser, random_chooser

GOLDEN = Path(__file__).parent / "golden"
CASES = {
    "tutorial-2-greedy": (2, "tutorial", 7, greedy_chooser),
    "old-friends-1-1-random": (1, "old-friends-1", 3, random_chooser),
    "old-friends-3-4-greedy": (4, "old-friends-3", 5, greedy_chooser),
}


def record(n, scenario, seed, chooser):
    options = {"scenario": scenario}
    if CARRY.get(scenario):
        options["carry"] = CARRY[scenario]
    events = G.start(n, options, seed)
    state = engine.replay(G, events)
    rng = random.Random(seed)
    moves = []
    while G.result(state) is None:
        seat = rng.choice(G.to_act(state))
        move = chooser(state, seat, G.legal_moves(state, seat), rng)
        call_seed = rng.getrandbits(32)
        new = G.play(state, seat, move, random.Random(call_seed))
        moves.append({"seat": seat, "move": move, "rng": call_seed, "events": len(new)})
        for ev in new:
            state = G.evolve(state, ev)
        events += new
    return {"players": n, "options": options, "seed": seed, "moves": moves, "events": events,
            "result": G.result(state)}


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_playthrough(name):
    path = GOLDEN / f"{name}.json"
    live = record(*CASES[name])
    if os.environ.get("BTR_REGEN_GOLDEN"):
        GOLDEN.mkdir(exist_ok=True)
        path.write_text(json.dumps(live, separators=(",", ":")) + "\n")
    assert path.exists(), f"missing {path.name}: run with BTR_REGEN_GOLDEN=1 once"
    gold = json.loads(path.read_text())
    # replay the stored moves through play() with the stored per-call seeds
    events = G.start(gold["players"], gold["options"], gold["seed"])
    state = engine.replay(G, events)
    for i, mv in enumerate(gold["moves"]):
        new = G.play(state, mv["seat"], mv["move"], random.Random(mv["rng"]))
        for ev in new:
            state = G.evolve(state, ev)
        events += new
        stored = gold["events"][:len(events)]
        assert json.loads(json.dumps(events)) == stored, f"first difference after move {i}: {mv['move']}"
    assert json.loads(json.dumps(events)) == gold["events"]
    assert G.result(state) == gold["result"]
    assert engine.replay(G, gold["events"]) == state
