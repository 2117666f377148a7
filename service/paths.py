"""The addresses of the pages that emails, feeds and webhooks link to: their paths as data, keyed by the
web's endpoint names, and absolute URLs built from BASE_URL without the web app (issue #26).

The web registers these routes from the same data (`@bp.get(paths.rule("play.page"))`), so a path is
written once: renaming one here renames the page and every link to it.  The worker builds its links
here and never loads Flask (tests/worker/test_lean_processes.py); links are built as Flask's `url_for`
builds them (werkzeug's routing: the same quoting, extra values as the query string in their order).

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

from functools import cache
from typing import Any
from urllib.parse import urlsplit

from werkzeug.routing import BuildError, Map, MapAdapter, Rule

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


@cache
def _map() -> Map:
    return Map([Rule(path, endpoint=endpoint) for endpoint, path in RULES.items()])


@cache
def _adapter(base_url: str) -> MapAdapter:
    """Links under BASE_URL: its scheme, host and path (a service mounted below the root)."""
    parts = urlsplit(base_url)
    return _map().bind(parts.netloc, script_name=parts.path or "/", url_scheme=parts.scheme or "http")


def url(endpoint: str, /, *, base_url: str | None = None, **values: Any) -> str:
    """The absolute URL of `endpoint` with `values` (those the rule does not name go in the query
    string), under `base_url` (default: the running app's BASE_URL)."""
    return _build(endpoint, values, base_url, external=True)


def path(endpoint: str, /, *, base_url: str | None = None, **values: Any) -> str:
    """The same, as a path from the host (BASE_URL's own path included)."""
    return _build(endpoint, values, base_url, external=False)


def _build(endpoint: str, values: dict[str, Any], base_url: str | None, external: bool) -> str:
    rule(endpoint)  # an unknown endpoint says where to add it
    base = base_url if base_url is not None else str(running.config()["BASE_URL"])
    try:
        return _adapter(base).build(endpoint, values, force_external=external)
    except BuildError as error:  # a value the rule needs is missing
        raise UnknownEndpoint(f"cannot build {endpoint!r} from {sorted(values)}: {error}") from None
