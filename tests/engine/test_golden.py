"""Golden seeded playthroughs of every game, in one format (tests/engine/contract.py): the recorded
moves, played again through `play` with the service's RNGs, give exactly the recorded events and
result.  Regenerate deliberately with RIFTPOST_REGEN_GOLDEN=1 (see contract.py)."""

from __future__ import annotations

import json

import pytest

from .contract import REGEN, cases, golden_path, replay_golden, write_golden

GOLDEN = [(case, golden) for case in cases() for golden in case.golden]


@pytest.mark.parametrize("case,golden", GOLDEN, ids=[f"{c.game}/{g.name}" for c, g in GOLDEN])
def test_golden_playthrough_replays_identically(case, golden):
    if REGEN:
        write_golden(case, golden)
    path = golden_path(case, golden)
    assert path.exists(), f"missing {path}: run once with RIFTPOST_REGEN_GOLDEN=1"
    replay_golden(case, json.loads(path.read_text()))
