"""Reading a received reply: is it a person's at all (RFC 3834 and the usual autoresponder marks), what
is new in it (quoted history, signatures and mobile footers stripped by `mail-parser-reply`, an
HTML-only reply turned into text first), and, when the configuration asks, whether our own MTA found
its DMARC aligned (`authres` reads Authentication-Results).

Everything here reads text written by a stranger: the message is parsed from bytes already capped by
the door, the text handed to the reply parser (regular expressions) is capped again, and nothing
raises for a malformed message (what cannot be read reads as empty).
"""

from __future__ import annotations

import logging
import re
from email import message_from_bytes, policy
from email.message import EmailMessage, Message
from html.parser import HTMLParser

log = logging.getLogger(__name__)

MAX_TEXT = 64 * 1024  # characters of a body handed to the reply parser
# Languages whose "On ... wrote:" and signature lines the reply parser knows (English always).
LANGUAGES = ["en", "de", "fr", "es", "it", "nl", "sv", "da", "pl", "cs"]
# The Message-ID of an answer of ours (service/mail/answers.py, kind "reply"): a reply to it is a loop.
OUR_ANSWER = re.compile(r"<riftpost\.[^<>\s]*\.reply-\d+\.s\d+@[^<>\s]+>", re.IGNORECASE)
AUTO_PRECEDENCE = {"bulk", "auto_reply", "junk", "list"}
AUTO_SUBJECTS = re.compile(r"^\s*(auto(matic)?[ -]?(reply|response)|out of (the )?office|auto:|autoreply|"
                           r"abwesenheitsnotiz|r[ée]ponse automatique|respuesta autom[áa]tica)", re.IGNORECASE)
AUTO_HEADERS = ("X-Autoreply", "X-Autorespond", "X-AutoReply-From", "X-Mail-Autoreply")


def parse(raw: bytes) -> EmailMessage | None:
    """The message, or None when the bytes are no email at all."""
    try:
        message = message_from_bytes(raw, policy=policy.default)
    except Exception:  # noqa: BLE001 - a stranger's bytes: anything the parser trips on reads as nothing
        return None
    if not isinstance(message, EmailMessage) or not message.keys():
        return None
    return message


def header(message: Message, name: str) -> str:
    """A header's value as text, "" when absent or unreadable (a malformed header never raises)."""
    try:
        value = message.get(name)
    except Exception:  # noqa: BLE001 - the standard library raises on some malformed headers
        return ""
    return "" if value is None else str(value)


def automatic(message: Message, sender: str | None) -> str | None:
    """Why the message is no person's own reply (an auto-reply, a bounce, a list, a loop), else None.
    `sender`: the envelope sender when known ("" is the null sender of bounces and responders)."""
    submitted = header(message, "Auto-Submitted").strip().lower()
    if submitted and not submitted.startswith("no"):
        return f"Auto-Submitted: {submitted[:40]} (RFC 3834)"
    precedence = header(message, "Precedence").strip().lower()
    if precedence in AUTO_PRECEDENCE:
        return f"Precedence: {precedence}"
    for name in AUTO_HEADERS:
        if header(message, name):
            return f"{name} header"
    if sender is not None and sender.strip().strip("<>").strip() == "":
        return "the null envelope sender (a bounce or an autoresponder)"
    if OUR_ANSWER.search(header(message, "In-Reply-To")):
        return "a reply to one of our own answers"
    if AUTO_SUBJECTS.match(header(message, "Subject")):
        return "an autoresponder's subject"
    return None


def return_path(message: Message) -> str | None:
    """The envelope sender a final delivery wrote into Return-Path (None: not written)."""
    value = header(message, "Return-Path")
    return None if not value and "Return-Path" not in message else value


# ---- the new text --------------------------------------------------------------------------------------------


