"""Whose language a page speaks (issue #26), and the ways to choose it.

The reader's language, first found wins:
1. the signed-in person's setting (service/people/languages.py; the start page reads it in the one
   statement that reads their games: service/web/home.py);
2. the choice this browser made while signed out (the language buttons of the sign-in page and the
   start page: a POST, kept in the signed session cookie, and saved as the person's setting when they
   sign in, if they had none);
3. the browser's Accept-Language, best match by its order and weights (`from_header`), cookie-free;
4. English.
A page made for one address (the invitation page: service/web/invitations.py `for_address`) puts that
address's own setting before the header, and the inviter's setting after it, before English: "the
browser's Accept-Language for pages and the inviter's language for an invitation" (issue #26).
Never from a link's token or its query: a forwarded link would carry one reader's language to another.

Accept-Language tags are matched by their language and script: "uk*" is Ukrainian; "zh-Hant",
"zh-TW", "zh-HK" and "zh-MO" are Traditional Chinese.  Simplified Chinese ("zh-CN", "zh-SG",
"zh-Hans") and a bare "zh" match Traditional Chinese only as a last resort, when no other language of
the header matches: a reader of Simplified Chinese reads Traditional far better than English, but a
browser that lists English after "zh-CN" said it prefers English to a script it did not ask for.
Russian never selects Ukrainian.

- POST /language                 language=en|uk|zh_Hant, next=a path of this site: this browser's choice
                                 (the person's setting when signed in)
- POST /settings/language        the same from the settings page (signed in)
- GET  /api/me/language          {"language": ..., "chosen": bool, "languages": [...]}
- POST /api/me/language          {"language": "uk"} (JSON; a session's POST carries X-CSRFToken)
"""

from __future__ import annotations

from typing import Any

from babel.lists import format_list
from babel.numbers import format_decimal
from flask import (
    Blueprint,
    Flask,
    Response,
    flash,
    g,
    has_request_context,
    jsonify,
    redirect,
    request,
    session,
    url_for,
)
from flask.typing import ResponseReturnValue
from flask_babel import Babel, force_locale, get_locale, gettext, refresh
from werkzeug.datastructures import LanguageAccept

from service import lang
from service.errors import BadRequest
from service.people import languages
from service.store.models import utcnow
from service.web import auth, template_words

bp = Blueprint("language", __name__)
_CHOSEN = "lang"  # the session key of a signed-out browser's choice
_PERSON = "person_language"  # `g`: the signed-in person's setting, once read (None: never chosen)
_PAGE = "page_languages"  # `g`: (the page's address's setting, the inviter's) on an invitation page
TRADITIONAL_REGIONS = frozenset({"tw", "hk", "mo"})
SIMPLIFIED = frozenset({"hans", "cn", "sg"})


def register(app: Flask) -> None:
    Babel(app, locale_selector=select, default_translation_directories=str(lang.CATALOGS))
    template_words.install(app)
    app.register_blueprint(bp)

    # "{{ names|words_list }}": a list in the page's language, by CLDR ("Bo, Cy and Di", "Bo, Cy і Di", "Bo、Cy和Di").
    app.jinja_env.filters["words_list"] = lambda items: format_list([str(i) for i in items], locale=current())
    app.jinja_env.filters["format_decimal"] = lambda number: format_decimal(number, locale=current())

    @app.context_processor
    def languages_of_page() -> dict[str, Any]:
        return {"html_lang": lang.html_tag(current()), "language_names": lang.NATIVE_NAMES}

    @app.after_request
    def vary(response: Response) -> Response:
        # A page chosen by the header differs by it: a shared cache must not give one reader's to another.
        if response.mimetype == "text/html":
            response.vary.add("Accept-Language")
            response.headers.setdefault("Content-Language", lang.html_tag(current()))
        return response


def current() -> str:
    """The language of this request's words (Flask-Babel's locale, picked by `select` once)."""
    locale = get_locale()
    return lang.known(str(locale)) or lang.ENGLISH if locale is not None else lang.ENGLISH


def for_api() -> str:
    """The language of the game's words in a JSON answer (move labels, steps): the one the request's own
    Accept-Language names, else English.  Never a setting nor the session's choice: a program reading
    the API gets English unless it asks (curl and most HTTP libraries send no Accept-Language); the
    page's composer asks for the page's language (static/composer.js).  `text` (move_text) is the
    same in every language."""
    if "Accept-Language" not in request.headers:
        return lang.ENGLISH
    return from_header(request.accept_languages) or lang.ENGLISH


