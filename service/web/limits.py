"""Rate limits (Flask-Limiter): how often one client may make the service email addresses it chose.

The client is its IP address: the connection's, or with PROXY_HOPS trusted proxies in front, the one
they put in X-Forwarded-For (service/app.py installs werkzeug's ProxyFix for that many hops, so a
client cannot forge the header past them).  An IPv6 client counts by its /64: one home or one server
is given a whole /64 and may use any of its 2^64 addresses, so counting each address apart counts
nothing.  The counters live in RATELIMIT_STORAGE_URI: the process's memory by default (the embedded
mode runs one web process), Redis with several web processes or machines; should Redis be
unreachable, each process counts in its own memory meanwhile rather than failing or letting all
through.  How many invitations one address may get is the service's own check
(service/play/consent.py), in the database, whoever sends them.

Counting is atomic: a limited request takes its place in every counter before its view runs (one
increment that also answers whether the count is still within the limit: Redis's INCRBY, a lock in
memory), so 40 requests at once start at most the limit's number of games.  A view whose request
turned out not to count (a form sent back with a mistake starts no game) gives its places back
(`refund`).
"""

from __future__ import annotations

import ipaddress
import logging
import math
import time
from typing import Any

from flask import Flask, Response, current_app, request
from flask.globals import request_ctx
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from limits.strategies import FixedWindowRateLimiter

from service.store.inboxes import limit_key

log = logging.getLogger(__name__)

IPV6_PREFIX = 64


def client_key() -> str:
    """Who a limit counts: an IPv4 address, or the /64 network of an IPv6 one ("2001:db8:1:2::/64");
    an IPv4 address mapped into IPv6 counts as itself.  Never empty (Flask-Limiter skips a limit whose
    key is empty)."""
    address = get_remote_address() or ""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return address or "unknown"
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, IPV6_PREFIX), strict=False))
    return str(ip)


limiter = Limiter(key_func=client_key, strategy="fixed-window")

# Limits that Flask-Limiter checks only before each request (every route's, or every route's of a blueprint):
# the configuration's defaults, application-wide and meta limits.  The service sets none of them.
EVERY_REQUEST_LIMITS = ("RATELIMIT_DEFAULT", "RATELIMIT_APPLICATION", "RATELIMIT_META")


def init_app(app: Flask) -> None:
    """The limiter on `app`, its limits checked only on the views that have them.

    Each limit here is a `limiter.limit` decorator on its view, and the decorator checks its limits
    itself as the view is called.  Flask-Limiter also checks before every request, for the limits that
    no decorator carries (defaults, application-wide, meta and blueprint limits); with none of those
    that check finds nothing to count, yet resolves the route's limits and exemptions on every
    request (about 60 us, a fifth of GET /healthz in-process).  So it is taken out, unless the
    configuration names such a limit."""
    # The one limiter object keeps what the last app it was given configured where an app's configuration
    # names nothing: its switch (Flask-Limiter reads `config.setdefault(RATELIMIT_ENABLED, <its own>)`)
    # and its default and application-wide limits (set only when none are set yet).  Each app decides
    # its own: on unless configured off, and only the limits its configuration names.  (One app a
    # process in production; the tests make many, and one app's RATELIMIT_DEFAULT limited the sign-in
    # of every later one.)
    app.config.setdefault("RATELIMIT_ENABLED", True)
    limiter.limit_manager.set_default_limits([])
    limiter.limit_manager.set_application_limits([])
    limiter.init_app(app)
    _only_when_counted(app)
    if any(app.config.get(name) for name in EVERY_REQUEST_LIMITS) or limiter.limit_manager._blueprint_limits:
        return
    before = app.before_request_funcs[None]
    if limiter._check_request_limit in before:  # (with RATELIMIT_ENABLED off Flask-Limiter adds no hooks)
        before.remove(limiter._check_request_limit)