class _Text(HTMLParser):
    """HTML to plain text for an HTML-only reply: scripts, styles and everything quoted (blockquotes, the
    quote and signature blocks of Gmail, Outlook and Apple Mail) left out; block elements and <br> end
    lines.  Outlook's quoted history begins at its reply header block: reading stops there."""

    SKIP = frozenset({"script", "style", "head", "title", "blockquote", "template", "noscript", "svg", "math"})
    BLOCK = frozenset({"p", "div", "br", "tr", "li", "h1", "h2", "h3", "h4", "h5", "h6", "table", "ul", "ol", "pre", "hr"})
    QUOTE_CLASSES = frozenset({"gmail_quote", "gmail_signature", "gmail_extra", "moz-cite-prefix", "yahoo_quoted",
                     "x_gmail_quote"})
    SKIP_IDS = frozenset({"signature", "x_signature", "applemailsignature"})  # Outlook's, Apple Mail's
    STOP_IDS = frozenset({"divrplyfwdmsg", "appendonsend", "x_divrplyfwdmsg", "x_appendonsend"})
    VOID = frozenset({"br", "hr", "img", "meta", "link", "input", "area", "base", "col", "embed", "source", "wbr"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.stack: list[tuple[str, bool]] = []  # open elements: (tag, skipped)
        self.stopped = False

    def _skipping(self) -> bool:
        return any(skipped for _, skipped in self.stack)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.stopped:
            return
        found = {name.lower(): (value or "") for name, value in attrs}
        if found.get("id", "").lower() in self.STOP_IDS:
            self.stopped = True
            return
        classes = set(found.get("class", "").lower().split())
        skipped = (tag in self.SKIP or bool(classes & self.QUOTE_CLASSES) or found.get("type", "").lower() == "cite"
                   or found.get("id", "").lower() in self.SKIP_IDS)
        if tag in self.BLOCK and not self._skipping():
            self.parts.append("\n")
        if tag not in self.VOID:
            self.stack.append((tag, skipped))

    def handle_endtag(self, tag: str) -> None:
        if self.stopped:
            return
        for index in range(len(self.stack) - 1, -1, -1):  # close up to the matching element (sloppy HTML)
            if self.stack[index][0] == tag:
                del self.stack[index:]
                break
        if tag in self.BLOCK and not self._skipping():
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        if not self.stopped and not self._skipping():
            self.parts.append(data)

    def text(self) -> str:
        lines = [re.sub(r"[ \t\u00a0]+", " ", line).strip() for line in "".join(self.parts).split("\n")]
        return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()


def html_text(html: str) -> str:
    reader = _Text()
    try:
        reader.feed(html[:MAX_TEXT * 4])
        reader.close()
    except Exception:  # noqa: BLE001 - malformed HTML: what was read so far
        pass
    return reader.text()


def body_text(message: EmailMessage) -> str:
    """The reply's body as text: its plain part, else its HTML part turned into text; "" when it has
    neither (an attachment only) or they cannot be decoded."""
    try:
        part = message.get_body(preferencelist=("plain", "html"))
    except Exception:  # noqa: BLE001 - a malformed MIME structure
        return ""
    if part is None:
        return ""
    try:
        content = part.get_content()
    except Exception:  # noqa: BLE001 - an unknown charset or a broken transfer encoding
        payload = part.get_payload(decode=True)
        content = payload.decode("utf-8", "replace") if isinstance(payload, bytes) else ""
    if not isinstance(content, str):
        return ""
    return html_text(content) if part.get_content_type() == "text/html" else content


def new_text(message: EmailMessage) -> str:
    """What the writer wrote this time: the first reply of the body, without the quoted history under
    (or, bottom-posted, above) it, the signature and a phone's "Sent from my ..." footer."""
    text = body_text(message)[:MAX_TEXT].replace("\r\n", "\n").replace("\r", "\n")
    if not text.strip():
        return ""
    try:
        from mailparser_reply import EmailReplyParser

        replies = EmailReplyParser(languages=LANGUAGES).read(text).replies
        text = replies[0].body if replies else text
    except Exception:
        log.warning("the reply parser failed on a message; its whole text is read", exc_info=True)
    # Quoted lines the parser left (a bottom-posted reply: history first, the new words under it).
    kept = [line.rstrip() for line in text.split("\n") if not line.lstrip().startswith(">")]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(kept)).strip()


# ---- DMARC, as our own MTA saw it ---------------------------------------------------------------------------


def dmarc_refusal(message: Message, authserv_id: str) -> str | None:
    """Why the message fails the DMARC check, else None.  Only an Authentication-Results header of our
    own MTA counts (`authserv_id`; unset: the topmost, which the last hop, ours, added): a sender can
    write any such header of their own further down."""
    import authres

    values = []
    try:
        values = [str(value) for value in message.get_all("Authentication-Results") or []]
    except Exception:  # noqa: BLE001 - malformed headers count as absent
        values = []
    for value in values:
        try:
            parsed = authres.AuthenticationResultsHeader.parse("Authentication-Results: " + value)
        except Exception:  # noqa: BLE001 - a header authres cannot read is not ours
            continue
        if authserv_id and (parsed.authserv_id or "").lower() != authserv_id.lower():
            continue
        found = [result for result in parsed.results if (result.method or "").lower() == "dmarc"]
        if not found:
            return "our mail server recorded no DMARC result for it"
        verdict = (found[0].result or "").lower()
        return None if verdict == "pass" else f"DMARC {verdict or 'none'}"
    return "no Authentication-Results header of our mail server"
