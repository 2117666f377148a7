"""The player page around the composer, as the server renders it: `?step=` from a turn email (the
plain list puts that step first; an unknown step is a short note, never an error), the composer's
mount point and script, and a GET that changes nothing."""

from __future__ import annotations

import html
import json
import re

import pytest

from service import links
from service.games import adapter
from service.play import new_game
from tests.service import toygame
from tests.service.helpers import current
from tests.turns import RIFTFORCE, counts, decisions, drive, not_drafting, step_key
from tests.web.pages import csrf_token, move_values, text

PLAYERS = [("Ann", "ann@example.org"), ("Bob", "bob@example.org")]


@pytest.fixture
def riftforce(app):
    game_id = new_game("riftforce", PLAYERS, seed=5)
    game, state, seat = drive(game_id, not_drafting)
    return game_id, game, state, seat


def url(game_id, seat, step=None):
    from service import store
    from service.store import get_engine, read_session

    with read_session(get_engine()) as session:
        player = next(p for p in store.players_of(session, game_id) if p.seat == seat)
    return f"/p/{links.player_token(player.id, player.row_key)}", ({"step": step} if step is not None else {})


def fieldsets(page: str) -> list[tuple[str, list[str]]]:
    """(legend, move values) of each fieldset of the move form."""
    out = []
    for block in re.findall(r"<fieldset>(.*?)</fieldset>", page, re.S):
        legend = html.unescape(re.search(r"<legend>(.*?)</legend>", block, re.S).group(1)).strip()
        out.append((legend, move_values(block)))
    return out


def test_a_step_with_several_moves_comes_first_and_nothing_is_chosen_for_the_player(client, riftforce):
    game_id, game, state, seat = riftforce
    move = next(m for m in decisions(RIFTFORCE, state, seat) if m["type"] == "play")
    key = step_key(RIFTFORCE, state, seat, move)
    before = counts(game_id)
    path, query = url(game_id, seat, key)
    page = text(client.get(path, query_string=query))
    (legend, first), (other_legend, others) = fieldsets(page)
    found = adapter("riftforce")
    same = [m for m in decisions(RIFTFORCE, state, seat) if found.first_step(m) == found.first_step(move)]
    assert [json.loads(v) for v in first] == same and legend.startswith("Play ") and "choose one" in legend
    assert other_legend == "Or choose something else"
    shown = sorted(json.dumps(json.loads(v), sort_keys=True) for v in first + others)
    assert shown == sorted(json.dumps(m, sort_keys=True) for m in decisions(RIFTFORCE, state, seat))
    assert " checked" not in page.split("<fieldset>")[1]
    assert f'data-step="{html.escape(key)}"' in page  # the composer starts there too
    assert counts(game_id) == before  # a GET changes nothing


def test_a_step_of_one_move_is_chosen_already(client, app):
    game_id = new_game(toygame.NAME, PLAYERS, seed=4)
    _, state = current(game_id)
    card = state["hands"][0][1]
    path, query = url(game_id, 0, f"play card={card}")
    page = text(client.get(path, query_string=query))
    (legend, first), (_, others) = fieldsets(page)
    assert [json.loads(v) for v in first] == [{"type": "play", "card": card}] and len(others) == 2
    assert re.search(r'value="[^"]*' + card + r'[^"]*" required checked>', page)


@pytest.mark.parametrize("step", ["play nothing-9z @9", "", "x" * 5000, "<script>", "end_turn"])
def test_an_unknown_or_stale_step_is_ignored_with_a_short_note(client, app, step):
    game_id = new_game(toygame.NAME, PLAYERS, seed=4)
    path, query = url(game_id, 0, step)
    response = client.get(path, query_string=query)
    page = text(response)
    assert response.status_code == 200
    assert len(fieldsets(page)) == 1  # the plain list as it is
    assert ("not open any more" in page) == bool(step.strip())
    assert "<script>" not in page.split("</head>")[1].replace('<script src=', '')


def test_the_page_loads_the_composer_and_its_mount_point(client, app):
    game_id = new_game(toygame.NAME, PLAYERS, seed=4)
    path, _ = url(game_id, 0)
    page = text(client.get(path))
    assert 'id="composer"' in page and " hidden" in page.split('id="composer"')[1][:200]
    assert "/static/composer.js" in page and "/static/composer.css" in page
    assert re.search(r'data-api="/api/play/[^"]+"', page)
    waiting = text(client.get(url(game_id, 1)[0]))
    assert 'id="composer"' not in waiting  # nothing to compose while waiting


# ---- the turn composed without JavaScript (#22 item 7) ------------------------------------------------

def hidden_moves(page: str, form: str) -> list[str]:
    """The `move` fields of one form of the page (by id): the steps it carries."""
    block = re.search(rf'<form[^>]*id="{form}".*?</form>', page, re.S).group(0)
    return [html.unescape(v) for v in re.findall(r'<input type="hidden" name="move" value="([^"]*)"', block)]


def href(page: str, words: str) -> tuple[str, dict]:
    """The path and query of the link with these words."""
    from urllib.parse import parse_qs, urlsplit

    found = re.search(r'<a class="button[^"]*" href="([^"]+)">' + re.escape(words) + "</a>", page)
    parts = urlsplit(html.unescape(found.group(1)))
    return parts.path, parse_qs(parts.query)


def spectator(client, game_id) -> str:
    page = text(client.get(f"/games/{game_id}"))
    return re.sub(r'name="csrf_token" value="[^"]*"', "", page)


