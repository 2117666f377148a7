"""Golden playthrough of a solo game (issue 7): the recorded moves produce exactly the recorded
events and result.  Regenerate deliberately with `python -m tests.engine.riftforce.golden_modes`."""

from __future__ import annotations

import json

import pytest

from .golden_modes import CASES, assert_replays_identically, path_for


@pytest.mark.parametrize("mode,players,seed", [c for c in CASES if c[0] == "solo"])
def test_solo_golden_playthrough_replays_identically(mode, players, seed):
    """§11 golden file: same events, same result, and the event log replays to the same state."""
    data = json.loads(path_for(mode, players, seed).read_text())
    assert_replays_identically(data)
