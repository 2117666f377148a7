"""The Jinja environment of email: templates/email/* and the board templates they draw, rendered without
Flask (issue #26: the worker never builds the web app, nor a request context).

Built once per process.  What the email templates need of the web's environment is here too, the same:
the loader on templates/, autoescape for .html (Flask's choice of extensions: a .txt part is not
escaped), the `plural` filter, and `url_for`, whose links service/paths.py builds from BASE_URL (an
endpoint it does not know raises service.paths.UnknownEndpoint).

Each render is for one reader, in their `locale` (service/lang.py LANGUAGES): the templates see it as
`locale`, and a board drawn inside the render (Position.board_html, service/views/positions.py) gets it
too.  The words are gettext's (issue #26): the environment's `_()`, `ngettext()` and `{% trans %}`
(Jinja's i18n extension, newstyle: autoescaped, `%(name)s` placeholders) look the message up in the
catalog of the locale being rendered (a context variable, so one environment serves every reader and
no Flask request is needed), and the Python that words an email (service/mail/kinds.py: first lines,
subjects) calls `gettext`/`ngettext` below, inside the same render (`reading_in`).

The game's words (events, moves, results) are worded in the render's locale by their callers (issue
#26: docs/i18n.md "Wired").  What is still English (the boards, a game without a message catalog, an
older row's words) is wrapped in an element with `lang="en"` (`english`, `marked`), which tells a screen
reader to read it as English and lets the tests strip exactly it when they look for untranslated words.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, MutableMapping
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader
from jinja2.nodes import EvalContext
from jinja2.utils import pass_eval_context
from markupsafe import Markup, escape

from engine.kit import plural
from service import lang, paths

# templates/ at the top of the checkout; service/templates links to it (and holds it in a wheel).
TEMPLATES = Path(__file__).resolve().parent.parent / "templates"
DEFAULT_LOCALE = lang.ENGLISH
# Flask's autoescaped extensions (flask.App.select_jinja_autoescape): the HTML parts; the .txt parts not.
_ESCAPED = (".html", ".htm", ".xml", ".xhtml", ".svg")

_locale: ContextVar[str] = ContextVar("riftpost.email-locale", default=DEFAULT_LOCALE)


def url_for(endpoint: str, /, *, _external: bool = False, **values: Any) -> str:
    """Flask's `url_for` as the email templates call it: the path, or with `_external` the whole URL,
    under BASE_URL."""
    return paths.url(endpoint, **values) if _external else paths.path(endpoint, **values)


def _autoescape(name: str | None) -> bool:
    return name is not None and name.endswith(_ESCAPED)


class _Environment(Environment):
    def make_globals(self, d: MutableMapping[str, Any] | None) -> MutableMapping[str, Any]:
        """A template's globals as a plain dict, the environment's overlaid with its own, rather than
        Jinja's ChainMap of the two: every {% include %} and {% import %} copies them into its new
        context (`dict(globals, **vars)`), which reads a ChainMap key by key in Python: 18 us a context
        against 3.6 from a dict, and a render makes some eight.  Changes to the environment's globals
        after a template is loaded would not reach it (Jinja's advice: make none); `environment` sets
        them all before any is loaded."""
        return {**self.globals, **(d or {})}


@cache
def environment() -> Environment:
    """The one environment of the process (its compiled templates are cached in it)."""
    # Every template kept in a plain dict (cache_size -1: they are the few files under templates/): the
    # default LRU cache takes a lock and moves the name in a deque on every get_template, which each
    # {% include %} and {% import %} of a render calls (some twenty an email).
    env = _Environment(loader=FileSystemLoader(str(TEMPLATES)), autoescape=_autoescape, auto_reload=False,
                       cache_size=-1, extensions=["jinja2.ext.i18n"])
    # Newstyle (as Flask-Babel's): Jinja fills the placeholders and escapes them in the HTML parts.
    env.install_gettext_callables(  # type: ignore[attr-defined]  # added by the i18n extension
        lambda message: lang.translations(locale()).gettext(message),
        lambda singular, plural, n: lang.translations(locale()).ngettext(singular, plural, n),
        newstyle=True)
    # ...by the same rules as the extension's callables, in one call rather than three: its `_` is a
    # context function that calls `gettext`, another that calls the lookup, each through the template's
    # Context.call (and in a loop or block a derived Context each); an email says some thirty words.
    env.globals.update(_=_template_gettext, gettext=_template_gettext, ngettext=_template_ngettext)
    # English counts of the board templates (the game's words: not translated yet).
    env.filters["plural"] = plural
    env.globals["url_for"] = url_for
    env.globals["and_list"] = lambda items: lang.and_list(list(items), locale())
    env.filters["english"] = english
    env.filters["html_lang"] = lang.html_tag
    return env


@pass_eval_context
def _template_gettext(eval_ctx: EvalContext, message: str, /, **variables: Any) -> str:
    """A template's `_()`, `gettext()` and `{% trans %}`, as jinja2.ext's newstyle gettext: the message in
    the render's locale, made markup in an autoescaped part, always a format string."""
    found = lang.translations(locale()).gettext(message)
    text = Markup(found) if eval_ctx.autoescape else found
    # (no values and no "%": the format would leave it as it is, and so do most of an email's words)
    return text if not variables and "%" not in found else text % variables


@pass_eval_context
def _template_ngettext(eval_ctx: EvalContext, singular: str, plural: str, n: int, /, **variables: Any) -> str:
    """A template's `ngettext()` and plural `{% trans %}`, as jinja2.ext's newstyle ngettext (`num`: n)."""
    variables.setdefault("num", n)
    found = lang.translations(locale()).ngettext(singular, plural, n)
    return (Markup(found) if eval_ctx.autoescape else found) % variables


def drawn_in_email(name: str) -> bool:
    """Whether the template `name` (under templates/) is one an email renders: an email's own
    (email/), or a board and its parts (games/); the worker compiles them as it starts."""
    return name.startswith(("email/", "games/"))


def gettext(message: str, **values: Any) -> str:
    """`message` in the locale of the email being rendered, its `%(name)s` placeholders filled."""
    found = lang.translations(locale()).gettext(message)
    return found % values if values else found


def ngettext(singular: str, plural: str, n: int, **values: Any) -> str:
    """The form for `n` (CLDR's plural rules of the locale: Ukrainian has three), `%(num)d` filled."""
    return lang.translations(locale()).ngettext(singular, plural, n) % {"num": n, **values}


def and_list(items: list[str]) -> str:
    """"Bo, Cy and Di" in the locale being rendered (service/lang.py `and_list`)."""
    return lang.and_list(items, locale())


def english(text: Any) -> Markup:
    """Words still in English (a board's, an older row's), marked as English in an HTML
    part: `<span lang="en">` (in an English email, where it says nothing, the text alone).  Empty text
    stays empty."""
    if not text:
        return Markup("")
    if locale() == DEFAULT_LOCALE:
        return escape(text)
    return Markup('<span lang="en">%s</span>') % escape(text)


def marked(line: str, parts: list[str]) -> Markup:
    """`line` escaped for HTML, each of `parts` (the game's words it quotes: english) in it marked as
    English."""
    out = escape(line)
    for part in sorted({p for p in parts if p}, key=len, reverse=True):
        out = Markup(out.replace(escape(part), english(part)))
    return Markup(out)


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
