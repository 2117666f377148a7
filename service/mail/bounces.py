"""Bounces: the return path of every email names it, a bounce sent there is read and recorded, and an
address that keeps bouncing gets no more email until its person asks to try again.

Return path (VERP).  The envelope sender (SMTP MAIL FROM, which the receiving side records as
Return-Path and sends bounces to) of the email of outbox row 42 is `bounces+42-<key>-<sig>@<domain>`
from BOUNCE_ADDRESS, where <key> is the row's random `row_key` and <sig> a short HMAC of both under
SECRET_KEY: a bounce names exactly the email it is about, and nobody can write a bounce that suspends
someone else's address, since only the recipient of an email ever sees its return path.  The key is
what a restore cannot hand on: the rows made after it reuse the ids of the rows it rolled back, so a
late bounce of a rolled-back email names an id that may now be another email's, but not its key.  A
row made before keys (its key NULL) has the return path it was sent with, `bounces+42-<sig>@`, the
HMAC of the id alone.  The From header is not touched.

Policy (`_judge`).  Every report read is recorded (table `bounces`).  The address is marked
undeliverable on its person's row after one hard bounce (the address is dead: service/mail/dsn.py
says which codes), or after soft failures of SOFT_LIMIT different emails spread over at least
SOFT_SPAN within SOFT_WINDOW (a full mailbox for days, a server refusing our mail all week): one
bad day never stops the mail.  A "delayed" notice counts for nothing: the mail may still arrive.
Bounces of emails sent before the person last asked to try again count for nothing either, so a late
report of the old failure cannot undo their request.  Marked, the address gets no email at all
(outbox rows end "undeliverable"), the other players of its games see it on their pages, and the
person's own page offers to try again (`clear`).

Ways in: the door of service/inbound (which keeps every received message, the embedded mail sink's
and `flask inbound`'s) hands a bounce to `receive`; `flask bounce` reads one message on stdin (an MTA's
pipe alias), `flask bounce-server` listens for SMTP (`Listener`, aiosmtpd).  Whatever comes in, a message that is no bounce or names no email of
ours with a valid signature is ignored with a log line.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from email.message import Message
from email.utils import getaddresses
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa
from sqlmodel import Session, col

from service import running, store
from service.mail import dsn
from service.store import write_session
from service.store.db import get_engine
from service.store.inboxes import key as inbox_key
from service.store.models import Bounce, Outbox, Person, Player, as_utc, utcnow

if TYPE_CHECKING:  # the mail sink's app: the worker never loads Flask
    from flask import Flask

log = logging.getLogger(__name__)

SOFT_LIMIT = 3  # soft failures of this many different emails...
SOFT_SPAN = timedelta(days=3)  # ...the first and the last at least this far apart...
SOFT_WINDOW = timedelta(days=14)  # ...all received within this long
MAX_BYTES = 10 * 1024 * 1024  # of a bounce read (it may quote our email; the report comes first)
SIG_LENGTH = 12  # hex digits of the HMAC: 48 bits, and an online guess per attempt
SALT = b"riftpost.bounce-token"
# Headers where a delivered bounce still shows the address it was sent to, when the envelope
# recipient is not handed over (a pipe alias without --rcpt): the signature makes each safe to trust.
RECIPIENT_HEADERS = ("Delivered-To", "X-Original-To", "Envelope-To", "X-Envelope-To", "To")


# ---- the return path --------------------------------------------------------------------------------


def _signature(secret: str, row_id: int, row_key: str | None) -> str:
    named = str(row_id) if row_key is None else f"{row_id}:{row_key}"
    return hmac.new(secret.encode(), SALT + b":" + named.encode(), hashlib.sha256).hexdigest()[:SIG_LENGTH]


def return_path(row_id: int, row_key: str | None) -> str | None:
    """The envelope sender of the email of outbox row `row_id` with key `row_key` (None: a row made
    before keys); None with BOUNCE_ADDRESS "off"."""
    address = running.config().get("BOUNCE_ADDRESS", "")
    if not address:
        return None
    local, _, domain = address.rpartition("@")
    named = str(row_id) if row_key is None else f"{row_id}-{row_key}"
    return f"{local}+{named}-{_signature(running.config()['SECRET_KEY'], row_id, row_key)}@{domain}"


@dataclass(frozen=True)
class Named:
    """The outbox row a return path names: its id, and its key (None: a row made before keys)."""

    row_id: int
    row_key: str | None


def is_bounce_address(rcpt: str, bounce_address: str) -> bool:
    """Whether `rcpt` has the shape of a return path of ours (its signature is checked by `row_named`)."""
    if not bounce_address:
        return False
    local = bounce_address.rpartition("@")[0].lower()
    return rcpt.strip().strip("<>").lower().startswith(f"{local}+")


def row_named(address: str) -> Named | None:
    """The outbox row a return path names, if its signature holds under SECRET_KEY or a fallback key
    (a bounce may come back days after a key rotation); None for anything else.  Whether that row is
    in this database with that key is the reader's to check (`receive`)."""
    bounce = running.config().get("BOUNCE_ADDRESS", "")
    if not is_bounce_address(address, bounce):
        return None
    local = address.strip().strip("<>").rpartition("@")[0]
    found = re.fullmatch(rf"(\d{{1,18}})(?:-([0-9a-f]{{16}}))?-([0-9a-f]{{{SIG_LENGTH}}})",
                         local.partition("+")[2].lower())
    if found is None:
        return None
    row_id, row_key = int(found.group(1)), found.group(2)
    signing = [running.config()["SECRET_KEY"], *running.config().get("SECRET_KEY_FALLBACKS", [])]
    if any(hmac.compare_digest(_signature(secret, row_id, row_key), found.group(3)) for secret in signing):
        return Named(row_id, row_key)
    return None


