"""Celery beat for Riftpost (`beat_scheduler` in worker/app.py): the Procfile's `beat` process
(`python -m worker.beat`, `main` below), or the beat child of a `celery -A worker worker -B`.

Beat only publishes three small periodic tasks (the outbox scan, the deadline sweep, the broker purge),
but if it stops, emails stay pending and reminders, timeouts and game ends stop, silently.  Three
things keep it going:

- **It reconnects after a failed publish.**  Celery's scheduler publishes every tick through one
  producer on one connection, both cached for the life of the process.  Once a publish fails (the
  embedded SQLite broker "database is locked" for longer than the publish retries last, or Redis
  gone), kombu leaves that producer bound to a closed channel and every later tick fails with
  "channel disconnected" until a restart.  Here a failed publish drops the producer and its
  connection, so the next tick publishes on fresh ones; the tick that failed is not repeated (its task
  is a scan: the next one does the same work).  While the broker cannot be reached at all, beat waits
  for it (retrying, logged) instead of giving up after Celery's default 100 tries.  Reconnecting
  rather than running the periodic work inside the worker without the broker: the scan's work goes
  through the broker anyway (it enqueues the sends), the same code serves Redis in production, and
  every other publisher (the web's kick, the scan's enqueue) takes its producer from kombu's pool,
  which revives a closed channel by itself; only beat's cached producer never did.
- **One beat per deployment.**  Two beats would run every scan and sweep twice.  Before it opens its
  schedule file, beat takes a lock that every process of one deployment shares and that the operating
  system or the database releases when its holder dies, even by SIGKILL: a PostgreSQL advisory lock
  held by a connection of its own, or with SQLite (one machine) an exclusive flock on a file beside the
  database.  A second beat waits, logging why, and takes over when the first one is gone.
- **An embedded beat dies with its worker.**  The Procfile runs beat as its own process, but the
  tests' worker and anyone's `worker -B` fork beat as a child; if the worker is
  SIGKILLed the child runs on with parent PID 1, beside the beat of the restarted worker.  The child
  asks Linux to send it SIGTERM when its parent dies (PR_SET_PDEATHSIG).
"""

from __future__ import annotations

import argparse
import ctypes
import errno
import fcntl
import logging
import os
import signal
import sys
import time
import zlib
from pathlib import Path
from typing import TYPE_CHECKING, Any

from billiard.process import current_process
from celery.beat import PersistentScheduler

if TYPE_CHECKING:
    import sqlalchemy as sa

log = logging.getLogger(__name__)

# How often a waiting beat tries the one-beat lock again.
LOCK_RETRY_SECONDS = 2.0
# The key of the PostgreSQL advisory lock (advisory locks are per database, so per deployment).
ADVISORY_KEY = zlib.crc32(b"riftpost.beat")
_PR_SET_PDEATHSIG = 1  # <linux/prctl.h>


def die_with_parent(parent: int) -> None:
    """Have Linux send this process SIGTERM when its parent dies (SIGTERM lets beat save its
    schedule on the way out).  If `parent` is already gone (it died before this call, and this
    process was handed to another), go now.  Linux only (the machines this runs on); elsewhere a -B
    beat can still outlive its worker."""
    if not sys.platform.startswith("linux"):
        return
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_PDEATHSIG) failed")
    if os.getppid() != parent:
        os.kill(os.getpid(), signal.SIGTERM)


def _embedding_worker() -> int | None:
    """The worker's pid if this is the beat child that `worker -B` forks (celery.beat._Process, a
    billiard process named "Beat", which remembers its parent), else None."""
    process = current_process()
    return getattr(process, "_parent_pid", None) if process.name == "Beat" else None


def _backend_and_database(url: str) -> tuple[str, str | None]:
    """The backend ("sqlite", "postgresql"...) of a SQLAlchemy URL and a SQLite URL's database, as
    sa.make_url reads them (tests/worker/test_beat.py), without loading SQLAlchemy (~13 MB of beat's
    memory): `sqlite://` (in memory), `sqlite:///relative`, `sqlite:////absolute`, options after `?`."""
    scheme, _, rest = url.partition("://")
    backend = scheme.partition("+")[0]
    if backend != "sqlite":
        return backend, None
    return backend, rest.partition("?")[0].partition("/")[2] or None


