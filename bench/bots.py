"""Bot benchmark: for each game and mode, the win rate of each level against the one below (or, with no
opponent to beat, of an all-bot party of each level), and the time of a decision (p50/p95) per level.

    python bench/bots.py                                   # every game and mode, 50 games a row, 2 processes
    python bench/bots.py --only riftforce-duel --only riftwalker-3p --pair normal-easy --games 50
    python bench/bots.py --pair strong-normal --scale strong=0.25  # strong on a quarter of its playouts
    python bench/bots.py --list                            # the setups and rows, nothing played

Rows.  "duel" setups (Riftforce duel and Beyond draft, Riftwalker 2-4 players): one seat of the higher
level against the others at the lower, the seat rotated game by game, so over a multiple of the
player count every seat (first player included) is the higher level equally often; the win rate is
set against the share a seat would get among equals (1/players).  "team" setups (Riftforce team play,
3 and 4 players): a team of the higher level against a team of the lower, the sides swapped game by
game (in 3-player games the two-seat team and the lone player alternate).  "party" setups (Riftforce
solo against the trainer, Beyond the Rift): nobody to beat, so the win rate of an all-bot party of
each level.  A shared first place counts half.  A game past MAX_MOVES decisions is counted unfinished
(as a loss).  Games are seeded by their number: a run repeats (the times aside).

Time: the CPU time of a decision (`time.process_time`: on a shared machine the wall time says more about
the other jobs than about the bot); a decision with one choice is not timed (it costs nothing and would
flatter the p50).  Budgets
are playout counts (engine/*/game.py `bot_budgets`), not times: `--scale strong=0.25` plays strong on a
quarter of its playouts (the row says so), for when a full strong run would take hours.  Targets
(issue #25): normal wins at least 80% against easy in Riftforce duels and in 3-player Riftwalker.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine
from engine import bots

MAX_MOVES = 4000
TARGETS = {("riftforce-duel", "normal", "easy"): 0.8, ("riftwalker-3p", "normal", "easy"): 0.8}


@dataclass(frozen=True)
class Setup:
    key: str
    title: str
    game: str
    players: int
    options: dict
    kind: str  # "duel" (one seat vs the rest), "team" (team vs team), "party" (everyone one level)


SETUPS = [
    Setup("riftforce-duel", "Riftforce duel (base guilds)", "riftforce", 2, {}, "duel"),
    Setup("riftforce-beyond", "Riftforce duel, Beyond draft (18 guilds)", "riftforce", 2, {"guilds": "all"}, "duel"),
    Setup("riftforce-team-3", "Riftforce team play, 3 players", "riftforce", 3, {"mode": "team"}, "team"),
    Setup("riftforce-team-4", "Riftforce team play, 4 players", "riftforce", 4, {"mode": "team"}, "team"),
    Setup("riftforce-solo", "Riftforce solo vs the trainer", "riftforce", 1,
          {"mode": "solo", "trainer_guilds": "random"}, "party"),
    Setup("riftwalker-2p", "Riftwalker, 2 players", "riftwalker", 2, {}, "duel"),
    Setup("riftwalker-3p", "Riftwalker, 3 players", "riftwalker", 3, {}, "duel"),
    Setup("riftwalker-4p", "Riftwalker, 4 players", "riftwalker", 4, {}, "duel"),
    Setup("btr-tutorial-1", "Beyond the Rift, tutorial, 1 hero", "beyond-the-rift", 1, {"scenario": "tutorial"}, "party"),
    Setup("btr-tutorial-2", "Beyond the Rift, tutorial, 2 heroes", "beyond-the-rift", 2, {"scenario": "tutorial"}, "party"),
    Setup("btr-tutorial-4", "Beyond the Rift, tutorial, 4 heroes", "beyond-the-rift", 4, {"scenario": "tutorial"}, "party"),
]
BY_KEY = {s.key: s for s in SETUPS}


@dataclass
class Row:
    setup: Setup
    high: str
    low: str  # == high for a party row
    games: int = 0
    points: float = 0.0  # 1 a win, 0.5 a shared first place
    shared: int = 0
    unfinished: int = 0
    seconds: float = 0.0  # CPU time of its games, summed over processes
    times: dict[str, list[float]] = field(default_factory=dict)

    @property
    def label(self) -> str:
        return f"party of {self.high}" if self.setup.kind == "party" else f"{self.high} vs {self.low}"


def seats_of_high(setup: Setup, g: int) -> list[int]:
    """The seats playing the higher level in game number `g`: rotated so that every seat (the first
    player's included) is the higher level equally often."""
    n = setup.players
    if setup.kind == "party":
        return list(range(n))
    if setup.kind == "team":
        return [p for p in range(n) if p % 2 == g % 2]
    return [g % n]


def play_game(task: tuple[str, str, str, int, dict[str, float]]) -> tuple[str, str, str, float | None, int, dict, float]:
    """One game: (setup key, high, low, game number, playout scales) -> (key, high, low, points of the
    higher level or None if unfinished, shared 0/1, decision times by level, seconds)."""
    key, high, low, g, scale = task
    setup = BY_KEY[key]
    game = engine.get(setup.game)
    seed = 1000 + g
    mine = seats_of_high(setup, g)
    levels = [high if p in mine else low for p in range(max(setup.players, 2))]
    t0 = time.process_time()
    state = engine.replay(game, game.start(players=setup.players, options=setup.options, seed=seed))
    rng = random.Random(seed)
    times: dict[str, list[float]] = {}
    for n in range(MAX_MOVES):
        if game.result(state) is not None:
            break
        acting = game.to_act(state)
        if not acting:
            break
        seat = acting[0]
        level = levels[seat]
        playouts = None
        if level in scale:
            playouts = max(1, round(game.bot_budgets[level][0] * scale[level]))
        many = len(bots.choices(game, state, seat)) > 1
        t = time.process_time()
        move = bots.decide(game, state, seat, random.Random(rng.getrandbits(32)), level, playouts=playouts)
        if many:
            times.setdefault(level, []).append(time.process_time() - t)
        for event in game.play(state, seat, move, random.Random(seed * 100003 + n)):
            state = game.evolve(state, event)
    seconds = time.process_time() - t0
    result = game.result(state)
    if result is None:
        return key, high, low, None, 0, times, seconds
    winners = list(result["winners"])
    ours = any(w in mine for w in winners)
    theirs = any(w not in mine for w in winners) and setup.kind != "party"
    if setup.kind == "party":
        return key, high, low, (1.0 if ours else 0.0), 0, times, seconds
    if ours and theirs:
        return key, high, low, 0.5, 1, times, seconds
    return key, high, low, (1.0 if ours else 0.0), 0, times, seconds


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] if values else float("nan")


