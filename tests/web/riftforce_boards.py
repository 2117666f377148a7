"""Riftforce games driven through the service to busy positions, for the board tests and their
screenshots: tall stacks, damage, an action in progress, late scores, every mode.

The policy is deterministic (its own seeded `random.Random`, asked in the same order every run) and
the service seeds each move's RNG from the game's seed and the seq, so a call with the same
arguments always reaches the same position."""

from __future__ import annotations

import random
from collections.abc import Callable

import engine
from service.play import new_game
from tests.service.helpers import current, play_one

RULES = engine.get("riftforce")
NAMES = ["Ann", "Bob", "Cat", "Dan"]


def people(count: int) -> list[tuple[str, str]]:
    return [(name, f"{name.lower()}@example.org") for name in NAMES[:count]]


def busy_policy(seed: int) -> Callable[[dict, int, list[dict]], dict]:
    """Mostly Plays (with every further card it may add) and Activates, seldom Check & Draw: the
    rift fills up and elementals take damage."""
    rnd = random.Random(seed)

    def pick(state: dict, seat: int, moves: list[dict]) -> dict:
        if state["pending"] is not None:
            for kind in ("play", "activate_elemental"):
                found = [m for m in moves if m["type"] == kind]
                if found:
                    return rnd.choice(found)
            return next((m for m in moves if m["type"] in ("end_play", "done")), rnd.choice(moves))
        if moves[0]["type"] == "pick":
            return rnd.choice(moves)
        plays = [m for m in moves if m["type"] == "play"]
        activates = [m for m in moves if m["type"] == "activate"]
        checks = [m for m in moves if m["type"] == "check"]
        roll = rnd.random()
        if plays and roll < 0.55:
            return rnd.choice(plays)
        if activates and roll < 0.85:
            return rnd.choice(activates)
        return checks[0] if checks else rnd.choice(moves)

    return pick


def deepest(state: dict) -> int:
    """The number of elementals in the tallest stack on the board."""
    return max((len(side) for sides in state["board"] for side in sides), default=0)


def drive(game_id: int, stop: Callable[[dict], bool], seed: int = 1, limit: int = 600) -> dict:
    """Play the busy policy until `stop(state)` or the game ends; the state reached."""
    pick = busy_policy(seed)
    for _ in range(limit):
        game, state = current(game_id)
        if stop(state) or game.status != "active":
            return state
        seat = game.to_act[0]
        play_one(game_id, lambda moves, s=state, seat=seat: pick(s, seat, moves))
    raise AssertionError("the game did not get there")


# Each mode's busy position: (players, options, seed), played until its tallest stack holds
# BUSY_DEPTH[mode] elementals (chosen by playing the policy: each is reached in the play phase, with
# damage on the board; the team game's is the tallest of any mode).
BUSY: dict[str, tuple[int, dict, int]] = {
    "duel": (2, {}, 1),
    "beyond": (2, {"guilds": "all"}, 4),
    "team4": (4, {"mode": "team"}, 1),
    "team3": (3, {"mode": "team"}, 0),
    "solo": (1, {"mode": "solo", "stars": {"5": 2, "6": 4, "7": 1}, "and": {"number": 6, "end": "A"}}, 1),
}
BUSY_DEPTH = {"duel": 8, "beyond": 11, "team4": 12, "team3": 9, "solo": 6}


def busy_game(mode: str) -> tuple[int, dict]:
    """A new game of `mode` (a key of BUSY) played to its busy position: (game id, state)."""
    players, options, seed = BUSY[mode]
    game_id = new_game("riftforce", people(players), options, seed=seed)
    depth = BUSY_DEPTH[mode]
    return game_id, drive(game_id, lambda s: s["phase"] == "play" and deepest(s) >= depth, seed=seed)


def draft_game(mode: str) -> tuple[int, dict]:
    """A new game of `mode` one pick into its draft (the keep-4 setup in solo)."""
    players, options, seed = BUSY[mode]
    game_id = new_game("riftforce", people(players), options, seed=seed)
    return game_id, drive(game_id, lambda s: s["draft"] is not None and any(s["draft"]["picks"]), seed=seed)


def trainer_choice_game() -> tuple[int, dict]:
    """A solo game at the decision after the keep: the trainer's guilds, one of them given."""
    players, options, seed = BUSY["solo"]
    game_id = new_game("riftforce", people(players), options, seed=seed)
    return game_id, drive(game_id, lambda s: s["draft"] is not None and len(s["draft"].get("trainer", [])) == 1,
                          seed=seed)


def finished_game(mode: str) -> tuple[int, dict]:
    """A game of `mode` played to its end (the end recorded as the worker does)."""
    from service.play import ending
    from service.store.models import utcnow

    players, options, seed = BUSY[mode]
    game_id = new_game("riftforce", people(players), options, seed=seed)
    state = drive(game_id, lambda s: False, seed=seed, limit=2000)
    ending.record_end(game_id, utcnow())
    return game_id, state
