"""The Celery app, configured from the same environment as the web (service/config.py), with the
worker's app (service/running.py's Host: the settings and the database engine) pushed around every task.

The worker never builds the Flask app: the emails' links come from service/paths.py and their templates
from email's own Jinja environment (service/views/email_render.py), so no web layer and no request
context are loaded to send mail (issue #26; tests/worker/test_lean_processes.py).  Only the worker runs
tasks, so only the worker loads them and its app, when it starts (`celeryd_init`, sent by `celery
worker` alone).  Beat, which publishes tasks by name and reads a few settings, never does.
"""

from __future__ import annotations

import gc
import importlib
import logging
import os
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from celery import Celery, Task, signals

from service import config as service_config
from service.running import Host
from worker import broker

if TYPE_CHECKING:
    from service.running import App


# What only the worker imports, as it starts (start_worker below): the tasks, which register
# themselves on the app (shared_task).
WORKER_MODULES = ("worker.tasks", "worker.signals")


class _QuietScan(logging.Filter):
    """Drops the worker's routine lines about an outbox scan that found nothing (received, succeeded:
    0): with the embedded broker the scan runs every 2 s, and those lines would be most of the log.
    Beat's one line per scan stays (the scheduler's heartbeat), and so does a scan that enqueued
    emails, and every warning."""

    TASK = "riftpost.dispatch_outbox"

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno > logging.INFO:
            return True
        message = record.getMessage()
        if self.TASK not in message:
            return True
        return not (record.name == "celery.worker.strategy" or message.endswith(": 0"))


for _logger in ("celery.worker.strategy", "celery.app.trace"):
    logging.getLogger(_logger).addFilter(_QuietScan())


class Riftpost(Celery):
    """Celery with the settings it was configured from, and the app its tasks run in made on first use."""

    settings: Mapping[str, Any]
    _host: Host | None = None
    _host_pid: int | None = None  # the process that made (or bound) it: a forked child did not

    @property
    def host(self) -> Host:
        """The tasks' app: the settings and the database engine, as create_app() makes them for the web."""
        if self._host is None:
            from service.store import make_engine  # the worker's alone: beat opens no database

            engine = make_engine(self.settings["DATABASE_URL"], sqlite_synchronous=self.settings["SQLITE_SYNCHRONOUS"])
            if engine.dialect.name == "sqlite":
                from sqlalchemy import event

                event.listen(engine, "connect", _small_page_cache)
            self.bind(Host(self.settings, {"riftpost.db": engine}))
        assert self._host is not None
        return self._host

    # Beat's (worker/beat.py `main`): publish to the embedded SQLite broker through sqlite3.
    publishes_with_sqlite3 = False

    def _connection(self, url: Any, userid: Any = None, password: Any = None, virtual_host: Any = None,
                    port: Any = None, ssl: Any = None, connect_timeout: Any = None, transport: Any = None,
                    *args: Any, **kwargs: Any) -> Any:
        # Every broker connection of the app is made here (connection_for_write/read, the pool).  The
        # embedded broker's transport is chosen here, not as the app is made, so that beat never imports
        # SQLAlchemy: beat's is worker/broker.py, everyone else's kombu's, tuned before its first use.
        url = url or self.conf.broker_url
        if isinstance(url, str) and url.startswith("sqla+"):
            if self.publishes_with_sqlite3 and transport is None:
                url, transport = broker.lean(url)
            if transport is None:
                _tune_sqlalchemy_transport()
        return super()._connection(url, userid, password, virtual_host, port, ssl, connect_timeout, transport,
                                   *args, **kwargs)

    def bind(self, app: App) -> None:
        """Run the tasks in `app` (a Host, or a test's Flask app: its settings and engine shared)."""
        # Kicks from inside tasks (service/mail/queue.py) reuse this Celery app.
        app.extensions["riftpost.celery"] = self
        self._host = app if isinstance(app, Host) else Host(app.config, app.extensions)
        self._host_pid = os.getpid()


