"""Real SMTP servers for tests on free ports: the service's own Maildir sink (aiosmtpd), and a raw one
that keeps the bytes as they were sent."""

from __future__ import annotations

import asyncio
import mailbox
import threading
import time
from dataclasses import dataclass
from email import message_from_bytes, policy
from pathlib import Path

from service import maildir, mailsink
from tests.services import free_port


class Sink:
    def __init__(self, directory: Path, bounces=None):
        """`bounces`: a service.mail.bounces.Receiver, to read bounces as the embedded sink does."""
        self.maildir = directory
        self.port = free_port()
        self.controller = mailsink.start(directory, "127.0.0.1", self.port, bounces=bounces)
        self._parsed: dict = {}

    @property
    def url(self) -> str:
        return f"smtp://127.0.0.1:{self.port}"

    def messages(self) -> list:
        """Every message received so far, oldest first (each file is parsed once)."""
        box = mailbox.Maildir(self.maildir, factory=None)
        for key in box.keys():  # noqa: SIM118 - iterating a Mailbox yields its messages, not its keys
            if key not in self._parsed:
                with box.get_file(key) as handle:
                    self._parsed[key] = message_from_bytes(handle.read(), policy=policy.default)
        return [self._parsed[key] for key in sorted(self._parsed, key=maildir.delivery_order)]

    def wait_for(self, count: int, timeout: float = 30.0) -> list:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            found = self.messages()
            if len(found) >= count:
                return found
            time.sleep(0.05)
        raise AssertionError(f"expected {count} messages, got {len(self.messages())}")

    def stop(self) -> None:
        self.controller.stop()

    def start(self) -> None:
        """Listen again on the same port, after a `stop` (an SMTP outage ending)."""
        self.controller = mailsink.start(self.maildir, "127.0.0.1", self.port)


class StallingHandler(mailsink.MaildirHandler):
    """Stalls in DATA for the first `stalls` messages until `release` is set, having kept the message
    already: the worst case for a sender cut off there, whose server delivered what it never
    confirmed."""

    def __init__(self, path: Path, stalls: int):
        super().__init__(path)
        self.stalls = stalls
        self.stalled = threading.Event()
        self.release = threading.Event()
        self.stalled_peer: tuple[str, int] | None = None  # the client's address of the stalled session

    async def handle_DATA(self, server, session, envelope):
        reply = await super().handle_DATA(server, session, envelope)
        if self.stalls > 0:
            self.stalls -= 1
            self.stalled_peer = session.peer
            self.stalled.set()
            while not self.release.is_set():
                await asyncio.sleep(0.05)
        return reply


class StallingSink(Sink):
    def __init__(self, directory: Path, stalls: int = 1):
        from aiosmtpd.controller import Controller

        self.maildir = directory
        self.port = free_port()
        self.handler = StallingHandler(directory, stalls)
        self.controller = Controller(self.handler, hostname="127.0.0.1", port=self.port)
        self.controller.start()
        self._parsed = {}

    @property
    def stalled(self) -> threading.Event:
        return self.handler.stalled

    def stop(self) -> None:
        self.handler.release.set()
        self.controller.stop()


class RefusingHandler(mailsink.MaildirHandler):
    """Refuses the recipients in `refused` with a permanent 550, as a real server refuses an unknown
    mailbox; takes everyone else's mail."""

    def __init__(self, path: Path, refused: set[str]):
        super().__init__(path)
        self.refused = refused

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address in self.refused:
            return "550 5.1.1 no such mailbox here"
        envelope.rcpt_tos.append(address)
        return "250 OK"


class RefusingSink(Sink):
    def __init__(self, directory: Path, refused: set[str]):
        from aiosmtpd.controller import Controller

        self.maildir = directory
        self.port = free_port()
        self.controller = Controller(RefusingHandler(directory, refused), hostname="127.0.0.1", port=self.port)
        self.controller.start()
        self._parsed = {}


@dataclass
class Received:
    """One SMTP transaction as the server saw it: the envelope, the MAIL FROM parameters the client
    asked for (BODY=8BITMIME, SMTPUTF8...) and the message's bytes as they came over the wire."""

    mail_from: str
    rcpt_tos: list[str]
    mail_options: list[str]
    data: bytes


class RawSink:
    """A real SMTP server (aiosmtpd) that keeps each message's bytes exactly as sent, for checks of the
    wire format (the Maildir sink stores a message re-serialized).  It offers 8BITMIME and SMTPUTF8,
    so a client that needs them would use them, and the checks would see it."""

    def __init__(self) -> None:
        from aiosmtpd.controller import Controller

        self.port = free_port()
        self.received: list[Received] = []
        self.controller = Controller(self, hostname="127.0.0.1", port=self.port, enable_SMTPUTF8=True)
        self.controller.start()

    @property
    def url(self) -> str:
        return f"smtp://127.0.0.1:{self.port}"

    async def handle_DATA(self, server, session, envelope):
        self.received.append(Received(envelope.mail_from, list(envelope.rcpt_tos), list(envelope.mail_options),
                                      envelope.original_content))
        return "250 OK"

    def stop(self) -> None:
        self.controller.stop()
