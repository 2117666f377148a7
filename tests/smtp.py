"""A real SMTP server for tests: the service's own Maildir sink (aiosmtpd) on a free port."""

from __future__ import annotations

import mailbox
import time
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
