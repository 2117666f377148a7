"""Riftforce's case for the shared engine contract suite and the golden playthroughs
(tests/engine/contract.py): every mode and player count, what each seat may not see, the seeded
policy that finishes games, and the golden games (regenerate with RIFTPOST_REGEN_GOLDEN=1)."""

from __future__ import annotations

import random
from pathlib import Path

from engine.riftforce.cards import CARDS, GUILD_NAME
from tests.engine.contract import ContractCase, GoldenCase

from .modes import solo_options
from .scenario import pick_move


def choose(state: dict, seat: int, moves: list[dict], rng: random.Random) -> dict:
    """Today's seeded random policy: a kind of move uniformly, then a move of that kind (uniform
    over all moves favours Play, which has the most buttons, and stalls games)."""
    return pick_move(rng, moves)


def _named(x, out: set[str]) -> set[str]:
    """The card ids anywhere inside a JSON value."""
    if isinstance(x, str):
        if x in CARDS:
            out.add(x)
    elif isinstance(x, dict):
        for v in x.values():
            _named(v, out)
    elif isinstance(x, list):
        for v in x:
            _named(v, out)
    return out


def hidden(s: dict, seat: int | None) -> set[str]:
    """What `seat` (None: a spectator) may not see in `s`:

    - every draw pile (the solo trainer's bot pile too), and the other seats' hands (a teammate's
      too), except the cards named by the action in progress: they were shown when played or
      discarded, and a reshuffle may have put one back into a pile since (a Star's draw);
    - solo: the plan pile below its top plan (the pile lies face up);
    - the base draft (house rule Q16): the other seats' dealt summoners and the summoner removed
      unseen, as guild id and display name, until the draft ends.
    """
    out: set[str] = set()
    for deck in s["deck"]:
        out.update(deck)
    for owner, hand in enumerate(s["hand"]):
        if owner != seat:
            out.update(hand)
    out -= _named(s["pending"], set())
    if s["mode"] == "solo":
        out.update(s["plans"][1:])
    d = s["draft"]
    if d is not None and s["mode"] == "duel" and s["options"]["guilds"] == "base":
        secret = [g for p, g in enumerate(d["dealt"]) if p != seat] + list(d["removed"])
        out.update(secret)
        out.update(GUILD_NAME[g] for g in secret)
    return out


SOLO_A = {"mode": "solo", "stars": {"5": 2, "6": 2, "7": 3}, "and": {"number": 6, "end": "A"}}
SOLO_B = {"mode": "solo", "stars": {"5": 4, "6": 3, "7": 1}, "and": {"number": 5, "end": "B"},
          "trainer_guilds": "random"}

CASE = ContractCase(
    game="riftforce",
    setups=[(2, {"guilds": "base"}), (2, {"guilds": "all"}), (3, {"mode": "team"}),
            (4, {"mode": "team"}), (1, SOLO_A), (1, SOLO_B)],
    hidden=hidden,
    choose=choose,
    games_per_setup=2,
    max_decisions=3000,
    golden=[
        GoldenCase("base-seed1", 2, {"guilds": "base"}, 1, choose),
        GoldenCase("base-seed2", 2, {"guilds": "base"}, 2, choose),
        GoldenCase("all-seed3", 2, {"guilds": "all"}, 3, choose),
        GoldenCase("all-seed4", 2, {"guilds": "all"}, 4, choose),
        GoldenCase("team4-seed5", 4, {"mode": "team"}, 5, choose),
        # One per standing choice of the trainer's guilds: random (13), 4 named (14), chosen after
        # the keep (15).  The rules_version "2" solo game is in tests/engine/old_logs/riftforce-rules2/.
        GoldenCase("solo-seed13", 1, solo_options(13), 13, choose),
        GoldenCase("solo-seed14", 1, solo_options(14), 14, choose),
        GoldenCase("solo-seed15", 1, solo_options(15), 15, choose),
    ],
    golden_dir=Path(__file__).parent / "golden",
)
