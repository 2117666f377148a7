"""The one door for received mail: every message is kept first (table `inbound_messages`), then read
and routed: a bounce to one of our return paths (service/mail/bounces.py), a reply to a reply address
(`play+<token>@INBOUND_DOMAIN`: service/inbound/replies.py), or refused (anything else).

Nothing received is lost: the message is stored before it is read, in its own transaction, and only a
failure to store it raises (so the SMTP server answers 451 and the MTA's pipe exits EX_TEMPFAIL: the
sender keeps it and tries again).  Whatever goes wrong after that is recorded on the row (outcome
"failed", the error) and logged, never raised to the sender: the operator sees it in
`flask --app service inbound-log` and can read it again with `inbound-retry`.

Nothing received makes us email anyone but a seat's own address (the reply address's seat, who agreed
to our emails); a message that names no seat of ours with a valid token gets no answer at all.

Ways in: the embedded mail sink (service/mailsink.py) hands its mail for our addresses here and listens
on an inbound port of its own (`Listener`); `flask inbound` reads one message on standard input (an
MTA's pipe transport).
"""

from __future__ import annotations

import asyncio
import logging
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from email.message import Message
from email.utils import getaddresses
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa
from sqlmodel import col

from service import running
from service.lang import Nf_
from service.mail import bounces, reply_to
from service.store import read_session, write_session
from service.store.db import get_engine
from service.store.models import InboundMessage, utcnow

if TYPE_CHECKING:  # the mail sink's app: the worker never loads Flask
    from flask import Flask

from . import reading, replies

log = logging.getLogger(__name__)

# Bytes of a message kept and read.  A reply is a few kilobytes of text; a phone's photo may ride
# along, after the text: what is past the cap is not kept (the row says `truncated`).  A bounce quotes
# our email after its report (bounces.MAX_BYTES is its own, larger cap: the report comes first).
MAX_BYTES = 2 * 1024 * 1024
# What an SMTP listener takes at all: larger messages are refused in the SMTP dialogue (552), so the
# sender learns it; nothing of them is received, so nothing is lost here.
SMTP_LIMIT = 32 * 1024 * 1024
# Headers where a delivered message still shows the address it was sent to, when the envelope
# recipient is not handed over (a pipe without it): the token's signature makes each safe to trust.
RECIPIENT_HEADERS = ("Delivered-To", "X-Original-To", "Envelope-To", "X-Envelope-To", "To", "Cc")
NULL_SENDER = "<>"  # as the sender column keeps the null envelope sender of bounces and responders
# Outcomes the operator should look at (and may read again).
TROUBLE = ("failed", "received")


@dataclass(frozen=True)
class Received:
    """What became of one message: its row, outcome and detail."""

    id: int
    outcome: str
    detail: str

    def __str__(self) -> str:
        return f"inbound #{self.id}: {self.outcome}: {self.detail}"


def _clip(text: str | None, length: int) -> str:
    """A stranger's text as a column keeps it: one line, at most `length` characters."""
    return " ".join((text or "").split())[:length]


def keep(raw: bytes, rcpt: str | None, sender: str | None = None, now: datetime | None = None) -> int:
    """Store the message as received (capped at MAX_BYTES); its row's id.  Raises only when the
    database cannot store it (then the sender must keep the message and try again)."""
    message_id = ""
    head = reading.parse(raw[:MAX_BYTES].split(b"\r\n\r\n", 1)[0].split(b"\n\n", 1)[0] + b"\n\n")
    if head is not None:
        message_id = _clip(reading.header(head, "Message-ID"), 250)
    with write_session(get_engine()) as session:
        # The sender column: "" unknown (a pipe that was not told), NULL_SENDER the null sender "<>".
        kept_sender = NULL_SENDER if sender is not None and not sender.strip().strip("<>").strip() else _clip(sender, 320)
        row = InboundMessage(received_at=now or utcnow(), rcpt=_clip(rcpt, 320), sender=kept_sender,
                             message_id=message_id, size=len(raw), truncated=len(raw) > MAX_BYTES,
                             raw=bytes(raw[:MAX_BYTES]))
        session.add(row)
        session.flush()
        return int(row.id)


