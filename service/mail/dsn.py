"""Reading a bounce: what a delivery report (RFC 3464) or a plain-text failure notice says about the one
recipient of an email we sent.  Pure: a parsed message in, a `Report` (or None) out; never raises.

The standard library's `email` parses multipart/report and message/delivery-status (each block of
fields becomes a small message); the rest is the classification below.  The address itself is not
read from the report: the signed return path (service/mail/bounces.py) already names the email, so
the report only has to say how bad it is.

- hard     the address is dead: RFC 3463 codes about the destination mailbox or system (5.1.1 no such
           user, 5.1.2 no such domain, 5.1.10 null MX, 5.2.1 mailbox disabled, 5.4.1 as Microsoft's
           servers refuse unknown recipients, 5.4.4 unroutable...), or a 5.0.0 whose diagnostic says
           "user unknown".
- soft     delivery failed for a reason that may pass or is not about the address: every 4.x.x
           failure, and the 5.x.x ones that are about the message or our server (5.2.2 mailbox
           full, 5.3.4 too big, 5.7.1 refused as spam or by policy).  Suspending an address because
           a filter disliked one email would punish the player for our mail.
- delayed  the remote MTA is still trying (Action: delayed): recorded, counted for nothing.

A message without a delivery-status part is read only if it looks like a bounce (from a
MAILER-DAEMON or postmaster, an empty return path, or a failure subject) and is not an automatic
reply; then an enhanced status code in its text decides, or failing that a "user unknown" phrase,
which alone only makes it soft.  Anything else is not a bounce (None).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, replace
from email import policy
from email.message import EmailMessage, Message
from email.parser import BytesParser, HeaderParser

# RFC 3463 codes (class.subject.detail) that mean the address itself cannot receive mail.
DEAD_ADDRESS = frozenset({"5.1.1", "5.1.2", "5.1.3", "5.1.6", "5.1.10", "5.2.1", "5.4.1", "5.4.4"})
STATUS = re.compile(r"(?<![\d.])([245])\.(\d{1,3})\.(\d{1,3})(?![\d.])")
SMTP_REPLY = re.compile(r"(?<!\d)(5[05]\d|4[25]\d)(?![\d.])")
UNKNOWN_USER = re.compile(
    r"(user|recipient|mailbox|address|account)( name)? (is )?(unknown|not found|does not exist|doesn't exist"
    r"|unavailable|disabled|rejected)|no such (user|mailbox|recipient|address)|does not exist"
    r"|unknown (user|recipient|mailbox)|invalid (recipient|mailbox|address)",
    re.I,
)
BOUNCE_SUBJECT = re.compile(
    r"undeliver|delivery (status notification|failure|failed|has failed)|failure notice|returned mail"
    r"|mail delivery (failed|failure|subsystem)|could not be delivered|non-?delivery",
    re.I,
)
DAEMON = re.compile(r"^(mailer-daemon|postmaster|mail-daemon|mailerdaemon)@", re.I)
AUTO_REPLY = re.compile(r"^(auto(matic)?[ -]?(reply|response)|out of (the )?office|away|vacation)\b", re.I)
# Where a plain-text bounce starts quoting the returned message (qmail, Exim, Sendmail, Outlook...):
# the text below is our own email, never evidence.
QUOTE_START = re.compile(
    r"^-*\s*(below this line is a copy of the message|this is a copy of the message|original message"
    r"|returned message|forwarded message)",
    re.I | re.M,
)
SEVERITY = {"hard": 3, "soft": 2, "delayed": 1}
MAX_TEXT = 64 * 1024  # of a plain-text bounce, enough for every notice; the rest is the returned mail
MAX_DIAGNOSTIC = 500


@dataclass(frozen=True)
class Report:
    kind: str  # hard | soft | delayed
    status: str  # the enhanced status code, "" when the bounce gave none
    diagnostic: str  # the remote server's words (or the notice's line), for the record
    recipient: str = ""  # the final recipient the report names (for the log: forwarding shows here)
    standard: bool = True  # an RFC 3464 report (False: read from a plain-text notice)


def parse(raw: bytes) -> EmailMessage | None:
    """Bytes as a message, or None when they are not one (the parser is lenient: almost anything is)."""
    try:
        message = BytesParser(policy=policy.default).parsebytes(raw)
    except Exception:  # noqa: BLE001 - whatever the parser chokes on is "not a message"
        return None
    return message if isinstance(message, EmailMessage) and len(message.keys()) else None


def read(message: Message) -> Report | None:
    """The worst failure the bounce reports, or None when it is not a bounce (or not a failure)."""
    try:
        blocks = _status_blocks(message)
        report = _worst(_from_block(block) for block in blocks) if blocks else _from_text(message)
    except Exception:  # noqa: BLE001 - a malformed bounce is "not a bounce", never a crash
        return None
    if report is None:
        return None
    return replace(report, diagnostic=printable(report.diagnostic), recipient=printable(report.recipient))


def printable(text: str) -> str:
    """`text` as it may be stored and logged: every control character (a NUL, which PostgreSQL refuses in
    text, so the bounce would fail on every retry of the MTA; an escape sequence meant for a terminal),
    every surrogate (what the parser makes of undecodable bytes in a header, which no database encodes)
    and every format character a space, the spaces then collapsed."""
    kept = "".join(" " if unicodedata.category(ch) in ("Cc", "Cs", "Cf") else ch for ch in text)
    return " ".join(kept.split())


def classify(action: str, status: str, diagnostic: str = "") -> str | None:
    """hard | soft | delayed for one recipient's Action and Status, None for a success."""
    action = action.strip().lower()
    if action == "delayed":
        return "delayed"
    if action in ("delivered", "relayed", "expanded"):
        return None
    if status.startswith("2."):
        return None
    if status in DEAD_ADDRESS:
        return "hard"
    if status.startswith("5.") and status.endswith(".0.0") and UNKNOWN_USER.search(diagnostic):
        return "hard"  # a server that gives no detail but says so in words
    if action == "failed" or status[:2] in ("4.", "5."):
        return "soft"
    return None


