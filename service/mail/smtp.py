"""Handing a message to the SMTP server of SMTP_URL."""

from __future__ import annotations

import contextlib
import smtplib
import socket
import ssl
import threading
import time
from email.message import EmailMessage

from flask import current_app

from service.config import smtp_address

# Each socket operation's own limit (connect, a reply) when the caller sets no overall deadline.
OPERATION_TIMEOUT = 30.0


class SendTimeout(TimeoutError):
    """The server did not finish the transaction before the caller's deadline (a transient failure)."""


def send(message: EmailMessage, smtp_url: str | None = None, deadline: float | None = None,
         envelope_from: str | None = None) -> None:
    """Send one message (raises smtplib/OS errors).  `envelope_from`: the SMTP MAIL FROM (where
    bounces go; service/mail/bounces.py), default the From header's address.

    `deadline` (a `time.monotonic()` value) bounds the whole transaction, not just each reply: a
    server that answers slowly, or stalls after DATA, is cut off then.  The outbox relies on it to
    finish, one way or the other, before its lease lets another worker send the same row.
    """
    url = smtp_url or current_app.config["SMTP_URL"]
    host, port, user, password, starttls = smtp_address(url)
    client_class = smtplib.SMTP_SSL if url.split(":", 1)[0] == "smtps" else smtplib.SMTP
    timeout = OPERATION_TIMEOUT
    if deadline is not None:
        timeout = min(timeout, deadline - time.monotonic())
        if timeout <= 0:
            raise SendTimeout("no time was left to send before the delivery's deadline")
    cut = threading.Event()
    watchdog: threading.Timer | None = None
    try:
        with client_class(host, port, timeout=timeout) as client:
            if deadline is not None:
                # smtplib's timeout is per socket operation, so a server dripping replies could hold a
                # send for minutes; shutting the socket down wakes the blocked read at the deadline.
                # It covers the QUIT too: the row is not "sent" until this returns.
                watchdog = threading.Timer(max(0.0, deadline - time.monotonic()), _cut_off, (client, cut))
                watchdog.daemon = True
                watchdog.start()
            if starttls:
                client.starttls(context=ssl.create_default_context())
            if user:
                client.login(user, password or "")
            client.send_message(message, from_addr=envelope_from)
    except (smtplib.SMTPException, OSError) as exc:
        # The watchdog cut the connection, or the socket's own timeout (never longer than what was
        # left) ran out at the deadline: either way the time was up.
        if cut.is_set() or (deadline is not None and time.monotonic() >= deadline):
            raise SendTimeout("the SMTP server did not finish in time; the connection was cut") from exc
        raise
    finally:
        if watchdog is not None:
            watchdog.cancel()


def _cut_off(client: smtplib.SMTP, cut: threading.Event) -> None:
    sock = client.sock
    if sock is None:
        return
    cut.set()
    with contextlib.suppress(OSError):  # closed meanwhile: the send ended on its own
        sock.shutdown(socket.SHUT_RDWR)
