"""The transactional outbox: rows written with the events, delivered by the worker.

Status machine of a row: pending -> sending -> sent | skipped | failed, and back to pending on a
transient error (with a later next_attempt_at).  A delivery first *claims* its row with a
conditional UPDATE, so however many times the kick and the beat scan enqueue the same row, only
one delivery sends it; a crash between SMTP acceptance and "sent" is the only duplicate window,
and then the resend carries the same Message-ID.
"""

from __future__ import annotations

import logging
import smtplib
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

import sqlalchemy as sa
from flask import current_app
from sqlmodel import select

from service import mail
from service.db import get_engine, read_session, write_session
from service.models import Outbox, Player, utcnow

log = logging.getLogger(__name__)

SEND_TASK = "riftpost.send_email"
DISPATCH_TASK = "riftpost.dispatch_outbox"
# A row stuck in "sending" this long belonged to a worker that died mid-send.
CLAIM_TIMEOUT = timedelta(minutes=10)


class TransientMailError(Exception):
    """Sending failed in a way worth retrying (the row is pending again)."""


def backoff(attempts: int) -> timedelta:
    return timedelta(seconds=min(3600, 10 * 2 ** max(0, attempts - 1)))


def _permanent(exc: Exception) -> bool:
    if isinstance(exc, (smtplib.SMTPRecipientsRefused, smtplib.SMTPSenderRefused)):
        return True
    code = getattr(exc, "smtp_code", None)
    return isinstance(code, int) and 500 <= code < 600


def claim(row_id: int) -> bool:
    with write_session(get_engine()) as session:
        claimed = session.execute(
            sa.update(Outbox)
            .where(Outbox.id == row_id, Outbox.status == "pending")
            .values(status="sending", claimed_at=utcnow(), attempts=Outbox.attempts + 1)
        )
        return claimed.rowcount == 1


def _finish(row_id: int, **values) -> None:
    with write_session(get_engine()) as session:
        session.execute(
            sa.update(Outbox).where(Outbox.id == row_id, Outbox.status == "sending").values(**values)
        )


def deliver(row_id: int) -> str:
    """Send one outbox row if it is still pending; the row's final status (or "not pending").

    Raises TransientMailError after putting the row back to pending, so the task can retry.
    """
    if not claim(row_id):
        return "not pending"
    try:
        with read_session(get_engine()) as session:
            row = session.get(Outbox, row_id)
            player = session.get(Player, row.player_id)
            if row.kind in ("turn", "partner") and not player.turn_emails:
                _finish(row_id, status="skipped", sent_at=utcnow())
                return "skipped"
            from service import deadlines  # imported here: deadlines writes outbox rows itself

            # A reminder is about one turn: never sent after the player moved, nor to someone who
            # stopped turn emails.
            if deadlines.is_reminder(row.kind) and (
                not player.turn_emails or deadlines.reminder_obsolete(session, row)
            ):
                _finish(row_id, status="skipped", sent_at=utcnow())
                return "skipped"
            message = mail.build(session, row)
        mail.send(message)
    except Exception as exc:  # noqa: BLE001 - every failure must leave the row in a known state
        error = f"{type(exc).__name__}: {exc}"[:500]
        with read_session(get_engine()) as session:
            attempts = session.get(Outbox, row_id).attempts
        if _permanent(exc) or attempts >= current_app.config["OUTBOX_MAX_ATTEMPTS"]:
            log.error("outbox %s failed for good: %s", row_id, error)
            _finish(row_id, status="failed", last_error=error)
            return "failed"
        _finish(row_id, status="pending", last_error=error, next_attempt_at=utcnow() + backoff(attempts))
        log.warning("outbox %s will be retried: %s", row_id, error)
        raise TransientMailError(error) from exc
    _finish(row_id, status="sent", sent_at=utcnow(), last_error=None)
    return "sent"


def due(limit: int = 500) -> list[int]:
    """Ids of rows to (re)send now; also returns to pending the rows of workers that died mid-send."""
    now = utcnow()
    with write_session(get_engine()) as session:
        session.execute(
            sa.update(Outbox)
            .where(Outbox.status == "sending", Outbox.claimed_at < now - CLAIM_TIMEOUT)
            .values(status="pending")
        )
        return list(
            session.exec(
                select(Outbox.id)
                .where(Outbox.status == "pending", Outbox.next_attempt_at <= now)
                .order_by(Outbox.id)
                .limit(limit)
            )
        )


def _celery():
    """The Celery app to enqueue with: the worker's own, or a publish-only client for the web."""
    app = current_app.extensions.get("riftpost.celery")
    if app is None:
        from celery import Celery

        app = Celery("riftpost-web", set_as_current=False)
        app.conf.update(
            broker_url=current_app.config["CELERY_BROKER_URL"],
            # A kick must never hang a web request: try once, quickly; the beat scan catches up.
            task_publish_retry=False,
            broker_connection_timeout=2,
            broker_connection_retry=False,
            broker_connection_retry_on_startup=False,
        )
        current_app.extensions["riftpost.celery"] = app
    return app


def enqueue(row_ids: list[int]) -> None:
    app = _celery()
    for row_id in row_ids:
        app.send_task(SEND_TASK, args=[row_id])


_kicker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="outbox-kick")


def kick(row_ids: list[int]) -> None:
    """After a commit: ask the worker to send these rows now.

    Only an optimisation, so it runs off the request's path (publishing to the embedded SQLite
    broker costs a synced commit) and failures are logged and ignored: the beat scan (`due`)
    delivers the rows anyway.
    """
    if not row_ids or not current_app.config["OUTBOX_KICK"]:
        return
    app = _celery()
    _kicker.submit(_publish, app, list(row_ids))


def _publish(app, row_ids: list[int]) -> None:
    try:
        for row_id in row_ids:
            app.send_task(SEND_TASK, args=[row_id])
    except Exception:  # noqa: BLE001
        log.warning("could not enqueue outbox rows %s; the beat scan will send them", row_ids, exc_info=True)
