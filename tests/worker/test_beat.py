"""Beat (worker/beat.py): one per deployment, alive through a broker outage, never outliving its worker.

The drills run the real worker with its embedded beat (tests/worker/run_worker.py), a real SMTP sink
and the real embedded SQLite broker, and do to them what happens in production: a SIGKILL, a broker
locked for a minute.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
import sqlalchemy as sa

from service.play import new_game
from service.store import get_engine, read_session
from service.store.models import Event, Outbox
from tests import services
from tests.conftest import SECRET, make_app
from tests.consent import preconsent
from tests.deadlines.helpers import timed_game
from tests.service import toygame
from tests.smtp import StallingSink
from tests.worker.processes import ROOT, RedisServer, WorkerProcess, procfile_concurrency, wait_until

PLAYERS = [("Ann", "ann@example.org"), ("Bob", "bob@example.org"), ("Cy", "cy@example.org")]


# ---- the Procfile --------------------------------------------------------------------------------


def procfile() -> dict[str, str]:
    lines = (ROOT / "Procfile").read_text().splitlines()
    return dict(line.split(": ", 1) for line in lines if line.strip() and not line.startswith("#"))


def test_the_procfile_runs_one_beat_of_its_own_and_workers_without_one():
    """Scaling the Procfile's worker (N workers at scale) must not add beats: beat is its own process."""
    processes = procfile()
    assert processes["beat"].split()[:3] == ["python", "-m", "worker.beat"]  # `celery -A worker beat`, leaner
    worker = processes["worker"].split()
    assert worker[0] == "python" and worker[worker.index("-m") + 1] == "worker"  # worker/__main__.py: leaner
    # than `celery -A worker worker`
    assert "-B" not in worker and "--beat" not in worker
    assert [name for name, command in processes.items() if " beat" in command or "worker.beat" in command] == ["beat"]


# ---- one beat per deployment ---------------------------------------------------------------------

HOLDER = """
import sys, time
from worker.beat import BeatLock
lock = BeatLock(sys.argv[1], sys.argv[2])
assert lock.try_acquire()
print("holding", flush=True)
time.sleep(600)
"""


def hold_lock_in_another_process(database_url: str, instance: Path) -> subprocess.Popen:
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, database_url, str(instance)], cwd=ROOT,
                              stdout=subprocess.PIPE, text=True)
    assert holder.stdout is not None and holder.stdout.readline().strip() == "holding"
    return holder


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def database_url(request, tmp_path):
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'app.sqlite'}"
        return
    url = services.postgres_database()
    yield url
    services.drop_postgres(url)


def test_a_second_beat_of_the_deployment_waits_until_the_first_one_dies(database_url, tmp_path):
    """The lock lives with the database every process of a deployment shares, and the kernel (flock)
    or the server (advisory lock of a closed connection) frees it when its holder is SIGKILLed."""
    from worker.beat import BeatLock

    holder = hold_lock_in_another_process(database_url, tmp_path / "instance-a")
    second = BeatLock(database_url, str(tmp_path / "instance-b"))  # another instance folder, same database
    try:
        assert not second.try_acquire()
        holder.send_signal(signal.SIGKILL)
        holder.wait(10)
        wait_until(second.try_acquire, timeout=30, interval=0.2)
        assert not BeatLock(database_url, str(tmp_path)).try_acquire()  # and now the second holds it
    finally:
        second.release()
        if holder.poll() is None:
            holder.kill()
            holder.wait(10)


