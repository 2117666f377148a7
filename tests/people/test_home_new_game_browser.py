""""New game with Bo" in Chromium at 375 and 1280 px: from the home to the filled form (no address of
Bo's on the way), which fits and passes axe, to the game started."""

from __future__ import annotations

import pytest

from tests.people.home_helpers import BO
from tests.people.test_home_browser import SHOTS, home  # noqa: F401 - the fixture: Ann signed in, games with Bo
from tests.web import looks
from tests.web.looks import WIDTHS

pytestmark = [pytest.mark.browser]


@pytest.mark.parametrize("viewport", WIDTHS, ids=["phone", "desktop"])
def test_new_game_with_a_co_player_from_the_home_fits_and_starts(home, page, viewport):
    page.set_viewport_size(viewport)
    page.goto(home + "/")
    with page.expect_navigation():
        page.get_by_role("link", name="New game with Bo").click()
    with page.expect_navigation():
        page.get_by_role("link", name="Start Riftforce").click()
    assert page.locator("#name1").input_value() == "Bo"
    assert page.locator("#email0").input_value() == "ann@example.org"
    assert BO[1] not in page.content()
    looks.assert_fits(page)
    looks.assert_accessible(page)
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/new-game-with-{viewport['width']}.png", full_page=True)
    with page.expect_navigation():
        page.get_by_role("button", name="Start the game and email the invitations").click()
    assert "/created" in page.url
