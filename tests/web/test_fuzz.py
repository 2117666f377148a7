"""Bad input of every kind on every route: always a 4xx (or a page), never a 500, never a write."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service import links
from service.play import new_game
from tests.service import toygame
from tests.service.helpers import current
from tests.web.pages import START_FORM, csrf_token, text

DEEP = "[" * 1000 + "]" * 1000  # the standard JSON parser recurses once per level
NASTY = ["", "0", "-1", "x" * 5000, DEEP, '{"a": ' + DEEP + "}", "x=" + DEEP, "%00", "..%2F..%2Fetc%2Fpasswd", "<script>", "null", "{}", "[]",
         '{"type": "play"}', "eyJwIjoxfQ", "eyJwIjoxfQ.AAAA.BBBB", "\u202e\u0000", "9" * 40]


@pytest.fixture
def game(app):
    return new_game(toygame.NAME, [("Ann", "a@example.org"), ("Bob", "b@example.org")], seed=1)


def test_routes_with_nasty_tokens_and_ids_never_500(client, game):
    for value in NASTY:
        for url in [f"/p/{value}", f"/m/{value}", f"/u/{value}", f"/api/games/{value}", f"/games/{value}",
                    f"/dev/mail/{value}"]:
            for method in ("get", "post"):
                response = getattr(client, method)(url, data={"move": value, "seq": value})
                assert response.status_code < 500, (method, url, response.status_code)
    assert current(game)[0].seq == 3


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seq=st.text(max_size=30), move=st.one_of(st.text(max_size=60), st.from_regex(r'\{"type": "[a-z_]{0,9}"(, "card": "k\d{1,2}x")?\}', fullmatch=True)))
def test_move_form_with_arbitrary_fields_never_500(app, client, game, seq, move):
    from service.store import get_engine, read_session
    from service.store.models import Player

    with read_session(get_engine()) as session:
        bob = session.get(Player, 2)  # not Bob's turn: nothing may ever be recorded
    url = f"/p/{links.player_token(bob.id, bob.row_key)}"
    token = csrf_token(text(client.get(url)))
    response = client.post(f"{url}/move", data={"csrf_token": token, "seq": seq, "move": move})
    assert 400 <= response.status_code < 500
    assert current(game)[0].seq == 3


def test_start_form_with_arbitrary_fields_never_500(client):
    token = csrf_token(text(client.get(START_FORM)))
    for value in NASTY:
        data = {"csrf_token": token, "game": value, "email0": value, "email1": value, "options": value, "seed": value}
        assert client.post("/games/new", data=data).status_code < 500
    assert client.post("/games/new", data={"csrf_token": token, "options": "1" * 300}).status_code == 422


def test_json_nested_a_thousand_deep_is_a_clear_4xx_on_the_move_form_and_in_start_options(client, game):
    """Issue #11 item 4: a move or an option nested 1,000 deep was a RecursionError (500)."""
    from service.store import get_engine, read_session
    from service.store.models import Player

    with read_session(get_engine()) as session:
        ann = session.get(Player, 1)
    url = f"/p/{links.player_token(ann.id, ann.row_key)}"
    token = csrf_token(text(client.get(url)))
    response = client.post(f"{url}/move", data={"csrf_token": token, "seq": "3", "move": '{"type": ' + DEEP + "}"})
    assert response.status_code == 400 and "Choose one of the moves" in text(response)
    token = csrf_token(text(client.get(START_FORM)))
    response = client.post("/games/new", data={"csrf_token": token, "game": toygame.NAME, "email0": "a@example.org",
                                               "email1": "b@example.org", "options": "x=" + DEEP})
    assert response.status_code == 422
    assert current(game)[0].seq == 3


def test_malformed_riftforce_moves_are_4xx_with_a_reason(client):
    game_id = new_game("riftforce", [("Ann", "a@example.org"), ("Bob", "b@example.org")], seed=2)
    from service.store import get_engine, read_session
    from service.store.models import Player

    with read_session(get_engine()) as session:
        ann = session.get(Player, 1)
    url = f"/p/{links.player_token(ann.id, ann.row_key)}"
    page = text(client.get(url))
    token = csrf_token(page)
    seq = str(current(game_id)[0].seq)
    moves = ['{"type": "pick"}', '{"type": "pick", "guild": null}', '{"type": "pick", "guild": ["fire"]}',
             '{"type": "play", "card": {"id": 1}, "loc": "x"}', '{"type": "activate_elemental"}',
             '{"type": 5}', '{}', '{"type": "check", "extra": true}', '{"type": "pick", "guild": "nope"}']
    for move in moves:
        response = client.post(f"{url}/move", data={"csrf_token": token, "seq": seq, "move": move})
        assert response.status_code == 422, (move, response.status_code)
        assert "That move is not allowed" in text(response)
    assert str(current(game_id)[0].seq) == seq
