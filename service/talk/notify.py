"""Telling table talk by email: folded into each seat's next game email, or, for a person who chose
"tell me at once", an email of its own (kind "talk") at most once per game per AT_ONCE_INTERVAL.

Each seat has a cursor (`talk_told.upto`): the last message put into one of its emails.  Whatever
writes an email that tells talk (a turn or game-over email: service/play; a talk email: here) takes
the messages after it that the seat may read (service/talk/messages.py `visible`: channels, mutes) and
moves it on, in the same transaction, so no message is told twice and none is told to a reader who may
not read it.  The email itself renders only those ids (service/mail/talk_email.py).

The outbox decides at delivery whether the address may be emailed at all (consent, "never email me",
bounces, the seat's "stop emails for this game"): a talk email is an ordinary row to it.
"""

from __future__ import annotations

from datetime import datetime, timedelta

import sqlalchemy as sa
from sqlmodel import Session, col

from service import store
from service.mail import outbox
from service.store.current import AnyGame, AnyPlayer
from service.store.inboxes import key as inbox_key
from service.store.models import Game, Outbox, Player, TalkAtOnce, TalkMessage, TalkTold, as_utc
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


def _cursor(session: Session, player_id: int) -> TalkTold:
    """The seat's cursor, locked (FOR UPDATE on PostgreSQL): two writers telling one seat take turns."""
    found = session.get(TalkTold, player_id, with_for_update=True, populate_existing=True)
    if found is None:
        found = TalkTold(player_id=player_id, upto=0)
        session.add(found)
        session.flush()
    return found


def take_untold(session: Session, game_id: int, player: AnyPlayer) -> list[int]:
    """The ids of the messages `player` may read that none of its emails told yet (its own left out,
    deleted ones too), oldest first; the cursor moves past them.  For whoever writes an email that
    tells talk, in the email's own transaction."""
    cursor = _cursor(session, player.id)
    seen = messages.visible(session, game_id, player, after_id=cursor.upto)  # type: ignore[arg-type]
    if not seen:
        return []
    cursor.upto = max(said.id for said in seen)
    session.add(cursor)
    return [said.id for said in seen if not said.mine and not said.deleted]


def on_post(session: Session, game: Game, message: TalkMessage, now: datetime) -> None:
    """After `message` was written: a talk email to each other seat whose person chose "tell me at
    once" and may read it; one already waiting for that seat takes it instead."""
    players = store.players_of(session, game.id)
    writer = next(p for p in players if p.id == message.player_id)
    wanting = [p for p in players if p.address_key != writer.address_key and at_once(session, p.address_key)]
    for reader in wanting:
        readable = messages.visible(session, game.id, reader, after_id=message.id - 1)
        if not any(said.id == message.id for said in readable):
            continue  # not theirs to read: another team's, or a writer they muted
        ids = take_untold(session, game.id, reader)
        if not ids:
            continue  # told already (by an email written in this same transaction)
        if _join_waiting(session, reader, ids):
            continue
        _queue(session, game, reader, ids, now)


def _last_talk_row(session: Session, player: Player) -> Outbox | None:
    return session.execute(
        sa.select(Outbox).where(col(Outbox.player_id) == player.id, col(Outbox.kind) == KIND,
                                col(Outbox.channel) == "email").order_by(col(Outbox.id).desc()).limit(1)
    ).scalar_one_or_none()


def _join_waiting(session: Session, reader: Player, ids: list[int]) -> bool:
    """Add `ids` to the reader's talk email of this game that has not gone out yet (nobody claimed it);
    False when there is none."""
    waiting = _last_talk_row(session, reader)
    if waiting is None or waiting.status not in ("pending", "held") or waiting.claimed_at is not None:
        return False
    params = dict(waiting.params or {})
    params["talk"] = [*params.get("talk", []), *ids]
    changed = session.execute(
        sa.update(Outbox).where(col(Outbox.id) == waiting.id, col(Outbox.status).in_(("pending", "held")),
                                col(Outbox.claimed_at).is_(None)).values(params=params)
    )
    return bool(changed.rowcount)  # type: ignore[attr-defined]  # an UPDATE's result is a CursorResult


def _queue(session: Session, game: AnyGame, reader: Player, ids: list[int], now: datetime) -> None:
    """A talk email to the reader, sent now, or once AT_ONCE_INTERVAL has passed since its last one."""
    last = _last_talk_row(session, reader)
    at = now
    if last is not None:
        slot = (last.params or {}).get("at")
        last_at = datetime.fromisoformat(slot) if isinstance(slot, str) else last.created_at
        at = max(now, as_utc(last_at) + AT_ONCE_INTERVAL)
    rows = outbox.add(session, game, [reader], KIND, {"talk": ids, "at": as_utc(at).isoformat()})
    if rows and at > now:
        session.execute(sa.update(Outbox).where(col(Outbox.id).in_([row.id for row in rows]))
                        .values(next_attempt_at=at))
