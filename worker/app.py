"""The Celery app, configured from the same environment as the web (service/config.py), with the
Flask app pushed around every task (Flask's documented Celery pattern).

Only the worker runs tasks, so only the worker loads them and the Flask app (the whole service, the
web layer with it: `url_for` builds the emails' links), when it starts (`celeryd_init`, sent by
`celery worker` alone).  Beat, which publishes tasks by name and reads a few settings, never does:
that keeps about half of the worker's memory out of the beat process (bench/memory.py).
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from celery import Celery, Task, signals

from service import config as service_config
from service import create_app

if TYPE_CHECKING:
    from flask import Flask


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
    """Celery with the settings it was configured from, and the Flask app made on first use."""

    settings: Mapping[str, Any]
    _flask_app: Flask | None = None

    @property
    def flask_app(self) -> Flask:
        if self._flask_app is None:
            self.bind(create_app())
        assert self._flask_app is not None
        return self._flask_app

    def bind(self, flask_app: Flask) -> None:
        # Kicks from inside tasks (service/mail/queue.py) reuse this app.
        flask_app.extensions["riftpost.celery"] = self
        self._flask_app = flask_app


class FlaskTask(Task):
    def __call__(self, *args, **kwargs):
        with self.app.flask_app.app_context():
            return self.run(*args, **kwargs)


def create_celery(flask_app: Flask | None = None) -> Celery:
    """The app, from `flask_app`'s config, or (None) from the environment as create_app() reads it,
    with the Flask app made only when a task first needs it."""
    # create_app() takes its settings from the environment the same way (service/app.py).
    config = flask_app.config if flask_app is not None else service_config.from_env()
    # No `include`: beat imports those too; the worker imports WORKER_MODULES as it starts.
    app = Riftpost("riftpost", task_cls=FlaskTask)
    app.settings = config
    broker = config["CELERY_BROKER_URL"]
    app.conf.update(
        broker_url=broker,
        broker_connection_retry_on_startup=True,  # honcho may start us before Redis is up
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
    if broker.startswith("sqla+"):
        _tune_sqlalchemy_transport()
    app.set_default()
    if flask_app is not None:
        app.bind(flask_app)
    return app


@signals.celeryd_init.connect
def start_worker(instance: Any = None, **_: Any) -> None:
    """A worker (never beat) starting: its tasks, and the Flask app they run in, made now rather than
    at the first task, so that a broken configuration stops the worker at once."""
    for module in WORKER_MODULES:
        importlib.import_module(module)
    app = getattr(instance, "app", None)
    if isinstance(app, Riftpost):
        app.flask_app  # noqa: B018 - made on first use


def _tune_sqlalchemy_transport() -> None:
    """kombu's SQLAlchemy transport polls once a second and forwards every transport option to
    create_engine() (so `polling_interval` cannot be passed as one): set it on the class."""
    from kombu.transport import sqlalchemy as sqla

    sqla.Transport.polling_interval = 0.2


celery = create_celery()
