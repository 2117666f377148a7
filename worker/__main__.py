"""The worker without Celery's command line (the Procfile's `worker`):

    python -m worker --pool=prefork --concurrency=2 --loglevel=INFO [--hostname NAME]

The same worker as `celery -A worker worker` with these options (which still works), started as that
command starts it (`app.Worker(...).start()`, celery/bin/worker.py), but without loading the command
line first: `celery` imports every subcommand it has, and with them an interactive shell's libraries
(click_repl, prompt_toolkit, pygments: some 170 modules, 8.7 MB of the worker's memory) that a worker
never uses (bench/memory.py).  For anything else (other options, `celery inspect`...) use `celery`.

The pool (issue #27): a sweep queues hundreds of emails at once, and one email costs the worker ~5 ms
of Python CPU, so one process, whatever its threads (the GIL), sends at most ~150 a second (6 threads
on 2 cores, with the sink on the other).  Prefork sends on as many processes as CONCURRENCY (default
2, the cores of the machine the service is sized for), each with its SMTP connection (service/mail/smtp.py keeps them per process), and it is the pool
where the tasks' time limits (worker/tasks.py, the outbox lease's backstop) are enforced: the solo
and threads pools ignore them.  bench/delivery.py measures the pools.
"""

from __future__ import annotations

import argparse
import sys

POOL = "prefork"
# Not the machine's CPU count (Celery's default): each prefork child holds its own copy of what a
# worker loads (bench/delivery.py: ~35 MB more per child, shared pages halved), and two keep two
# cores busy while the sink, Redis and the web share them.
CONCURRENCY = 2


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m worker", description="Riftpost's Celery worker")
    parser.add_argument("-P", "--pool", default=POOL, help=f"the pool (default {POOL}: the Procfile's)")
    parser.add_argument("-l", "--loglevel", default="WARNING")
    parser.add_argument("-n", "--hostname", default=None, help="the node name (default celery@HOST)")
    parser.add_argument("-c", "--concurrency", type=int, default=CONCURRENCY,
                        help=f"the pool's processes (or threads) (default {CONCURRENCY})")
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
