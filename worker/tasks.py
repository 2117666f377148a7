"""Thin tasks: ids in, the logic lives in service/outbox.py."""

from __future__ import annotations

import logging
import smtplib

from celery import shared_task
from flask import current_app

from service import outbox

log = logging.getLogger(__name__)


@shared_task(
    name=outbox.SEND_TASK,
    autoretry_for=(outbox.TransientMailError, smtplib.SMTPException, OSError),
    retry_backoff=5,
    retry_backoff_max=600,
    retry_jitter=True,
    max_retries=8,
)
def send_email(row_id: int) -> str:
    return outbox.deliver(row_id)


@shared_task(name=outbox.DISPATCH_TASK)
def dispatch_outbox() -> int:
    """Beat: enqueue every pending row that is due (lost kicks, retries, crashed workers)."""
    ids = outbox.due()
    if ids:
        outbox.enqueue(ids)
    return len(ids)


@shared_task(name="riftpost.purge_broker")
def purge_broker() -> int:
    """Beat: kombu's SQLAlchemy transport only hides consumed messages; delete them."""
    url = current_app.config["CELERY_BROKER_URL"]
    if not url.startswith("sqla+"):
        return 0
    import sqlalchemy as sa

    engine = sa.create_engine(url.removeprefix("sqla+"))
    try:
        with engine.begin() as connection:
            return connection.execute(sa.text("DELETE FROM kombu_message WHERE visible = false")).rowcount
    except sa.exc.OperationalError:  # the table does not exist yet
        return 0
    finally:
        engine.dispose()


@shared_task(name="riftpost.sweep_deadlines")
def sweep_deadlines() -> dict:
    """Beat: the deadline sweep (reminders, timeouts, vacations running out, ends still due), as of
    now; `flask --app service sweep` runs the same function."""
    from service import deadlines
    from service.models import utcnow

    return dict(deadlines.sweep(utcnow()))


@shared_task(name="riftpost.record_end")
def record_end(game_id: int) -> bool:
    """Kicked after a game's final move: record its end once (a second run records nothing)."""
    from service import ending
    from service.models import utcnow

    return ending.record_end(game_id, utcnow())