def _counted() -> bool:
    """Whether this request met the limiter: a limit checked (the before-request check, a decorated
    view), or its state asked for (`refund`, `retry_after`).  Flask-Limiter keeps what it met in the
    request context (`Limiter.context`), made on first use."""
    return hasattr(request_ctx._get_current_object(), "_limiter_request_context")  # type: ignore[attr-defined]


def _only_when_counted(app: Flask) -> None:
    """Flask-Limiter's after-request hook (the conditional deductions, the X-RateLimit headers when
    enabled) and its teardown (clearing its state) run only for a request that met the limiter.  For
    any other they did nothing, after making that empty state to look at (~6 µs of each request, GET
    /healthz and a JSON move included, issue #27)."""
    after = app.after_request_funcs[None]
    for index, hook in enumerate(after):
        if getattr(hook, "func", None) is getattr(Limiter, "_Limiter__inject_headers", object()) \
                and getattr(hook, "args", None) == (limiter,):
            def inject(response: Response, hook: Any = hook) -> Response:
                return hook(response) if _counted() else response

            after[index] = inject
    teardown = app.teardown_request_funcs[None]
    for index, hook in enumerate(teardown):
        if getattr(hook, "__func__", None) is getattr(Limiter, "_Limiter__release_context", object()) \
                and getattr(hook, "__self__", None) is limiter:
            def release(exc: BaseException | None = None, hook: Any = hook) -> None:
                if _counted():
                    hook(exc)

            teardown[index] = release


def new_games() -> str:
    """The limit of POST /games/new per client (config RATELIMIT_NEW_GAMES, e.g. "5 per minute;20 per hour")."""
    return str(current_app.config["RATELIMIT_NEW_GAMES"])


def signin() -> str:
    """The limit of POST /signin per client (config RATELIMIT_SIGNIN)."""
    return str(current_app.config["RATELIMIT_SIGNIN"])


def signin_address() -> str:
    """The limit of POST /signin per address typed (config RATELIMIT_SIGNIN_ADDRESS)."""
    return str(current_app.config["RATELIMIT_SIGNIN_ADDRESS"])


def signin_codes() -> str:
    """The limit of POST /signin/code per client (config RATELIMIT_SIGNIN_CODE)."""
    return str(current_app.config["RATELIMIT_SIGNIN_CODE"])


def typed_address_key() -> str:
    """Who the per-address limit counts: the form's address as the caps count it (no case, no +tag),
    whatever it is; known here or not, so the limit's 429 says nothing about it."""
    return "address:" + limit_key(request.form.get("email") or "")


def refund() -> None:
    """Give back the places the current request took in its limits' counters: it did not do what the
    limits count.  A refund that fails (the storage is down) leaves the place taken: stricter, never
    looser.  A refund landing after its window ended lowers the next window's count by one: at most the
    refunded requests' number, which were requests that did nothing."""
    strategy = limiter.limiter
    if not isinstance(strategy, FixedWindowRateLimiter):  # only a fixed window's counter can be given back
        return
    for taken in limiter.current_limits:
        if taken.breached:  # refused: it stays over its limit until its window ends, as it would anyway
            continue
        try:
            strategy.hit(taken.limit, *taken.request_args, cost=-1)
        except Exception:  # the storage's own errors: the place stays taken
            log.warning("could not give back a place in the rate limit %s", taken.limit, exc_info=True)


def retry_after() -> int:
    """Seconds until the limit the current request broke lets it through again (at least 1)."""
    current = limiter.current_limit
    if current is None:
        return 60
    return max(1, math.ceil(current.reset_at - time.time()))


def lobby_join() -> str:
    """The limit of a lobby join by typed address, per client (config RATELIMIT_LOBBY_JOIN)."""
    return str(current_app.config["RATELIMIT_LOBBY_JOIN"])


def lobby_join_address() -> str:
    """The limit of a lobby join per address typed (config RATELIMIT_LOBBY_JOIN_ADDRESS)."""
    return str(current_app.config["RATELIMIT_LOBBY_JOIN_ADDRESS"])
