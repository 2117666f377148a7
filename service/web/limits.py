"""Rate limits (Flask-Limiter): how often one client may make the service email addresses it chose.

The client is its IP address: the connection's, or with PROXY_HOPS trusted proxies in front, the one
they put in X-Forwarded-For (service/app.py installs werkzeug's ProxyFix for that many hops, so a
client cannot forge the header past them).  The counters live in RATELIMIT_STORAGE_URI: the process's
memory by default (the embedded mode runs one web process), Redis with several workers; should Redis
be unreachable, each process counts in its own memory meanwhile rather than failing or letting all
through.  How many invitations one address may get is the service's own check (service/play/consent.py),
in the database, whoever sends them.
"""

from __future__ import annotations

import math
import time

from flask import current_app
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address

limiter = Limiter(key_func=get_remote_address)


def new_games() -> str:
    """The limit of POST /games/new per client (config RATELIMIT_NEW_GAMES, e.g. "5 per minute;20 per hour")."""
    return str(current_app.config["RATELIMIT_NEW_GAMES"])


def retry_after() -> int:
    """Seconds until the limit the current request broke lets it through again (at least 1)."""
    current = limiter.current_limit
    if current is None:
        return 60
    return max(1, math.ceil(current.reset_at - time.time()))