def _row_of(message: Message, rcpt: str | None) -> Named | None:
    """The row named by the envelope recipient, else by a recipient header of the delivered bounce."""
    candidates = [rcpt] if rcpt else []
    for name in RECIPIENT_HEADERS:
        try:
            values = [str(value) for value in message.get_all(name) or []]
        except Exception:  # noqa: BLE001 - a header the parser cannot read names nothing
            continue
        candidates += [address for _, address in getaddresses(values) if address]
    for candidate in candidates:
        named = row_named(candidate)
        if named is not None:
            return named
    return None


# ---- reading a bounce --------------------------------------------------------------------------------


def receive(raw: bytes, rcpt: str | None = None, now: datetime | None = None) -> str:
    """Read one bounce (`rcpt`: the address it was delivered to, when known) and apply the policy;
    what was done, in words for the log and the command line.  Bad input is ignored with a log line;
    only a database failure raises (the caller then asks the sender to try again later)."""
    now = now or utcnow()
    message = dsn.parse(raw[:MAX_BYTES])
    if message is None:
        return _ignored("not an email")
    named = _row_of(message, rcpt)
    if named is None:
        return _ignored(f"no return path of ours with a valid signature (to {(rcpt or '')[:80]!r})")
    row_id = named.row_id
    report = dsn.read(message)
    if report is None:
        return _ignored(f"not a failure report (outbox {row_id}, subject {str(message.get('Subject', ''))[:80]!r})")
    with write_session(get_engine()) as session:
        row = session.get(Outbox, row_id)
        player = session.get(Player, row.player_id) if row is not None else None
        if row is None or player is None:
            return _ignored(f"outbox {row_id} is not in this database")
        if row.row_key != named.row_key:
            # The id of an email a restore rolled back, now another email's: not that one's bounce.
            return _ignored(f"outbox {row_id} is another email than the one this bounce is about")
        session.add(Bounce(email=player.email, outbox_id=row.id, kind=report.kind, status=report.status,
                           diagnostic=report.diagnostic, received_at=now))
        session.flush()
        marked = _judge(session, player.email, row, report.kind, report.status, now)
    what = f"{report.kind} bounce {report.status or '(no code)'} of outbox {row_id} recorded"
    log.info("%s%s; %s", what, "; the address is now undeliverable" if marked else "", report.diagnostic[:200])
    return what + ("; the address is now undeliverable" if marked else "")


def _ignored(why: str) -> str:
    log.warning("bounce ignored: %s", why)
    return f"ignored: {why}"


def _judge(session: Session, email: str, row: Outbox, kind: str, status: str, now: datetime) -> bool:
    """Whether this bounce makes the address undeliverable now (and marks it so)."""
    if kind == "delayed":
        return False
    person = store.person_for_update(session, email)
    if person.bounced_at is not None:
        return False
    cleared = as_utc(person.bounces_cleared_at) if person.bounces_cleared_at is not None else None
    sent = row.sent_at or row.claimed_at or row.created_at
    if cleared is not None and as_utc(sent) < cleared:
        return False  # the failure they asked us to try again after
    if kind == "soft" and not _soft_enough(session, email, now, cleared):
        return False
    person.bounced_at, person.bounce_status = now, status or ("5.0.0" if kind == "hard" else "4.0.0")
    session.add(person)
    return True