@pytest.mark.parametrize("url", [
    "sqlite://", "sqlite:///:memory:", "sqlite:///app.sqlite", "sqlite:////srv/riftpost/app.sqlite",
    "sqlite+pysqlite:////srv/app.sqlite?timeout=20", "sqlite:///relative/dir/app.sqlite",
    "postgresql://riftpost@localhost/riftpost", "postgresql+psycopg://u:p%40w@db:5432/riftpost?sslmode=require",
    "mysql+pymysql://u@h/db",
])
def test_the_beat_lock_reads_a_database_url_as_sqlalchemy_does(url, tmp_path):
    """Beat reads DATABASE_URL without SQLAlchemy (worker/beat.py): the lock of a deployment must be the
    same file (SQLite) or the advisory lock (PostgreSQL) whichever process takes it."""
    from worker.beat import BeatLock, _backend_and_database

    parsed = sa.make_url(url)
    backend, database = _backend_and_database(url)
    assert backend == parsed.get_backend_name()
    if backend == "sqlite":
        assert database == parsed.database
    lock = BeatLock(url, str(tmp_path))
    assert lock.where == (f"{parsed.database}.beat-lock" if backend == "sqlite" and parsed.database not in (None, ":memory:")
                          else str(tmp_path / "beat-lock") if backend != "postgresql" else lock.where)


def test_beat_publishing_to_a_locked_embedded_broker_fails_as_a_lost_connection_and_recovers(tmp_path):
    """worker/broker.py (beat's way into the embedded broker): a locked database is a connection error,
    which kombu retries and after which beat's scheduler opens a new connection; once the lock is gone
    the new connection publishes, and the worker's transport takes the message."""
    from kombu import Connection, Producer

    url = f"sqla+sqlite:///{tmp_path / 'broker.sqlite'}"
    options = {"connect_args": {"timeout": 0.2}}  # the busy timeout (5 s by default)
    lean = Connection(url.removeprefix("sqla+"), transport="worker.broker:Transport", transport_options=options)
    Producer(lean.default_channel).publish({"n": 1}, routing_key="beat", declare=[])  # the tables are made
    lock = sqlite3.connect(tmp_path / "broker.sqlite", isolation_level=None)
    lock.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(lean.connection_errors):
            Producer(lean.default_channel).publish({"n": 2}, routing_key="beat")
    finally:
        lock.execute("COMMIT")
        lock.close()
    lean.release()
    again = Connection(url.removeprefix("sqla+"), transport="worker.broker:Transport", transport_options=options)
    Producer(again.default_channel).publish({"n": 3}, routing_key="beat")
    again.release()
    with Connection(url) as kombu:
        queue = kombu.SimpleQueue("beat")
        taken = [queue.get(timeout=1).payload for _ in range(2)]
        queue.close()
    assert taken == [{"n": 1}, {"n": 3}]


