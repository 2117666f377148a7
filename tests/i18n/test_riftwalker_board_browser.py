"""The Riftwalker board in Ukrainian and Traditional Chinese in Chromium at a 375 px phone and a 1280 px
desktop (issue #26): the player page of a 4-player game late in play (many rifts in play, a card's
power being decided where the simple player reaches one) and of a 2-player game.  Cyrillic and CJK
card names, rules and steps fit the board's grid and tables (no sideways scrolling), axe finds nothing
serious, the board speaks the page's language.  RIFTPOST_SHOTS=folder keeps the screenshots."""

from __future__ import annotations

import os

import pytest

from service.play import handle, new_game
from tests.consent import preconsent
from tests.i18n.test_pages_words import player_path
from tests.riftwalker_helpers import RULES, choose
from tests.service.helpers import current
from tests.web import looks
from tests.web.looks import WIDTHS

pytestmark = [pytest.mark.browser]
SHOTS = os.environ.get("RIFTPOST_SHOTS")
HEADERS = {"uk": "uk-UA,uk;q=0.9", "zh_Hant": "zh-TW,zh;q=0.9"}
PEOPLE = [("Ann", "ann@example.org"), ("Bo", "bo@example.org"), ("Cy", "cy@example.org"), ("Di", "di@example.org")]
# The board's own words and the game's, in each language: the grid's caption, a step's name.
SAID = {"uk": ("Сітка стихій", "Крок"), "zh_Hant": ("元素矩陣", "步驟")}


def played(game_id: int, least: int) -> int:
    """`least` decisions of the simple player, then on to a card's power being decided (or 100 more):
    the seat to act then."""
    count = 0
    while True:
        game, state = current(game_id)
        if state["over"] or (count >= least and (state["stack"] or count >= least + 100)):
            return game.to_act[0]
        seat = game.to_act[0]
        handle(game_id, seat, choose(state, seat, RULES.legal_moves(state, seat)), game.seq)
        count += 1


@pytest.fixture
def games(live):
    with live.app_context():
        preconsent(*[address for _, address in PEOPLE])
        found = {}
        for count, seed, steps in ((4, 5, 160), (2, 3, 30)):
            game_id = new_game("riftwalker", PEOPLE[:count], seed=seed)
            found[count] = player_path(game_id, played(game_id, steps))
        return found


@pytest.mark.parametrize("viewport", WIDTHS, ids=["phone", "desktop"])
@pytest.mark.parametrize("language", ["uk", "zh_Hant"])
def test_the_riftwalker_board_fits_and_reads_in_each_language(live, games, context, page, viewport, language):
    context.set_extra_http_headers({"Accept-Language": HEADERS[language]})
    page.set_viewport_size(viewport)
    base, width = live.config["BASE_URL"], viewport["width"]
    for count, path in games.items():
        page.goto(base + path)
        assert page.locator("html").get_attribute("lang") == language.replace("_", "-")
        board = page.locator(".board.rw")
        assert board.count() == 1
        caption, step = SAID[language]
        assert caption in board.inner_text() and step in board.locator(".ask").first.inner_text()
        assert page.locator(".board.rw table.rw-grid td.tile").count() == 9
        looks.assert_fits(page)
        looks.assert_accessible(page)
        if SHOTS:
            page.screenshot(path=f"{SHOTS}/riftwalker-{count}p-{language}-{width}.png", full_page=True)
            board.screenshot(path=f"{SHOTS}/riftwalker-board-{count}p-{language}-{width}.png")
