"""The web's access log, without the bearer tokens of the links: WSGI middleware around the app that
the Procfile's web server serves (service `create_web_app`), whatever the server.

A player's link is its token: /p/<token>, /m/<token>, /u/<token>, /i/<token>, /a/<token>,
/never/<token>, the sign-in link /signin/<token> and the play API's /api/play/<token> each act for a
person to whoever holds the URL, and so does a personal API token (rpt_...).
An access log that kept them would hand every seat of every game to whoever reads the log (an
operator's aggregation service, a backup, a support ticket with a pasted excerpt).  So the line has the
segment after such a prefix replaced by "<token>", in the request line, the Referer (a page's own
links send its URL as the Referer) and the User-Agent alike; the path stays readable ("POST /p/<token>/move") for debugging
and for counting requests per route.

One line per request in the combined log format (what gunicorn's default access log wrote, which log
tools read), written with one os.write: no logging record, formatter or lock per request (gunicorn's
logger computed some twenty fields per request and cleaned each: about 60 us of a 300 us request), and
a line shorter than the pipe's atomic size (4 KiB, the fields are cut to fit) never interleaves with
another thread's.  The server's own access log stays off (the Procfile).
"""

from __future__ import annotations

import os
import re
import sys
import time
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment

# The segment that follows a prefix of a link that stands for a person (a seat, a feed of all of a
# person's seats, a lobby confirmation) or opens something not listed (an open game's key, a dev mail);
# slashes doubled or not, as a client may send them; a query parameter named token or t, should a link
# ever carry one there.  tests/web/test_access_log.py checks every route of the app with such a part.
TOKEN_IN_PATH = re.compile(
    r"(/(?:p|m|u|i|a|never|api/+play|signin(?!/code\b)|feeds|lobby/+confirm|lobby/+\d+|dev/+mail)/+)[^/?#\s\"]+")
PERSONAL_TOKEN = re.compile(r"\brpt_[A-Za-z0-9_-]+")  # service/people/tokens.py PREFIX
TOKEN_IN_QUERY = re.compile(r"((?:^|[?&])(?:token|t)=)[^&#\s\"]+")
PLACEHOLDER = "<token>"
# Each free-form field (the URL, the Referer, the User-Agent) at most this long, before its quotes are
# escaped (at most twice as long after): a line stays under PIPE_BUF (4,096 bytes), so one write is
# atomic and lines of several threads never mix.
FIELD = 600
# A body of a known length up to this many bytes is handed to the server as one piece (see __call__).
WHOLE = 1 << 20


def redact(text: str) -> str:
    """`text` (a path, a request line, a URL) with every link token replaced by "<token>"."""
    text = TOKEN_IN_PATH.sub(lambda m: m.group(1) + PLACEHOLDER, text)
    text = PERSONAL_TOKEN.sub("rpt_" + PLACEHOLDER, text)
    return TOKEN_IN_QUERY.sub(lambda m: m.group(1) + PLACEHOLDER, text)


def _field(text: str) -> str:
    """A value as the line shows it, in its quotes: cut to FIELD, anything unprintable escaped (a path
    arrives percent-decoded: "%0A" would start a forged line), and its quotes escaped."""
    text = text[:FIELD]
    if not (text.isascii() and text.isprintable()):
        text = text.encode("unicode_escape").decode("ascii")[:FIELD]
    return text.replace('"', '\\"')


class AccessLog:
    """`app` behind an access log written to file descriptor `fd` (standard output by default)."""

    def __init__(self, app: WSGIApplication, fd: int | None = None) -> None:
        self.app = app
        self.fd = sys.stdout.fileno() if fd is None else fd
        self._second = -1
        self._stamp = ""

    def _now(self) -> str:
        """The time as the combined format writes it ("29/Nov/2026:18:40:02 +0000"), formatted once a
        second."""
        now = time.time()
        second = int(now)
        if second != self._second:  # two threads may both format it: the same text
            self._stamp, self._second = time.strftime("%d/%b/%Y:%H:%M:%S %z", time.localtime(second)), second
        return self._stamp

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        answered: list[Any] = []

        def start(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Callable[[bytes], object]:
            answered[:] = status, headers
            return start_response(status, headers, exc_info)

        try:
            body = self.app(environ, start)
        except BaseException:
            self.write(environ, "500", "-")
            raise
        status, headers = answered or ("500", [])
        length = next((value for name, value in headers if name.lower() == "content-length"), "-")
        self.write(environ, status[:3], length)
        # Werkzeug answers with an iterator even when the body is already whole; granian sends a list
        # at once, from Rust, but an iterator piece by piece, taking Python's lock back for each
        # (about 80 us a request).  A known length says the body is not a stream.
        if length.isdigit() and int(length) <= WHOLE and not isinstance(body, list):
            try:
                return [b"".join(body)]
            finally:
                close = getattr(body, "close", None)
                if close is not None:
                    close()
        return body

    def write(self, environ: WSGIEnvironment, status: str, length: str) -> None:
        url = environ.get("RAW_URI")  # gunicorn's: the request's own, query included
        if url is None:
            url = environ.get("PATH_INFO", "")
            if query := environ.get("QUERY_STRING"):
                url = f"{url}?{query}"
        referer = environ.get("HTTP_REFERER")
        agent = environ.get("HTTP_USER_AGENT")
        line = (f'{environ.get("REMOTE_ADDR") or "-"} - - [{self._now()}] '
                f'"{_field(environ.get("REQUEST_METHOD", "-")[:20])} {_field(redact(url))} {environ.get("SERVER_PROTOCOL", "-")}" '
                f'{status} {length} "{_field(redact(referer)) if referer else "-"}" '
                f'"{_field(redact(agent)) if agent else "-"}"\n')
        try:  # noqa: SIM105 - contextlib.suppress would cost a context manager per request
            os.write(self.fd, line.encode("utf-8", "backslashreplace"))
        except OSError:  # a closed or full log must not fail the request it describes
            pass
