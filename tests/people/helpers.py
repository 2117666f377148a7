"""Signing a test client in without the emailed link (the sign-in flow has tests of its own)."""

from __future__ import annotations

from typing import Any

from flask import g

from service.people import sessions
from service.store.inboxes import key


def sign_in_as(client: Any, email: str) -> None:
    """The client's session cookie as a real sign-in of `email` writes it (service/web/auth.py)."""
    with client.application.app_context():
        generation = sessions.start(email)
    with client.session_transaction() as session:
        session.clear()
        session.permanent = True
        session["who"], session["gen"] = key(email), generation
    # The tests keep one app context for all their requests: the CSRF token Flask-WTF kept in `g` for
    # the cleared session must not be put in the next page's forms.
    g.pop("csrf_token", None)


def send_csrf_header(client: Any) -> None:
    """Give the client's later requests the settings page's CSRF token as X-CSRFToken: with the session
    cookie as the proof, a JSON change of /api/me needs it (auth.require_api_email).  The tests share
    one app context, so a token another client's page left in `g` goes first."""
    from flask import g, has_app_context

    from tests.web.pages import csrf_token

    if has_app_context():
        g.pop("csrf_token", None)
    client.environ_base["HTTP_X_CSRFTOKEN"] = csrf_token(client.get("/settings").text)
    if has_app_context():
        g.pop("csrf_token", None)
