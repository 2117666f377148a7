"""Golden seeded playthroughs of Riftforce: record them, or replay and compare.

Each file in golden/ holds a seed, the options, the moves a seeded random policy chose, the full
event log and the final result.  The test replays the *moves* through `play` (with
random.Random(seed) as the service would pass it) and expects the very same events and result,
so any change to rules, event shapes or randomness use shows up as a diff.

Regenerate deliberately (after an intended rules or event change, with a rules_version bump
where old logs would replay differently):

    .venv/bin/python -m tests.engine.riftforce.golden
"""

from __future__ import annotations

import json
import pathlib
import random

import engine

from .scenario import GAME, random_game

HERE = pathlib.Path(__file__).parent / "golden"
CASES = [("base", 1), ("base", 2), ("all", 3), ("all", 4)]


def path_for(guilds: str, seed: int) -> pathlib.Path:
    return HERE / f"riftforce-{guilds}-seed{seed}.json"


def record(guilds: str, seed: int) -> dict:
    events, state, moves = random_game(seed, guilds)
    return {"game": "riftforce", "rules_version": GAME.rules_version, "seed": seed,
            "options": {"guilds": guilds}, "moves": moves, "events": events,
            "result": json.loads(json.dumps(GAME.result(state)))}


def replay_moves(data: dict) -> tuple[list, dict]:
    """Play the recorded moves again; returns (events, state).  Duel files carry no player count."""
    events = GAME.start(data.get("players", 2), data["options"], data["seed"])
    state = None
    for e in events:
        state = GAME.apply(state, e)
    rng = random.Random(data["seed"])
    for move in data["moves"]:
        (seat,) = GAME.to_act(state)
        new = GAME.play(state, seat, move, rng)
        for e in new:
            state = GAME.apply(state, e)
        events.extend(new)
    return events, state


def assert_replays_identically(data: dict) -> None:
    """The recorded moves produce exactly the recorded events and result, and the event log
    replays to the same state."""
    assert data["rules_version"] == GAME.rules_version
    events, state = replay_moves(data)
    events = json.loads(json.dumps(events))
    for i, (got, want) in enumerate(zip(events, data["events"])):
        assert got == want, f"event {i} differs"
    assert len(events) == len(data["events"])
    assert json.loads(json.dumps(GAME.result(state))) == data["result"]
    assert engine.replay(GAME, data["events"]) == state


def write_all() -> None:
    HERE.mkdir(exist_ok=True)
    for guilds, seed in CASES:
        data = record(guilds, seed)
        path_for(guilds, seed).write_text(json.dumps(data, indent=0, sort_keys=True) + "\n")
        print(f"wrote {path_for(guilds, seed)}: {len(data['moves'])} moves, "
              f"{len(data['events'])} events, result {data['result']}")


if __name__ == "__main__":
    write_all()
