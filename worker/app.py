"""The Celery app, configured from the same environment as the web (service/config.py), with the
Flask app pushed around every task (Flask's documented Celery pattern)."""

from __future__ import annotations

from celery import Celery, Task
from flask import Flask

from service import create_app


def create_celery(flask_app: Flask | None = None) -> Celery:
    flask_app = flask_app or create_app()
    config = flask_app.config

    class FlaskTask(Task):
        def __call__(self, *args, **kwargs):
            with flask_app.app_context():
                return self.run(*args, **kwargs)

    app = Celery("riftpost", task_cls=FlaskTask, include=["worker.tasks", "worker.signals"])
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
    # Kicks from inside tasks (service/mail/queue.py) reuse this app.
    flask_app.extensions["riftpost.celery"] = app
    app.flask_app = flask_app
    return app


def _tune_sqlalchemy_transport() -> None:
    """kombu's SQLAlchemy transport polls once a second and forwards every transport option to
    create_engine() (so `polling_interval` cannot be passed as one): set it on the class."""
    from kombu.transport import sqlalchemy as sqla

    sqla.Transport.polling_interval = 0.2


celery = create_celery()
