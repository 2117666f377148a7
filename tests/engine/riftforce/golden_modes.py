"""Golden seeded playthroughs of team and solo Riftforce, in the format of golden.py (the duel's).

Each file in golden/ holds the seed, player count, options, the moves a seeded random policy
chose, the full event log and the final result; the tests replay the *moves* through `play` and
expect the very same events and result.  Regenerate deliberately (after an intended rules or
event change, with a rules_version bump where old logs would replay differently):

    .venv/bin/python -m tests.engine.riftforce.golden_modes
"""

from __future__ import annotations

import json
import pathlib

from .golden import assert_replays_identically, replay_moves  # noqa: F401 - one format, one replay
from .modes import options_for, random_game
from .scenario import GAME

HERE = pathlib.Path(__file__).parent / "golden"
CASES = [("team", 4, 5), ("solo", 1, 13)]


def path_for(mode: str, players: int, seed: int) -> pathlib.Path:
    name = f"team{players}" if mode == "team" else "solo"
    return HERE / f"riftforce-{name}-seed{seed}.json"


def record(mode: str, players: int, seed: int) -> dict:
    events, state, moves = random_game(players, seed)
    return {"game": "riftforce", "rules_version": GAME.rules_version, "seed": seed,
            "players": players, "options": options_for(players, seed), "moves": moves,
            "events": events, "result": json.loads(json.dumps(GAME.result(state)))}


def write_all() -> None:
    HERE.mkdir(exist_ok=True)
    for mode, players, seed in CASES:
        data = record(mode, players, seed)
        path = path_for(mode, players, seed)
        path.write_text(json.dumps(data, indent=0, sort_keys=True) + "\n")
        print(f"wrote {path}: {len(data['moves'])} moves, {len(data['events'])} events, "
              f"result {data['result']}")


if __name__ == "__main__":
    write_all()
