"""The local mail sink for the embedded mode: an SMTP server (aiosmtpd) that keeps every message
in a Maildir under instance/, where the web's dev mailbox page (/dev/mail) shows them.

    python -m service.mailsink            # 127.0.0.1:8025 -> instance/mail

It listens while SMTP_URL is unset or names this very sink (`smtp://127.0.0.1:8025`, the documented
default); with SMTP_URL naming another server it idles, so one Procfile serves both modes.

Mail to an address of ours, a return path (`bounces+...`: service/mail/bounces.py) or a reply address
(`play+...@INBOUND_DOMAIN`: service/mail/reply_to.py), goes to the door of service/inbound (which keeps
it, and reads it as a bounce or a reply) and into the Maildir as well, so the operator sees it in the
dev mailbox.  Like a real final delivery, each stored message starts with the envelope sender as
Return-Path, and so does what the door is handed.

    python -m service.mailsink --inbound-port 8026    # (the default) mail *for* the service

Besides, the sink listens on an inbound port of its own (127.0.0.1:8026 by default; INBOUND_SMTP_PORT,
0 for none) where it takes mail for our addresses only and hands it to the door, refusing any other
recipient: where players' replies arrive in the embedded mode (point a test client, or a relay, at it).
"""

from __future__ import annotations

import argparse
import logging
import mailbox
import os
import signal
import threading
from email import policy
from email.parser import BytesHeaderParser
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from service import config
from service.config import MAIL_SINK_HOST, MAIL_SINK_INBOUND_PORT, MAIL_SINK_PORT, default_instance_path, is_local_sink
from service.maildir import ensure_maildir

if TYPE_CHECKING:
    from service.inbound.door import Door
    from service.mail.bounces import Receiver

log = logging.getLogger(__name__)


class MaildirHandler:
    """aiosmtpd handler: deliver each message into a Maildir (atomic: tmp/ then new/); mail to an
    address of ours also goes to `bounces` (the door of service/inbound, or a `bounces.Receiver`), when
    given.

    A message is stored as it came (after the Return-Path line), never parsed and written out again:
    the parse and the re-serialization were two thirds of the sink's CPU per message, which shares
    the machine with the worker it takes a burst of mail from (bench/delivery.py: 4.7 -> 1.6 ms per
    email).  The readers (service/maildir.py's users, the dev mailbox, the tests) parse what they
    read anyway; its lines end in LF, as mailbox.Maildir writes them."""

    def __init__(self, path: str | Path, bounces: Door | Receiver | None = None):
        self.path = Path(path)
        ensure_maildir(self.path)
        self.lock = threading.Lock()
        self.bounces = bounces
        self.maildir = mailbox.Maildir(self.path, create=True)

    async def handle_DATA(self, server, session, envelope):
        raw = envelope.original_content or envelope.content
        sender = (envelope.mail_from or "").strip("<>")  # aiosmtpd keeps the null sender as "<>"
        return_path = f"Return-Path: <{sender}>\r\n".encode("utf-8", "replace")
        with self.lock:
            self.maildir.add((return_path + raw).replace(b"\r\n", b"\n"))  # (bytes: stored as they are)
        if log.isEnabledFor(logging.INFO):
            log.info("mail to %s: %s", ", ".join(envelope.rcpt_tos), _subject(raw))
        if self.bounces is not None:
            import asyncio  # here: the sink's start (and an idle sink) need not load it

            loop = asyncio.get_running_loop()
            for rcpt in envelope.rcpt_tos:
                if not self.bounces.wants(rcpt):
                    continue
                try:
                    outcome = await loop.run_in_executor(None, self.bounces, return_path + raw, rcpt)
                except Exception:  # a dev sink: the message is kept, the log says why
                    log.exception("bounce to %s not recorded", rcpt)
                else:
                    log.info("bounce to %s: %s", rcpt, outcome)
        return "250 Message accepted for delivery"


