"""The player's page, the emailed move links' confirm pages, and unsubscribing."""

from __future__ import annotations

import json

import pytest
from sqlmodel import select

from service import links
from service.play import new_game
from service.store import get_engine, read_session
from service.store.models import Player
from tests.service import toygame
from tests.service.helpers import current, outbox_rows
from tests.web.pages import csrf_token, move_values, text

PLAYERS = [("Ann", "ann@example.org"), ("Bob", "bob@example.org")]


@pytest.fixture
def game_id(app):
    return new_game(toygame.NAME, PLAYERS, {"target": 6}, seed=21)


def players(game_id):
    with read_session(get_engine()) as session:
        return list(session.exec(select(Player).where(Player.game_id == game_id).order_by(Player.seat)))


def page_url(player):
    return f"/p/{links.player_token(player.id, player.row_key)}"


def test_player_page_shows_board_own_hand_and_moves_but_not_the_opponents_hand(client, game_id):
    ann, bob = players(game_id)
    _, state = current(game_id)
    response = client.get(page_url(ann))
    page = text(response)
    assert response.status_code == 200
    assert "It is your turn" in page
    for card in state["hands"][0]:
        assert card in page
    for card in state["hands"][1] + state["deck"]:
        assert card not in page
    assert [json.loads(v) for v in move_values(page)] == toygame.GAME.legal_moves(state, 0)
    assert '<html lang="en">' in page and "<label" in page and "<legend>" in page

    bob_page = text(client.get(page_url(bob)))
    assert "Waiting for Ann" in bob_page and "move" not in "".join(move_values(bob_page))
    for card in state["hands"][0]:
        assert card not in bob_page


def test_move_form_plays_once_and_a_resubmission_records_nothing(client, game_id):
    ann, _ = players(game_id)
    page = text(client.get(page_url(ann)))
    form = {"csrf_token": csrf_token(page), "seq": "3", "move": move_values(page)[0]}
    response = client.post(f"{page_url(ann)}/move", data=form)
    assert response.status_code == 303
    assert current(game_id)[0].seq == 4
    follow = text(client.get(page_url(ann)))
    assert "Your move was recorded" in follow and "End your turn" in follow
    again = client.post(f"{page_url(ann)}/move", data=form)
    assert again.status_code == 409 and "out of date" in text(again)
    assert current(game_id)[0].seq == 4


def test_illegal_and_malformed_moves_are_4xx_with_the_reason(client, game_id):
    ann, bob = players(game_id)
    token = csrf_token(text(client.get(page_url(ann))))
    illegal = client.post(f"{page_url(ann)}/move", data={"csrf_token": token, "seq": "3", "move": '{"type": "draw"}'})
    assert illegal.status_code == 422 and "not one of your choices" in text(illegal)
    for bad in ["", "[]", "nonsense", '"play"', "{", "1e999"]:
        response = client.post(f"{page_url(ann)}/move", data={"csrf_token": token, "seq": "3", "move": bad})
        assert response.status_code in (400, 422), bad
    for seq in ["", "x", "-1", "99999999999999999999"]:
        response = client.post(f"{page_url(ann)}/move", data={"csrf_token": token, "seq": seq, "move": "{}"})
        assert 400 <= response.status_code < 500, seq
    not_yours = client.post(f"{page_url(bob)}/move", data={"csrf_token": token, "seq": "3", "move": move_values(text(client.get(page_url(ann))))[0]})
    assert not_yours.status_code == 422 and "not your turn" in text(not_yours)
    assert current(game_id)[0].seq == 3


def test_forms_need_the_csrf_token(client, game_id):
    ann, _ = players(game_id)
    page = text(client.get(page_url(ann)))
    response = client.post(f"{page_url(ann)}/move", data={"seq": "3", "move": move_values(page)[0]})
    assert response.status_code == 400 and "Reload the page" in text(response)
    assert current(game_id)[0].seq == 3


def test_confirm_page_get_is_safe_and_only_the_post_acts_once(client, game_id):
    ann, _ = players(game_id)
    _, state = current(game_id)
    move = toygame.GAME.legal_moves(state, 0)[1]
    url = f"/m/{links.move_token(ann.id, ann.row_key, 3, move)}"
    rows_before = len(outbox_rows())
    for _ in range(3):  # mail scanners may open it many times
        response = client.get(url)
        assert response.status_code == 200
        assert toygame.GAME.describe_move(move) in text(response)
        client.head(url)
    assert current(game_id)[0].seq == 3 and len(outbox_rows()) == rows_before
    token = csrf_token(text(client.get(url)))
    assert client.post(url, data={"csrf_token": token}).status_code == 303
    assert current(game_id)[0].seq == 4
    again = client.post(url, data={"csrf_token": token})
    assert again.status_code == 409 and "out of date" in text(again)
    stale_get = client.get(url)
    assert stale_get.status_code == 409 and "out of date" in text(stale_get)
    assert current(game_id)[0].seq == 4


