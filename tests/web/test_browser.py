"""The player page in a real browser (Debian's Chromium) with JavaScript switched off: the board is
readable, every choice has a label, and a move is made with the keyboard alone."""

from __future__ import annotations

import pytest

from service.play import new_game
from tests import tokens
from tests.service import toygame

# Chromium and its launch settings: tests/conftest.py; pages, not invitations: every address played before.
pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("everyone_played_before")]


@pytest.fixture
def browser_context_args(browser_context_args):
    return {**browser_context_args, "java_script_enabled": False}


def test_a_move_with_the_keyboard_and_no_javascript(live, page):
    with live.app_context():
        game_id = new_game(toygame.NAME, [("Ann", "a@example.org"), ("Bob", "b@example.org")], seed=4)
        url = live.config["BASE_URL"] + f"/p/{tokens.page(1)}"
    page.goto(url)
    assert page.get_by_role("heading", level=1).inner_text().startswith(f"Toy #{game_id}")
    assert page.get_by_text("It is your turn.").is_visible()
    radios = page.get_by_role("radio")
    assert radios.count() == 3
    for index in range(3):  # every choice is labelled
        label = radios.nth(index).evaluate("el => el.labels[0].innerText")
        assert label.strip().startswith("Play k")
    radios.first.focus()
    page.keyboard.press("Space")
    page.keyboard.press("Tab")
    with page.expect_navigation():  # "Add this step": a GET, the step shown on the board, nothing played
        page.keyboard.press("Enter")
    page.get_by_role("button", name="Confirm turn (1 step)").focus()
    with page.expect_navigation():  # the POST of the whole turn, then the redirect back to the page
        page.keyboard.press("Enter")
    assert page.get_by_text("Your turn was recorded (1 step).").is_visible()
    assert page.get_by_role("radio", name="End your turn", exact=True).is_visible()
