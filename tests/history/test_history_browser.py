"""Stepping through a history with the keyboard in a real browser (Debian's Chromium): the arrow,
Home/End and Page Up/Down keys follow the page's own step links (static/history.js)."""

from __future__ import annotations

import re

import pytest

from service.play import new_game
from tests import tokens
from tests.history.helpers import player_ids
from tests.service import toygame
from tests.service.helpers import current, play_one

# Chromium and its launch settings: tests/conftest.py; pages, not invitations: every address played before.
pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("everyone_played_before")]


def where(page) -> int:
    """The event number the page shows (from its status line)."""
    return int(re.search(r"step (\d+) of", page.locator("#hist-where").inner_text()).group(1))


def step(page, key: str) -> int:
    with page.expect_navigation():
        page.keyboard.press(key)
    return where(page)


def test_stepping_through_a_history_with_the_keyboard(live, page):
    with live.app_context():
        game_id = new_game(toygame.NAME, [("Ann", "a@example.org"), ("Bob", "b@example.org")],
                           {"target": 30}, seed=4)
        for _ in range(8):
            play_one(game_id, lambda legal: legal[-1])
        game, _ = current(game_id)
        token = tokens.page(player_ids(game_id)[0])
    base = live.config["BASE_URL"]
    page.goto(f"{base}/p/{token}/history")
    opened = where(page)
    assert opened < game.seq and page.get_by_role("heading", name="Since your last move").is_visible()
    assert step(page, "End") == game.seq
    back = step(page, "ArrowLeft")
    assert back < game.seq
    assert step(page, "ArrowRight") == game.seq
    first = step(page, "Home")
    assert first <= 3
    forward = step(page, "ArrowRight")
    assert forward > first
    # By turn: Page Down goes to the end of the next turn, Page Up back.
    turn_end = step(page, "PageDown")
    assert turn_end > forward
    assert step(page, "PageUp") < turn_end
    # Keys typed into the slider move the slider (the page's shortcuts leave it alone), and the
    # slider jumps to where it was moved.
    page.locator("#hist-at").focus()
    assert step(page, "End") == game.seq
    page.locator("#hist-at").focus()
    assert step(page, "ArrowLeft") == game.seq - 1  # the slider steps by single events
    # The page itself works without JavaScript too: the links are plain links.
    page.goto(f"{base}/games/{game_id}/history?at=2")
    with page.expect_navigation():
        page.get_by_role("link", name=re.compile("Next step")).click()
    assert where(page) > 2