def test_tampered_expired_and_foreign_links_get_clear_4xx_pages(app, client, game_id):
    ann, bob = players(game_id)
    good = links.move_token(ann.id, ann.row_key, 3, {"type": "end_turn"})
    head, _, rest = good.partition(".")
    forged_payload = links.move_token(bob.id, bob.row_key, 3, {"type": "end_turn"}).partition(".")[0]
    cases = {
        "tampered signature": good[:-3] + ("AAA" if good[-3:] != "AAA" else "BBB"),
        "payload swapped to another player": f"{forged_payload}.{rest}",
        "truncated": good[: len(good) // 2],
        "an unsubscribe token used as a move link": links.unsubscribe_token(ann.id, ann.row_key),
        "a player-page token used as a move link": links.player_token(ann.id, ann.row_key),
        "garbage": "not-a-token",
    }
    for name, token in cases.items():
        response = client.get(f"/m/{token}")
        assert response.status_code == 400, name
        assert "not valid" in text(response), name
    assert client.get(f"/p/{links.move_token(ann.id, ann.row_key, 3, {})}").status_code == 400
    app.config["MOVE_LINK_MAX_AGE"] = -1
    expired = client.get(f"/m/{good}")
    assert expired.status_code == 410 and "expired" in text(expired)
    assert current(game_id)[0].seq == 3


def test_links_survive_a_key_rotation(app, client, game_id):
    ann, _ = players(game_id)
    old = page_url(ann)
    app.config["SECRET_KEY_FALLBACKS"] = [app.config["SECRET_KEY"]]
    app.config["SECRET_KEY"] = "a-newer-key"
    assert client.get(old).status_code == 200
    assert page_url(ann) != old
    app.config["SECRET_KEY_FALLBACKS"] = []
    assert client.get(old).status_code == 400


def test_one_click_unsubscribe_needs_no_csrf_and_the_page_turns_emails_back_on(client, game_id):
    ann, _ = players(game_id)
    url = f"/u/{links.unsubscribe_token(ann.id, ann.row_key)}"
    assert client.get(url).status_code == 200
    assert players(game_id)[0].turn_emails  # a GET changes nothing
    response = client.post(url, data={"List-Unsubscribe": "One-Click"})
    assert response.status_code == 200
    assert not players(game_id)[0].turn_emails
    page = text(client.get(page_url(ann)))
    assert "Turn emails are off" in page
    response = client.post(f"{page_url(ann)}/notifications", data={"csrf_token": csrf_token(page), "turn_emails": "on"})
    assert response.status_code == 303 and players(game_id)[0].turn_emails


def test_unsubscribed_player_gets_no_turn_rows_but_still_the_game_over(client, game_id):
    from tests.service.helpers import play_to_end

    _, bob = players(game_id)
    client.post(f"/u/{links.unsubscribe_token(bob.id, bob.row_key)}", data={"List-Unsubscribe": "One-Click"})
    play_to_end(game_id)
    kinds = [(row.player_id, row.kind) for row in outbox_rows(game_id) if row.player_id == bob.id]
    assert ("turn" not in {kind for _, kind in kinds[1:]}) and kinds[-1][1] == "game_over"


def test_riftforce_pages_use_the_board_template_and_hide_the_other_hand(client):
    import re

    import engine

    game_id = new_game("riftforce", PLAYERS, seed=5)
    rules = engine.get("riftforce")
    ann, bob = players(game_id)
    for _ in range(40):  # through the draft into the play phase, choosing the first option
        game, state = current(game_id)
        if state["phase"] == "play":
            break
        seat = game.to_act[0]
        page = text(client.get(page_url(ann if seat == 0 else bob)))
        form = {"csrf_token": csrf_token(page), "seq": str(game.seq), "move": move_values(page)[0]}
        assert client.post(f"{page_url(ann if seat == 0 else bob)}/move", data=form).status_code == 303
    game, state = current(game_id)
    assert state["phase"] == "play"
    for player, seat in ((ann, 0), (bob, 1)):
        page = text(client.get(page_url(player)))
        other = ("Bob", "Ann")[seat]
        assert f"The rift, locations 1 to 5: {other} above the line, you below" in page
        assert f"Your hand ({len(state['hand'][seat])})" in page
        ids = set(re.findall(r"[a-z]+-[567][a-d]", page))
        assert not ids & (set(state["hand"][1 - seat]) | set(state["deck"][0]) | set(state["deck"][1]))
    spectator = text(client.get(f"/games/{game_id}"))
    assert "The rift, locations 1 to 5: Bob above the line, Ann below" in spectator and "Your hand" not in spectator
    assert rules.title in spectator