def _subject(raw: bytes) -> str | None:
    """The message's Subject, decoded, from its header alone (for the log line)."""
    headers = BytesHeaderParser(policy=policy.default).parsebytes(raw)
    return headers.get("Subject")


def start(maildir: str | Path, host: str = MAIL_SINK_HOST, port: int = MAIL_SINK_PORT,
          bounces: Door | Receiver | None = None) -> Any:
    """Start a sink serving in a background thread; `.stop()` the returned controller."""
    # Imported here: aiosmtpd comes with the [local] extra only, and with SMTP_URL set this process
    # idles without it (one Procfile for both modes; failing would make honcho stop the others).
    from aiosmtpd.controller import Controller

    controller = Controller(MaildirHandler(maildir, bounces), hostname=host, port=port)
    controller.start()
    return controller


def start_inbound(door: Door, host: str = MAIL_SINK_HOST, port: int = MAIL_SINK_INBOUND_PORT) -> Any:
    """Start the door's own port (service/inbound: mail for our addresses only) in a background thread;
    `.stop()` the returned controller."""
    from aiosmtpd.controller import Controller

    from service.inbound.door import SMTP_LIMIT, Listener

    controller = Controller(Listener(door), hostname=host, port=port, data_size_limit=SMTP_LIMIT)
    controller.start()
    return controller


def _without_password(url: str) -> str:
    parts = urlsplit(url)
    if parts.password is None:
        return url
    return parts._replace(netloc=parts.netloc.replace(f":{parts.password}@", ":***@", 1)).geturl()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default=MAIL_SINK_HOST)
    parser.add_argument("--port", type=int, default=MAIL_SINK_PORT)
    parser.add_argument("--maildir", default=str(default_instance_path() / "mail"))
    parser.add_argument("--inbound-port", type=int, default=int(os.environ.get("INBOUND_SMTP_PORT") or MAIL_SINK_INBOUND_PORT),
                        help="the port where mail for the service (replies, bounces) is taken; 0: none")
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s mailsink %(message)s")
    logging.getLogger("mail.log").setLevel(logging.WARNING)  # aiosmtpd logs every SMTP command
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    smtp_url = os.environ.get("SMTP_URL")
    if not is_local_sink(smtp_url, args.host, args.port):
        # One Procfile for both modes: with another SMTP server configured this process idles
        # (exiting would make honcho stop the others).  SMTP_URL set to this sink's own address
        # (README's documented default) is the embedded mode: the sink listens.
        log.info("SMTP_URL names another server (%s): mail goes there, the local sink stays idle",
                 _without_password(smtp_url or ""))
        stop.wait()
        return
    # Bounces are read with the same configuration as the web and the worker (the environment); the
    # app is made at the first bounce, so a sink that never sees one never opens the database.
    # Imported here, not at the top: an idle sink (SMTP_URL naming another server) and the sink's
    # start need none of the database layers, and loading them would delay the signal handlers.
    from service import create_app
    from service.inbound.door import Door

    domain = config.mail_domain(os.environ.get("MAIL_FROM"))
    bounce_address = config.bounce_address(os.environ.get("BOUNCE_ADDRESS"), domain, os.environ.get("SMTP_URL"))
    door = Door(create_app, bounce_address, config.inbound_domain(os.environ.get("INBOUND_DOMAIN"), domain))
    controller = start(args.maildir, args.host, args.port, bounces=door)
    log.info("listening on %s:%s, keeping mail in %s", args.host, args.port, args.maildir)
    inbound = None
    if args.inbound_port:
        try:
            inbound = start_inbound(door, args.host, args.inbound_port)
        except Exception:  # the port is taken: the sink still serves the outgoing mail
            log.exception("the inbound port %s:%s could not be opened: replies by email are not received "
                          "(set INBOUND_SMTP_PORT, or 0 to say so)", args.host, args.inbound_port)
        else:
            log.info("taking mail for the service (replies, bounces) on %s:%s", args.host, args.inbound_port)
    stop.wait()
    controller.stop()
    if inbound is not None:
        inbound.stop()


if __name__ == "__main__":
    main()
