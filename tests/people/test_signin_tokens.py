"""Personal API tokens (service/people/tokens.py) and the play API of a person's seats by bearer
(service/web/me_api.py, service/web/auth.py require_api_email).  On SQLite and on PostgreSQL."""

from __future__ import annotations

import hashlib
import re

import sqlalchemy as sa

from service.store import get_engine, read_session
from service.store.models import PersonalToken
from tests.people.helpers import sign_in_as
from tests.people.signin_helpers import ANN, BOB, app, client, game, seat  # noqa: F401 - fixtures
from tests.web.pages import csrf_token, text

TOKEN = re.compile(r'id="new-token" class="token" readonly value="(rpt_[A-Za-z0-9_-]+)"')


def stored() -> list[PersonalToken]:
    with read_session(get_engine()) as session:
        return list(session.execute(sa.select(PersonalToken).order_by(PersonalToken.id)).scalars())


def make_token(client, name: str = "my bot") -> str:
    page = text(client.get("/settings"))
    answer = client.post("/settings/tokens", data={"csrf_token": csrf_token(page), "name": name})
    assert answer.status_code == 200 and answer.headers["Cache-Control"] == "private, no-store"
    return TOKEN.search(text(answer)).group(1)


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_a_token_is_shown_once_stored_hashed_listed_and_revocable(client, game):
    sign_in_as(client, ANN[1])
    token = make_token(client)
    (row,) = stored()
    assert row.token_hash == hashlib.sha256(token.encode()).hexdigest() and row.person == ANN[1]
    assert token not in repr(row.__dict__)  # only its hash is kept
    page = text(client.get("/settings"))
    assert token not in page and "my bot" in page and "never" in page  # listed, not shown again
    assert client.get(f"/api/me/games/{game}", headers=bearer(token)).status_code == 200
    assert "never" not in text(client.get("/settings")).split("my bot")[1][:200]  # last used now shown
    revoked = client.post(f"/settings/tokens/{row.id}/revoke", data={"csrf_token": csrf_token(page)})
    assert revoked.status_code == 303 and stored()[0].revoked_at is not None
    answer = client.application.test_client().get(f"/api/me/games/{game}", headers=bearer(token))
    assert answer.status_code == 401 and answer.get_json()["error"] == "Not a valid API token"
    assert answer.headers["WWW-Authenticate"].startswith("Bearer")


def test_nobody_revokes_another_persons_token_and_names_are_checked(client, game):
    sign_in_as(client, ANN[1])
    make_token(client, "ann's robot")
    bob = client.application.test_client()
    sign_in_as(bob, BOB[1])
    page = text(bob.get("/settings"))
    assert "robot" not in page
    assert bob.post(f"/settings/tokens/{stored()[0].id}/revoke", data={"csrf_token": csrf_token(page)}).status_code == 400
    assert stored()[0].revoked_at is None
    for name in ("", "   ", "x" * 61):
        assert bob.post("/settings/tokens", data={"csrf_token": csrf_token(page), "name": name}).status_code == 422
    assert bob.post("/settings/tokens", data={"name": "no csrf"}).status_code == 400
    assert bob.post(f"/settings/tokens/{2**70}/revoke", data={"csrf_token": csrf_token(page)}).status_code == 400


def test_the_bearer_plays_the_persons_seat_and_nothing_else(client, game):
    sign_in_as(client, ANN[1])
    token = make_token(client)
    api = client.application.test_client()  # a bot: no cookie
    position = api.get(f"/api/me/games/{game}", headers=bearer(token))
    body = position.get_json()
    assert position.status_code == 200 and body["seat"] == seat(game, 0).seat
    assert body == client.application.test_client().get(f"/api/play/{_page_token(game, 0)}").get_json()
    moves = [body["decisions"][0]["text"]]
    if not body["your_turn"]:
        assert api.post(f"/api/me/games/{game}/moves", json={"seq": body["seq"], "moves": moves},
                        headers=bearer(token)).status_code == 422
    else:
        played = api.post(f"/api/me/games/{game}/moves", json={"seq": body["seq"], "moves": moves},
                          headers=bearer(token))
        assert played.status_code == 200 and played.get_json()["seq"] > body["seq"]
        stale = api.post(f"/api/me/games/{game}/moves", json={"seq": body["seq"], "moves": moves}, headers=bearer(token))
        assert stale.status_code == 409
    # Not her game; no game; a bad header; no header.
    from service.play import new_game
    from tests.service import toygame

    others = new_game(toygame.NAME, [BOB, ("Cy", "cy@example.org")], {"target": 40}, seed=9)
    for path in (f"/api/me/games/{others}", f"/api/me/games/{2**70}", "/api/me/games/999999"):
        answer = api.get(path, headers=bearer(token))
        assert answer.status_code == 404 and answer.get_json()["error"] == "Not your game", path
    for header in ("Bearer", "Bearer rpt_nope", f"Basic {token}", "Bearer " + "x" * 5000, f"bearer  {token}x"):
        answer = api.get(f"/api/me/games/{game}", headers={"Authorization": header})
        assert answer.status_code == 401 and answer.is_json, header
    assert api.get(f"/api/me/games/{game}").status_code == 401


def _page_token(game_id: int, number: int) -> str:
    from tests import tokens

    return tokens.page(seat(game_id, number))


def test_a_session_cookie_post_needs_the_csrf_header_a_bearer_does_not(client, game):
    sign_in_as(client, ANN[1])
    body = client.get(f"/api/me/games/{game}").get_json()  # a read by session: fine
    turn = {"seq": body["seq"], "moves": [body["decisions"][0]["text"]] if body["decisions"] else ["x"]}
    refused = client.post(f"/api/me/games/{game}/moves", json=turn)
    assert refused.status_code == 403 and refused.get_json()["error"] == "CSRF token missing"
    page = text(client.get("/settings"))
    with_header = client.post(f"/api/me/games/{game}/moves", json=turn, headers={"X-CSRFToken": csrf_token(page)})
    assert with_header.status_code in (200, 422)  # past the check: the game answered


def test_a_person_with_two_seats_names_one(client, app):
    from service.play import new_game
    from tests.service import toygame

    both = new_game(toygame.NAME, [ANN, ("Ann again", ANN[1])], {"target": 40}, seed=2)
    sign_in_as(client, ANN[1])
    token = make_token(client)
    api = client.application.test_client()
    answer = api.get(f"/api/me/games/{both}", headers=bearer(token))
    assert answer.status_code == 400 and "seats 0, 1" in answer.get_json()["message"]
    assert api.get(f"/api/me/games/{both}?seat=1", headers=bearer(token)).get_json()["seat"] == 1
    assert api.get(f"/api/me/games/{both}?seat=x", headers=bearer(token)).status_code == 400


def test_the_access_log_keeps_no_sign_in_link_and_no_personal_token():
    from service.accesslog import redact

    assert redact("GET /signin/eyJyIjoxfQ.abc HTTP/1.1") == "GET /signin/<token> HTTP/1.1"
    assert redact("POST /signin/code HTTP/1.1") == "POST /signin/code HTTP/1.1"
    assert redact("Bearer rpt_AbC-d_9") == "Bearer rpt_<token>"
