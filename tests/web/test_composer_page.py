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
from tests.web.pages import move_values, text

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
