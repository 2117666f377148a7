"""Golden playthroughs (issue 2, "Tests"): recorded seeded games replay to the same events and
result.  Regenerate deliberately with `python -m tests.engine.riftforce.golden`, or run this file
with RIFTFORCE_REGEN_GOLDEN=1."""

from __future__ import annotations

import json
import os

import pytest

import engine

from .golden import CASES, path_for, replay_moves, write_all

if os.environ.get("RIFTFORCE_REGEN_GOLDEN") == "1":
    write_all()
from .scenario import GAME


@pytest.mark.parametrize("guilds,seed", CASES)
def test_golden_playthrough_replays_identically(guilds, seed):
    """Golden file: the recorded moves produce exactly the recorded events and result."""
    data = json.loads(path_for(guilds, seed).read_text())
    assert data["rules_version"] == GAME.rules_version
    events, state = replay_moves(data)
    events = json.loads(json.dumps(events))
    for i, (got, want) in enumerate(zip(events, data["events"])):
        assert got == want, f"event {i} differs"
    assert len(events) == len(data["events"])
    assert json.loads(json.dumps(GAME.result(state))) == data["result"]
    assert engine.replay(GAME, data["events"]) == state
