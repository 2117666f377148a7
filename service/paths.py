"""The addresses of the pages that emails, feeds and webhooks link to: their paths as data, keyed by the
web's endpoint names, and absolute URLs built from BASE_URL without the web app (issue #26).

The web registers these routes from the same data (`@bp.get(paths.rule("play.page"))`), so a path is
written once: renaming one here renames the page and every link to it.  The worker builds its links
here and never loads Flask nor werkzeug (tests/worker/test_lean_processes.py: werkzeug's routing is ~3 MB
of the worker's memory); links are built as Flask's `url_for` builds them with werkzeug's routing, byte for
byte: the same quoting of the rule's values and of the host, extra values as the query string in their order,
None left out (tests/service/test_paths.py compares the two).

To link a new page from an email (or a feed, or a webhook):
1. add its endpoint and rule to RULES below (the endpoint is `<blueprint>.<view>`, as `url_for` names it);
2. route the view with it: `@bp.get(paths.rule("lobby.page"))` (methods stay the web's business);
3. link it: `paths.url("lobby.page", token=...)` in Python, `url_for("lobby.page", ..., _external=True)`
   in an email template (the email environment's `url_for` is this module's).
An endpoint missing from RULES raises UnknownEndpoint when an email is rendered; tests/service/
test_paths.py renders every kind and checks that every endpoint named by the email templates and by
the mail code is here, and that the web app builds each path the same.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any
from urllib.parse import quote, urlencode, urlsplit

from service import running

# endpoint -> rule (werkzeug's syntax).  Only the pages linked from outside a request live here; the
# web's other routes stay in their blueprints.
RULES: dict[str, str] = {
    "play.page": "/p/<token>",
    "play.unsubscribe": "/u/<token>",
    "history.player": "/p/<token>/history",
    "account.ask": "/p/<token>/account",
    "account.page": "/a/<token>",
    "account.one_click": "/never/<token>",
    "invitations.page": "/i/<token>",
    "invitations.decline": "/i/<token>/decline",
    "signin.link": "/signin/<token>",
    "notify.notifications": "/settings/notifications",
    "channels.page": "/settings/channels",
    "lobby.index": "/lobby",
    "lobby.confirm_page": "/lobby/confirm/<token>",
    "rematch.page": "/p/<token>/again",
    # Flask's own static route (its default static_url_path), for a board template's icons.
    "static": "/static/<path:filename>",
}


class UnknownEndpoint(LookupError):
    """A link to an endpoint this module does not know: add it to RULES (see the module's docstring)."""


def rule(endpoint: str) -> str:
    """The rule the web routes `endpoint` with."""
    try:
        return RULES[endpoint]
    except KeyError:
        raise UnknownEndpoint(f"{endpoint!r} is not in service/paths.py RULES: add it there and route the "
                              "view with paths.rule()") from None


# What werkzeug's routing quotes: a rule's values and static text as a path segment
# (https://url.spec.whatwg.org/#url-path-segment-string), the query string's keys and values.
_SEGMENT_SAFE = "!$&'()*+,/:;=@"
_QUERY_SAFE = "!$'()*,/:;?@"
_VARIABLE = re.compile(r"<(?:[a-zA-Z_][a-zA-Z0-9_]*:)?([a-zA-Z_][a-zA-Z0-9_]*)>")


@cache
def _parts(endpoint: str) -> tuple[tuple[bool, str], ...]:
    """The rule as (is a value's name, text) pieces, its static text already quoted."""
    pieces: list[tuple[bool, str]] = []
    at = 0
    source = rule(endpoint)
    for found in _VARIABLE.finditer(source):
        if found.start() > at:
            pieces.append((False, quote(source[at:found.start()], safe=_SEGMENT_SAFE)))
        pieces.append((True, found.group(1)))
        at = found.end()
    if at < len(source):
        pieces.append((False, quote(source[at:], safe=_SEGMENT_SAFE)))
    return tuple(pieces)


@cache
def _base(base_url: str) -> tuple[str, str, str]:
    """BASE_URL as werkzeug binds it: scheme (http or https), host (lower case, IDNA), script name
    (ending in a slash: a service mounted below the root)."""
    parts = urlsplit(base_url)
    name, colon, port = parts.netloc.lower().partition(":")
    host = name.encode("idna").decode("ascii") + colon + port
    script = parts.path or "/"
    if not script.endswith("/"):
        script += "/"
    return ("https" if parts.scheme in ("https", "wss") else "http"), host, script


def url(endpoint: str, /, *, base_url: str | None = None, **values: Any) -> str:
    """The absolute URL of `endpoint` with `values` (those the rule does not name go in the query
    string), under `base_url` (default: the running app's BASE_URL)."""
    return _build(endpoint, values, base_url, external=True)


def path(endpoint: str, /, *, base_url: str | None = None, **values: Any) -> str:
    """The same, as a path from the host (BASE_URL's own path included)."""
    return _build(endpoint, values, base_url, external=False)


def _build(endpoint: str, values: dict[str, Any], base_url: str | None, external: bool) -> str:
    pieces = _parts(endpoint)  # an unknown endpoint says where to add it
    base = base_url if base_url is not None else str(running.config()["BASE_URL"])
    given = {key: value for key, value in values.items() if value is not None}
    names = {text for named, text in pieces if named}
    if not names <= given.keys():  # a value the rule needs is missing
        raise UnknownEndpoint(f"cannot build {endpoint!r} from {sorted(values)}: "
                              f"{sorted(names - given.keys())} missing")
    built = "".join(quote(str(given[text]), safe=_SEGMENT_SAFE) if named else text for named, text in pieces)
    query = urlencode([(key, each) for key, value in given.items() if key not in names
                       for each in (value if isinstance(value, (list, tuple, set)) else (value,))
                       if each is not None], safe=_QUERY_SAFE)
    if query:
        built += "?" + query
    scheme, host, script = _base(base)
    if not external:
        return f"{script.rstrip('/')}/{built.lstrip('/')}"
    return f"{scheme}://{host}{script[:-1]}/{built.lstrip('/')}"
