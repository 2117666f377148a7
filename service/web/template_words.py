"""The templates' gettext (`_`, `gettext`, `ngettext`, `pgettext`, `npgettext`), bound to the reader's
catalog once per request instead of looked up again for every word (issue #27: the player page).

Flask-Babel installs Jinja's newstyle i18n callables over lambdas that ask `get_translations()` for
each word: three `Context.call`s (the `_` alias, Jinja's newstyle wrapper, the lambda), then
Flask-Babel's context, domain and locale lookups through `g`'s proxy, some ten proxy reads a word.
A page says ~100-300 words, a tenth or more of its CPU.  These do what Jinja's newstyle wrappers do
(`Markup` when autoescaping, then `%` with the keywords; `num`/`context` filled in) with the same
catalog object Flask-Babel gives, kept on Flask-Babel's own per-request state next to the locale it
was chosen for: `force_locale` and `refresh` put a new locale object there, so the next word asks
Flask-Babel again and a forced language (an email's, a just-chosen language's) is always honoured.
"""

from __future__ import annotations

from typing import Any

from babel.support import NullTranslations
from flask import Flask, g
from flask_babel import get_translations
from jinja2.nodes import EvalContext
from jinja2.utils import pass_eval_context
from markupsafe import Markup

_KEPT = "riftpost_catalog"  # on Flask-Babel's namespace in `g`: (the locale object, its catalog)


def _catalog() -> NullTranslations:
    """Flask-Babel's catalog of this request, as `get_translations()` answers it."""
    try:
        state = g.get("_flask_babel")
    except RuntimeError:  # no app context: Flask-Babel's own answer (the identity catalog)
        return get_translations()
    locale = getattr(state, "babel_locale", None)
    if locale is None:  # no word said yet: Flask-Babel selects the language (service/web/language.py)
        return get_translations()
    kept = getattr(state, _KEPT, None)
    if kept is not None and kept[0] is locale:
        return kept[1]
    found = get_translations()
    setattr(state, _KEPT, (locale, found))
    return found


# The parameters are positional-only, as Jinja's own (`__string`...): a template's placeholder may be
# named `string`, `plural`, `num`'s neighbours or `context` without colliding with them.
@pass_eval_context
def gettext(eval_ctx: EvalContext, string: str, /, **variables: Any) -> str:
    found = _catalog().ugettext(string)
    if not variables and "%" not in found:  # what `%` would give back unchanged: most words of a page
        return Markup(found) if eval_ctx.autoescape else found
    if eval_ctx.autoescape:
        found = Markup(found)
    return found % variables  # always a format string, as Jinja's newstyle gettext ("%%" is "%")


@pass_eval_context
def ngettext(eval_ctx: EvalContext, singular: str, plural: str, num: int, /, **variables: Any) -> str:
    variables.setdefault("num", num)
    found = _catalog().ungettext(singular, plural, num)
    if eval_ctx.autoescape:
        found = Markup(found)
    return found % variables


@pass_eval_context
def pgettext(eval_ctx: EvalContext, context: str, string: str, /, **variables: Any) -> str:
    variables.setdefault("context", context)
    found = _catalog().upgettext(context, string)
    if eval_ctx.autoescape:
        found = Markup(found)
    return found % variables


@pass_eval_context
def npgettext(eval_ctx: EvalContext, context: str, singular: str, plural: str, num: int, /,
              **variables: Any) -> str:
    variables.setdefault("context", context)
    variables.setdefault("num", num)
    found = _catalog().unpgettext(context, singular, plural, num)
    if eval_ctx.autoescape:
        found = Markup(found)
    return found % variables


def install(app: Flask) -> None:
    """Over Flask-Babel's callables (call after `Babel(app)`); `_` is gettext itself, not Jinja's
    alias that looks `gettext` up again for every word (no template rebinds `gettext`)."""
    app.jinja_env.globals.update(_=gettext, gettext=gettext, ngettext=ngettext, pgettext=pgettext,
                                 npgettext=npgettext)
