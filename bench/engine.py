"""Engine benchmark: random full games/s, legal-move generation/s, replay events/s.

    .venv/bin/python bench/engine.py                      # riftforce, both guild options
    .venv/bin/python bench/engine.py --game riftforce --games 300 --option guilds=all

Works for any registered game: it drives the engine only through the contract (start, to_act,
legal_moves, play, evolve/apply, replay).  `--option KEY=VALUE` may be repeated (VALUE is JSON when it
parses); without it, the runs listed for the game in DEFAULT_OPTIONS are made.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine

# Runs made when no --option is given, per game (a game not listed runs once with no options).
DEFAULT_OPTIONS: dict[str, list[dict]] = {
    "riftforce": [{"guilds": "base"}, {"guilds": "all"}],
}


def load(name: str) -> engine.Game:
    # Import only the game asked for, so a game still under construction cannot break the bench.
    with contextlib.suppress(ModuleNotFoundError):
        importlib.import_module(f"engine.{name.replace('-', '_')}")
    return engine.get(name)


def policy(rng: random.Random, moves: list) -> dict:
    """Uniform over move kinds, then over moves of that kind (keeps games from stalling on the
    kind of move that has the most buttons)."""
    kinds = sorted({str(m.get("type")) for m in moves})
    kind = rng.choice(kinds)
    return rng.choice([m for m in moves if str(m.get("type")) == kind])


def play_games(game, players, options, games, seed):
    """Play `games` random games; returns (seconds, decisions, event logs, sampled states)."""
    logs, samples, decisions = [], [], 0
    t0 = time.perf_counter()
    for i in range(games):
        events = game.start(players, options, seed + i)
        state = engine.replay(game, events)
        rng, pick = random.Random(seed + i), random.Random(~(seed + i))
        while game.result(state) is None:
            seats = game.to_act(state)
            seat = seats[0] if len(seats) == 1 else pick.choice(seats)
            new = game.play(state, seat, policy(pick, game.legal_moves(state, seat)), rng)
            for e in new:  # play never mutates its input, so the bench owns `state`
                state = game.evolve(state, e)
            events.extend(new)
            decisions += 1
            if decisions % 7 == 0:
                samples.append((game.copy_state(state), seat))
        logs.append(events)
    return time.perf_counter() - t0, decisions, logs, samples


def bench(name: str, options: dict, games: int, seed: int, players: int) -> dict:
    game = load(name)
    secs, decisions, logs, samples = play_games(game, players, options, games, seed)
    logs = json.loads(json.dumps(logs))  # replay what a store would hand back
    n_events = sum(len(log) for log in logs)

    t0 = time.perf_counter()
    calls = 0
    for _ in range(3):
        for state, _seat in samples:
            for seat in game.to_act(state):
                game.legal_moves(state, seat)
                calls += 1
    legal_secs = time.perf_counter() - t0

    t0 = time.perf_counter()
    for log in logs:
        engine.replay(game, log)
    replay_secs = time.perf_counter() - t0

    t0 = time.perf_counter()
    for log in logs:
        state = None
        for e in log:
            state = game.apply(state, e)
    apply_secs = time.perf_counter() - t0

    return {
        "game": name, "options": options, "games": games,
        "games_per_s": games / secs,
        "decisions_per_s": decisions / secs,
        "events_per_game": n_events / games,
        "legal_moves_per_s": calls / legal_secs if legal_secs else float("inf"),
        "replay_events_per_s": n_events / replay_secs,
        "apply_events_per_s": n_events / apply_secs,
    }


def _option(text: str) -> tuple[str, object]:
    """KEY=VALUE; VALUE is read as JSON when it parses (numbers, lists), else kept as a string."""
    key, _, value = text.partition("=")
    try:
        return key, json.loads(value)
    except ValueError:
        return key, value


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="riftforce")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    args = ap.parse_args(argv)
    runs = [dict(_option(o) for o in args.option)] if args.option else \
        DEFAULT_OPTIONS.get(args.game, [{}])
    for options in runs:
        r = bench(args.game, options, args.games, args.seed, args.players)
        print(f"{r['game']} {json.dumps(r['options'])}: {r['games']} games, "
              f"{r['events_per_game']:.0f} events/game")
        print(f"  random full games      {r['games_per_s']:10,.1f} /s  "
              f"({r['decisions_per_s']:,.0f} decisions/s: legal_moves + play + evolve)")
        print(f"  legal-move generation  {r['legal_moves_per_s']:10,.0f} calls/s")
        print(f"  replay (evolve fold)   {r['replay_events_per_s']:10,.0f} events/s")
        print(f"  apply (copy + evolve)  {r['apply_events_per_s']:10,.0f} events/s")


if __name__ == "__main__":
    main()