# The worker's SQLite page cache per connection, in KiB (SQLite's default: 2,000).  Its reads are a
# game's rows and an outbox row by key; what misses comes from the system's file cache.  bench/memory.py:
# the worker's RSS after 1,000 emails 102.5 -> 99.2 MB.
WORKER_PAGE_CACHE_KIB = 256


def _small_page_cache(dbapi_connection: Any, _record: Any) -> None:
    """A connection of the worker's SQLite database: a page cache of WORKER_PAGE_CACHE_KIB."""
    cursor = dbapi_connection.cursor()
    cursor.execute(f"PRAGMA cache_size=-{WORKER_PAGE_CACHE_KIB}")
    cursor.close()


class HostTask(Task):
    def __call__(self, *args, **kwargs):
        with self.app.host.app_context():
            return self.run(*args, **kwargs)


def create_celery(app: App | None = None) -> Celery:
    """The Celery app, from `app`'s settings (a Host or a Flask app), or (None) from the environment
    as create_app() reads it, with the tasks' app made only when a task first needs it."""
    # create_app() takes its settings from the environment the same way (service/app.py).
    config = app.config if app is not None else service_config.from_env()
    # No `include`: beat imports those too; the worker imports WORKER_MODULES as it starts.
    # amqp: kombu's connections, but a lost one does not stop the worker (worker/connection.py).
    celery_app = Riftpost("riftpost", task_cls=HostTask, amqp="worker.connection:AMQP")
    celery_app.settings = config
    broker = config["CELERY_BROKER_URL"]
    celery_app.conf.update(
        broker_url=broker,
        broker_connection_retry_on_startup=True,  # honcho may start us before Redis is up
        # A worker that lost its broker tries again for as long as it takes.  Celery's default gives up
        # after 100 tries (about 46 minutes at kombu's pauses of 2 to 30 s) and the worker exits, with
        # status 0, and under honcho one exited process stops the whole service
        # (tests/worker/test_beat.py).  Beat does the same (worker/beat.py).
        broker_connection_max_retries=None,
        # On a lost connection a running send finishes (Celery 6 would cancel it) and is acknowledged
        # once Redis is back (worker/connection.py).  Cancelled mid-send, the email could go out twice.
        worker_cancel_long_running_tasks_on_connection_loss=False,
        task_ignore_result=True,  # no result backend: the outbox table is the record
        task_serializer="json",
        accept_content=["json"],
        # Idempotent tasks (they claim their outbox row) may be acknowledged late and redelivered
        # when a worker dies, instead of being lost.
        task_acks_late=True,
        task_reject_on_worker_lost=True,
        worker_prefetch_multiplier=1,
        task_time_limit=120,
        task_soft_time_limit=90,
        # Longer than any task and any countdown we use, or Redis redelivers it meanwhile.
        broker_transport_options={"visibility_timeout": 4 * 3600} if broker.startswith("redis") else {},
        beat_schedule={
            "dispatch-outbox": {
                "task": "riftpost.dispatch_outbox",
                "schedule": config["OUTBOX_DISPATCH_SECONDS"],
            },
            # Deadlines are rows swept every minute (never multi-day ETA tasks; service/play/timeouts.py).
            "sweep-deadlines": {
                "task": "riftpost.sweep_deadlines",
                "schedule": config["DEADLINE_SWEEP_SECONDS"],
            },
            "send-digests": {
                "task": "riftpost.send_digests",
                "schedule": config["NOTIFY_DIGEST_SECONDS"],
            },
            # Bot seats a lost kick left waiting (and every bot move under the embedded broker).
            "bots-due": {
                "task": "riftpost.bots_due",
                "schedule": config["DEADLINE_SWEEP_SECONDS"],
            },
            "purge-embedded-broker": {
                "task": "riftpost.purge_broker",
                "schedule": 3600.0,
            },
        },
        beat_schedule_filename=f"{config['INSTANCE_PATH']}/celerybeat-schedule",
        # One beat per deployment, reconnecting after a failed publish, dying with a `-B` worker.
        beat_scheduler="worker.beat:Scheduler",
    )
    celery_app.set_default()
    if app is not None:
        celery_app.bind(app)
    return celery_app


