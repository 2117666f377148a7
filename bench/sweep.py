"""Deadline sweep benchmark: one sweep with 100,000 active timed games of which 1% are due.

    .venv/bin/python bench/sweep.py [--games 100000] [--due-percent 1] [--keep]

On the local PostgreSQL (a database of its own, dropped afterwards unless --keep).  The rows are
bulk-loaded with COPY: 100,000 Riftforce games (2 players each, a game clock and one seat clock
each).  The due games are real: their setup events, snapshot and current-state row (`game_states`)
are loaded too, so the sweep's timeouts go through the move path exactly as in production (default
moves, events, snapshots, outbox) and read the state row as a game made today would;
`--no-state-rows` leaves the state rows out (games from before the row existed: the first move of
each rebuilds its state from the snapshot and the log).

Prints the EXPLAIN plan of the sweep's claim query (it must use ix_deadlines_next_at, not scan the
table), the time of the sweep that finds the 1% due (ms per due timeout, of which the bench process's CPU,
and SQL round trips per due timeout, counted by a before_cursor_execute listener: one per statement
sent, an executemany batch counting once; on a shared machine the wall time swings with the load,
the CPU time and the round trips much less),
and the time of a sweep that finds nothing.  `--profile N`: the N costliest functions of the sweep
(cProfile, cumulative), to see what bounds it.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import random
import sys
import tempfile
import time
import uuid
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import sqlalchemy as sa

import engine
from service import create_app
from service.migrate import upgrade
from service.play import timeouts

POSTGRES_ADMIN = os.environ.get("RIFTPOST_TEST_POSTGRES", "postgresql+psycopg://postgres@127.0.0.1:5432/test")
NOW = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
CLAIM_SQL = (
    "SELECT deadlines.id FROM deadlines WHERE deadlines.next_at <= %(now)s "
    "ORDER BY deadlines.next_at LIMIT 200 FOR UPDATE SKIP LOCKED"
)


def copy(connection, table: str, columns: list[str], rows) -> None:
    with connection.cursor() as cursor, cursor.copy(f"COPY {table} ({', '.join(columns)}) FROM STDIN") as writer:
        for row in rows:
            writer.write_row(row)


def load(url: str, games: int, due_every: int, state_rows: bool = True) -> int:
    rules = engine.get("riftforce")
    setup = rules.start(players=2, options={}, seed=1)
    state = engine.replay(rules, setup)
    to_act = rules.to_act(state)
    seat = to_act[0]
    created = NOW - timedelta(days=3)
    rng = random.Random(4)
    engine_ = sa.create_engine(url)
    raw = engine_.raw_connection()
    try:
        connection = raw.driver_connection
        with connection.transaction():
            copy(connection, "games",
                 ["id", "name", "rules_version", "options", "seed", "seq", "status", "to_act", "created_at", "updated_at"],
                 ((g, "riftforce", str(rules.rules_version), "{}", 1, len(setup), "active", json.dumps(to_act),
                   created, created) for g in range(1, games + 1)))
            copy(connection, "players", ["id", "game_id", "seat", "name", "email", "turn_emails"],
                 ((2 * g - 1 + s, g, s, f"p{g}-{s}", f"p{g}-{s}@example.org", True)
                  for g in range(1, games + 1) for s in range(2)))
            due = [g for g in range(1, games + 1) if g % due_every == 0]
            copy(connection, "events", ["game_id", "seq", "type", "payload", "kind", "created_at"],
                 ((g, n, str(event.get("type"))[:60], json.dumps(event), "setup", created)
                  for g in due for n, event in enumerate(setup, start=1)))
            snapshot = json.dumps(state)
            copy(connection, "snapshots", ["game_id", "seq", "state", "created_at"],
                 ((g, len(setup), snapshot, created) for g in due))
            if state_rows:
                copy(connection, "game_states", ["game_id", "seq", "rules_version", "state", "snapshot_seq"],
                     ((g, len(setup), str(rules.rules_version), snapshot, len(setup)) for g in due))
            copy(connection, "game_clocks", ["game_id", "deadline_hours", "policy", "reminders", "timeout_streak"],
                 ((g, 72, "auto", "[24, 2]", 0) for g in range(1, games + 1)))

            def clock_row(g: int):
                if g % due_every == 0:  # its deadline passed an hour ago, both reminders sent
                    due_at = NOW - timedelta(hours=1)
                    return (g, seat, 2 * g - 1 + seat, due_at - timedelta(hours=72), due_at, 2, due_at)
                due_at = NOW + timedelta(minutes=rng.randint(150, 72 * 60))
                done = 0 if due_at - timedelta(hours=24) > NOW else 1
                look = due_at - timedelta(hours=24 if done == 0 else 2)
                return (g, seat, 2 * g - 1 + seat, due_at - timedelta(hours=72), due_at, done, look)

            copy(connection, "deadlines",
                 ["game_id", "seat", "player_id", "started_at", "due_at", "reminders_done", "next_at"],
                 (clock_row(g) for g in range(1, games + 1)))
            with connection.cursor() as cursor:
                for table in ("games", "players"):
                    cursor.execute(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), (SELECT max(id) FROM {table}))")
        connection.execute("ANALYZE")
        connection.commit()
    finally:
        raw.close()
        engine_.dispose()
    return len(due)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--due-percent", type=float, default=1.0)
    parser.add_argument("--keep", action="store_true", help="keep the database")
    parser.add_argument("--no-state-rows", action="store_true", help="load no game_states rows")
    parser.add_argument("--sort", default="cumulative", help="the profile's order (cumulative, tottime)")
    parser.add_argument("--statements", action="store_true", help="print the sweep's statements by kind, with counts")
    parser.add_argument("--profile", type=int, default=0, metavar="N", help="print the sweep's N costliest functions")
    args = parser.parse_args()
    name = f"riftpost_bench_{uuid.uuid4().hex[:8]}"
    admin = sa.create_engine(POSTGRES_ADMIN, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.exec_driver_sql(f'CREATE DATABASE "{name}"')
    url = POSTGRES_ADMIN.rsplit("/", 1)[0] + f"/{name}"
    try:
        upgrade(url)
        started = time.perf_counter()
        due = load(url, args.games, max(1, round(100 / args.due_percent)), state_rows=not args.no_state_rows)
        print(f"loaded {args.games:,} active games ({due:,} due, "
              f"{'without' if args.no_state_rows else 'with'} state rows) with COPY in {time.perf_counter() - started:.1f} s")
        raw_engine = sa.create_engine(url)
        with raw_engine.connect() as connection:
            plan = connection.exec_driver_sql("EXPLAIN " + CLAIM_SQL, {"now": NOW}).scalars().all()
        raw_engine.dispose()
        print("EXPLAIN of the sweep's claim query:")
        for line in plan:
            print("   ", line)
        if not any("ix_deadlines_next_at" in line for line in plan) or any("Seq Scan on deadlines" in line for line in plan):
            raise SystemExit("the claim query does not use ix_deadlines_next_at")
        tmp = Path(tempfile.mkdtemp(prefix="riftpost-bench-"))
        app = create_app({
            "INSTANCE_PATH": str(tmp), "DATABASE_URL": url, "SECRET_KEY": "bench", "OUTBOX_KICK": False,
            "CELERY_BROKER_URL": "memory://", "BASE_URL": "http://bench.test",
        })
        statements = [0]
        kinds: Counter[str] = Counter()

        def count(_conn: object, _cursor: object, sql: str, *_args: object) -> None:
            statements[0] += 1
            kinds[" ".join(sql.split())[:90]] += 1

        sa.event.listen(app.extensions["riftpost.db"], "before_cursor_execute", count)
        with app.app_context():
            profiler = cProfile.Profile() if args.profile else None
            started, cpu = time.perf_counter(), time.process_time()
            if profiler is not None:
                profiler.enable()
            counts = timeouts.sweep(NOW)
            elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu
            if profiler is not None:
                profiler.disable()
            print(f"sweep with {due:,} of {args.games:,} games due: {elapsed:.2f} s "
                  f"({elapsed / max(1, due) * 1000:.2f} ms per due timeout, "
                  f"{cpu / max(1, due) * 1000:.2f} ms of this process's CPU, "
                  f"{statements[0] / max(1, due):.1f} round trips per due timeout) -> "
                  + ", ".join(f"{k} {v}" for k, v in sorted(counts.items()) if v))
            if args.statements:
                for sql, n in kinds.most_common():
                    print(f"    {n:6d}  {sql}")
            if profiler is not None:
                pstats.Stats(profiler).sort_stats(args.sort).print_stats(args.profile)
            if counts["timeouts"] != due:
                raise SystemExit(f"expected {due} timeouts, got {counts['timeouts']}")
            statements[0] = 0
            started = time.perf_counter()
            counts = timeouts.sweep(NOW)
            print(f"a second sweep at the same time (nothing due): {(time.perf_counter() - started) * 1000:.1f} ms, "
                  f"{statements[0]} round trips")
        app.extensions["riftpost.db"].dispose()
    finally:
        if not args.keep:
            with admin.connect() as connection:
                connection.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.dispose()


if __name__ == "__main__":
    main()
