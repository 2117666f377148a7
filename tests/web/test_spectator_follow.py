"""The public view follows a running game in a real browser (issue #22, item 9): once a minute it asks
the JSON view and reloads when a move was made, not on a timer (no <meta> refresh: axe calls a timed
reload critical), and it stays put while nothing happens.  The browser's clock is Playwright's, so the
minute passes at once."""

from __future__ import annotations

import pytest

from service.play import new_game
from tests.consent import preconsent
from tests.service import toygame
from tests.service.helpers import play_one
from tests.web import looks

pytestmark = [pytest.mark.browser]

PLAYERS = [("Ann", "ann@example.org"), ("Bob", "bob@example.org")]


@pytest.fixture
def app(live):
    with live.app_context():
        yield live


def test_the_public_view_reloads_after_a_move_and_only_then(app, page):
    preconsent("ann@example.org", "bob@example.org")
    game_id = new_game(toygame.NAME, PLAYERS, {"target": 5}, seed=3)
    page.clock.install()
    page.goto(app.config["BASE_URL"] + f"/games/{game_id}")
    follow = page.locator("#follow")
    assert follow.inner_text() == "New moves show here within a minute."
    seq = follow.get_attribute("data-seq")

    page.clock.run_for(61_000)  # nothing moved: the page is the one loaded
    page.wait_for_timeout(200)
    assert page.locator("#follow").get_attribute("data-seq") == seq

    play_one(game_id)
    with page.expect_navigation():
        page.clock.run_for(61_000)
    assert page.locator("#follow").get_attribute("data-seq") != seq
    looks.assert_accessible(page)
