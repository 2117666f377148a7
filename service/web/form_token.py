"""The templates' `csrf_token()`: Flask-WTF's token of this request, made once and then read back
(issue #27: the player page asks for it 26 times, once per form).

Flask-WTF's `generate_csrf` keeps the request's token in `g` already, but each call first reads its
two settings from the app's config and looks in `g` through Flask's proxies again (~20 µs a call on
the benchmark machine, half a millisecond a player page).  This answers from `g` when the token is
there and asks `generate_csrf` otherwise, so the token is the same one, made at the same moment (the
first form of a page: a page without a form still sets no session cookie), and a token dropped from
`g` (a sign-in rotates it: service/web/auth.py) is made anew as before.
"""

from __future__ import annotations

from flask import Flask, g
from flask_wtf.csrf import generate_csrf

FIELD = "csrf_token"  # Flask-WTF's WTF_CSRF_FIELD_NAME, its name in `g` and the session (checked at install)


def csrf_token() -> str:
    token = g.get(FIELD)
    return token if token is not None else generate_csrf()


def install(app: Flask) -> None:
    """Over Flask-WTF's `csrf_token` (call after `CSRFProtect.init_app`): its global, and without the
    context processor that handed every template `generate_csrf` and `csrf_meta_tag` (both are the
    environment's globals: every template sees them, one call fewer a render)."""
    if app.config.get("WTF_CSRF_FIELD_NAME", FIELD) != FIELD:
        raise RuntimeError("service/web/form_token.py reads Flask-WTF's token from g under 'csrf_token'")
    app.jinja_env.globals["csrf_token"] = csrf_token
    processors = app.template_context_processors[None]
    processors[:] = [found for found in processors if getattr(found, "__module__", None) != "flask_wtf.csrf"]
