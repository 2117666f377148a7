"""A real Celery worker (with embedded beat) for the tests: `python -m tests.worker.run_worker`.

The same app as `celery -A worker worker -B`, plus the test-only toy game registered in this
process, configured only through the environment like the Procfile's worker.
"""

from tests.service import toygame  # noqa: F401 - the worker must know the test game's rules
from worker import celery

if __name__ == "__main__":
    celery.worker_main(["worker", "-B", "--pool=solo", "--loglevel=INFO", "--without-heartbeat",
                        "--without-mingle", "--without-gossip"])
