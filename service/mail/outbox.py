"""The transactional outbox: rows written with the events, delivered by the worker.

Status machine of a row: pending -> sending -> sent | skipped | failed, and back to pending on a
transient error (with a later next_attempt_at).  A row to an address that has not accepted its
invitation yet is written `held` (held -> pending when the address accepts, held -> skipped when it
declines; service/play/consent.py); none is written to an address that declined the game's creator.

A delivery first *claims* its row with a conditional UPDATE, so however many times the kick and the beat scan enqueue the same row, only
one delivery sends it; a crash between SMTP acceptance and "sent" is the only duplicate window,
and then the resend carries the same Message-ID.
"""

from __future__ import annotations

import logging
import smtplib
from datetime import timedelta
from typing import Any

import sqlalchemy as sa
from flask import current_app
from sqlmodel import Session, col, select

from service.mail import compose, kinds, queue, smtp
from service.mail.threads import message_id
from service.store import read_session, write_session
from service.store.db import get_engine
from service.store.models import Game, Outbox, Player, utcnow

log = logging.getLogger(__name__)

SEND_TASK = "riftpost.send_email"
DISPATCH_TASK = "riftpost.dispatch_outbox"
# A row stuck in "sending" this long belonged to a worker that died mid-send.
CLAIM_TIMEOUT = timedelta(minutes=10)


class TransientMailError(Exception):
    """Sending failed in a way worth retrying (the row is pending again)."""


HELD = "held"


def mailable_status(player: Player, kind: str) -> str | None:
    """The one place that says whether an email may go to a player's address: the status its outbox row
    starts with.  "pending" (send it), HELD (the address has not accepted its invitation yet: the email
    waits, and goes out once it does), or None (write nothing: the address declined the invitations of
    this game's creator).  The invitation itself is what asks, so it is never held."""
    if player.consent == "declined":
        return None
    if player.consent == "asked" and not kinds.get(kind).unsolicited:
        return HELD
    return "pending"


def add(session: Session, game: Game, players: list[Player], kind: str, params: dict[str, Any] | None = None,
        seq: int | None = None) -> list[Outbox]:
    """Queue one email of a registered `kind` to each of `players`, about the game at `seq` (default:
    now), in the caller's transaction; the rows (their ids are known once the session flushes).  Rows to
    an address that has not consented are held (mailable_status); the kick sends nothing for them."""
    entry = kinds.get(kind)
    params = dict(params or {})
    seq = game.seq if seq is None else seq
    tag = entry.tag_of(params)
    rows = []
    for p in players:
        status = mailable_status(p, kind)
        if status is not None:
            rows.append(Outbox(game_id=game.id, player_id=p.id, kind=kind, params=params, seq=seq, status=status,
                               message_id=message_id(game, p, tag, seq)))
    session.add_all(rows)
    return rows


def ids(session: Session, rows: list[Outbox]) -> list[int]:
    """The ids of queued rows to send now (flushing them), to kick the worker with after the commit;
    held rows wait for their address's answer."""
    if rows:
        session.flush()
    return [row.id for row in rows if row.status != HELD]


def exists(session: Session, game: Game, player: Player, kind: str, params: dict[str, Any], seq: int) -> bool:
    """Whether that email was queued already (its deterministic Message-ID is taken)."""
    wanted = message_id(game, player, kinds.get(kind).tag_of(params), seq)
    return session.execute(sa.select(col(Outbox.id)).where(col(Outbox.message_id) == wanted)).first() is not None


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
            .where(col(Outbox.id) == row_id, col(Outbox.status) == "pending")
            .values(status="sending", claimed_at=utcnow(), attempts=col(Outbox.attempts) + 1)
        )
        return claimed.rowcount == 1  # type: ignore[attr-defined,no-any-return]  # a CursorResult


def _finish(row_id: int, **values: Any) -> None:
    with write_session(get_engine()) as session:
        session.execute(
            sa.update(Outbox).where(col(Outbox.id) == row_id, col(Outbox.status) == "sending").values(**values)
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
            assert row is not None
            mail = compose.mail_of(session, row)
            if mailable_status(mail.player, row.kind) != "pending" or not kinds.get(row.kind).wanted(session, mail):
                _finish(row_id, status="skipped", sent_at=utcnow())
                return "skipped"
            message = compose.build(session, row, mail)
        smtp.send(message)
    except Exception as exc:
        error = f"{type(exc).__name__}: {exc}"[:500]
        with read_session(get_engine()) as session:
            failed = session.get(Outbox, row_id)
            attempts = failed.attempts if failed is not None else 0
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
            .where(col(Outbox.status) == "sending", col(Outbox.claimed_at) < now - CLAIM_TIMEOUT)
            .values(status="pending")
        )
        # A move that read a seat as not consented while its address was accepting (two transactions
        # at once) wrote its row held after the acceptance released the others: released here.
        session.execute(
            sa.update(Outbox)
            .where(col(Outbox.status) == HELD,
                   col(Outbox.player_id).in_(sa.select(col(Player.id)).where(col(Player.consent) == "")))
            .values(status="pending", next_attempt_at=now)
        )
        return list(
            session.exec(
                select(col(Outbox.id))
                .where(col(Outbox.status) == "pending", col(Outbox.next_attempt_at) <= now)
                .order_by(col(Outbox.id))
                .limit(limit)
            )
        )


def enqueue(row_ids: list[int]) -> None:
    """Enqueue deliveries now (the beat scan)."""
    app = queue.celery_client()
    for row_id in row_ids:
        app.send_task(SEND_TASK, args=[row_id])


def kick(row_ids: list[int]) -> None:
    """After a commit: ask the worker to send these rows now (the beat scan sends them anyway)."""
    queue.publish(SEND_TASK, [[row_id] for row_id in row_ids])