class BeatProcess:
    """The Procfile's `beat` command, configured through the environment only."""

    def __init__(self, *, instance: Path, database_url: str, broker_url: str):
        env = dict(os.environ, RIFTPOST_INSTANCE=str(instance), DATABASE_URL=database_url,
                   CELERY_BROKER_URL=broker_url, SECRET_KEY=SECRET, RIFTPOST_DISPATCH_SECONDS="1",
                   PYTHONUNBUFFERED="1")
        command = procfile()["beat"].split()
        assert command[0] == "python"
        self.log: list[str] = []
        self.process = subprocess.Popen([sys.executable, *command[1:]], cwd=ROOT, env=env,
                                        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.log.append(line)

    def published(self) -> int:
        return sum("Sending due task" in line for line in self.log)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(10)


@pytest.mark.slow
def test_two_procfile_beats_on_one_deployment_publish_one_at_a_time(tmp_path, migrated_sqlite):
    """Two Procfile beats (`python -m worker.beat`) of one deployment (a second `make run`, a beat scaled to 2): the
    second waits, saying why, and takes over only when the first is gone (here: SIGKILLed)."""
    db = tmp_path / "app.sqlite"
    shutil.copy(migrated_sqlite, db)
    settings = dict(instance=tmp_path, database_url=f"sqlite:///{db}",
                    broker_url=f"sqla+sqlite:///{tmp_path / 'broker.sqlite'}")
    first = BeatProcess(**settings)
    second = None
    try:
        wait_until(lambda: first.published() >= 1, timeout=60)
        second = BeatProcess(**settings)
        wait_until(lambda: any("another beat of this deployment holds" in line for line in second.log), timeout=60)
        published = first.published()
        wait_until(lambda: first.published() >= published + 3, timeout=30)
        assert second.published() == 0
        first.process.send_signal(signal.SIGKILL)
        first.process.wait(10)
        wait_until(lambda: second.published() >= 1, timeout=30)
        assert any("took over" in line for line in second.log)
    finally:
        first.stop()
        if second is not None:
            second.stop()


# ---- the embedded beat dies with its worker ------------------------------------------------------


def children_of(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:  # the process ended while we looked
                continue
            # "pid (comm) state ppid ...": comm may hold spaces and parentheses, so split after the last ")"
            if int(stat.rpartition(")")[2].split()[1]) == pid:
                found.append(int(entry.name))
    return found


def running(pid: int) -> bool:
    """Whether `pid` still runs (a zombie, dead but not yet reaped by its new parent, does not)."""
    try:
        state = (Path("/proc") / str(pid) / "stat").read_text().rpartition(")")[2].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")


@pytest.fixture
def embedded_stack(tmp_path, migrated_sqlite, sink):
    db = tmp_path / "app.sqlite"
    shutil.copy(migrated_sqlite, db)
    broker = f"sqla+sqlite:///{tmp_path / 'broker.sqlite'}"
    app = make_app(tmp_path, f"sqlite:///{db}", CELERY_BROKER_URL=broker, SMTP_URL=sink.url, OUTBOX_KICK=True)
    started: list[WorkerProcess] = []

    def start(**timing) -> WorkerProcess:
        worker = WorkerProcess(instance=tmp_path, database_url=f"sqlite:///{db}", broker_url=broker,
                               smtp_url=sink.url, base_url=app.config["BASE_URL"], **timing)
        started.append(worker)
        return worker

    with app.app_context():
        yield app, start, tmp_path / "broker.sqlite"
    for worker in started:
        worker.stop()
    app.extensions["riftpost.db"].dispose()


@pytest.mark.slow
def test_a_sigkilled_worker_leaves_no_beat_behind(embedded_stack):
    """`worker -B` forks beat; SIGKILL the worker and the beat child must go too (it used to run on with
    parent PID 1, beside the beat of the restarted worker), and so must the processes of its pool
    (prefork, the Procfile's: each holds an SMTP connection and database connections)."""
    app, start, _ = embedded_stack
    worker = start()
    wait_until(lambda: any("beat: Starting" in line for line in worker.log), timeout=30)
    pool = procfile_concurrency()
    children = wait_until(lambda: (found := children_of(worker.process.pid)) and len(found) >= 1 + pool and found,
                          timeout=30)
    assert len(children) == 1 + pool  # beat, and the pool's processes
    try:
        worker.process.send_signal(signal.SIGKILL)
        worker.process.wait(10)
        wait_until(lambda: not any(running(child) for child in children), timeout=30, interval=0.1)
    finally:
        for child in children:
            if running(child):
                os.kill(child, signal.SIGKILL)


# ---- beat through a locked broker ----------------------------------------------------------------

LOCK_SECONDS = 60


def sweeps_done(worker: WorkerProcess, since: int = 0) -> int:
    return sum(1 for line in worker.log[since:] if re.search(r"riftpost\.sweep_deadlines\[.*\] succeeded", line))


def outbox_states() -> list[str]:
    with read_session(get_engine()) as session:
        return list(session.execute(sa.select(Outbox.status)).scalars())


def wait_all_sent(sink) -> None:
    """Until every outbox row is sent and the sink holds as many messages as there are rows."""
    wait_until(lambda: (states := outbox_states()) and set(states) == {"sent"}
               and len(sink.messages()) == len(states), timeout=60)


def timeouts_of(game_id: int) -> int:
    with read_session(get_engine()) as session:
        return len(session.execute(
            sa.select(Event.id).where(Event.game_id == game_id, Event.kind == "timeout")).all())


@pytest.mark.drill
@pytest.mark.slow
def test_beat_recovers_after_the_embedded_broker_was_locked_for_a_minute(embedded_stack, sink):
    """Lock the embedded broker 60 s during play (as a long write or a backup of broker.sqlite does):
    afterwards every email arrives and the deadline sweep runs again within a minute.  Before beat
    reconnected, its first failed publish ("database is locked") made every later tick fail with
    "channel disconnected" until a restart: emails queued meanwhile stayed pending, no sweep ran."""
    app, start, broker_file = embedded_stack
    worker = start(dispatch_seconds=2.0, sweep_seconds=10.0)
    preconsent(*[email for _, email in PLAYERS])  # the game's own emails, not invitations
    new_game(toygame.NAME, PLAYERS, seed=1)
    sink.wait_for(3, timeout=60)
    wait_until(lambda: sweeps_done(worker) >= 1, timeout=60)

    lock = sqlite3.connect(broker_file, timeout=60, isolation_level=None)
    lock.execute("BEGIN EXCLUSIVE")
    try:
        # Play goes on in the web: a new game (its kicks fail on the locked broker) and a timed game
        # whose first deadline is long past, which only the sweep can time out.
        new_game(toygame.NAME, PLAYERS, seed=2)
        timed = timed_game(hours=48)
        time.sleep(LOCK_SECONDS)
    finally:
        lock.execute("COMMIT")
        lock.close()
    released = time.monotonic()
    since = len(worker.log)
    failed = [line for line in worker.log if "Couldn't apply scheduled task" in line]
    assert failed, "beat published nothing during the lock: the drill did not drill anything"

    # The sweep runs again, after the release (not a tick that slipped through during the lock).
    wait_until(lambda: sweeps_done(worker, since) >= 1 and timeouts_of(timed) >= 1, timeout=60)
    swept = time.monotonic() - released
    # Every email arrives: those queued during the lock and those of the sweep's timeout.
    wait_all_sent(sink)
    delivered = time.monotonic() - released
    rows = len(outbox_states())
    assert rows > 3 + 3 + 2  # game 1, game 2, the timed game's invitations, and the timeout's emails
    assert len(sink.messages()) == rows  # each once
    print(f"\nbroker locked {LOCK_SECONDS} s; {len(failed)} failed publishes; after the release: "
          f"sweep ran again in {swept:.1f} s, all {rows} emails delivered in {delivered:.1f} s")


# ---- beat through a Redis restart (the production broker) ----------------------------------------

DOWN_SECONDS = 30


@contextlib.contextmanager
def on_a_redis_of_its_own(tmp_path, migrated_sqlite, sink, **worker_options):
    """The test's app (its context entered) and a real worker on one SQLite database and a Redis server
    of the test's own, to stop and start again, mailing `sink`: (server, worker)."""
    server = RedisServer()
    server.start()
    db = tmp_path / "app.sqlite"
    shutil.copy(migrated_sqlite, db)
    app = make_app(tmp_path, f"sqlite:///{db}", CELERY_BROKER_URL=server.url, SMTP_URL=sink.url, OUTBOX_KICK=True)
    try:
        worker = WorkerProcess(instance=tmp_path, database_url=f"sqlite:///{db}", broker_url=server.url,
                               smtp_url=sink.url, base_url=app.config["BASE_URL"], **worker_options)
        try:
            with app.app_context():
                yield server, worker
        finally:
            worker.stop()
    finally:
        server.stop()
        app.extensions["riftpost.db"].dispose()


@pytest.mark.drill
@pytest.mark.slow
@pytest.mark.redis
def test_beat_recovers_after_redis_was_down(tmp_path, migrated_sqlite, sink):
    """The production broker: Redis gone for half a minute while beat ticks (each publish fails),
    started again: the emails queued meanwhile arrive and the sweep runs again, without a restart.
    Celery's own scheduler came through this too (kombu's Redis channel reconnects); this keeps the
    reconnecting scheduler, which drops its producer after each failed publish, to it."""
    with on_a_redis_of_its_own(tmp_path, migrated_sqlite, sink, dispatch_seconds=2.0,
                               sweep_seconds=10.0) as (server, worker):
        preconsent(*[email for _, email in PLAYERS])  # the game's own emails, not invitations
        new_game(toygame.NAME, PLAYERS, seed=1)
        sink.wait_for(3, timeout=60)
        wait_until(lambda: sweeps_done(worker) >= 1, timeout=60)  # beat has its producer
        server.stop()
        new_game(toygame.NAME, PLAYERS, seed=2)  # its kicks fail: Redis is down
        timed = timed_game(hours=48)
        down_at = time.monotonic()
        # A tick's failed publish is logged once the publish's own retries gave up, which on a busy
        # machine may come later than the first ticks after the stop: waited for, Redis still down.
        failed = "Couldn't apply scheduled task"
        with contextlib.suppress(AssertionError):
            wait_until(lambda: any(failed in line for line in worker.log), timeout=DOWN_SECONDS + 30, interval=0.5)
        assert any(failed in line for line in worker.log), "".join(worker.log[-40:])
        time.sleep(max(0.0, DOWN_SECONDS - (time.monotonic() - down_at)))  # down half a minute at least
        server.start()
        since = len(worker.log)
        wait_until(lambda: sweeps_done(worker, since) >= 1 and timeouts_of(timed) >= 1, timeout=60)
        wait_all_sent(sink)
        assert len(sink.messages()) == len(outbox_states()) > 3 + 3 + 2


@pytest.mark.drill
@pytest.mark.slow
@pytest.mark.redis
def test_the_worker_outlasts_more_reconnection_tries_than_celerys_default(tmp_path, migrated_sqlite, sink):
    """Redis gone for longer than Celery's default 100 tries to reconnect (about 46 minutes at kombu's
    pauses; the test worker pauses 0.02 s, so it makes hundreds of tries in seconds): the worker keeps
    trying (`broker_connection_max_retries=None`) rather than exiting, which under honcho would stop
    the whole service, and once Redis is back it sends the emails queued meanwhile."""
    with on_a_redis_of_its_own(tmp_path, migrated_sqlite, sink, dispatch_seconds=1.0,
                               extra_env={"RIFTPOST_TEST_BROKER_RETRY_SECONDS": "0.02"}) as (server, worker):
        preconsent(*[email for _, email in PLAYERS])
        new_game(toygame.NAME, PLAYERS, seed=1)
        sink.wait_for(3, timeout=60)
        server.stop()
        new_game(toygame.NAME, PLAYERS, seed=2)  # its kicks fail: Redis is down

        def tries() -> int:
            return sum("consumer: Cannot connect to redis" in line for line in worker.log)

        wait_until(lambda: tries() > 150 or worker.process.poll() is not None, timeout=120, interval=0.2)
        assert worker.process.poll() is None, "".join(worker.log[-40:])
        assert tries() > 150
        server.start()
        wait_all_sent(sink)
        assert len(sink.messages()) == len(outbox_states()) == 6


@pytest.mark.drill
@pytest.mark.slow
@pytest.mark.redis
def test_the_worker_survives_losing_redis_with_a_send_in_flight(tmp_path, migrated_sqlite):
    """Redis gone while the worker sends an email (its task taken but not yet acknowledged) and waits
    on Redis for the next: kombu could fail to close the lost connection, or to acknowledge the task
    on it later, which stopped the worker (worker/connection.py).  It goes on, reconnects when Redis is
    back, and every email arrives once."""
    sink = StallingSink(tmp_path / "stall", stalls=1)
    try:
        with on_a_redis_of_its_own(tmp_path, migrated_sqlite, sink, dispatch_seconds=1.0,
                                   extra_env={"RIFTPOST_TEST_BROKER_RETRY_SECONDS": "0.2"}) as (server, worker):
            preconsent(*[email for _, email in PLAYERS])
            new_game(toygame.NAME, PLAYERS, seed=1)
            assert sink.stalled.wait(60), "".join(worker.log[-40:])
            server.stop()  # the stalled send's task is unacknowledged; the consumer waits on Redis
            wait_until(lambda: any("consumer: Cannot connect to redis" in line for line in worker.log)
                       or worker.process.poll() is not None, timeout=60, interval=0.2)
            time.sleep(2)
            assert worker.process.poll() is None, "".join(worker.log[-60:])
            sink.handler.release.set()
            server.start()
            wait_all_sent(sink)
            assert len(sink.messages()) == len(outbox_states()) == 3
    finally:
        sink.stop()
