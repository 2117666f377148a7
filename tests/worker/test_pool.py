"""The worker's pool (issue #27, mail in bursts): the Procfile runs a prefork pool of two processes, and
a process of the pool never shares its parent's database connections.  Each check runs in a fresh
interpreter configured through the environment, like the Procfile's worker."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.procfile import procfile_line
from tests.worker.processes import ROOT


def run(tmp_path: Path, code: str) -> None:
    env = dict(os.environ, RIFTPOST_INSTANCE=str(tmp_path), SECRET_KEY="pool",
               DATABASE_URL=f"sqlite:///{tmp_path / 'app.sqlite'}",
               CELERY_BROKER_URL=f"sqla+sqlite:///{tmp_path / 'broker.sqlite'}")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_procfile_worker_is_a_prefork_pool_of_two_its_entry_points_default(tmp_path):
    """Prefork: a burst is sent on two cores (one process of threads is held to one by the GIL,
    bench/delivery.py), and the tasks' time limits (the lease's backstop) are enforced only there."""
    import worker.__main__ as entry

    line = procfile_line("worker")
    assert "--pool=prefork" in line.split() and "--concurrency=2" in line.split()
    assert (entry.POOL, entry.CONCURRENCY) == ("prefork", 2)
    run(tmp_path, "from celery.apps.worker import Worker; started = []; "
                  "Worker.start = lambda self: started.append(self); "
                  "import worker.__main__ as entry; assert entry.main([]) == 0; "
                  "assert started[0].pool_cls.__module__ == 'celery.concurrency.prefork', started[0].pool_cls; "
                  "assert started[0].concurrency == 2, started[0].concurrency")


def test_a_pool_process_opens_database_connections_of_its_own(tmp_path):
    """A prefork child is forked after the worker made its app (worker/app.py `start_worker`): the
    connections in the pool it inherits are its parent's, left to it; the worker's own process (the
    solo pool sends the same signal) keeps its pool."""
    run(tmp_path, """
import os
from celery import signals
from worker.app import celery
engine = celery.host.extensions["riftpost.db"]
with engine.connect() as connection:
    connection.exec_driver_sql("SELECT 1")
assert engine.pool.checkedin() == 1
child = os.fork()
if child == 0:
    signals.worker_process_init.send(sender=None)
    os._exit(0 if engine.pool.checkedin() == 0 else 1)
_, status = os.waitpid(child, 0)
assert os.waitstatus_to_exitcode(status) == 0, "the child kept its parent's connection"
signals.worker_process_init.send(sender=None)
assert engine.pool.checkedin() == 1
""")
