"""The lobby, an open game's page, the leaderboard and the rematch page in Ukrainian and Traditional
Chinese in Chromium at a 375 px phone and a 1280 px desktop (issue #26): Cyrillic and CJK text fits (no
sideways scrolling), axe finds nothing serious, `<html lang>` says the language, and the page speaks it.
RIFTPOST_SHOTS=folder keeps the screenshots."""

from __future__ import annotations

import pytest
import sqlalchemy as sa

from service.play import new_game
from service.store import get_engine, read_session
from service.store.models import Player
from tests import tokens
from tests.consent import preconsent
from tests.i18n.test_lobby_pages_words import ANN, SAID, _rated_game
from tests.i18n.test_pages_browser import HEADERS, look
from tests.people.helpers import sign_in_as
from tests.service import toygame
from tests.service.helpers import play_to_end
from tests.web.looks import WIDTHS

pytestmark = [pytest.mark.browser]
SHARE = {"uk": "Посилання, яким можна поділитися", "zh_Hant": "分享連結"}
JOIN = {"uk": "Надіслати мені посилання, щоб приєднатися", "zh_Hant": "寄給我加入連結"}


@pytest.mark.parametrize("viewport", WIDTHS, ids=["phone", "desktop"])
@pytest.mark.parametrize("language", ["uk", "zh_Hant"])
def test_the_lobby_an_open_game_the_leaderboard_and_the_rematch_page_fit_and_read(live, context, page, viewport,
                                                                                language):
    context.set_extra_http_headers({"Accept-Language": HEADERS[language]})
    page.set_viewport_size(viewport)
    base, width = live.config["BASE_URL"], viewport["width"]
    live.config["RATING_MIN_GAMES"] = 1
    with live.app_context():
        _rated_game()
        preconsent("bob@example.org")
        toy = new_game(toygame.NAME, [("Ann", ANN), ("Bob", "bob@example.org")], {"target": 5}, seed=3)
        play_to_end(toy)
        with read_session(get_engine()) as session:
            ann, bob = session.execute(sa.select(Player).where(Player.game_id == toy).order_by(Player.seat)).scalars()
        ann_again, bob_again = f"/p/{tokens.page(ann)}/again", f"/p/{tokens.page(bob)}/again"
        client = live.test_client()
        sign_in_as(client, ANN)
    cookie = client.get_cookie("session")
    page.context.add_cookies([{"name": "session", "value": cookie.value, "url": base}])
    # The form that opens a game, then the open game's page as its creator (the link to share).
    page.goto(base + "/lobby/new/riftforce")
    assert SAID[language]["new"] in page.locator("main").inner_text()
    look(page, language, f"lobby-new-{language}-{width}")
    page.locator("#name").fill("Ann")
    page.locator('input[name="listed"][value="yes"]').check()
    with page.expect_navigation():
        page.locator('main button[type="submit"]').click()
    assert SHARE[language] in page.locator("main").inner_text()
    look(page, language, f"lobby-game-creator-{language}-{width}")
    open_game = page.url
    page.goto(base + "/lobby")
    assert SAID[language]["lobby"] in page.locator("main").inner_text()
    look(page, language, f"lobby-index-{language}-{width}")
    # A stranger's view of the open game: the join form.
    context.clear_cookies()
    page.goto(open_game)
    assert JOIN[language] in page.locator("main").inner_text()
    look(page, language, f"lobby-game-stranger-{language}-{width}")
    page.goto(base + "/leaderboard/riftforce")
    assert SAID[language]["leaderboard"] in page.locator("main").inner_text()
    look(page, language, f"leaderboard-{language}-{width}")
    page.goto(base + "/leaderboard/beyond-the-rift")
    look(page, language, f"leaderboard-coop-{language}-{width}")
    # The rematch page: ask (seats), then the other player's accept.
    page.goto(base + ann_again)
    look(page, language, f"again-ask-{language}-{width}")
    page.locator('input[name="seating"][value="swapped"]').check()
    with page.expect_navigation():
        page.locator('form[action$="/again"] button[type="submit"]').click()
    look(page, language, f"again-asked-{language}-{width}")
    page.goto(base + bob_again)
    assert SAID[language]["again"] in page.locator("main").inner_text()
    look(page, language, f"again-accept-{language}-{width}")
