"""Telling table talk by email: in each seat's next game email (a turn, game-over or timed-out email, or
the daily digest), or, for a person who chose "tell me at once", an email of its own (kind "talk") at
most once per game per AT_ONCE_INTERVAL.

Which messages an email tells is decided when it is about to be sent, never when its row is written
(service/mail/talk_email.py says why and how: a seat's cursor, moved under its lock by the delivery), so
talk is not lost with an email that is skipped or held, and none is told twice.

So a "tell me at once" row carries no messages: it asks for an email at a time (params "at"), and tells
whatever the seat has not been told when it goes.  A post finds the reader's waiting talk email (pending or
held, what it tells not decided yet: a quiet-hours hold or a retry before deciding keeps it waiting) and
leaves it be: that email will tell this message too.  The reader's cursor
row is locked (FOR UPDATE on PostgreSQL) while a post looks for the waiting email and writes a new one,
and the delivery takes the same lock to decide what it tells: two posts at once write one email, and a
message posted while the waiting email goes is either in it or in the next one.

The outbox decides at delivery whether the address may be emailed at all (consent, "never email me",
bounces, the seat's "stop emails for this game", quiet hours): a talk email is an ordinary row to it.
"""

from __future__ import annotations

from datetime import datetime, timedelta

import sqlalchemy as sa
from sqlmodel import Session, col

from service import store
from service.mail import outbox
from service.mail.talk_email import cursor_for_update
from service.store.current import AnyGame
from service.store.inboxes import key as inbox_key
from service.store.models import Game, Outbox, Player, TalkAtOnce, TalkMessage, as_utc
from service.talk import messages

# A person who chose "tell me at once" gets at most one talk email per game in this time; what is
# written meanwhile joins the waiting email (sent when the interval is over) or their next game email.
AT_ONCE_INTERVAL = timedelta(minutes=15)
KIND = "talk"


def at_once(session: Session, person: str) -> bool:
    """Whether the person (any spelling of their address) chose "tell me at once"."""
    return session.get(TalkAtOnce, inbox_key(person)) is not None


def set_at_once(session: Session, person: str, wanted: bool) -> None:
    found = session.get(TalkAtOnce, inbox_key(person))
    if wanted and found is None:
        session.add(TalkAtOnce(person=inbox_key(person)))
    elif not wanted and found is not None:
        session.delete(found)
    session.flush()


def on_post(session: Session, game: Game, message: TalkMessage, now: datetime) -> None:
    """After `message` was written: a talk email to each other seat whose person chose "tell me at
    once" and may read it, unless one is already waiting for that seat (it will tell this one too)."""
    players = store.players_of(session, game.id)
    writer = next(p for p in players if p.id == message.player_id)
    wanting = [p for p in players if p.address_key != writer.address_key and at_once(session, p.address_key)]
    for reader in sorted(wanting, key=lambda p: p.id):  # the cursors' lock order (talk_email.decide's)
        readable = messages.visible(session, game.id, reader, after_id=message.id - 1)
        if not any(said.id == message.id for said in readable):
            continue  # not theirs to read: another team's, or a writer they muted
        cursor_for_update(session, reader.id)
        last = _last_talk_row(session, reader)
        if last is not None and last.status in ("pending", "held") and "talk" not in (last.params or {}):
            continue  # waiting, its talk not decided yet: it tells what is untold when it goes
        _queue(session, game, reader, message, last, now)


def _last_talk_row(session: Session, player: Player) -> Outbox | None:
    return session.execute(
        sa.select(Outbox).where(col(Outbox.player_id) == player.id, col(Outbox.kind) == KIND,
                                col(Outbox.channel) == "email").order_by(col(Outbox.id).desc()).limit(1)
    ).scalar_one_or_none()


def _queue(session: Session, game: AnyGame, reader: Player, message: TalkMessage, last: Outbox | None,
           now: datetime) -> None:
    """A talk email to the reader, sent now, or once AT_ONCE_INTERVAL has passed since the time of its
    last one (whether that went or found nothing left to tell: the slots are what the limit counts)."""
    at = now
    if last is not None:
        slot = (last.params or {}).get("at")
        last_at = datetime.fromisoformat(slot) if isinstance(slot, str) else last.created_at
        at = max(now, as_utc(last_at) + AT_ONCE_INTERVAL)
    rows = outbox.add(session, game, [reader], KIND, {"after": message.id, "at": as_utc(at).isoformat()})
    if rows and at > now:
        session.execute(sa.update(Outbox).where(col(Outbox.id).in_([row.id for row in rows]))
                        .values(next_attempt_at=at))