def _soft_enough(session: Session, email: str, now: datetime, cleared: datetime | None) -> bool:
    """Soft failures of SOFT_LIMIT different emails within SOFT_WINDOW, the first and the last of all
    of them at least SOFT_SPAN apart (one email reported failed again and again is one email)."""
    since = now - SOFT_WINDOW if cleared is None else max(now - SOFT_WINDOW, cleared)
    emails, first, last = session.execute(
        sa.select(sa.func.count(sa.distinct(col(Bounce.outbox_id))), sa.func.min(col(Bounce.received_at)),
                  sa.func.max(col(Bounce.received_at)))
        # Every spelling of the inbox counts (service/store/inboxes.py): through the row each was about.
        .join(Outbox, col(Outbox.id) == col(Bounce.outbox_id)).join(Player, col(Player.id) == col(Outbox.player_id))
        .where(col(Player.address_key) == inbox_key(email), col(Bounce.kind) == "soft",
               col(Bounce.received_at) >= since)
    ).one()
    return bool(emails >= SOFT_LIMIT and first is not None and as_utc(last) - as_utc(first) >= SOFT_SPAN)


# ---- the mark ----------------------------------------------------------------------------------------


def undeliverable(session: Session, email: str) -> Person | None:
    """The person's row when their address (any spelling of it) is marked undeliverable, else None."""
    person = session.get(Person, inbox_key(email))
    return person if person is not None and person.bounced_at is not None else None


def clear(email: str, now: datetime | None = None) -> bool:
    """The person asked to try email again: the mark goes (whether it was there: True if it was)."""
    now = now or utcnow()
    with write_session(get_engine()) as session:
        person = store.person_for_update(session, email)
        was = person.bounced_at is not None
        person.bounced_at = person.bounce_status = None
        person.bounces_cleared_at = now
        session.add(person)
    if was:
        log.info("bounce mark cleared by its person (outbox rows from now on are sent)")
    return was


# ---- ways in: an app's receiver, and an SMTP listener (aiosmtpd handler) ------------------------------------


class Receiver:
    """`receive` inside an app's context, the app made on first use (so a mail sink that never sees a
    bounce never builds one): the mail sink's and the listener's way to the database."""

    def __init__(self, make_app: Callable[[], Flask], bounce_address: str | None = None):
        self.make_app = make_app
        self.app: Flask | None = None
        self._bounce_address = bounce_address

    @property
    def bounce_address(self) -> str:
        """BOUNCE_ADDRESS: as given (the sink reads it from the environment, without an app), else the app's."""
        if self._bounce_address is None:
            self._bounce_address = str(self._app().config.get("BOUNCE_ADDRESS", ""))
        return self._bounce_address

    def _app(self) -> Flask:
        if self.app is None:
            self.app = self.make_app()
        return self.app

    def __call__(self, raw: bytes, rcpt: str | None) -> str:
        with self._app().app_context():
            return receive(raw, rcpt)

    def wants(self, rcpt: str) -> bool:
        """Whether `rcpt` has the shape of a return path (the embedded sink hands those over)."""
        return is_bounce_address(rcpt, self.bounce_address)

    def accepts(self, rcpt: str) -> bool:
        with self._app().app_context():
            return row_named(rcpt) is not None


class Listener:
    """aiosmtpd handler of `flask bounce-server`: takes mail for valid return paths only (anything
    else is refused at RCPT, so the server relays nothing and stores nothing), reads each bounce in
    a thread (the database is blocking), and answers 451 when the database fails, so the sending MTA
    keeps the bounce and tries again later."""

    def __init__(self, receiver: Receiver):
        self.receiver = receiver

    async def handle_RCPT(self, server: Any, session: Any, envelope: Any, address: str, rcpt_options: list[str]) -> str:
        if not self.receiver.accepts(address):
            return "550 5.1.1 Not a bounce address of this service"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        raw = envelope.original_content or envelope.content
        loop = asyncio.get_running_loop()
        for rcpt in envelope.rcpt_tos:
            try:
                await loop.run_in_executor(None, self.receiver, raw, rcpt)
            except Exception:  # the database, not the message: the sender retries
                log.exception("bounce to %s not recorded: try again later", rcpt)
                return "451 4.3.0 Bounce not recorded, try again later"
        return "250 Bounce received"
