"""Old logs read the same: real Riftwalker logs recorded by the engine at git 828aa04
(tests/engine/old_logs/riftwalker-*.json, see record.py there) are upcast event by event, replayed,
and every event is worded for every viewer from the state before it exactly as that engine worded
it; the game ends with the recorded winners and scores.  No recorded sentence is an exception."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import engine

G = engine.get("riftwalker")
LOGS = sorted((Path(__file__).resolve().parents[1] / "old_logs").glob("riftwalker-*.json"))
YOU = re.compile(r"\b(you|your|yours)\b", re.IGNORECASE)  # the service's old "affected" sign


def _viewer(key: str) -> int | None:
    return None if key == "spectator" else int(key)


def test_there_are_old_logs_to_read():
    assert len(LOGS) >= 2


@pytest.mark.parametrize("path", LOGS, ids=[p.stem for p in LOGS])
def test_an_old_log_replays_and_reads_the_same_for_every_viewer(path):
    log = json.loads(path.read_text())
    assert len(log["sentences"]) == len(log["events"])
    state = None
    for i, (old, said) in enumerate(zip(log["events"], log["sentences"])):
        frozen = json.dumps(old, sort_keys=True)
        event = G.upcast(old, log["rules_version"])
        assert json.dumps(old, sort_keys=True) == frozen, "upcast changed its input"
        for key, sentence in said.items():
            assert G.describe_event(event, _viewer(key), state) == sentence, (i, key, event)
        state = G.evolve(state, event) if state is None else G.apply(state, event)
    result = G.result(state)
    assert result["winners"] == log["result"]["winners"]
    assert result["scores"] == log["result"]["scores"]
    assert result == log["result"]  # the extra keys (points, bursts, tie-breaks, breakdown) too


@pytest.mark.parametrize("path", LOGS, ids=[p.stem for p in LOGS])
def test_seats_affected_cover_the_old_service_marks(path):
    """The service used to mark a viewer when the payload named its seat (seat, owner...) or the
    viewer's sentence spoke to them as "you"; `seats_affected` covers both."""
    log = json.loads(path.read_text())
    for old, said in zip(log["events"], log["sentences"]):
        event = G.upcast(old, log["rules_version"])
        affected = set(G.seats_affected(event, None))  # Riftwalker's events name everyone they touch
        named = {event.get(k) for k in ("seat", "owner", "pile", "target_seat", "victim")}
        assert {s for s in named if type(s) is int} <= affected, event
        for key, sentence in said.items():
            if key != "spectator" and sentence and YOU.search(sentence):
                assert int(key) in affected, (event, key, sentence)