def test_without_javascript_a_turn_is_composed_taken_back_and_confirmed_once(client, riftforce):
    from tests.turns import plan, three_card_play

    game_id, game, state, seat = riftforce
    moves = three_card_play(state, seat, game.secret, game.seq)
    chosen = iter(moves)
    steps = plan(RIFTFORCE, state, seat, game.secret, game.seq, lambda s, seat, legal: next(chosen))
    path, _ = url(game_id, seat)
    before, public = counts(game_id), spectator(client, game_id)

    # step 1 as the radio form sends it (JSON); the page carries it on as its text form
    page = text(client.get(path, query_string={"seq": game.seq, "move": json.dumps(moves[0])}))
    texts = [RIFTFORCE.move_text(s, seat, m) for s, m, _ in steps]
    assert hidden_moves(page, "step-form") == texts[:1] == hidden_moves(page, "turn-form")
    assert "Board after your steps (not played yet)" in page and "Confirm turn (1 step)" in page
    # a misclick: "End the play here" instead of the second card; taken back
    after_one = steps[1][0]
    misclick = next(m for m in decisions(RIFTFORCE, after_one, seat) if m["type"] == "end_play")
    page = text(client.get(path, query_string={"seq": game.seq, "move": [texts[0], json.dumps(misclick)]}))
    assert "Confirm turn (2 steps)" in page and "End the play" in html.unescape(page.split('class="composer-taken"')[1])
    back, query = href(page, "Take back last step")
    page = text(client.get(back, query_string=query))
    assert hidden_moves(page, "turn-form") == texts[:1]
    # the two other cards, then the turn as the page's confirm form sends it
    for index in (1, 2):
        page = text(client.get(path, query_string={"seq": game.seq, "move": texts[:index] + [json.dumps(moves[index])]}))
    assert hidden_moves(page, "turn-form") == texts
    assert counts(game_id) == before and spectator(client, game_id) == public  # nothing recorded, nothing shown
    form = {"csrf_token": csrf_token(page), "seq": str(game.seq), "turn": "1", "move": hidden_moves(page, "turn-form")}
    answer = client.post(f"{path}/move", data=form)
    assert answer.status_code == 303
    now, state_now = current(game_id)
    assert now.seq == game.seq + sum(len(events) for _, _, events in steps)  # the whole turn, once
    planned = steps[-1][0]
    for event in steps[-1][2]:
        planned = RIFTFORCE.apply(planned, event)
    assert state_now == planned
    assert "Your turn was recorded (3 steps)." in text(client.get(path))
    assert client.post(f"{path}/move", data=form).status_code == 409  # a resubmission plays nothing
    assert current(game_id)[0].seq == now.seq


def test_a_composed_turn_the_game_has_left_is_a_notice_and_the_choices_now(client, riftforce):
    game_id, game, state, seat = riftforce
    move = next(m for m in decisions(RIFTFORCE, state, seat) if m["type"] == "play")
    path, _ = url(game_id, seat)
    response = client.get(path, query_string={"seq": game.seq - 1, "move": json.dumps(move)})
    page = text(response)
    assert response.status_code == 200
    assert "The game moved on since you chose these steps, so none of them was played" in page
    # (the composer's words for its script, data-words, name the predicted board: not the page's heading)
    assert "not played yet" not in re.sub(r'data-words="[^"]*"', "", page) and 'id="turn-form"' not in page
    assert sorted(json.dumps(json.loads(v), sort_keys=True) for v in move_values(page)) == sorted(
        json.dumps(m, sort_keys=True) for m in decisions(RIFTFORCE, state, seat))


@pytest.mark.parametrize("query", [
    {"seq": "x", "move": "check"}, {"move": "check"}, {"seq": "1", "move": "{"}, {"seq": "1", "move": " "},
    {"seq": "1", "move": "x" * 2000}, {"seq": "1", "move": ["check"] * 65}, {"seq": "-3", "move": "check"},
])
def test_a_malformed_composed_turn_is_a_400_with_the_choices(client, riftforce, query):
    game_id, game, state, seat = riftforce
    path, _ = url(game_id, seat)
    before = counts(game_id)
    response = client.get(path, query_string=query)
    assert response.status_code == 400
    assert "step" in text(response) and move_values(text(response))  # the choices are still there
    assert counts(game_id) == before


def test_an_illegal_composed_step_is_a_422_keeping_the_steps_before_it(client, riftforce):
    game_id, game, state, seat = riftforce
    move = next(m for m in decisions(RIFTFORCE, state, seat) if m["type"] == "play")
    path, _ = url(game_id, seat)
    text_form = RIFTFORCE.move_text(state, seat, move)
    response = client.get(path, query_string={"seq": game.seq, "move": [text_form, "play nothing-9z @9"]})
    page = text(response)
    assert response.status_code == 422 and "Step 2 of this turn cannot be played" in page
    assert hidden_moves(page, "turn-form") == [text_form]


def test_a_composed_step_that_draws_shows_nothing_of_the_draw(client, app):
    game_id = new_game("riftforce", PLAYERS, seed=5)
    game, state, seat = drive(game_id, lambda s, seat, legal: any(m["type"] == "check" for m in legal)
                              and s["phase"] == "play")
    path, _ = url(game_id, seat)
    page = text(client.get(path, query_string={"seq": game.seq, "move": "check"}))
    from service.web.play_api import HIDDEN_NOTE

    assert html.unescape(page).count(HIDDEN_NOTE) == 1 and "Confirm turn (1 step)" in page
    assert not move_values(page)  # nothing to choose after a draw before it is recorded
    drawn = set(state["deck"][seat][:7]) - set(state["hand"][seat])
    assert not [card for card in drawn if card in page.split('id="board"')[1].split("</section>")[0]]
