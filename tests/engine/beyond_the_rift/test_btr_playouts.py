"""Random and greedy playouts: 1, 2 and 4 heroes in every scenario end in a win or a loss; the live state
equals the replay of the JSON round-tripped log; every listed move is accepted; views, sentences and
redaction hold up on every event."""

from __future__ import annotations

import json

import pytest

import engine

from .helpers import G, SCENARIOS, greedy_chooser, playout, random_chooser


def _check_text(state, log):
    for seat in (None, *range(state["n"])):
        text = G.render_text(G.view(state, seat))
        assert "Beyond the Rift" in text
    for ev in log[::7]:
        for seat in (None, 0):
            red = G.redact_event(ev, seat)
            json.dumps(red)
            line = G.describe_event(ev, seat)
            assert line is None or isinstance(line, str)


@pytest.mark.parametrize("scenario", SCENARIOS)
@pytest.mark.parametrize("n", [1, 2, 4])
def test_random_playout_ends_and_replays(scenario, n):
    for seed, chooser in ((n * 11, random_chooser), (n * 13 + 1, greedy_chooser)):
        state, log = playout(n, scenario, seed, chooser)
        res = G.result(state)
        assert res["outcome"] in ("win", "loss")
        assert res["winners"] == (list(range(n)) if res["outcome"] == "win" else [])
        assert G.to_act(state) == [] and all(G.legal_moves(state, s) == [] for s in range(n))
        replayed = engine.replay(G, json.loads(json.dumps(log)))
        assert replayed == state
        assert json.loads(json.dumps(state)) == state  # plain JSON all the way
        _check_text(state, log)


def test_greedy_playouts_can_win_every_scenario_type():
    outcomes = set()
    for seed in range(12):
        state, _ = playout(2, "tutorial", seed, greedy_chooser, {"defense_modes": ["auto", "auto"]})
        outcomes.add(G.result(state)["outcome"])
    assert outcomes == {"win", "loss"}
