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
from service.lang import ENGLISH, N_, translations
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
    "invitation": N_("invitation"), "invite": N_("game started"), "turn": N_("your turn"), "reminder": N_("reminder"),
    "notice": N_("game paused"), "timed_out": N_("time ran out"), "game_over": N_("game over"), "partner": N_("partner played"),
    "fresh_link": N_("fresh link"), "account_link": N_("account link"), "digest": N_("daily digest"),
    "signin": N_("sign-in link"), "reply": N_("answer to your reply"),
}
# Emails about the person, not the game whose seat their outbox row hangs on (service/people/access.py).
ABOUT_THE_PERSON = frozenset({"signin", "account_link"})
SKIP_WORDS = {
    "turned_off": N_("skipped: turned off"),
    "digest": N_("skipped: in your daily digest"),
    "until_visit": N_("skipped: until you visit the game"),
    "never_email": N_("skipped: you asked never to be emailed"),
    "no_consent": N_("skipped: the invitation was declined"),
    "unwanted": N_("skipped: no longer needed (you had moved, or the game ended)"),
    "channel_off": N_("skipped: the webhook was removed"),
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


def _status(row: Outbox, time_zone: str, now: datetime, language: str = ENGLISH) -> tuple[str, str]:
    said = translations(language).gettext
    if row.status == "sent":
        if row.skip_reason == QUIET:
            words = said(N_("sent (after your quiet hours) in one email with others")) if row.sent_in else said(
                N_("sent (after your quiet hours)"))
        else:
            words = said(N_("sent in one email with others")) if row.sent_in else said(N_("sent"))
        return "sent", words
    if row.status == "skipped":
        return "skipped", said(SKIP_WORDS.get(row.skip_reason or "", N_("skipped")))
    if row.status == "undeliverable":
        return "skipped", said(N_("skipped: your address bounced"))
    if row.status == outbox.HELD:
        return "held", said(N_("not sent yet: not yet accepted (waiting for the game's invitation to be accepted)"))
    if row.status == "failed":
        return "failed", said(N_("failed: %(why)s")) % {"why": outbox.plain_words(row.last_error)}
    if row.status == "sending":
        return "sending", said(N_("being sent now"))
    due = as_utc(row.next_attempt_at)
    if row.skip_reason == QUIET and due > now:
        local = due.astimezone(zone(time_zone))
        if local.date() == now.astimezone(local.tzinfo).date():
            return "held", said(N_("held until %(time)s")) % {"time": f"{local:%H:%M}"}
        return "held", said(N_("held until %(time)s")) % {"time": local_time(due, time_zone, language)}
    if row.last_error:
        until = as_utc(row.requeued_at or row.created_at) + outbox.policy().horizon
        return "retrying", said(N_("retrying until %(time)s: %(why)s")) % {
            "time": local_time(until, time_zone, language), "why": outbox.plain_words(row.last_error)}
    return "queued", said(N_("queued"))


def log_of(key: str, now: datetime | None = None, language: str = ENGLISH) -> list[Delivery]:
    """The person's deliveries of the last DAYS days, newest first, worded in `language` (the API's: English)."""
    now = now or utcnow()
    said = translations(language)
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
        status, words = _status(row, time_zone, now, language)
        games = (row.params or {}).get("games") if row.kind == "digest" else None
        found.append(Delivery(
            channel=getattr(row, "channel", None) or "email",
            kind=said.gettext(KIND_WORDS[row.kind]) if row.kind in KIND_WORDS else row.kind.replace("_", " "),
            game=(said.gettext("your account") if row.kind in ABOUT_THE_PERSON
                  else said.ngettext("%(num)d game", "%(num)d games", len(games)) % {"num": len(games)}
                  if games and len(games) > 1 else f"{title(game)} #{game.id}"),
            queued=local_time(as_utc(row.created_at), time_zone, language),
            sent=local_time(as_utc(row.sent_at), time_zone, language) if row.sent_at and row.status == "sent" else None,
            attempts=row.attempts, status=status, words=words))
    return found
