"""The worker's CPU per email without Celery: `outbox.deliver` called in this process, row after row.

    .venv/bin/python bench/deliver_cpu.py [--emails 300] [--runs 3] [--profile FILE] [--once]

The rows are bench/delivery.py's (the emails new Riftforce games queue to two players who played
before), on a throwaway SQLite database, delivered to the local sink in a process of its own.  Printed
per run: this process's CPU time per email (user + system) and its wall time per email; then the
medians.  `--profile FILE`: a cProfile of one more run into FILE (pstats), to see where the time goes.
`--once`: one run, nothing printed, for counting instructions, the same whatever else the machine is
doing: `valgrind --tool=callgrind` of `--once --emails 200` less that of `--once --emails 100`, over
100, is the instructions an email.  What Celery adds per email (receiving, tracing, acknowledging the
task) is bench/delivery.py's to measure.
"""

from __future__ import annotations

import argparse
import cProfile
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.delivery import SECRET, free_port, pending_emails, start_sink, stop_sink
from service import create_app
from service.mail import outbox
from service.migrate import upgrade


def _deliver_all(ids: list[int]) -> None:
    for row_id in ids:
        if outbox.deliver(row_id) != "sent":
            raise SystemExit(f"outbox row {row_id} was not sent")


def run(emails: int, profile: str | None = None) -> tuple[float, float]:
    tmp = Path(tempfile.mkdtemp(prefix="riftpost-bench-deliver-cpu-"))
    url = f"sqlite:///{tmp / 'app.sqlite'}"
    upgrade(url)
    port = free_port()
    sink = start_sink(tmp / "mail", port)
    app = create_app({"INSTANCE_PATH": str(tmp), "DATABASE_URL": url, "SECRET_KEY": SECRET, "OUTBOX_KICK": False,
                      "SMTP_URL": f"smtp://127.0.0.1:{port}", "BASE_URL": "http://bench.local"})
    try:
        with app.app_context():
            ids = pending_emails(emails + 20)
            _deliver_all(ids[:20])  # warm: templates compiled, the SMTP connection open
            ids = ids[20:20 + emails]
            profiler = cProfile.Profile() if profile else None
            wall, cpu = time.perf_counter(), time.process_time()
            if profiler:
                profiler.enable()
            _deliver_all(ids)
            if profiler:
                profiler.disable()
                profiler.dump_stats(profile)
            cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    finally:
        stop_sink(sink)
        app.extensions["riftpost.db"].dispose()
        shutil.rmtree(tmp, ignore_errors=True)
    return cpu / len(ids) * 1000, wall / len(ids) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description="Riftpost: the worker's CPU per email, without Celery")
    parser.add_argument("--emails", type=int, default=300)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--profile", metavar="FILE", help="a cProfile of one more run, into FILE")
    parser.add_argument("--once", action="store_true", help="one run, nothing printed (for callgrind)")
    args = parser.parse_args()
    if args.once:
        run(args.emails)
        return
    figures = []
    for _ in range(args.runs):
        cpu, wall = run(args.emails)
        figures.append((cpu, wall))
        print(f"{args.emails} emails: CPU {cpu:5.2f} ms/email, wall {wall:5.2f} ms/email", flush=True)
    print(f"median: CPU {statistics.median(f[0] for f in figures):5.2f} ms/email, "
          f"wall {statistics.median(f[1] for f in figures):5.2f} ms/email over {len(figures)} runs")
    if args.profile:
        run(args.emails, args.profile)
        print(f"profile written to {args.profile}")


if __name__ == "__main__":
    main()