def receive(raw: bytes, rcpt: str | None = None, sender: str | None = None, now: datetime | None = None) -> Received:
    """Keep one received message and read it (`rcpt`: the address it was delivered to, when known;
    `sender`: the envelope sender, when known).  Raises only when it cannot be kept."""
    now = now or utcnow()
    kept = keep(raw, rcpt, sender, now)
    return read_kept(kept, now)


def read_kept(kept_id: int, now: datetime | None = None) -> Received:
    """Read a kept message and record what became of it; never raises for the message's sake (an error
    is recorded as outcome "failed" and logged)."""
    now = now or utcnow()
    with read_session(get_engine()) as session:
        row = session.get(InboundMessage, kept_id)
        if row is None:
            raise LookupError(f"no received message #{kept_id}")
        raw, rcpt = bytes(row.raw), row.rcpt or None
        sender = None if not row.sender else "" if row.sender == NULL_SENDER else row.sender
    try:
        done = _route(kept_id, raw, rcpt, sender, now)
    except Exception as exc:
        log.exception("inbound #%s failed: kept for the operator (flask inbound-log)", kept_id)
        _record(kept_id, "failed", f"{type(exc).__name__}: {exc}"[:500],
                error="".join(traceback.format_exception(exc))[-2000:])
        return Received(kept_id, "failed", f"{type(exc).__name__}: {exc}"[:500])
    log.info("inbound #%s %s: %s", kept_id, done.outcome, done.detail)
    return done


def _record(kept_id: int, outcome: str, detail: str, *, error: str | None = None, **values: Any) -> None:
    with write_session(get_engine()) as session:
        session.execute(sa.update(InboundMessage).where(col(InboundMessage.id) == kept_id).values(
            outcome=outcome, detail=detail[:500], error=error, done_at=utcnow(), **values))


def _addresses(message: Message | None, rcpt: str | None) -> list[str]:
    found = [rcpt] if rcpt else []
    if rcpt is None and message is not None:  # the envelope is what counts when we have it
        for name in RECIPIENT_HEADERS:
            try:
                values = [str(value) for value in message.get_all(name) or []]
            except Exception:  # noqa: BLE001 - a header the parser cannot read names nothing
                continue
            found += [address for _, address in getaddresses(values) if address]
    return found


def _route(kept_id: int, raw: bytes, rcpt: str | None, sender: str | None, now: datetime) -> Received:
    message = reading.parse(raw)
    if sender is None and message is not None:
        sender = reading.return_path(message)
    candidates = _addresses(message, rcpt)
    for address in candidates:
        token = reply_to.token_of(address)
        if token is not None:
            return _reply(kept_id, message, address, token, sender, now)
    bounce_address = str(running.config().get("BOUNCE_ADDRESS", ""))
    if any(bounces.is_bounce_address(address, bounce_address) for address in candidates):
        what = bounces.receive(raw, rcpt, now)
        _record(kept_id, "bounce", what)
        return Received(kept_id, "bounce", what)
    why = "not an address of ours" if candidates else "no recipient"
    _record(kept_id, "refused", why)
    return Received(kept_id, "refused", why)


def _reply(kept_id: int, message: Any, address: str, token: str, sender: str | None, now: datetime) -> Received:
    seat = replies.seat_of(token)
    if seat is None:
        why = f"a reply address whose token does not hold ({address[:80]!r}): forged, or of another database"
        log.warning("inbound #%s refused: %s", kept_id, why)
        _record(kept_id, "refused", why)
        return Received(kept_id, "refused", why)
    bound: dict[str, Any] = {"player_id": seat.player_id, "game_id": seat.game_id, "seq": seat.seq}
    _record(kept_id, "received", "read as a reply", **bound)  # the seat, even if reading dies below
    if message is None:
        verdict = replies.Verdict("answered", "not an email", Nf_("We could not read your reply as an email."))
    else:
        verdict = replies.read(kept_id, message, seat, sender, now)
    answer_id = replies.write_answer(kept_id, message, seat, verdict)
    _record(kept_id, verdict.outcome, verdict.detail, answer_id=answer_id, **bound)
    return Received(kept_id, verdict.outcome, verdict.detail + ("" if answer_id else " (no answer sent)"))


# ---- the operator's view ------------------------------------------------------------------------------------


