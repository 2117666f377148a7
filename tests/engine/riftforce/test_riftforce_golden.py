"""Golden playthroughs (issue 2, "Tests"): recorded seeded games replay to the same events and
result.  Regenerate deliberately with `python -m tests.engine.riftforce.golden`, or run this file
with RIFTFORCE_REGEN_GOLDEN=1."""

from __future__ import annotations

import json
import os

import pytest

from .golden import CASES, assert_replays_identically, path_for, write_all

if os.environ.get("RIFTFORCE_REGEN_GOLDEN") == "1":
    write_all()


@pytest.mark.parametrize("guilds,seed", CASES)
def test_golden_playthrough_replays_identically(guilds, seed):
    """Golden file: the recorded moves produce exactly the recorded events and result."""
    data = json.loads(path_for(guilds, seed).read_text())
    assert_replays_identically(data)
