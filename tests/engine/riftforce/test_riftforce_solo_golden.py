"""Golden playthrough of a solo game (issue 7): the recorded moves produce exactly the recorded
events and result.  Regenerate deliberately with `python -m tests.engine.riftforce.golden_modes`."""

from __future__ import annotations

import json

import pytest

import engine

from .golden_modes import CASES, path_for, replay_moves
from .scenario import GAME


@pytest.mark.parametrize("mode,players,seed", [c for c in CASES if c[0] == "solo"])
def test_solo_golden_playthrough_replays_identically(mode, players, seed):
    """§11 golden file: same events, same result, and the event log replays to the same state."""
    data = json.loads(path_for(mode, players, seed).read_text())
    assert data["rules_version"] == GAME.rules_version
    events, state = replay_moves(data)
    events = json.loads(json.dumps(events))
    for i, (got, want) in enumerate(zip(events, data["events"])):
        assert got == want, f"event {i} differs"
    assert len(events) == len(data["events"])
    assert json.loads(json.dumps(GAME.result(state))) == data["result"]
    assert engine.replay(GAME, data["events"]) == state
