"""Replies by email in tests: a Riftforce game whose emails go out through a real SMTP sink, the door
listening on a port of its own, and replies shaped as Gmail, Outlook and Apple Mail write them."""

from __future__ import annotations

import smtplib
from contextlib import contextmanager
from email.message import EmailMessage
from email.utils import make_msgid

import sqlalchemy as sa

from service import mailsink
from service.inbound.door import Door
from service.mail import outbox
from service.play import new_game
from service.store import get_engine, read_session
from service.store.models import InboundMessage, Outbox
from tests.consent import preconsent
from tests.service.helpers import outbox_rows
from tests.services import free_port

PLAYERS = [("Ann", "ann@example.org"), ("Bo", "bo@example.org")]
DOMAIN = "in.riftpost.test"
SETTINGS = dict(MAIL_FROM="riftpost@riftpost.test", MAIL_DOMAIN="riftpost.test", BOUNCE_ADDRESS="bounces@riftpost.test",
                INBOUND_DOMAIN=DOMAIN)


def start_game(app, sink, seed: int = 3, players=PLAYERS) -> int:
    """A two-player Riftforce game whose first emails went out through `sink`."""
    preconsent(*[email for _, email in players])
    app.config["SMTP_URL"] = sink.url
    game_id = new_game("riftforce", players, seed=seed)
    send_all()
    return game_id


def send_all() -> list[int]:
    """Deliver every due outbox row now (the worker's job); the ids sent."""
    sent = []
    for row in outbox_rows():
        if row.status == "pending" and outbox.deliver(row.id) == "sent":
            sent.append(row.id)
    return sent


def emails_to(sink, address: str, kind: str | None = None) -> list:
    return [m for m in sink.messages() if address in str(m["To"]) and (kind is None or m["X-Riftpost-Kind"] == kind)]


def latest(sink, address: str, kind: str = "turn"):
    found = emails_to(sink, address, kind)
    assert found, f"no {kind} email to {address}"
    return found[-1]


def plain(message) -> str:
    return message.get_body(("plain",)).get_content()


def reply_to(message) -> str:
    return message["Reply-To"].addresses[0].addr_spec


def reply(to_email, text: str | None, *, html: str | None = None, sender: str = "ann@example.org",
          headers: dict | None = None) -> EmailMessage:
    """A reply to `to_email` (one of ours): To its Reply-To, threaded under it."""
    message = EmailMessage()
    message["From"] = sender
    message["To"] = reply_to(to_email)
    message["Subject"] = "Re: " + str(to_email["Subject"])
    message["Message-ID"] = make_msgid(domain="mail.example.org")
    message["In-Reply-To"] = to_email["Message-ID"]
    message["References"] = " ".join(filter(None, [str(to_email.get("References") or ""), to_email["Message-ID"]]))
    for name, value in (headers or {}).items():
        message[name] = value
    if text is not None:
        message.set_content(text)
        if html is not None:
            message.add_alternative(html, subtype="html")
    else:
        message.set_content(html or "", subtype="html")
    return message


def gmail(to_email, new: str) -> EmailMessage:
    """Gmail: top-posted, the history quoted under "On ... wrote:", text and HTML parts."""
    quoted = "\n".join("> " + line for line in plain(to_email).splitlines())
    text = f"{new}\n\nOn Sun, Nov 29, 2026 at 10:00 AM Riftpost <riftpost@riftpost.test> wrote:\n\n{quoted}\n"
    html = (f'<div dir="ltr">{new}</div><br><div class="gmail_quote"><div dir="ltr" class="gmail_attr">On Sun, '
            'Nov 29, 2026 at 10:00 AM Riftpost &lt;riftpost@riftpost.test&gt; wrote:<br></div><blockquote '
            'class="gmail_quote" style="margin:0 0 0 .8ex">Your turn. 1. Pick fire</blockquote></div>')
    return reply(to_email, text, html=html)


def outlook(to_email, new: str) -> EmailMessage:
    """Outlook: HTML only, a signature block, then the history under its From/Sent/To/Subject block."""
    html = (f'<html><head><style>p {{margin:0}}</style></head><body><div>{new}</div><div><br></div>'
            '<div id="Signature"><p>Ann Smith<br>Head of Games, Example Ltd</p></div>'
            '<hr style="display:inline-block;width:98%" tabindex="-1"><div id="divRplyFwdMsg" dir="ltr">'
            '<b>From:</b> Riftpost &lt;riftpost@riftpost.test&gt;<br><b>Sent:</b> Sunday, November 29, 2026 10:00'
            '<br><b>To:</b> Ann<br><b>Subject:</b> Riftforce</div><div>Your turn. 1. Pick fire</div>'
            '<script>alert(1)</script></body></html>')
    return reply(to_email, None, html=html)


def apple_mail(to_email, new: str) -> EmailMessage:
    """Apple Mail on a phone: top-posted, "Sent from my iPhone", the history quoted with its header."""
    quoted = "\n".join("> " + line for line in plain(to_email).splitlines())
    text = (f"{new}\n\nSent from my iPhone\n\n> On 29 Nov 2026, at 10:00, Riftpost <riftpost@riftpost.test> wrote:\n"
            f">\n{quoted}\n")
    return reply(to_email, text)


def kept(kept_id: int | None = None) -> list[InboundMessage]:
    with read_session(get_engine()) as session:
        query = sa.select(InboundMessage).order_by(InboundMessage.id)
        if kept_id is not None:
            query = query.where(InboundMessage.id == kept_id)
        return list(session.execute(query).scalars())


def answers() -> list[Outbox]:
    return [row for row in outbox_rows() if row.kind == "reply"]


@contextmanager
def door_port(app):
    """The door's own SMTP port, as the embedded sink opens it (service/mailsink.py)."""
    port = free_port()
    controller = mailsink.start_inbound(Door(lambda: app), "127.0.0.1", port)
    try:
        yield port
    finally:
        controller.stop()


def smtp_send(port: int, message: EmailMessage, sender: str = "ann@example.org") -> None:
    with smtplib.SMTP("127.0.0.1", port, timeout=30) as client:
        client.send_message(message, from_addr=sender, to_addrs=[str(message["To"])])
