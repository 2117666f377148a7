"""Shared by the sign-in tests: an app on SQLite and PostgreSQL that mails through a real SMTP sink,
and the steps of the flow as a person takes them (the form, the email, the link's page, the button)."""

from __future__ import annotations

import re

import pytest
from flask import g
from flask.testing import FlaskClient

from service.mail import outbox
from service.play import new_game
from tests.conftest import app_on
from tests.consent import preconsent
from tests.service import toygame
from tests.service.helpers import outbox_rows
from tests.web.pages import csrf_token, text

ANN, BOB = ("Ann", "ann@example.org"), ("Bob", "bob@example.org")
BASE = "http://riftpost.test"


class Browser(FlaskClient):
    """A test client as a browser of its own: the tests keep one app context pushed, which every request
    then shares, so what a request keeps in `g` (the CSRF token it made, who is signed in) would leak
    into the next client's request.  A real server gives each request its own."""

    def open(self, *args, **kwargs):
        # (and Flask-Babel's locale with the person's language: service/web/language.py)
        for name in ("csrf_token", "signed_in", "_flask_babel", "person_language"):
            g.pop(name, None)
        return super().open(*args, **kwargs)


@pytest.fixture
def app(backend_url, tmp_path, sink):
    # The per-client limit is tested on its own (every test client is 127.0.0.1).
    with app_on(tmp_path, backend_url, SMTP_URL=sink.url, RATELIMIT_SIGNIN="100 per minute") as app:
        app.test_client_class = Browser
        preconsent(ANN[1], BOB[1])  # they played here before: the sign-in is what is tested
        yield app


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def game(app) -> int:
    return new_game(toygame.NAME, [ANN, BOB], {"target": 40}, seed=3)


def deliver(kind: str = "signin") -> list[str]:
    """Deliver the pending rows of `kind` through the real SMTP path; their statuses."""
    return [outbox.deliver(row.id) for row in outbox_rows() if row.status == "pending" and row.kind == kind]


def ask(client, email: str):
    page = text(client.get("/signin"))
    return client.post("/signin", data={"csrf_token": csrf_token(page), "email": email})


def body(message) -> str:
    return message.get_body(("plain",)).get_content()


def signin_path(message) -> str:
    found = re.findall(rf"{re.escape(BASE)}(/signin/[^\s<>\"]+)", body(message))
    assert len(found) == 1, body(message)
    return found[0]


def code_of(message) -> str:
    match = re.search(r"sign-in code is (\d{3} \d{3})", body(message))
    assert match, body(message)
    return match.group(1)


def mailed(sink, client, email: str):
    """Ask on the form and receive the email: the message."""
    before = len(sink.messages())
    assert ask(client, email).status_code == 200
    assert deliver() == ["sent"]
    return sink.wait_for(before + 1)[-1]


def press(client, path: str):
    """Open the emailed link's page and press its button."""
    page = text(client.get(path))
    return client.post(path, data={"csrf_token": csrf_token(page)})


def seat(game_id: int, number: int):
    from service import store
    from service.store import get_engine, read_session

    with read_session(get_engine()) as session:
        return next(p for p in store.players_of(session, game_id) if p.seat == number)
