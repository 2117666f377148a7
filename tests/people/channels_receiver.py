"""A real webhook receiver for the channel tests: an HTTP server on loopback that records every request
and answers what the test tells it to (a status, a redirect, a slow answer)."""

from __future__ import annotations

import hashlib
import hmac
import json
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes

    @property
    def json(self) -> Any:
        return json.loads(self.body)

    def signed_by(self, secret: str, max_age: float = 300) -> bool:
        """What a receiver does: recompute the MAC over "<timestamp>." + body, refuse a stale one."""
        stamp = self.headers.get("X-Riftpost-Timestamp", "")
        given = self.headers.get("X-Riftpost-Signature", "")
        if not stamp.isdigit() or abs(time.time() - int(stamp)) > max_age:
            return False
        wanted = "sha256=" + hmac.new(secret.encode(), stamp.encode() + b"." + self.body, hashlib.sha256).hexdigest()
        return hmac.compare_digest(given, wanted)


@dataclass
class Receiver:
    """Answers `status` (with `location` for a redirect) after `delay` seconds."""

    status: int = 204
    delay: float = 0.0
    location: str | None = None
    got: list[Received] = field(default_factory=list)

    def __post_init__(self) -> None:
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                receiver.got.append(Received(self.path, dict(self.headers.items()), body))
                time.sleep(receiver.delay)
                self.send_response(receiver.status)
                if receiver.location:
                    self.send_header("Location", receiver.location)
                self.send_header("Content-Length", "2")
                self.end_headers()
                self.wfile.write(b"ok")

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/hook?x=1"

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()
