"""The worker without Celery's command line (the Procfile's `worker`):

    python -m worker --pool=solo --loglevel=INFO [--hostname NAME] [--concurrency N]

The same worker as `celery -A worker worker` with these options (which still works), started as that
command starts it (`app.Worker(...).start()`, celery/bin/worker.py), but without loading the command
line first: `celery` imports every subcommand it has, and with them an interactive shell's libraries
(click_repl, prompt_toolkit, pygments: some 170 modules, 8.7 MB of the worker's memory) that a worker
never uses (bench/memory.py).  For anything else (other options, `celery inspect`...) use `celery`.
"""

from __future__ import annotations

import argparse
import sys


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m worker", description="Riftpost's Celery worker")
    parser.add_argument("-P", "--pool", default="solo", help="the pool (default solo: the Procfile's)")
    parser.add_argument("-l", "--loglevel", default="WARNING")
    parser.add_argument("-n", "--hostname", default=None, help="the node name (default celery@HOST)")
    parser.add_argument("-c", "--concurrency", type=int, default=None)
    for flag in ("heartbeat", "mingle", "gossip"):
        parser.add_argument(f"--without-{flag}", action="store_true")
    args = parser.parse_args(argv)

    from worker.app import celery

    worker = celery.Worker(  # type: ignore[attr-defined]  # Celery's subclass property
        hostname=args.hostname,
        pool_cls=args.pool,
        loglevel=args.loglevel,
        concurrency=args.concurrency,
        without_heartbeat=args.without_heartbeat,
        without_mingle=args.without_mingle,
        without_gossip=args.without_gossip,
    )
    worker.start()
    return int(worker.exitcode or 0)


if __name__ == "__main__":
    sys.exit(main())
