"""The templates' csrf_token() (service/web/form_token.py): Flask-WTF's token, made once a request."""

from __future__ import annotations

from flask import g, render_template_string
from flask import session as flask_session
from flask_wtf.csrf import generate_csrf, validate_csrf

from service import store
from service.play import new_game
from service.store import get_engine, read_session
from tests import tokens
from tests.web.pages import CSRF


def test_every_form_of_the_player_page_carries_the_one_token_flask_wtf_validates(client, app):
    game_id = new_game("riftforce", [("Ann", "ann@example.org"), ("Bob", "bob@example.org")], seed=5)
    with read_session(get_engine()) as session:
        player = store.players_of(session, game_id)[0]
    page = client.get(f"/p/{tokens.page(player)}").get_data(as_text=True)
    found = set(CSRF.findall(page))
    assert len(CSRF.findall(page)) > 5 and len(found) == 1
    with client.session_transaction() as session:
        secret = session["csrf_token"]
    with app.test_request_context("/"):
        flask_session["csrf_token"] = secret
        validate_csrf(found.pop())  # raises when it is not this session's


def test_the_token_is_flask_wtfs_made_on_first_use_and_made_anew_once_dropped(app):
    assert "csrf_token" not in {key for processor in app.template_context_processors[None] for key in processor()}
    with app.test_request_context("/"):
        assert "csrf_token" not in g
        first = render_template_string("{{ csrf_token() }} {{ csrf_token() }}").split()
        assert first[0] == first[1] == generate_csrf() == g.csrf_token
        flask_session.pop("csrf_token")  # what a sign-in does (service/web/auth.py): a new session, a
        g.pop("csrf_token")  # new token for the next form
        again = render_template_string("{{ csrf_token() }}")
        assert again == g.csrf_token and again != first[0]
