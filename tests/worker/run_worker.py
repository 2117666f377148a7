"""A real Celery worker (with embedded beat) for the tests: `python -m tests.worker.run_worker`.

The same app as `celery -A worker worker -B`, plus the test-only toy game registered in this
process, configured only through the environment like the Procfile's worker, and with the Procfile's
pool (its --pool and --concurrency), so that the drills prove the outbox's guarantees with the pool
that sends the mail; RIFTPOST_TEST_WORKER_POOL=solo|threads|prefork picks another.
"""

import os

from tests.procfile import procfile_line
from tests.service import toygame  # noqa: F401 - the worker must know the test game's rules
from worker import celery
from worker.beat import die_with_parent


def procfile_pool() -> list[str]:
    """The Procfile worker's --pool and --concurrency options."""
    return [word for word in procfile_line("worker").split() if word.startswith(("--pool=", "--concurrency="))]


def compress_broker_retries(seconds: float) -> None:
    """A drill's clock: kombu waits 2, 4, ... up to 30 s between tries to reach a lost broker, so
    Celery's default 100 tries last about 46 minutes; here every pause is `seconds`, so an outage
    outlasts them in seconds (tests/worker/test_beat.py)."""
    from kombu import Connection

    defaults = Connection._ensure_connection.__defaults__
    assert defaults is not None
    errback, max_retries, _start, _step, _max, *rest = defaults
    Connection._ensure_connection.__defaults__ = (errback, max_retries, seconds, 0, seconds, *rest)


if __name__ == "__main__":
    # A test run killed mid-drill must not leave its worker behind (in a session of its own, so the
    # kill does not reach it), retrying a Redis that is gone for the rest of the day.
    die_with_parent(os.getppid())
    if os.environ.get("RIFTPOST_TEST_BROKER_RETRY_SECONDS"):
        compress_broker_retries(float(os.environ["RIFTPOST_TEST_BROKER_RETRY_SECONDS"]))
    pool = os.environ.get("RIFTPOST_TEST_WORKER_POOL")
    options = [f"--pool={pool}"] if pool else procfile_pool()
    celery.worker_main(["worker", "-B", *options, "--loglevel=INFO", "--without-heartbeat",
                        "--without-mingle", "--without-gossip"])