def expected(row: Row) -> float:
    """A seat's (or side's) share of wins among equals: 1/players for one seat vs the rest, 1/2 for
    team against team; a party has no such share."""
    if row.setup.kind == "duel":
        return 1 / row.setup.players
    if row.setup.kind == "team":
        return 0.5
    return float("nan")


def rows_for(setups: list[Setup], pairs: list[tuple[str, str]]) -> list[Row]:
    rows = []
    for setup in setups:
        if setup.kind == "party":
            levels = []
            for high, low in pairs:
                for lv in (low, high):
                    if lv not in levels:
                        levels.append(lv)
            rows += [Row(setup, lv, lv) for lv in levels]
        else:
            rows += [Row(setup, high, low) for high, low in pairs]
    return rows


def fmt_ms(ts: list[float]) -> str:
    return f"{pct(ts, 0.5) * 1000:.0f} / {pct(ts, 0.95) * 1000:.0f} ms" if ts else "-"


def table(rows: list[Row], scale: dict[str, float]) -> str:
    out = ["| setup | row | games | win rate of the higher level (party: of the party) | among equals | target | "
           "decision p50 / p95 CPU (higher) | (lower) | CPU s/game |",
           "|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        if not r.games:
            continue
        rate = r.points / r.games
        exp = expected(r)
        extra = []
        if r.shared:
            extra.append(f"{r.shared} shared")
        if r.unfinished:
            extra.append(f"{r.unfinished} unfinished")
        wins = f"{r.points:g}/{r.games} = {rate:.0%}" + (f" ({', '.join(extra)})" if extra else "")
        target = TARGETS.get((r.setup.key, r.high, r.low))
        verdict = "-" if target is None else f"≥ {target:.0%}: {'PASS' if rate >= target else 'FAIL'}"
        label = r.label + "".join(f" ({lv} ×{scale[lv]:g} playouts)" for lv in dict.fromkeys((r.high, r.low))
                                  if lv in scale)
        lo = "-" if r.setup.kind == "party" else fmt_ms(r.times.get(r.low, []))
        out.append(f"| {r.setup.title} | {label} | {r.games} | {wins} | "
                   f"{'-' if exp != exp else f'{exp:.0%}'} | {verdict} | {fmt_ms(r.times.get(r.high, []))} "
                   f"(n={len(r.times.get(r.high, []))}) | {lo} | {r.seconds / r.games:.1f} |")
    return "\n".join(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=50, help="games per row (default 50)")
    parser.add_argument("--only", action="append", help="a setup key (repeatable): " + ", ".join(BY_KEY))
    parser.add_argument("--pair", action="append",
                        help="normal-easy, strong-normal (default both; party setups play each level named)")
    parser.add_argument("--scale", action="append", default=[],
                        help="LEVEL=FACTOR: that level on FACTOR times its playout budget (e.g. strong=0.25)")
    parser.add_argument("--procs", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--list", action="store_true", help="print the rows and stop")
    parser.add_argument("--verbose", action="store_true", help="a progress line per game (stderr)")
    args = parser.parse_args()
    unknown = set(args.only or []) - set(BY_KEY)
    if unknown:
        parser.error(f"unknown setup {', '.join(sorted(unknown))}; choose from {', '.join(BY_KEY)}")
    pairs = []
    for p in args.pair or ["normal-easy", "strong-normal"]:
        high, _, low = p.partition("-")
        if high not in bots.LEVELS or low not in bots.LEVELS:
            parser.error(f"a pair is HIGH-LOW with levels from {', '.join(bots.LEVELS)}")
        pairs.append((high, low))
    scale = {}
    for s in args.scale:
        lv, _, f = s.partition("=")
        if lv not in bots.LEVELS:
            parser.error("--scale is LEVEL=FACTOR")
        scale[lv] = float(f)
    setups = [s for s in SETUPS if not args.only or s.key in args.only]
    rows = rows_for(setups, pairs)
    if args.list:
        for r in rows:
            print(f"{r.setup.key:18} {r.label}")
        return
    by = {(r.setup.key, r.high, r.low): r for r in rows}
    tasks = [(r.setup.key, r.high, r.low, g, scale) for r in rows for g in range(args.games)]
    t0 = time.perf_counter()
    done = 0
    with multiprocessing.get_context("fork").Pool(max(1, args.procs)) as pool:
        for key, high, low, points, shared, times, seconds in pool.imap_unordered(play_game, tasks):
            r = by[(key, high, low)]
            r.games += 1
            r.shared += shared
            if points is None:
                r.unfinished += 1
            else:
                r.points += points
            r.seconds += seconds
            for lv, ts in times.items():
                r.times.setdefault(lv, []).extend(ts)
            done += 1
            if r.games == args.games or args.verbose:
                print(f"[{time.perf_counter() - t0:6.0f} s] {done}/{len(tasks)} {key} {r.label}: "
                      f"{r.points:g}/{r.games}  ({r.seconds / r.games:.1f} CPU s/game)", file=sys.stderr, flush=True)
    cpu = sum(r.seconds for r in rows)
    print(f"\n{len(tasks)} games in {time.perf_counter() - t0:.0f} s wall, {cpu:.0f} s CPU, on {args.procs} processes "
          f"({os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}), {args.games} games a row\n")
    print(table(rows, scale))


if __name__ == "__main__":
    main()
