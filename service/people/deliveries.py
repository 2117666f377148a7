"""The delivery log (issue #23 item 6): what we sent a person in the last 30 days, and why not, so that
"why didn't I get mail?" is answered by the person.

It reads outbox rows in general (an email, or any other channel's row written through the outbox: a
`channel` column where there is one), of every seat of the person's address key, newest first.  Each
row says its kind, its game, when it was queued and sent, its attempts and its status in words; never
its params (a timed-out email's played moves), its address or anyone else's.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import sqlalchemy as sa
from sqlmodel import col

from service import store
from service.mail import outbox
from service.mail.notify_policy import QUIET
from service.store import read_session
from service.store.db import get_engine
from service.store.models import Game, Outbox, Player, as_utc, utcnow
from service.views.positions import title
from service.views.times import local_time, zone

DAYS = 30
LIMIT = 500  # a page's worth: a busy player gets a few emails a day

KIND_WORDS = {
    "invitation": "invitation", "invite": "game started", "turn": "your turn", "reminder": "reminder",
    "notice": "game paused", "timed_out": "time ran out", "game_over": "game over", "partner": "partner played",
    "fresh_link": "fresh link", "account_link": "account link", "digest": "daily digest",
    "signin": "sign-in link", "reply": "answer to your reply",
}
# Emails about the person, not the game whose seat their outbox row hangs on (service/people/access.py).
ABOUT_THE_PERSON = frozenset({"signin", "account_link"})
SKIP_WORDS = {
    "turned_off": "skipped: turned off",
    "digest": "skipped: in your daily digest",
    "until_visit": "skipped: until you visit the game",
    "never_email": "skipped: you asked never to be emailed",
    "no_consent": "skipped: the invitation was declined",
    "unwanted": "skipped: no longer needed (you had moved, or the game ended)",
    "channel_off": "skipped: the webhook was removed",
}


@dataclass(frozen=True)
class Delivery:
    channel: str
    kind: str
    game: str
    queued: str
    sent: str | None
    attempts: int
    status: str  # sent | retrying | held | failed | skipped | queued | sending
    words: str

    def public(self) -> dict[str, Any]:
        return dict(self.__dict__)


def _status(row: Outbox, time_zone: str, now: datetime) -> tuple[str, str]:
    if row.status == "sent":
        return "sent", "sent" + (" (after your quiet hours)" if row.skip_reason == QUIET else "") + (
            " in one email with others" if row.sent_in else "")
    if row.status == "skipped":
        return "skipped", SKIP_WORDS.get(row.skip_reason or "", "skipped")
    if row.status == "undeliverable":
        return "skipped", "skipped: your address bounced"
    if row.status == outbox.HELD:
        return "held", "not sent yet: not yet accepted (waiting for the game's invitation to be accepted)"
    if row.status == "failed":
        return "failed", f"failed: {outbox.plain_words(row.last_error)}"
    if row.status == "sending":
        return "sending", "being sent now"
    due = as_utc(row.next_attempt_at)
    if row.skip_reason == QUIET and due > now:
        local = due.astimezone(zone(time_zone))
        return "held", f"held until {local:%H:%M}" + ("" if local.date() == now.astimezone(local.tzinfo).date()
                                                        else f" ({local:%a} {local.day} {local:%b})")
    if row.last_error:
        until = as_utc(row.requeued_at or row.created_at) + outbox.policy().horizon
        return "retrying", f"retrying until {local_time(until, time_zone)}: {outbox.plain_words(row.last_error)}"
    return "queued", "queued"


def log_of(key: str, now: datetime | None = None) -> list[Delivery]:
    """The person's deliveries of the last DAYS days, newest first."""
    now = now or utcnow()
    with read_session(get_engine()) as session:
        time_zone = store.person_of(session, key).time_zone
        rows = session.execute(
            sa.select(Outbox, Game).join(Player, col(Player.id) == col(Outbox.player_id))
            .join(Game, col(Game.id) == col(Outbox.game_id))
            .where(col(Player.address_key) == key, col(Outbox.created_at) >= now - timedelta(days=DAYS))
            .order_by(col(Outbox.created_at).desc(), col(Outbox.id).desc()).limit(LIMIT)
        ).all()
    found = []
    for row, game in rows:
        status, words = _status(row, time_zone, now)
        games = (row.params or {}).get("games") if row.kind == "digest" else None
        found.append(Delivery(
            channel=getattr(row, "channel", None) or "email",
            kind=KIND_WORDS.get(row.kind, row.kind.replace("_", " ")),
            game=("your account" if row.kind in ABOUT_THE_PERSON
                  else f"{len(games)} games" if games and len(games) > 1 else f"{title(game)} #{game.id}"),
            queued=local_time(as_utc(row.created_at), time_zone),
            sent=local_time(as_utc(row.sent_at), time_zone) if row.sent_at and row.status == "sent" else None,
            attempts=row.attempts, status=status, words=words))
    return found
