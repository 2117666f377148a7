"""Replay benchmark: a state rebuilt from event 1 through the store, beside the engine alone.

    .venv/bin/python bench/replay.py [--repeat 9] [--seed 1] [--no-postgres]

For a long game of each engine (created by `service.play.new_game`, then played at random with
the engine in memory and appended through `store.append`, so the rows are those the service
writes), on SQLite and on PostgreSQL:

- engine:  `engine.replay(rules, payloads)` with the payloads already in memory (decoded from
           JSON, as a store hands them back): the engine's own rate, the ceiling of the store's.
- read:    the store's read of the engine payloads (`store.log._engine_payloads`), no evolve.
- replay:  `store.replay_from_start(session, game)` in a fresh read session: snapshots ignored,
           every event read, decoded, upcast if needed and evolved.  Target: >= 400k events/s.

The database's share is the part of a replay's time not spent in the engine.  Each figure is the
median of --repeat rounds, the best beside it (the machine is shared: the runs take turns within a
round, so load falls on all alike; repeat the bench and compare medians), and the median by this
thread's CPU time (`cpu`: steadier on a busy machine; without PostgreSQL's own work).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


from pgdb import drop, postgres_url  # bench/pgdb.py

import engine
from service import create_app, store
from service.migrate import upgrade
from service.play import new_game
from service.store import get_engine, read_session, write_session
from service.store.log import _engine_payloads
from tests.consent import preconsent  # the benches' way past the invitation (bench/home.py, delivery.py)

PLAYERS = [("Ann", "ann@example.org"), ("Bob", "bob@example.org"), ("Cy", "cy@example.org"),
           ("Di", "di@example.org")]
# (engine, players, options, events wanted): each engine's longest usual game.  Riftforce and
# Beyond the Rift games end on their own (a few hundred events); the longest of a few seeds is kept.
GAMES = [
    ("riftforce", 2, {"guilds": "all"}, 2000),
    ("riftwalker", 4, {}, 2000),
    ("beyond-the-rift", 2, {"scenario": "old-friends-1"}, 2000),
]


def grow(name: str, players: int, options: dict, wanted: int, seed: int) -> int:
    """A game played at random (engine in memory, one `store.append` per decision) until it ends or
    has `wanted` events; its id."""
    rules = engine.get(name)
    game_id = new_game(name, PLAYERS[:players], options, seed=seed)
    with read_session(get_engine()) as session:
        game = store.get_game(session, game_id)
        state, _ = store.load_state(session, game)
    pick, rng = random.Random(seed), random.Random(~seed)
    decisions: list[tuple[int, list[dict]]] = []
    seq = game.seq
    while rules.result(state) is None and seq < wanted:
        seat = pick.choice(rules.to_act(state))
        new = rules.play(state, seat, pick.choice(rules.legal_moves(state, seat)), rng)
        for event in new:
            state = rules.evolve(state, event)
        decisions.append((seat, new))
        seq += len(new)
    with write_session(get_engine()) as session:
        game = store.get_game(session, game_id)
        for seat, new in decisions:
            result = rules.result(state) if (seat, new) is decisions[-1] else None
            store.append(session, game, game.seq, new, actor=seat, kind="move", read_model={
                "to_act": rules.to_act(state), "status": "finished" if result else "active", "result": result})
    return game_id


def longest(name: str, players: int, options: dict, wanted: int, seed: int, tries: int = 4) -> int:
    best, best_seq = 0, -1
    for attempt in range(tries):
        game_id = grow(name, players, options, wanted, seed + attempt)
        with read_session(get_engine()) as session:
            seq = store.get_game(session, game_id).seq
        if seq > best_seq:
            best, best_seq = game_id, seq
        if seq >= wanted:
            break
    return best


def rates(events: int, repeat: int, runs: dict) -> dict[str, tuple[float, float, float]]:
    """Events/s of each run, (median, best, median by this thread's CPU time) over `repeat` rounds; the
    runs take turns within a round, so the load of a shared machine falls on all of them alike.  The CPU
    figure is what a busy machine disturbs least; it leaves out the database server's own work
    (PostgreSQL's process), which the elapsed time includes."""
    times: dict[str, list[float]] = {name: [] for name in runs}
    cpu: dict[str, list[float]] = {name: [] for name in runs}
    for _ in range(repeat):
        for name, run in runs.items():
            started, started_cpu = time.perf_counter(), time.thread_time()
            run()
            cpu[name].append(time.thread_time() - started_cpu)
            times[name].append(time.perf_counter() - started)
    return {name: (events / statistics.median(spent), events / min(spent), events / statistics.median(cpu[name]))
            for name, spent in times.items()}


def measure(game_id: int, repeat: int) -> None:
    with read_session(get_engine()) as session:
        game = store.get_game(session, game_id)
        payloads = _engine_payloads(session, game, 0, game.seq)
        from_db = store.replay_from_start(session, game)
    rules = engine.get(game.name)
    payloads = json.loads(json.dumps(payloads))  # as decoded from a store: nothing shared
    assert engine.replay(rules, payloads) == from_db

    def read() -> None:
        with read_session(get_engine()) as session:
            _engine_payloads(session, game, 0, game.seq)

    def replay() -> None:
        with read_session(get_engine()) as session:
            store.replay_from_start(session, game)

    found = rates(len(payloads), repeat, {"engine": lambda: engine.replay(rules, payloads), "read": read,
                                          "replay": replay})
    share = 1 - found["replay"][0] / found["engine"][0]
    print(f"  {game.name:16} {len(payloads):5} events   " + "   ".join(
        f"{label} {found[name][0]:9,.0f} /s (best {found[name][1]:9,.0f}, cpu {found[name][2]:9,.0f})"
        for name, label in (("engine", "engine"), ("read", "read"), ("replay", "replay from the database")))
        + f"   database share {share:4.0%}")


def run(label: str, url: str, folder: Path, repeat: int, seed: int) -> None:
    upgrade(url)
    app = create_app({"INSTANCE_PATH": str(folder), "DATABASE_URL": url, "SECRET_KEY": "bench",
                      "OUTBOX_KICK": False, "MAILDIR": str(folder / "mail")})
    with app.app_context():
        # Players who have played together: their games start at once, and the per-address caps on
        # invitations from strangers (service/play/consent.py) do not count them.
        preconsent(*(email for _, email in PLAYERS))
        print(f"{label}, median (best) of {repeat} rounds; target: replay from the database >= 400,000 events/s")
        for name, players, options, wanted in GAMES:
            measure(longest(name, players, options, wanted, seed), repeat)
    app.extensions["riftpost.db"].dispose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=9)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-postgres", action="store_true")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="riftpost-bench-replay-"))
    run("SQLite", f"sqlite:///{folder / 'bench.sqlite'}", folder, args.repeat, args.seed)
    if not args.no_postgres:
        url = postgres_url()
        if url:
            try:
                run("PostgreSQL", url, folder, args.repeat, args.seed)
            finally:
                drop(url)


if __name__ == "__main__":
    main()
