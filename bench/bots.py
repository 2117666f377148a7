"""Bot benchmark: for each game and mode, the win rate of each level against the one below, and the
time of a decision (p50/p95) per level.

    .venv/bin/python bench/bots.py                         # every game and mode, 50 games per pairing
    .venv/bin/python bench/bots.py --games 20 --only riftforce-duel --pair normal-easy

Pairings: Riftforce duel, 2-player Riftwalker: one seat of the higher level against one of the lower,
seats alternated game by game.  Riftforce team (4 players): a team of each.  Riftwalker 3 players: one
seat of the higher level against two of the lower.  Riftforce solo and Beyond the Rift (co-op): no
opponent to beat, so the win rate of an all-bot party of each level.  A decision with one choice is not
timed (it costs nothing and would flatter the p50).  Games are seeded by their number: a run repeats.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine
from engine import bots

MAX_MOVES = 4000  # a game that runs past this is counted as unfinished (none did in the runs made)


@dataclass
class Setup:
    key: str
    game: str
    players: int
    options: dict
    kind: str  # "duel" (one seat vs the rest), "team" (seat parity), "party" (everyone one level)


SETUPS = [
    Setup("riftforce-duel", "riftforce", 2, {}, "duel"),
    Setup("riftforce-team", "riftforce", 4, {"mode": "team"}, "team"),
    Setup("riftforce-solo", "riftforce", 1, {"mode": "solo"}, "party"),
    Setup("riftwalker-2p", "riftwalker", 2, {}, "duel"),
    Setup("riftwalker-3p", "riftwalker", 3, {}, "duel"),
    Setup("beyond-the-rift-1", "beyond-the-rift", 1, {}, "party"),
    Setup("beyond-the-rift-2", "beyond-the-rift", 2, {}, "party"),
]


@dataclass
class Tally:
    wins: int = 0
    games: int = 0
    unfinished: int = 0
    halves: int = 0  # first place shared with a seat of the other level
    times: dict[str, list[float]] = field(default_factory=dict)


def play_one(setup: Setup, levels: list[str], seed: int, tally: Tally) -> list[int] | None:
    game = engine.get(setup.game)
    state = engine.replay(game, game.start(players=setup.players, options=setup.options, seed=seed))
    rng = random.Random(seed)
    for n in range(MAX_MOVES):
        if game.result(state) is not None:
            break
        acting = game.to_act(state)
        if not acting:
            break
        seat = acting[0]
        level = levels[seat]
        many = len(bots.choices(game, state, seat)) > 1
        t = time.perf_counter()
        move = bots.decide(game, state, seat, random.Random(rng.getrandbits(32)), level)
        if many:
            tally.times.setdefault(level, []).append(time.perf_counter() - t)
        for event in game.play(state, seat, move, random.Random(seed * 100003 + n)):
            state = game.evolve(state, event)
    result = game.result(state)
    return None if result is None else list(result["winners"])


def pairing(setup: Setup, high: str, low: str, games: int) -> Tally:
    tally = Tally()
    for g in range(games):
        seed = 1000 + g
        if setup.kind == "party":
            levels = [high] * setup.players
            winners = play_one(setup, levels, seed, tally)
            won = bool(winners)
        else:
            n = setup.players
            if setup.kind == "team":
                mine = [p for p in range(n) if p % 2 == g % 2]
            else:
                mine = [g % n]
            levels = [high if p in mine else low for p in range(n)]
            winners = play_one(setup, levels, seed, tally)
            # A shared first place counts as half a win.
            won = winners is not None and any(w in mine for w in winners)
            if won and any(w not in mine for w in winners):
                tally.games += 1
                tally.halves += 1
                continue
        tally.games += 1
        if winners is None:
            tally.unfinished += 1
        elif won:
            tally.wins += 1
    return tally


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] if values else float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--only", action="append", help="a setup key (repeatable): " + ", ".join(s.key for s in SETUPS))
    parser.add_argument("--pair", action="append", help="normal-easy, strong-normal (party setups: the first level)")
    args = parser.parse_args()
    pairs = [tuple(p.split("-")) for p in (args.pair or ["normal-easy", "strong-normal"])]
    for setup in SETUPS:
        if args.only and setup.key not in args.only:
            continue
        for high, low in pairs:
            if setup.kind == "party":
                # A party has no opponent: its levels are compared by their own win rates.
                for level in (low, high):
                    t0 = time.perf_counter()
                    tally = pairing(setup, level, level, args.games)
                    report(setup.key, f"party of {level}", tally, time.perf_counter() - t0)
                continue
            t0 = time.perf_counter()
            tally = pairing(setup, high, low, args.games)
            report(setup.key, f"{high} vs {low}", tally, time.perf_counter() - t0)


def report(key: str, what: str, tally: Tally, seconds: float) -> None:
    halves = tally.halves
    rate = (tally.wins + 0.5 * halves) / tally.games if tally.games else float("nan")
    times = "  ".join(f"{lv} p50 {pct(ts, 0.5) * 1000:.0f} ms p95 {pct(ts, 0.95) * 1000:.0f} ms (n={len(ts)})"
                      for lv, ts in sorted(tally.times.items()))
    extra = f", {halves} shared" if halves else ""
    extra += f", {tally.unfinished} unfinished" if tally.unfinished else ""
    print(f"{key:20} {what:18} wins {tally.wins}/{tally.games}{extra} = {rate:.0%}   {times}   [{seconds:.0f} s]",
          flush=True)


if __name__ == "__main__":
    main()
