"""The "my games" page in Chromium at a 375 px phone and a 1280 px desktop: it fits, axe finds nothing
serious, the title counts the games awaiting the person, and hiding a finished game works."""

from __future__ import annotations

import os

import pytest

from service.play import new_game
from tests.consent import preconsent
from tests.people.home_helpers import ANN, BO, CY, DI, due_in, finish, session_cookie
from tests.web import looks
from tests.web.looks import WIDTHS

pytestmark = [pytest.mark.browser]
SHOTS = os.environ.get("RIFTPOST_SHOTS")  # a folder to keep the screenshots in


@pytest.fixture
def home(live, context):
    with live.app_context():
        preconsent(ANN[1], BO[1], CY[1], DI[1])
        duel = new_game("riftforce", [ANN, BO], {}, seed=1, deadline_hours=72)
        due_in(duel, 0, 20)
        new_game("riftforce", [ANN, BO, CY, DI], {"mode": "team"}, seed=2, deadline_hours=72)
        new_game("riftwalker", [BO, ANN, CY], {}, seed=4, deadline_hours=48)
        new_game("beyond-the-rift", [ANN, CY], {"scenario": "tutorial", "heroes": ["brannoc", "isolde"]}, seed=5)
        won = new_game("riftforce", [ANN, BO], {}, seed=6)
        finish(won, {"winners": [0], "scores": {"0": 12, "1": 7}})
        cookie = session_cookie(live, ANN[1])
    context.add_cookies([{"name": live.config.get("SESSION_COOKIE_NAME", "session"), "value": cookie,
                          "url": live.config["BASE_URL"]}])
    return live.config["BASE_URL"]


@pytest.mark.parametrize("viewport", WIDTHS, ids=["phone", "desktop"])
def test_my_games_page_fits_reads_and_hides(home, page, viewport):
    page.set_viewport_size(viewport)
    page.goto(home + "/")
    assert page.title() == "(2) Riftpost"  # the duel and Beyond the Rift wait on Ann
    assert page.locator("h2").all_inner_texts()[:3] == ["Your turn (2)", "Waiting for others (2)", "Finished (1)"]
    assert "Your turn: due " in page.locator("#your_turn-h + ul").inner_text()
    looks.assert_fits(page)
    looks.assert_accessible(page)
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/home-{viewport['width']}.png", full_page=True)
    with page.expect_navigation():
        page.get_by_role("button", name="Hide Riftforce").click()
    assert "Show your 1 hidden game" in page.content()
    with page.expect_navigation():
        page.get_by_role("link", name="Show your 1 hidden game").click()
    assert page.title() == "Hidden games — Riftpost"
    looks.assert_fits(page)
    looks.assert_accessible(page)
    with page.expect_navigation():
        page.get_by_role("button", name="Show again Riftforce").click()
    assert page.locator("text=You have hidden no games.").count() == 1
