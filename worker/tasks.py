"""Thin tasks: ids in; the logic lives in service/ (mail/outbox.py, play/timeouts.py, play/ending.py)."""

from __future__ import annotations

import logging

import sqlalchemy as sa
from celery import shared_task

from service import running
from service.mail import outbox, queue
from service.people import digests
from service.play import bots, ending, timeouts
from service.store.models import utcnow

log = logging.getLogger(__name__)


# No autoretry: the outbox's own policy (service/mail/outbox.py) schedules the next attempt in the row
# and the beat scan enqueues it when due; a second, Celery-side policy spent the attempts in minutes.
# The time limits are a backstop below the outbox's default 60 s lease (the SMTP transaction itself is
# cut off at 3/4 of the lease): a send killed by them is re-claimed after the lease, never sent twice
# at once.
@shared_task(name=outbox.SEND_TASK, soft_time_limit=50, time_limit=55)
def send_email(row_id: int) -> str:
    return outbox.deliver(row_id)


# The same limits: a batch starts its last delivery within outbox.BATCH_SECONDS (5 s), and no send of
# it runs past the send budget (45 s of the default 60 s lease) from the batch's start, so each leaves
# the same 5 s as a one-row task's to record its outcome before the soft limit.
@shared_task(name=outbox.SEND_BATCH_TASK, soft_time_limit=50, time_limit=55)
def send_emails(row_ids: list[int]) -> dict[str, int]:
    return outbox.deliver_batch(row_ids)


@shared_task(name=outbox.DISPATCH_TASK)
def dispatch_outbox() -> int:
    """Beat: enqueue every pending row that is due (lost kicks, retries, crashed workers).  Without
    kicks (the embedded broker) it also records the ends of games finished since, whose game_over
    emails wait on that; with them the end task is kicked by the final move, and the sweep catches up."""
    if not running.config()["OUTBOX_KICK"]:
        timeouts.record_ends(utcnow())
    # Never more than SCAN_BATCH deliveries waiting: rows kicked but not yet sent are not enqueued again
    # and again while the workers are behind (service/mail/outbox.py `scan_room`).
    ids = outbox.due(limit=outbox.scan_room())
    if ids:
        outbox.enqueue(ids)
    return len(ids)


@shared_task(name="riftpost.purge_broker")
def purge_broker() -> int:
    """Beat: kombu's SQLAlchemy transport only hides consumed messages; delete them."""
    url = running.config()["CELERY_BROKER_URL"]
    if not url.startswith("sqla+"):
        return 0
    engine = sa.create_engine(url.removeprefix("sqla+"))
    try:
        with engine.begin() as connection:
            return connection.execute(sa.text("DELETE FROM kombu_message WHERE visible = false")).rowcount
    except sa.exc.OperationalError:  # the table does not exist yet
        return 0
    finally:
        engine.dispose()


@shared_task(name="riftpost.sweep_deadlines")
def sweep_deadlines() -> dict[str, int]:
    """Beat: the deadline sweep (reminders, timeouts, vacations running out, ends still due), as of
    now; `flask --app service sweep` runs the same function."""
    return dict(timeouts.sweep(utcnow()))


@shared_task(name="riftpost.send_digests")
def send_digests() -> int:
    """Beat: queue the daily digests due now (once per person and local date: service/people/digests.py)."""
    return len(digests.queue_due(utcnow()))


@shared_task(name=ending.END_TASK)
def record_end(game_id: int) -> bool:
    """Kicked after a game's final move: record its end once (a second run records nothing)."""
    return ending.record_end(game_id, utcnow())


# A decision of `strong` takes ~1 s; the limits are a backstop for a search gone wrong, and the move
# path's seq check makes a retried or duplicated task harmless (service/play/bots.py).
@shared_task(name=bots.BOT_TASK, soft_time_limit=60, time_limit=70)
def bot_move(game_id: int, seat: int, seq: int) -> str:
    """One bot decision in the position after event `seq`; "stale" when the game moved on."""
    return bots.play(game_id, seat, seq)


@shared_task(name="riftpost.bots_due")
def bots_due() -> int:
    """Beat: enqueue a decision for every bot seat a game waits on (lost kicks, the embedded broker)."""
    waiting = bots.due()
    app = queue.celery_client()
    for args in waiting:
        app.send_task(bots.BOT_TASK, args=list(args))
    return len(waiting)