def from_header(accept: LanguageAccept) -> str | None:
    """The best of LANGUAGES for an Accept-Language header (see the module's words), or None."""
    last_resort = None
    for tag, quality in accept:  # werkzeug orders them by quality, then by their order in the header
        if quality <= 0:
            continue
        parts = tag.lower().replace("_", "-").split("-")
        if parts[0] in ("en", "*"):
            return lang.ENGLISH
        if parts[0] == "uk":
            return "uk"
        if parts[0] == "zh":
            rest = set(parts[1:])
            if "hant" in rest or (rest & TRADITIONAL_REGIONS and not rest & SIMPLIFIED):
                return "zh_Hant"
            last_resort = last_resort or "zh_Hant"
    return last_resort


def without_person() -> str:
    """The language of a browser that is not signed in, or of a person who never chose one (on an
    invitation page: the invited address's setting, then the header, then the inviter's setting)."""
    own, inviter = g.get(_PAGE) or (None, None)
    chosen = lang.known(session.get(_CHOSEN)) or own
    return chosen or from_header(request.accept_languages) or inviter or lang.ENGLISH


def for_address(address: str, inviter: str | None) -> None:
    """This request's page is for `address` (an invitation's), sent by `inviter`: their settings
    choose the page's language where the reader chose none (see the module's words).  Call it
    before the first word is translated; it reads two primary keys."""
    setattr(g, _PAGE, (languages.language_of(address), languages.language_of(inviter) if inviter else None))
    refresh()


def settle(email: str, person_language: str | None) -> None:
    """The signed-in person's setting as a view read it with its own data (the start page's games),
    so `select` need not read it again."""
    setattr(g, _PERSON, (email, lang.known(person_language)))


def select() -> str:
    """Flask-Babel's locale selector: called once per request, at the first word translated."""
    if not has_request_context():
        return lang.ENGLISH
    email = auth.current_email()
    if email is None:
        return without_person()
    kept = g.get(_PERSON)
    if kept is None or kept[0] != email:  # (kept per address, as auth keeps who is signed in)
        kept = (email, languages.language_of(email))
        setattr(g, _PERSON, kept)
    return kept[1] or without_person()


def _wanted(value: Any) -> str:
    chosen = lang.known(value if isinstance(value, str) else None)
    if chosen is None:
        raise BadRequest(gettext("Choose one of the languages offered: English, Українська or 繁體中文."),
                         gettext("No such language"))
    return chosen


def _set(chosen: str) -> None:
    """This browser's choice: the person's setting when signed in, else the session's."""
    email = auth.current_email()
    if email is not None:
        languages.choose(email, chosen, utcnow())
    else:
        session[_CHOSEN] = chosen
    g.pop(_PERSON, None)


def carry_to(email: str, chosen: str | None) -> None:
    """At sign-in: the language the browser chose signed out becomes the person's, if they had none."""
    if chosen is not None and languages.language_of(email) is None:
        languages.choose(email, chosen, utcnow())


def chosen_signed_out() -> str | None:
    return lang.known(session.get(_CHOSEN))


def _back(path: str | None) -> str:
    """`next` if it is a path of this site (never another site's address: no open redirect)."""
    if path and path.startswith("/") and not path.startswith(("//", "/\\")) and "\n" not in path and "\r" not in path:
        return path
    return url_for("games.index")


@bp.post("/language")
def choose() -> ResponseReturnValue:
    _set(_wanted(request.form.get("language")))
    return redirect(_back(request.form.get("next")), 303)


@bp.post("/settings/language")
def settings_choice() -> ResponseReturnValue:
    email = auth.require_email()
    chosen = _wanted(request.form.get("language"))
    languages.choose(email, chosen, utcnow())
    with force_locale(chosen):  # said in the language just chosen
        flash(gettext("Riftpost now speaks %(language)s to you.", language=lang.NATIVE_NAMES[chosen]))
    return redirect(url_for("settings.page"), 303)


@bp.get("/api/me/language")
def api_language() -> ResponseReturnValue:
    email = auth.require_api_email()
    chosen = languages.language_of(email)
    return jsonify({"language": chosen or lang.ENGLISH, "chosen": chosen is not None,
                    "languages": list(lang.LANGUAGES)})


@bp.post("/api/me/language")
def api_choose() -> ResponseReturnValue:
    email = auth.require_api_email()
    data = request.get_json(silent=True)
    chosen = _wanted(data.get("language") if isinstance(data, dict) else None)
    languages.choose(email, chosen, utcnow())
    return jsonify({"language": chosen, "chosen": True, "languages": list(lang.LANGUAGES)})
