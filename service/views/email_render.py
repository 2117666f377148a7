"""The Jinja environment of email: templates/email/* and the board templates they draw, rendered without
Flask (issue #26: the worker never builds the web app, nor a request context).

Built once per process.  What the email templates need of the web's environment is here too, the same:
the loader on templates/, autoescape for .html (Flask's choice of extensions: a .txt part is not
escaped), the `plural` filter, and `url_for`, whose links service/paths.py builds from BASE_URL (an
endpoint it does not know raises service.paths.UnknownEndpoint).

Each render is for one reader, in their `locale` ("en" for now): the templates see it as `locale`, and
a board drawn inside the render (Position.board_html, service/views/positions.py) gets it too.  The
translations (#21) will be installed here, per render, from it.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader

from engine.kit import plural
from service import paths

# templates/ at the top of the checkout; service/templates links to it (and holds it in a wheel).
TEMPLATES = Path(__file__).resolve().parent.parent / "templates"
DEFAULT_LOCALE = "en"
# Flask's autoescaped extensions (flask.App.select_jinja_autoescape): the HTML parts; the .txt parts not.
_ESCAPED = (".html", ".htm", ".xml", ".xhtml", ".svg")

_locale: ContextVar[str] = ContextVar("riftpost.email-locale", default=DEFAULT_LOCALE)


def url_for(endpoint: str, /, *, _external: bool = False, **values: Any) -> str:
    """Flask's `url_for` as the email templates call it: the path, or with `_external` the whole URL,
    under BASE_URL."""
    return paths.url(endpoint, **values) if _external else paths.path(endpoint, **values)


def _autoescape(name: str | None) -> bool:
    return name is not None and name.endswith(_ESCAPED)


@cache
def environment() -> Environment:
    """The one environment of the process (its compiled templates are cached in it)."""
    env = Environment(loader=FileSystemLoader(str(TEMPLATES)), autoescape=_autoescape, auto_reload=False)
    env.filters["plural"] = plural  # "{{ hours|plural('hour') }}": a count and its noun, agreed
    env.globals["url_for"] = url_for
    return env


def locale() -> str:
    """The locale of the email being rendered (DEFAULT_LOCALE outside a render)."""
    return _locale.get()


@contextmanager
def reading_in(locale: str) -> Iterator[None]:
    token = _locale.set(locale)
    try:
        yield
    finally:
        _locale.reset(token)


def render(template: str, context: Mapping[str, Any], locale: str = DEFAULT_LOCALE) -> str:
    """`template` (a path under templates/) with `context`, for a reader in `locale`."""
    with reading_in(locale):
        return environment().get_template(template).render({**context, "locale": locale})
