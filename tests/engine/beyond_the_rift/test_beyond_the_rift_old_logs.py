"""Old logs read the same: real Beyond the Rift logs recorded by the engine of rules version 2, which
wrote names into its events (tests/engine/old_logs/, made by record.py there), are upcast event by event,
replayed, and every event's sentence, for every viewer, from the state it was applied to, is the recorded
one; the replay ends with the recorded result (winners and scores; its reason is now a code)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .helpers import G

OLD_LOGS = sorted((Path(__file__).parents[1] / "old_logs").glob("beyond-the-rift-*.json"))
# Recorded sentences today's engine words differently on purpose: the old sentence -> today's, and why.
REWORDED = {
    "A new scenario begins with 2 hero(es).": "A new scenario begins with 2 heroes.",  # plural forms (#22)
    "A new scenario begins with 1 hero(es).": "A new scenario begins with 1 hero.",
    "A new scenario begins with 3 hero(es).": "A new scenario begins with 3 heroes.",
    "A new scenario begins with 4 hero(es).": "A new scenario begins with 4 heroes.",
}


def test_there_are_old_logs_of_every_scenario():
    scenarios = {json.loads(p.read_text())["options"]["scenario"] for p in OLD_LOGS}
    assert scenarios == {"tutorial", "old-friends-1", "old-friends-2", "old-friends-3"}


@pytest.mark.parametrize("path", OLD_LOGS, ids=[p.stem for p in OLD_LOGS])
def test_an_old_log_replays_and_reads_the_same(path):
    log = json.loads(path.read_text())
    assert log["rules_version"] != G.rules_version
    viewers = ["spectator", *(str(s) for s in range(log["players"]))]
    state = None
    for i, (old, said) in enumerate(zip(log["events"], log["sentences"], strict=True)):
        event = G.upcast(old, log["rules_version"])
        assert set(event) <= set(old) | {"col", "step", "why"}, "upcast only takes prose away"
        for viewer in viewers:
            seat = None if viewer == "spectator" else int(viewer)
            assert G.describe_event(event, seat, state) == REWORDED.get(said[viewer], said[viewer]), (i, viewer, old)
        state = G.apply(state, event)
    result = G.result(state)
    assert result["scores"] == log["result"]["scores"] and result["winners"] == log["result"]["winners"]
    assert result["outcome"] == log["result"]["outcome"]


def test_upcast_never_changes_its_input_and_takes_every_name_away():
    log = json.loads(OLD_LOGS[0].read_text())
    for old in log["events"]:
        frozen = json.dumps(old, sort_keys=True)
        new = G.upcast(old, "2")
        assert json.dumps(old, sort_keys=True) == frozen
        assert not {"who", "enemy_name", "to_name", "hero_name", "area_name", "door_name", "terrain_name",
                    "target_name", "text"} & set(new)
        assert G.upcast(new, "2") == new  # upcasting twice changes nothing more
        assert G.upcast(old, G.rules_version) is old  # current events pass through
