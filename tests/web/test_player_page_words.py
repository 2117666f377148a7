"""Words on the player page a newcomer stumbled on: "Last moves" numbered as a plain list (event
numbers have gaps), and the vacation allowance in days without a stray ".0"."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest

from service import store
from service.play import new_game
from service.store import get_engine, write_session
from service.store.models import Person, Player
from tests import tokens
from tests.service import toygame
from tests.service.helpers import current, play_one
from tests.web.pages import text

RECENT = re.compile(r'<section aria-labelledby="recent-h">.*?<ol>(.*?)</ol>', re.S)


def page(client, game_id: int, seat: int) -> str:
    with write_session(get_engine()) as session:
        player = [p for p in store.players_of(session, game_id) if p.seat == seat][0]
        assert isinstance(player, Player)
        player_id = player.id
    return text(client.get(f"/p/{tokens.page(player_id)}"))


def test_last_moves_are_a_plain_numbered_list_not_event_numbers(client):
    game_id = new_game(toygame.NAME, [("Ann", "a@example.org"), ("Bob", "b@example.org")], {"target": 60}, seed=4)
    for _ in range(8):  # four turns: Ann's and Bob's moves interleave, so Ann's "since" starts late
        play_one(game_id, pick=lambda moves: moves[-1])
    game, _ = current(game_id)
    assert game.to_act == [0]
    shown = page(client, game_id, 0)
    items = re.findall(r"<li([^>]*)>", RECENT.search(shown).group(1))
    assert len(items) >= 2
    assert all("value" not in attributes for attributes in items), items  # 1., 2., 3. by the browser


def _allowance_left(client, game_id: int, used: timedelta) -> str:
    with write_session(get_engine()) as session:
        session.add(Person(email="a@example.org", time_zone="UTC", allowance_year=datetime.now(UTC).year,
                           allowance_used_seconds=int(used.total_seconds())))
    shown = page(client, game_id, 0)
    return re.search(r"(\S+ days? of this year's allowance (?:is|are) left\.)", shown).group(1)


@pytest.mark.parametrize("used, words", [
    (timedelta(0), "21 days of this year's allowance are left."),
    (timedelta(days=19, hours=12), "1.5 days of this year's allowance are left."),
    (timedelta(days=20), "1 day of this year's allowance is left."),
    (timedelta(days=21), "0 days of this year's allowance are left."),
])
def test_the_allowance_in_days(client, used, words):
    game_id = new_game(toygame.NAME, [("Ann", "a@example.org"), ("Bob", "b@example.org")], seed=4)
    assert _allowance_left(client, game_id, used) == words