def _field(block: Message, name: str) -> str:
    value = block.get(name)
    return " ".join(str(value).split()) if value is not None else ""


def _status_blocks(message: Message) -> list[Message]:
    """The per-recipient field blocks of every delivery-status part (those with an Action)."""
    found: list[Message] = []
    for part in message.walk():
        if part.get_content_type() not in ("message/delivery-status", "message/global-delivery-status"):
            continue
        payload = part.get_payload()
        if isinstance(payload, list):  # the parser made each block of fields a small message
            blocks = [block for block in payload if isinstance(block, Message)]
        else:  # a global (UTF-8) report, or one the parser left as text: its blocks by hand
            text = payload if isinstance(payload, str) else ""
            if isinstance(payload, bytes):
                text = payload.decode("utf-8", "replace")
            blocks = [HeaderParser().parsestr(chunk.strip() + "\n")
                      for chunk in re.split(r"\r?\n\s*\r?\n", text) if chunk.strip()]
        found += [block for block in blocks if block.get("Action") is not None or block.get("Status") is not None]
    return found


def _code(*texts: str) -> str:
    """The most specific enhanced status code among `texts` (in order): a detail beats X.0.0."""
    codes = [".".join(match.groups()) for text in texts for match in STATUS.finditer(text)]
    specific = [code for code in codes if not code.endswith(".0.0")]
    return (specific or codes or [""])[0]


def _from_block(block: Message) -> Report | None:
    action = _field(block, "Action")
    status_field = _field(block, "Status")
    diagnostic = re.sub(r"^\s*[\w-]+\s*;\s*", "", _field(block, "Diagnostic-Code"))
    status = _code(status_field)
    if not status or status.endswith(".0.0"):
        detail = _code(diagnostic)
        if detail and detail[0] == (status or detail)[0]:
            status = detail
    kind = classify(action, status, diagnostic)
    if kind is None:
        return None
    recipient = re.sub(r"^\s*[\w-]+\s*;\s*", "", _field(block, "Final-Recipient") or _field(block, "Original-Recipient"))
    return Report(kind, status, diagnostic[:MAX_DIAGNOSTIC], recipient[:254])


def _worst(reports: Iterable[Report | None]) -> Report | None:
    found = [report for report in reports if report is not None]
    return max(found, key=lambda report: SEVERITY[report.kind]) if found else None


def _looks_like_a_bounce(message: Message) -> bool:
    subject = _field(message, "Subject")
    if AUTO_REPLY.search(subject):  # (not Auto-Submitted: Postfix and Exim mark their bounces auto-replied too)
        return False
    sender = _field(message, "From")
    address = sender[sender.find("<") + 1:sender.rfind(">")] if "<" in sender else sender
    null_sender = "Return-Path" in message and _field(message, "Return-Path") in ("<>", "")
    return bool(DAEMON.search(address.strip())) or null_sender or bool(BOUNCE_SUBJECT.search(subject))


def _notice_text(message: Message) -> str:
    """The bounce's own words: its text parts, not the returned message, cut where the quote starts."""
    texts: list[str] = []
    for part in message.walk():
        if part.get_content_type().startswith("message/") or part.get_content_type() == "text/rfc822-headers":
            break  # everything after the returned message's start is our own email
        if part.get_content_type() == "text/plain":
            payload = part.get_payload(decode=True)
            if isinstance(payload, bytes):
                texts.append(payload.decode(part.get_content_charset() or "utf-8", "replace"))
    text = "\n".join(texts)[:MAX_TEXT]
    quote = QUOTE_START.search(text)
    return text[:quote.start()] if quote else text


def _from_text(message: Message) -> Report | None:
    if not _looks_like_a_bounce(message):
        return None
    text = _notice_text(message)
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    coded = [(".".join(match.groups()), line) for line in lines for match in STATUS.finditer(line)]
    coded = [(code, line) for code, line in coded if code[0] in "45"]
    if coded:
        reports = []
        for code, line in coded:
            kind = classify("failed", code, line)
            if kind is not None:
                reports.append(Report(kind, code, line[:MAX_DIAGNOSTIC], standard=False))
        if "not yet been delivered" in text.lower() or "still undelivered" in text.lower():
            return Report("delayed", coded[0][0], coded[0][1][:MAX_DIAGNOSTIC], standard=False)
        return _worst(reports)
    for line in lines:
        if UNKNOWN_USER.search(line) and SMTP_REPLY.search(line):
            # A server's refusal quoted without an enhanced code: never enough alone to stop mail.
            return Report("soft", "", line[:MAX_DIAGNOSTIC], standard=False)
    return None
