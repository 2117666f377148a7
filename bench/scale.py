"""The scale drill by hand (issue #25): the production layout on this machine, played to the end by bots.

    .venv/bin/python bench/scale.py [--games 200] [--webs 3] [--workers 3] [--beats 2] [--clients 12]
                                    [--late 0.02] [--race 0.5] [--keep]

Three web processes (the Procfile's `web`: granian), three Celery workers and two beats at once
against one throwaway PostgreSQL database and one Redis database, mailing a recording SMTP sink.  The
games (every game and mode: Riftforce duel, team of 3 and 4 with the draft, solo; Riftwalker 2-4;
Beyond the Rift 1-4 heroes), each seat a person with a personal API token, are played to the end by
client threads over the JSON play API as outside bots, some seats sleeping past their deadlines (the
drill moves a late seat's deadline to now) and some of those racing the sweep with a late move.

Prints moves/s and the p50/p95 latency of the move POSTs, emails delivered, timeouts applied, the
time taken, then the checks (tests/worker/scale.py): every move recorded exactly once, every email
delivered exactly once, no timeout applied twice, every game replayed from event 0 equal to its state
row, every game finished.  Exits 1 when a check fails.  The machinery is tests/worker/scale.py, which
tests/worker/test_scale_drill.py runs at a small size.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import redis
from pgdb import drop, postgres_url  # bench/pgdb.py

from tests.worker.scale import Layout, run

REDIS = os.environ.get("RIFTPOST_TEST_REDIS", "redis://127.0.0.1:6379")


def main() -> None:
    layout = Layout()
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=layout.games)
    parser.add_argument("--webs", type=int, default=layout.webs, help="web processes (the Procfile's granian)")
    parser.add_argument("--workers", type=int, default=layout.workers, help="celery workers (--pool=solo)")
    parser.add_argument("--beats", type=int, default=layout.beats, help="celery beats, all started at once")
    parser.add_argument("--clients", type=int, default=layout.clients, help="bot client threads")
    parser.add_argument("--late", type=float, default=layout.late, help="chance a seat sleeps past its deadline")
    parser.add_argument("--race", type=float, default=layout.race, help="chance a late seat posts its move anyway")
    parser.add_argument("--seed", type=int, default=layout.seed)
    parser.add_argument("--only", action="append", default=[],
                        help="play only this setup of the mix (repeatable), e.g. 'riftwalker 3p'")
    parser.add_argument("--redis-db", type=int, default=12 + int(os.environ.get("RIFTPOST_TEST_REDIS_DB_BASE", "0")) % 4,
                        help="the Redis database number (flushed first)")
    parser.add_argument("--keep", action="store_true", help="keep the database and the logs")
    args = parser.parse_args()
    layout = Layout(games=args.games, webs=args.webs, workers=args.workers, beats=args.beats, clients=args.clients,
                    late=args.late, race=args.race, seed=args.seed, only=tuple(args.only))

    print(f"{os.cpu_count()} CPUs, load average {' '.join(f'{x:.2f}' for x in os.getloadavg())} (1, 5, 15 min)")
    url = postgres_url()
    if url is None:
        raise SystemExit(2)
    broker = f"{REDIS}/{args.redis_db}"
    redis.Redis.from_url(broker).flushdb()
    tmp = Path(tempfile.mkdtemp(prefix="riftpost-scale-"))
    try:
        report = run(layout, url, broker, tmp)
    finally:
        if not args.keep:
            drop(url)
            shutil.rmtree(tmp, ignore_errors=True)
        else:
            print(f"kept: {url}, {tmp}")
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())} (1, 5, 15 min)")
    report.print()
    raise SystemExit(1 if report.failures else 0)


if __name__ == "__main__":
    main()
