"""A signed-in browser is bound to its person's session generation (service/web/auth.py)."""

from __future__ import annotations

from flask import g, session

from service.people import sessions
from service.web import auth


def test_a_sign_in_holds_until_the_person_signs_out_everywhere(app):
    with app.test_request_context():
        auth.sign_in("Ann@Example.org")
        assert auth.current_email() == "ann@example.org"
        assert session.permanent  # 30 days, renewed by every request
        sessions.end_everywhere("ann@example.org")
        g.pop("signed_in")
        assert auth.current_email() is None
        assert "who" not in session  # the ended cookie is dropped
        auth.sign_in("ann@example.org")  # a new sign-in takes the new generation
        assert auth.current_email() == "ann@example.org"


def test_a_cookie_of_another_generation_or_shape_is_nobody(app):
    with app.test_request_context():
        session["who"], session["gen"] = "bo@example.org", 3
        assert auth.current_email() is None
        g.pop("signed_in")
        session["who"], session["gen"] = "bo@example.org", "0"
        assert auth.current_email() is None


def test_the_session_lasts_thirty_days(app):
    assert app.config["PERMANENT_SESSION_LIFETIME"].days == 30
    assert app.config["SESSION_COOKIE_HTTPONLY"] and app.config["SESSION_COOKIE_SAMESITE"] == "Lax"