@signals.celeryd_init.connect
def start_worker(instance: Any = None, **_: Any) -> None:
    """A worker (never beat) starting: its tasks, and the app they run in, made now rather than at the
    first task, so that a broken configuration stops the worker at once."""
    for module in WORKER_MODULES:
        importlib.import_module(module)
    from worker.signals import one_arena  # before the pool's threads (a threads pool) start

    one_arena()
    app = getattr(instance, "app", None)
    if isinstance(app, Riftpost):
        app.host  # noqa: B018 - made on first use
    warm_up()


@signals.worker_process_init.connect
def start_pool_process(**_: Any) -> None:
    """A process of the pool starting (each prefork child, forked from the worker after `start_worker`
    made the app; the solo pool sends it too, in the worker's own process): a child's database
    connections are its parent's, and are left to it (SQLAlchemy's `dispose(close=False)`): two
    processes on one connection would interleave their statements.  The child opens its own as it
    first needs them."""
    host = celery._host
    if host is not None and celery._host_pid != os.getpid():
        host.extensions["riftpost.db"].dispose(close=False)


def warm_up() -> None:
    """Load now what the first emails would load (bench/delivery.py saw it as an eighth of the worker's
    time over its first 500 emails): the engines (the first `engine.get` imports every built-in game),
    the email templates and the board templates they draw, compiled into email's Jinja environment, and
    the CSS inliner.  Every email needs them, so the worker holds them all after its first emails anyway."""
    import css_inline  # noqa: F401 - what service/mail/compose.py `inline` imports on first use

    import engine
    from service.views import email_render

    engine.names()
    environment = email_render.environment()
    for name in environment.list_templates(filter_func=email_render.drawn_in_email):
        environment.get_template(name)
    # What is loaded now stays for the process's life: out of the collector's sight, so that its
    # collections walk only what the tasks make (the first emails' collections had promoted all of
    # it, ~1 ms per email over the first 300; bench/delivery.py).
    gc.collect()
    gc.freeze()
    # What the imports and the templates' compilation freed (their sources, parse trees, the modules'
    # code as read) stays with the process until given back: ~5 MB of the worker's start, and in a
    # prefork pool of each child forked from it (bench/memory.py).
    from worker import signals as worker_signals

    worker_signals.trim()


def _tune_sqlalchemy_transport() -> None:
    """kombu's SQLAlchemy transport polls once a second and forwards every transport option to
    create_engine() (so `polling_interval` cannot be passed as one): set it on the class.

    Its SQLite file gets the database's journal (service/store/db.py): WAL, synchronous NORMAL.  In
    SQLite's default journal every message taken (a transaction of its own) waited for two fsyncs, on a
    busy disk most of a delivery's time (bench/delivery.py).  A power cut may now lose the last messages
    published; the outbox is the record, and the beat scan enqueues every due row again.  Its page
    cache is the worker database's (WORKER_PAGE_CACHE_KIB): SQLite's default 2,000 KiB filled with
    messages read once (bench/memory.py: the worker's RSS after 1,000 emails 98.2 -> 94.5 MB)."""
    from kombu.transport import sqlalchemy as sqla
    from sqlalchemy import event

    sqla.Transport.polling_interval = 0.2
    if getattr(sqla.Channel, "_riftpost_tuned", False):
        return
    made = sqla.Channel._engine_from_config

    def engine_from_config(channel: Any) -> Any:
        engine = made(channel)
        if engine.dialect.name == "sqlite":
            event.listen(engine, "connect", _broker_journal)
        return engine

    sqla.Channel._engine_from_config = engine_from_config  # type: ignore[method-assign]
    sqla.Channel._riftpost_tuned = True  # type: ignore[attr-defined]


def _broker_journal(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")  # (its busy timeout stays kombu's: tests/worker/test_beat.py)
    cursor.execute(f"PRAGMA cache_size=-{WORKER_PAGE_CACHE_KIB}")
    cursor.close()


celery = create_celery()
