"""What every game's tests declare for the shared contract suite (test_contract.py) and the golden
playthroughs (test_golden.py): how to start games of it, how to choose moves, what a seat may not see.

Each game's package of tests has a `contract.py` with `CASE = ContractCase(...)`; `cases()` below
collects them, so a new game is covered by adding one file.

Golden files, one format for every game (`riftpost-golden/1`): the setup (players, options, seed),
each decision's seat and move, every event, and the result.  Move i is played with the RNG the
service gives it, `random.Random(f"{seed}:{seq}")` where seq counts the events before it, so a golden
file is exactly the log the service would store.  Regenerate deliberately, after an intended change
of rules or event shapes (with a `rules_version` bump where old logs would replay differently):

    RIFTPOST_REGEN_GOLDEN=1 .venv/bin/python -m pytest tests/engine/test_golden.py
"""

from __future__ import annotations

import importlib
import json
import os
import random
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import engine

Chooser = Callable[[dict, int, list[dict], random.Random], dict]
REGEN = os.environ.get("RIFTPOST_REGEN_GOLDEN") == "1"
FORMAT = "riftpost-golden/1"


def random_choice(state: dict, seat: int, moves: list[dict], rng: random.Random) -> dict:
    return rng.choice(moves)


@dataclass
class GoldenCase:
    name: str  # the file's stem
    players: int
    options: dict
    seed: int
    choose: Chooser = random_choice


@dataclass
class ContractCase:
    game: str
    setups: list[tuple[int, dict]]  # (players, options) of the games the suite plays
    hidden: Callable[[dict, int | None], set[str]]  # ids that seat (None: a spectator) may not see
    choose: Chooser = random_choice
    games_per_setup: int = 2
    max_decisions: int = 1500
    golden: list[GoldenCase] = field(default_factory=list)
    golden_dir: Path | None = None

    @property
    def rules(self) -> engine.Game:
        return engine.get(self.game)


CASE_MODULES = (
    "tests.engine.riftforce.contract",
    "tests.engine.riftwalker.contract",
    "tests.engine.beyond_the_rift.contract",
    "tests.service.toy_contract",
)


@lru_cache(maxsize=1)
def cases() -> list[ContractCase]:
    """Every game's case, loaded on first use (a game's contract.py imports this module).  A missing
    module is left out here and named by test_every_registered_game_has_a_contract_case."""
    found = []
    for name in CASE_MODULES:
        try:
            found.append(importlib.import_module(name).CASE)
        except ModuleNotFoundError as exc:
            if exc.name != name:
                raise
    return found


# ---- playing ---------------------------------------------------------------------------------------


def rng_for(seed: int, seq: int) -> random.Random:
    """The RNG the service passes to `play` for the move made after `seq` events (service.play)."""
    return random.Random(f"{seed}:{seq}")


@dataclass
class Step:
    """One decision of a playout: the state before it, who chose what, and the events it caused."""

    before: dict
    seat: int
    move: dict
    events: list[dict]


def playout(case: ContractCase, players: int, options: dict, seed: int, choose: Chooser | None = None,
            max_decisions: int | None = None) -> tuple[list[dict], list[Step], dict]:
    """A seeded game: (setup events, steps, final state).  Where several seats may act, one is picked at
    random (a lone seat draws nothing from the generator the chooser uses too)."""
    rules = case.rules
    choose = choose or case.choose
    setup = rules.start(players, options, seed)
    state = engine.replay(rules, setup)
    seq = len(setup)
    pick = random.Random(seed)
    steps = []
    for _ in range(max_decisions or case.max_decisions):
        if rules.result(state) is not None:
            break
        waiting = rules.to_act(state)
        seat = waiting[0] if len(waiting) == 1 else pick.choice(waiting)
        move = choose(state, seat, rules.legal_moves(state, seat), pick)
        events = rules.play(state, seat, move, rng_for(seed, seq))
        steps.append(Step(state, seat, move, events))
        state = engine.replay(rules, events, state)
        seq += len(events)
    return setup, steps, state


def mentions(text: str, ids: set[str]) -> set[str]:
    """The ids that appear in `text` as whole tokens (a card id inside a longer id does not count)."""
    if not ids:
        return set()
    pattern = re.compile(r"(?<![\w-])(" + "|".join(re.escape(i) for i in sorted(ids, key=len, reverse=True))
                         + r")(?![\w-])")
    return set(pattern.findall(text))


# ---- golden files ----------------------------------------------------------------------------------


def golden_path(case: ContractCase, golden: GoldenCase) -> Path:
    assert case.golden_dir is not None, f"{case.game}: golden cases need a golden_dir"
    return case.golden_dir / f"{golden.name}.json"


def record_golden(case: ContractCase, golden: GoldenCase) -> dict[str, Any]:
    setup, steps, state = playout(case, golden.players, golden.options, golden.seed, golden.choose,
                                  max_decisions=100_000)
    events = list(setup)
    for step in steps:
        events += step.events
    return json.loads(json.dumps({
        "format": FORMAT, "game": case.game, "rules_version": case.rules.rules_version,
        "players": golden.players, "options": golden.options, "seed": golden.seed,
        "moves": [{"seat": step.seat, "move": step.move} for step in steps],
        "events": events, "result": case.rules.result(state),
    }))


def write_golden(case: ContractCase, golden: GoldenCase) -> None:
    path = golden_path(case, golden)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(record_golden(case, golden), separators=(",", ":")) + "\n")


def replay_golden(case: ContractCase, data: dict) -> None:
    """The recorded moves, played again with the service's RNGs, give exactly the recorded events and
    result, and the recorded log replays to the same state."""
    rules = case.rules
    assert data["format"] == FORMAT and data["game"] == case.game
    assert data["rules_version"] == rules.rules_version, "rules_version changed: regenerate deliberately"
    events = rules.start(data["players"], data["options"], data["seed"])
    assert json.loads(json.dumps(events)) == data["events"][:len(events)], "the setup differs"
    state = engine.replay(rules, events)
    for i, decision in enumerate(data["moves"]):
        new = rules.play(state, decision["seat"], decision["move"], rng_for(data["seed"], len(events)))
        want = data["events"][len(events):len(events) + len(new)]
        assert json.loads(json.dumps(new)) == want, f"decision {i} ({decision['move']}): events differ"
        events += new
        state = engine.replay(rules, new, state)
    assert len(events) == len(data["events"])
    assert json.loads(json.dumps(rules.result(state))) == data["result"]
    assert engine.replay(rules, data["events"]) == state
