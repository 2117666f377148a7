"""gunicorn's access log without the bearer tokens of the links (gunicorn.conf.py names the logger).

A player's link is its token: /p/<token>, /m/<token>, /u/<token>, /i/<token>, /a/<token>,
/never/<token>, the sign-in link /signin/<token> and the play API's /api/play/<token> each act for a
person to whoever holds the URL, and so does a personal API token (rpt_...) in any header a custom
format names (Authorization).
An access log that kept them would hand every seat of every game to whoever reads the log (an
operator's aggregation service, a backup, a support ticket with a pasted excerpt).  So every value
the log line may show (the request line, the path, the query, the Referer, any header or environ
variable a custom format names) has the segment after such a prefix replaced by "<token>"; the path
stays readable ("POST /p/<token>/move") for debugging and for counting requests per route.
"""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

from gunicorn.glogging import Logger

# The segment that follows a prefix of a link that stands for a person; a query parameter named
# token or t, should a link ever carry one there.
TOKEN_IN_PATH = re.compile(r"(/(?:p|m|u|i|a|never|api/play|signin(?!/code\b))/)[^/?#\s\"]+")
PERSONAL_TOKEN = re.compile(r"\brpt_[A-Za-z0-9_-]+")  # service/people/tokens.py PREFIX
TOKEN_IN_QUERY = re.compile(r"((?:^|[?&])(?:token|t)=)[^&#\s\"]+")
PLACEHOLDER = "<token>"


def redact(text: str) -> str:
    """`text` (a path, a request line, a URL) with every link token replaced by "<token>"."""
    text = TOKEN_IN_PATH.sub(lambda m: m.group(1) + PLACEHOLDER, text)
    text = PERSONAL_TOKEN.sub("rpt_" + PLACEHOLDER, text)
    return TOKEN_IN_QUERY.sub(lambda m: m.group(1) + PLACEHOLDER, text)


class TokenlessLogger(Logger):  # type: ignore[misc]  # gunicorn has no type hints
    """gunicorn's logger, whose access-log atoms carry no link token."""

    def atoms(self, resp: Any, req: Any, environ: dict[str, Any], request_time: timedelta) -> dict[str, Any]:
        found = super().atoms(resp, req, environ, request_time)
        return {key: redact(value) if isinstance(value, str) else value for key, value in found.items()}
