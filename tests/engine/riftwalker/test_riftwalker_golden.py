"""Golden seeded playthroughs: replay the recorded moves and diff every event, the views and the result.

The files hold the setup seed, then one line per decision: the seat, the move and the events it
produced.  Any change in rules, event shape or card data shows up as a diff here; if the change is
intended, bump `Riftwalker.rules_version` when old games would replay differently, and regenerate:

    RIFTWALKER_REGEN_GOLDEN=1 .venv/bin/python -m pytest tests/engine/riftwalker/test_riftwalker_golden.py
"""

import importlib.util
import json
import os
import random
from pathlib import Path

import pytest

import engine

from ._helpers import G

HERE = Path(__file__).parent / "golden"
CASES = [(2, 11), (3, 22), (4, 33)]


def _path(players, seed):
    return HERE / f"riftwalker_{players}p_seed{seed}.jsonl"


def _bot():
    path = Path(__file__).resolve().parents[3] / "bench" / "riftwalker_balance.py"
    spec = importlib.util.spec_from_file_location("riftwalker_balance", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.greedy


def _skeleton(x):
    """A view without card wording (power, bonus and special text), so rewording is not a diff."""
    if isinstance(x, dict):
        return {k: _skeleton(v) for k, v in x.items() if k not in ("power", "bonus", "text", "pending")}
    if isinstance(x, list):
        return [_skeleton(v) for v in x]
    return x


def _regenerate(players, seed):
    greedy = _bot()
    rng = random.Random(seed)
    events = G.start(players, {}, seed)
    state = engine.replay(G, events)
    lines = [json.dumps({"players": players, "seed": seed, "events": events})]
    while not state["over"]:
        seat = G.to_act(state)[0]
        move = greedy(state, seat, G.legal_moves(state, seat), rng)
        new = G.play(state, seat, move, None)
        for e in new:
            state = G.apply(state, e)
        lines.append(json.dumps({"seat": seat, "move": move, "events": new}))
    lines.append(json.dumps({"result": G.result(state), "view": _skeleton(G.view(state, None))}))
    _path(players, seed).write_text("\n".join(lines) + "\n", encoding="utf-8")


@pytest.mark.parametrize("players,seed", CASES)
def test_golden_playthrough(players, seed):
    if os.environ.get("RIFTWALKER_REGEN_GOLDEN"):
        _regenerate(players, seed)
    records = [json.loads(line) for line in _path(players, seed).read_text(encoding="utf-8").splitlines()]
    head, moves, tail = records[0], records[1:-1], records[-1]
    assert G.start(players, {}, seed) == head["events"], "setup changed"
    state = engine.replay(G, head["events"])
    for i, rec in enumerate(moves):
        assert G.to_act(state) == [rec["seat"]], f"decision {i}: a different seat is to act"
        assert rec["move"] in G.legal_moves(state, rec["seat"]), f"decision {i}: move no longer legal"
        new = G.play(state, rec["seat"], rec["move"], None)
        assert new == rec["events"], f"decision {i} ({rec['move']}): events differ"
        state = engine.replay(G, new, state)
    assert G.result(state) == tail["result"]
    assert _skeleton(G.view(state, None)) == tail["view"]
    for seat in range(players):
        assert G.render_text(G.view(state, seat))
