"""Queueing the daily digests (service/mail/notify_digest.py): a beat task (worker/tasks.py) calls
`queue_due` every NOTIFY_DIGEST_SECONDS.

A person's digest is due from their chosen local hour (`people.digest_hour`, in their time zone) for
GRACE after it, so a beat that was down for a while still sends that day's; it is queued once per local
date (its Message-ID names the person and the date, and that column is UNIQUE: a second beat, or the
same one a minute later, writes nothing).  Nothing awaiting them: no email.
"""

from __future__ import annotations

import logging
from datetime import date, datetime, timedelta

import sqlalchemy as sa
from sqlmodel import col

from service.mail import notify_digest, notify_policy, outbox
from service.store import read_session, write_session
from service.store.db import get_engine
from service.store.models import NotifyGame, Outbox, Person, new_row_key
from service.views.times import zone

log = logging.getLogger(__name__)

GRACE = timedelta(hours=3)


def slot(person: Person, now: datetime) -> date | None:
    """The local date whose digest is due at `now`, or None outside [digest hour, + GRACE)."""
    local = now.astimezone(zone(person.time_zone))
    start = local.replace(hour=person.digest_hour, minute=0, second=0, microsecond=0)
    if start > local:
        start -= timedelta(days=1)
    return start.date() if local - start < GRACE else None


def queue_due(now: datetime) -> list[int]:
    """Queue the digests due at `now`; the ids of the rows written (kicked already)."""
    with read_session(get_engine()) as session:
        chosen = sa.select(col(NotifyGame.email)).where(col(NotifyGame.mode) == notify_policy.DIGEST)
        people = session.execute(sa.select(Person).where(
            sa.or_(col(Person.notify_mode) == notify_policy.DIGEST, col(Person.email).in_(chosen)))).scalars().all()
        due = [(person.email, day) for person in people if (day := slot(person, now)) is not None]
    written = []
    for email, day in due:
        try:
            row_id = _queue(email, day, now)
        except sa.exc.IntegrityError:  # another beat wrote the same digest at the same moment
            continue
        if row_id is not None:
            written.append(row_id)
    outbox.kick(written)
    return written


def _queue(email: str, day: date, now: datetime) -> int | None:
    with write_session(get_engine()) as session:
        message_id = notify_digest.message_id(email, day)
        if session.execute(sa.select(col(Outbox.id)).where(col(Outbox.message_id) == message_id)).first():
            return None
        games = notify_digest.awaiting(session, email)
        if not games:
            return None
        player, game = games[0]
        row = Outbox(game_id=game.id, player_id=player.id, kind=notify_policy.DIGEST, seq=game.seq,
                     params={"day": day.isoformat(), "games": [g.id for _, g in games]}, message_id=message_id,
                     status="pending",  # `awaiting` lists only seats whose address accepted its game
                     next_attempt_at=now, created_at=now, row_key=new_row_key())
        session.add(row)
        session.flush()
        log.info("digest of %s game(s) queued for %s", len(games), day)
        return row.id
