"""A real SMTP server for tests: the service's own Maildir sink (aiosmtpd) on a free port."""

from __future__ import annotations

import time
from pathlib import Path

from service import mailsink
from tests.services import free_port


class Sink:
    def __init__(self, directory: Path):
        self.maildir = directory
        self.port = free_port()
        self.controller = mailsink.start(directory, "127.0.0.1", self.port)

    @property
    def url(self) -> str:
        return f"smtp://127.0.0.1:{self.port}"

    def messages(self) -> list:
        return mailsink.read_all(self.maildir)

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
