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
