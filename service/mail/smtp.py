"""Handing a message to the SMTP server of SMTP_URL."""

from __future__ import annotations

import smtplib
import ssl
from email.message import EmailMessage

from flask import current_app

from service.config import smtp_address


def send(message: EmailMessage, smtp_url: str | None = None, envelope_from: str | None = None) -> None:
    """Send one message (raises smtplib/OS errors).  `envelope_from`: the SMTP MAIL FROM (where
    bounces go; service/mail/bounces.py), default the From header's address."""
    url = smtp_url or current_app.config["SMTP_URL"]
    host, port, user, password, starttls = smtp_address(url)
    client_class = smtplib.SMTP_SSL if url.split(":", 1)[0] == "smtps" else smtplib.SMTP
    with client_class(host, port, timeout=30) as client:
        if starttls:
            client.starttls(context=ssl.create_default_context())
        if user:
            client.login(user, password or "")
        client.send_message(message, from_addr=envelope_from)
