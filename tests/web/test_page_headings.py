"""Pages name the game as its emails do, and the public view follows a running game (issue #17,
item 9): the player page's heading and title say "Toy #N: Ann vs Bob" like every subject, not only
the viewer; the spectator page shows whose clock runs until when and follows the game until the end
(static/follow.js; in a browser: tests/web/test_spectator_follow.py)."""

from __future__ import annotations

import re

import sqlalchemy as sa

from service.play import new_game
from service.store import get_engine, read_session
from service.store.models import Player
from tests import tokens
from tests.consent import preconsent
from tests.service import toygame
from tests.service.helpers import play_to_end
from tests.web.pages import text

PLAYERS = [("Ann", "ann@example.org"), ("Bob", "bob@example.org")]


def _bob(game_id: int) -> Player:
    with read_session(get_engine()) as session:
        return session.execute(sa.select(Player).where(Player.game_id == game_id, Player.seat == 1)).scalar_one()


def test_the_player_page_is_headed_with_the_game_and_both_players_like_its_emails(app, client):
    game_id = new_game(toygame.NAME, PLAYERS, {"target": 5}, seed=3)
    page = text(client.get(f"/p/{tokens.page(_bob(game_id))}"))
    assert re.search(rf"<h1>Toy #{game_id}: Ann vs Bob</h1>", page)
    assert re.search(rf"<title>[^<]*Toy #{game_id}: Ann vs Bob — Riftpost</title>", page)


def test_the_public_view_shows_the_running_deadline_and_reloads_until_the_game_ends(app, client):
    preconsent("ann@example.org", "bob@example.org")
    game_id = new_game(toygame.NAME, PLAYERS, {"target": 5}, seed=3, deadline_hours=48)
    page = text(client.get(f"/games/{game_id}"))
    assert re.search(rf"<h1>Toy #{game_id}: Ann vs Bob", page)
    assert re.search(r"Ann has until \w{3} \d{1,2} \w{3} \d{4}, \d\d:\d\d UTC\.", page)
    # No <meta> refresh (axe: a timed reload is an accessibility failure): a script asks the JSON view.
    assert 'http-equiv="refresh"' not in page
    assert f'data-url="/api/games/{game_id}"' in page and "follow.js" in page
    play_to_end(game_id)
    over = text(client.get(f"/games/{game_id}"))
    assert "follow.js" not in over and "has until" not in over
