"""Who the browser is signed in as: the session cookie (Flask's, signed with SECRET_KEY; HttpOnly,
SameSite=Lax, Secure under https: service/web/headers.py) holds the person's address key and the
session generation of the sign-in (service/people/sessions.py).  It lasts PERMANENT_SESSION_LIFETIME
(30 days) and is renewed by every request, so a person who plays weekly stays signed in; "sign out
everywhere" ends every cookie of the earlier generation.

A player's emailed links never need a session: the signed token in the path is their proof."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

from flask import Flask, g, has_request_context, request, session
from flask_wtf.csrf import validate_csrf
from wtforms import ValidationError

from service.errors import Forbidden, RiftpostError
from service.lang import N_
from service.people import sessions, tokens
from service.store.inboxes import key as inbox_key
from service.store.models import utcnow

LIFETIME = timedelta(days=30)
_WHO, _GEN = "who", "gen"


class SignInNeeded(RiftpostError):
    status = 401
    default_title = "Please sign in"


class BadBearer(SignInNeeded):
    """An `Authorization` header that is no live personal token: 401, never the session instead (a
    client that sent a token meant that token)."""

    default_title = "Not a valid API token"


def register(app: Flask) -> None:
    # Flask's own defaults are 31 days and a refresh on every request: ours is said here.
    app.config.update(PERMANENT_SESSION_LIFETIME=LIFETIME, SESSION_REFRESH_EACH_REQUEST=True)

    @app.context_processor
    def who() -> dict[str, bool]:
        # The page header's "Your games · Settings" (or "Sign in"): no address in it, so a page
        # that a shared cache kept shows nobody's.
        # Emails are rendered without a request (the worker): nobody is signed in there.
        return {"signed_in_header": has_request_context() and current_email() is not None}


def sign_in(email: str) -> None:
    """Sign this browser in as the address (a new session: nothing of an earlier one is kept)."""
    generation = sessions.start(email)
    session.clear()
    session.permanent = True
    session[_WHO], session[_GEN] = inbox_key(email), generation
    _forget()


def sign_out() -> None:
    session.clear()
    _forget()


def _forget() -> None:
    """What this request kept of the cleared session: who it was, and the CSRF token (Flask-WTF keeps
    it in `g` beside the session's copy; a form rendered after the clear must carry a new one)."""
    g.pop("signed_in", None)
    g.pop("csrf_token", None)


def current_email(read_generation: Callable[[str], int | None] = sessions.generation) -> str | None:
    """The address key the browser is signed in as, while its generation is the person's; else None
    (and a cookie of an ended generation is dropped).  Asked once per request: the answer is kept in
    `g` with the cookie's values it was found for.  `read_generation` reads the generation of the
    address the cookie names: a view may read it in a statement of its own, with what it shows the
    person (service/web/home.py `generation_with_games`), which it then shows only if this answers so."""
    who, gen = session.get(_WHO), session.get(_GEN)
    cached = g.get("signed_in")
    if cached is not None and cached[0] == (who, gen):
        return cached[1]  # type: ignore[no-any-return]
    email = None
    if isinstance(who, str) and isinstance(gen, int):
        if read_generation(who) == gen:
            email = who
        else:
            session.pop(_WHO, None)
            session.pop(_GEN, None)
    g.signed_in = ((who, gen), email)
    return email


def require_email(read_generation: Callable[[str], int | None] = sessions.generation) -> str:
    email = current_email(read_generation)
    if email is None:
        raise SignInNeeded(N_("Sign in to see this page: we email you a link."))
    return email


SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


def require_api_email(read_generation: Callable[[str], int | None] = sessions.generation) -> str:
    """The person a JSON request of /api/me/... acts for: a live personal API token's in
    `Authorization: Bearer` (service/people/tokens.py), else the signed-in browser's.

    /api/me is exempt from the forms' CSRF check (a bot has no form), so a request that changes
    something on the strength of the session cookie must carry the page's CSRF token in the
    `X-CSRFToken` header: SameSite=Lax keeps the cookie off other sites' POSTs, but not off a sibling
    subdomain's, and the JSON content type is one check, not a proof.  A bearer token needs none:
    another site cannot make a browser send that header.  `read_generation`: as current_email's."""
    header = request.headers.get("Authorization")
    if header is not None:
        scheme, _, token = header.strip().partition(" ")
        email = tokens.bearer(token.strip(), utcnow()) if scheme.lower() == "bearer" else None
        if email is None:
            raise BadBearer("Send a live personal API token as \"Authorization: Bearer <token>\" (make one on "
                            "your settings page; a revoked token no longer works).")
        return email
    email = require_email(read_generation)
    if request.method not in SAFE_METHODS:
        try:
            validate_csrf(request.headers.get("X-CSRFToken"))
        except ValidationError:
            raise Forbidden("With the session cookie, send the page's CSRF token in the X-CSRFToken header, "
                            "or use a personal API token (Authorization: Bearer).", "CSRF token missing") from None
    return email
