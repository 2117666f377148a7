"""The game pages in Ukrainian and Traditional Chinese in Chromium at a 375 px phone and a 1280 px desktop
(issue #26): the player page of a Riftforce game at a turn (the composer on: its words come from the page,
static/composer.js `data-words`), of a Riftwalker game, and the start form.  Cyrillic and CJK text fits
(no sideways scrolling), axe finds nothing serious, `<html lang>` says the language.
RIFTPOST_SHOTS=folder keeps the screenshots."""

from __future__ import annotations

import os

import pytest

from service.play import new_game
from tests.consent import preconsent
from tests.i18n.test_pages_words import SAID, player_path
from tests.people.home_helpers import ANN, BO, CY
from tests.turns import drive, not_drafting
from tests.web import looks
from tests.web.looks import WIDTHS

pytestmark = [pytest.mark.browser]
SHOTS = os.environ.get("RIFTPOST_SHOTS")
HEADERS = {"uk": "uk-UA,uk;q=0.9", "zh_Hant": "zh-TW,zh;q=0.9"}
COMPOSER = {"uk": "Виберіть перший крок", "zh_Hant": "選擇第一步"}


def look(page, language: str, name: str) -> None:
    assert page.locator("html").get_attribute("lang") == language.replace("_", "-")
    looks.assert_fits(page)
    looks.assert_accessible(page)
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/{name}.png", full_page=True)


@pytest.fixture
def games(live):
    with live.app_context():
        preconsent(ANN[1], BO[1], CY[1])
        duel = new_game("riftforce", [ANN, BO], seed=5, deadline_hours=48)
        _game, _state, seat = drive(duel, not_drafting)
        walker = new_game("riftwalker", [ANN, BO, CY], {}, seed=4, deadline_hours=48)
        return {"duel": player_path(duel, seat), "walker": player_path(walker, 0)}


@pytest.mark.parametrize("viewport", WIDTHS, ids=["phone", "desktop"])
@pytest.mark.parametrize("language", ["uk", "zh_Hant"])
def test_the_player_pages_and_the_start_form_fit_and_read_in_each_language(live, games, context, page, viewport,
                                                                         language):
    context.set_extra_http_headers({"Accept-Language": HEADERS[language]})
    page.set_viewport_size(viewport)
    base, width = live.config["BASE_URL"], viewport["width"]
    page.goto(base + games["duel"])
    page.locator("#composer:not([hidden])").wait_for()  # the script's panel, in the page's words
    assert COMPOSER[language] in page.locator("#composer").inner_text()
    assert SAID[language]["board"] in page.locator("#board-h").inner_text()
    look(page, language, f"player-riftforce-{language}-{width}")
    page.goto(base + games["walker"])
    look(page, language, f"player-riftwalker-{language}-{width}")
    page.goto(base + "/games/new/riftforce")
    assert SAID[language]["start"] in page.locator("main").inner_text()
    look(page, language, f"start-form-{language}-{width}")