class BeatLock:
    """The one-beat lock of a deployment, held until `release` or the holder's death."""

    def __init__(self, database_url: str, instance_path: str):
        self.database_url = database_url
        self._engine: sa.Engine | None = None
        self._connection: sa.Connection | None = None
        self._fd: int | None = None
        backend, database = _backend_and_database(database_url)
        if backend == "postgresql":
            self.where = f"PostgreSQL advisory lock {ADVISORY_KEY}"
            self._path = None
        else:
            # A SQLite database lives on one machine: a file beside it (the instance folder for an
            # in-memory one) is seen by every process of the deployment.
            database = database if backend == "sqlite" else None
            path = Path(f"{database}.beat-lock") if database and database != ":memory:" else \
                Path(instance_path) / "beat-lock"
            self.where = str(path)
            self._path = path

    def try_acquire(self) -> bool:
        if self._path is None:
            return self._try_advisory()
        return self._try_flock(self._path)

    def _try_flock(self, path: Path) -> bool:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            os.close(fd)
            if exc.errno in (errno.EAGAIN, errno.EACCES):
                return False
            raise
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())  # who holds it, for a person looking
        self._fd = fd
        return True

    def _try_advisory(self) -> bool:
        import sqlalchemy as sa  # PostgreSQL's alone: beat on SQLite never loads SQLAlchemy

        if self._engine is None:
            # One connection, kept open for beat's life: the session-level lock is released when
            # it closes, which the server notices when the process dies.
            self._engine = sa.create_engine(self.database_url, poolclass=sa.pool.NullPool)
        connection = self._engine.connect()
        try:
            got = connection.execute(sa.text("SELECT pg_try_advisory_lock(:key)"), {"key": ADVISORY_KEY}).scalar()
            connection.commit()
        except BaseException:
            connection.close()
            raise
        if got:
            self._connection = connection
            return True
        connection.close()
        return False

    def acquire(self) -> None:
        """Wait for the lock: another beat of this deployment may hold it."""
        waiting = False
        while not self.try_acquire():
            if not waiting:
                log.warning("beat: another beat of this deployment holds %s (a beat already runs); "
                            "waiting to take over when it stops", self.where)
                waiting = True
            time.sleep(LOCK_RETRY_SECONDS)
        if waiting:
            log.warning("beat: took over %s", self.where)

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing the file releases the flock
            self._fd = None
        if self._connection is not None:
            self._connection.close()
            self._connection = None
        if self._engine is not None:
            self._engine.dispose()
            self._engine = None


class Scheduler(PersistentScheduler):
    """Celery's file-backed scheduler that takes the one-beat lock first, and reconnects after a
    failed publish (see the module docstring)."""

    def __init__(self, app: Any, *args: Any, lazy: bool = False, **kwargs: Any):
        worker = _embedding_worker()
        if worker is not None:
            die_with_parent(worker)
        config = app.settings  # not the Flask app: beat never loads it (worker/app.py)
        self.beat_lock = BeatLock(config["DATABASE_URL"], config["INSTANCE_PATH"])
        # A lazy scheduler only describes itself (`celery beat` prints one in its banner before it
        # builds the one that runs) and opens no schedule file: it takes no lock.  The one that runs
        # takes it before it opens the schedule file, which a second beat must not touch.
        if not lazy:
            self.beat_lock.acquire()
        super().__init__(app, *args, lazy=lazy, **kwargs)

    def apply_async(self, entry: Any, producer: Any = None, advance: bool = True, **kwargs: Any) -> Any:
        try:
            return super().apply_async(entry, producer=producer, advance=advance, **kwargs)
        except Exception:
            # Celery logs the failure (Scheduler.apply_entry); the next tick must not reuse the
            # producer whose channel kombu has closed.
            self._drop_connection()
            raise

    def _drop_connection(self) -> None:
        self.__dict__.pop("producer", None)
        connection = self.__dict__.pop("connection", None)
        if connection is not None:
            try:
                connection.release()
            except Exception:  # a broken connection may fail to close; it is dropped anyway
                log.debug("beat: closing the failed broker connection failed", exc_info=True)

    def _ensure_connected(self) -> Any:
        """The broker connection for a new producer; while the broker is down, wait for it (every
        try logged) rather than stop beat after Celery's default 100 tries."""

        def _error_handler(exc: Exception, interval: float) -> None:
            log.error("beat: broker connection error: %s; trying again in %s s", exc, interval)

        return self.connection.ensure_connection(_error_handler, max_retries=None, interval_max=10)

    def close(self) -> None:
        try:
            super().close()
        finally:
            self.beat_lock.release()


def main(argv: list[str] | None = None) -> int:
    """The Procfile's beat: `python -m worker.beat [--loglevel INFO]`, the same beat as `celery -A worker
    beat` (celery/bin/beat.py: `app.Beat(...).run()`), without loading Celery's command line (its
    interactive shell's libraries, ~9 MB) and, with the embedded broker, publishing through sqlite3
    rather than SQLAlchemy (worker/broker.py): beat loads neither the tasks, the database layer, the
    templates nor the engines (bench/memory.py; tests/worker/test_lean_processes.py)."""
    parser = argparse.ArgumentParser(prog="python -m worker.beat", description="Riftpost's Celery beat")
    parser.add_argument("-l", "--loglevel", default="WARNING")
    args = parser.parse_args(argv)

    from worker.app import celery

    celery.publishes_with_sqlite3 = True
    celery.Beat(loglevel=args.loglevel).run()  # type: ignore[attr-defined]  # Celery's subclass property
    return 0


if __name__ == "__main__":
    # Run as `python -m worker.beat`, this file is __main__; the scheduler celery loads by name
    # (`beat_scheduler`) is worker.beat, imported as usual, so main runs from there too.
    from worker.beat import main as run

    sys.exit(run())
