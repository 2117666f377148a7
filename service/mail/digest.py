"""One email for the timed_out emails one sweep wrote to one address (issue #22: four timeouts in one
sweep sent four emails in the same second).

The sweep still writes one outbox row per game and seat (each with its game, its player's key, its
Message-ID in the game's thread, its own retries), marked with the sweep's time (params "sweep").  The
delivery of one of them (the lead: whichever is delivered first) claims the others of the same sweep
and address that are due, and sends one email naming every game, each with its own line and its own
links (signed for that game's player row).  The lead records "sent"; each row it carried records "sent"
with `sent_in` = the lead's id, so every game's outbox says which email told it.  A failure puts every
claimed row back (each by its own attempt), and the next delivery gathers them again: no row is lost,
and none is sent twice but in the outbox's one duplicate window (service/mail/outbox.py).  A row that
is no longer wanted (the player moved meanwhile) is skipped on its own, as it would be alone.

The digest is a thread of its own (its own subject and Message-ID): it belongs to no one game.  Turn
emails after the timeouts are not gathered: each opens a turn with its own choices, in its game's thread.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from email.message import EmailMessage
from typing import Any

import sqlalchemy as sa
from sqlmodel import Session, col

from service import running
from service.mail import compose, kinds, reader
from service.mail.mime import body_part
from service.store.models import Outbox, Player, as_utc
from service.views import email_render

# The kinds whose rows of one sweep to one address go out as one email.
GATHERED = frozenset({"timed_out"})
# How far apart in time rows of one sweep can be written (its batches): the candidates' window.
WINDOW = timedelta(hours=1)


def candidates(session: Session, row: Outbox, email: str, now: datetime) -> list[int]:
    """Ids of the rows the delivery of `row` may carry: due pending rows of its kind and sweep to the
    same address (`email`), other than itself, oldest first.  None for a row of another kind."""
    sweep = (row.params or {}).get("sweep")
    if row.kind not in GATHERED or not sweep:
        return []
    created = as_utc(row.created_at)
    found = session.execute(
        sa.select(col(Outbox.id), col(Outbox.params))
        .join(Player, col(Player.id) == col(Outbox.player_id))
        .where(col(Player.email) == email, col(Outbox.kind) == row.kind, col(Outbox.status) == "pending",
               col(Outbox.next_attempt_at) <= now, col(Outbox.id) != row.id,
               col(Outbox.created_at).between(created - WINDOW, created + WINDOW))
        .order_by(col(Outbox.id))
    ).all()
    return [row_id for row_id, params in found if (params or {}).get("sweep") == sweep]


def leads(session: Session, row_ids: Sequence[int]) -> list[int]:
    """Of rows just written, the ones to kick: one per sweep and address among the gathered kinds (its
    delivery carries the others; kicking each would start deliveries that race to claim them)."""
    if not row_ids:
        return []
    found = session.execute(
        sa.select(col(Outbox.id), col(Outbox.kind), col(Outbox.params), col(Player.email))
        .join(Player, col(Player.id) == col(Outbox.player_id)).where(col(Outbox.id).in_(list(row_ids)))
    ).all()
    gathered = {row_id: (params.get("sweep"), email) for row_id, kind, params, email in found
                if kind in GATHERED and (params or {}).get("sweep")}
    seen: set[tuple[Any, str]] = set()
    kept = []
    for row_id in row_ids:
        key = gathered.get(row_id)
        if key is not None:
            if key in seen:
                continue
            seen.add(key)
        kept.append(row_id)
    return kept


def build(session: Session, mails: Sequence[kinds.Mail], locale: str | None = None) -> EmailMessage:
    """The one email for several rows of one address (the first is the lead, whose return path and
    key it goes with): a line per game, that game's links; in the reader's language (`locale`: default
    the lead's reader's, service/mail/reader.py)."""
    locale = locale or reader.language(session, mails[0])
    with email_render.reading_in(locale):
        return _build(session, mails, locale)


def _build(session: Session, mails: Sequence[kinds.Mail], locale: str) -> EmailMessage:
    games = [compose.context(session, kinds.get(mail.row.kind), mail) for mail in mails]
    lead = mails[0]
    count = len(games)
    subject = email_render.ngettext("Time ran out on your turn in %(num)d game",
                                    "Time ran out on your turn in %(num)d games", count)
    first_line = email_render.ngettext(
        "Time ran out on your turn in %(num)d game, so the game chose for you: here it is.",
        "Time ran out on your turn in %(num)d games, so each game chose for you: here is each one.", count)
    context = dict(games=games, subject=subject, first_line=first_line, count=count, locale=locale,
                   never_url=games[0]["never_url"], player_url=games[0]["player_url"],
                   unsubscribe_url=games[0]["unsubscribe_url"])
    # A thread of its own, named by the lead row (its id and random key: unique, and the same on a retry).
    message_id = f"<riftpost.timeouts.o{lead.row.id}-{lead.row.row_key}@{running.config()['MAIL_DOMAIN']}>"
    message = compose.envelope(subject, lead.names[lead.player.seat], lead.player.email, message_id,
                               games[0]["one_click_url"], lead.row.kind)
    message["X-Riftpost-Games"] = ", ".join(str(mail.game.id) for mail in mails)
    message.attach(body_part(email_render.render("email/timed_out_digest.txt", context, locale), "plain"))
    message.attach(body_part(compose.inline(email_render.render("email/timed_out_digest.html", context, locale), ""), "html"))
    return message
