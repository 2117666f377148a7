"""Who the browser is signed in as: the session cookie (Flask's, signed with SECRET_KEY; HttpOnly,
SameSite=Lax, Secure under https: service/web/headers.py) holds the person's address key and the
session generation of the sign-in (service/people/sessions.py).  It lasts PERMANENT_SESSION_LIFETIME
(30 days) and is renewed by every request, so a person who plays weekly stays signed in; "sign out
everywhere" ends every cookie of the earlier generation.

A player's emailed links never need a session: the signed token in the path is their proof."""

from __future__ import annotations

from datetime import timedelta

from flask import Flask, g, session

from service.errors import RiftpostError
from service.people import sessions
from service.store.inboxes import key as inbox_key

LIFETIME = timedelta(days=30)
_WHO, _GEN = "who", "gen"


class SignInNeeded(RiftpostError):
    status = 401
    default_title = "Please sign in"


def register(app: Flask) -> None:
    # Flask's own defaults are 31 days and a refresh on every request: ours is said here.
    app.config.update(PERMANENT_SESSION_LIFETIME=LIFETIME, SESSION_REFRESH_EACH_REQUEST=True)


def sign_in(email: str) -> None:
    """Sign this browser in as the address (a new session: nothing of an earlier one is kept)."""
    generation = sessions.start(email)
    session.clear()
    session.permanent = True
    session[_WHO], session[_GEN] = inbox_key(email), generation
    g.pop("signed_in", None)


def sign_out() -> None:
    session.clear()
    g.pop("signed_in", None)


def current_email() -> str | None:
    """The address key the browser is signed in as, while its generation is the person's; else None
    (and a cookie of an ended generation is dropped)."""
    if "signed_in" in g:
        return g.signed_in  # type: ignore[no-any-return]
    who, gen = session.get(_WHO), session.get(_GEN)
    email = None
    if isinstance(who, str) and isinstance(gen, int):
        if sessions.generation(who) == gen:
            email = who
        else:
            session.pop(_WHO, None)
            session.pop(_GEN, None)
    g.signed_in = email
    return email


def require_email() -> str:
    email = current_email()
    if email is None:
        raise SignInNeeded("Sign in to see this page: we email you a link.")
    return email


def require_api_email() -> str:
    """The person a JSON request of /api/me/... acts for: the signed-in browser's (a personal API token
    in `Authorization: Bearer` is the other way in: the sign-in work adds it here)."""
    return require_email()