def listing(trouble_only: bool = False, limit: int = 50) -> list[InboundMessage]:
    """The latest kept messages, newest first (`trouble_only`: failed, or never read to the end)."""
    with read_session(get_engine()) as session:
        query = sa.select(InboundMessage).order_by(col(InboundMessage.id).desc()).limit(limit)
        if trouble_only:
            query = query.where(col(InboundMessage.outcome).in_(TROUBLE))
        rows = list(session.execute(query).scalars())
        for row in rows:
            session.expunge(row)
        return rows


def get(kept_id: int) -> InboundMessage | None:
    with read_session(get_engine()) as session:
        row = session.get(InboundMessage, kept_id)
        if row is not None:
            session.expunge(row)
        return row


# ---- ways in: an app's door, and an SMTP listener (aiosmtpd handler) ------------------------------------


class Door:
    """`receive` inside an app's context, the app made on first use (a sink that never receives mail for
    us never builds one).  `wants` answers without the app, from the addresses given (the sink reads
    them from the environment)."""

    def __init__(self, make_app: Callable[[], Flask], bounce_address: str | None = None,
                 inbound_domain: str | None = None):
        self.make_app = make_app
        self.app: Flask | None = None
        self._bounce_address = bounce_address
        self._inbound_domain = inbound_domain

    def _app(self) -> Flask:
        if self.app is None:
            self.app = self.make_app()
        return self.app

    def _config(self, name: str, given: str | None) -> str:
        return str(self._app().config.get(name, "")) if given is None else given

    def wants(self, rcpt: str) -> bool:
        """Whether `rcpt` has the shape of an address of ours: a reply address or a return path (their
        tokens and signatures are checked when the message is read)."""
        domain = self._config("INBOUND_DOMAIN", self._inbound_domain)
        return (reply_to.token_of(rcpt, domain) is not None
                or bounces.is_bounce_address(rcpt, self._config("BOUNCE_ADDRESS", self._bounce_address)))

    def __call__(self, raw: bytes, rcpt: str | None, sender: str | None = None) -> str:
        with self._app().app_context():
            return str(receive(raw, rcpt, sender))


class Listener:
    """aiosmtpd handler of the door's own port: takes mail for our addresses only (any other recipient
    is refused at RCPT, so it relays nothing and keeps nothing of strangers' mail), reads each message
    in a thread (the database is blocking), and answers 451 only when a message could not be kept, so
    the sending MTA tries again later.  A message kept is accepted whatever its content."""

    def __init__(self, door: Door):
        self.door = door

    async def handle_RCPT(self, server: Any, session: Any, envelope: Any, address: str, rcpt_options: list[str]) -> str:
        if not self.door.wants(address):
            return "550 5.1.1 No such address here"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        raw = envelope.original_content or envelope.content
        sender = envelope.mail_from if envelope.mail_from is not None else None
        loop = asyncio.get_running_loop()
        for rcpt in envelope.rcpt_tos:
            try:
                await loop.run_in_executor(None, self.door, raw, rcpt, (sender or "").strip("<>"))
            except Exception:  # the message could not be kept: the sender keeps it and retries
                log.exception("inbound mail to %s not kept: try again later", rcpt)
                return "451 4.3.0 Message not stored, try again later"
        return "250 Message received"


def note_size(kept_id: int, size: int) -> None:
    """The size of a message whose tail past the cap was not kept (read by a pipe)."""
    with write_session(get_engine()) as session:
        session.execute(sa.update(InboundMessage).where(col(InboundMessage.id) == kept_id).values(
            size=size, truncated=True))


def line(row: InboundMessage) -> str:
    """One message in one line of the operator's listing."""
    at = f"{row.received_at:%Y-%m-%d %H:%M:%S}"
    seat = f" player {row.player_id} game {row.game_id} seq {row.seq}" if row.player_id is not None else ""
    answered = f" answer outbox #{row.answer_id}" if row.answer_id else ""
    return f"#{row.id} {at} {row.outcome:<8} to {row.rcpt or '?'}{seat}{answered}: {row.detail}"


def describe(row: InboundMessage) -> str:
    """One message in full: its line, its error, and its bytes as text."""
    parts = [line(row), f"from (envelope) {row.sender or '?'}, Message-ID {row.message_id or '?'}, "
                        f"{row.size} bytes{' (kept only the first ' + str(MAX_BYTES) + ')' if row.truncated else ''}"]
    if row.error:
        parts += ["error:", row.error.rstrip()]
    parts += ["---", bytes(row.raw).decode("utf-8", "replace")]
    return "\n".join(parts)
