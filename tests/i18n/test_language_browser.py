"""The first pages in Ukrainian and Traditional Chinese in Chromium at a 375 px phone and a 1280 px
desktop: Cyrillic and CJK text fits (no sideways scrolling), axe finds nothing serious, `<html lang>`
says the language, and the language buttons of the sign-in page switch it."""

from __future__ import annotations

import os
from datetime import UTC, datetime

import pytest

from service.people import languages, tokens
from service.play import new_game
from tests.consent import preconsent
from tests.people.home_helpers import ANN, BO, CY, DI, due_in, finish, session_cookie
from tests.web import looks
from tests.web.looks import WIDTHS

pytestmark = [pytest.mark.browser]
SHOTS = os.environ.get("RIFTPOST_SHOTS")  # a folder to keep the screenshots in
HEADERS = {"uk": "uk-UA,uk;q=0.9", "zh_Hant": "zh-TW,zh;q=0.9"}
WORDS = {"uk": ("Увійти", "Ваші ігри", "Налаштування"), "zh_Hant": ("登入", "你的遊戲", "設定")}


def shot(page, name: str) -> None:
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/{name}.png", full_page=True)


def check(page, language: str) -> None:
    assert page.locator("html").get_attribute("lang") == language.replace("_", "-")
    looks.assert_fits(page)
    looks.assert_accessible(page)


@pytest.mark.parametrize("viewport", WIDTHS, ids=["phone", "desktop"])
@pytest.mark.parametrize("language", ["uk", "zh_Hant"])
def test_the_signed_out_pages_fit_and_read_in_each_language(live, context, page, viewport, language):
    context.set_extra_http_headers({"Accept-Language": HEADERS[language]})
    page.set_viewport_size(viewport)
    base, width = live.config["BASE_URL"], viewport["width"]
    page.goto(base + "/")
    check(page, language)
    shot(page, f"start-{language}-{width}")
    page.goto(base + "/signin")
    assert WORDS[language][0] in page.locator("h1").inner_text()
    check(page, language)
    shot(page, f"signin-{language}-{width}")
    with page.expect_navigation():
        page.get_by_role("button", name="English").click()  # the choice beats the header, for this browser
    assert page.locator("html").get_attribute("lang") == "en" and page.locator("h1").inner_text() == "Sign in"


@pytest.fixture
def signed_in(live, context):
    with live.app_context():
        preconsent(ANN[1], BO[1], CY[1], DI[1])
        duel = new_game("riftforce", [ANN, BO], {}, seed=1, deadline_hours=72)
        due_in(duel, 0, 20)
        new_game("riftforce", [ANN, BO, CY, DI], {"mode": "team"}, seed=2, deadline_hours=72)
        new_game("riftwalker", [BO, ANN, CY], {}, seed=4, deadline_hours=48)
        won = new_game("riftforce", [ANN, BO], {}, seed=6)
        finish(won, {"winners": [0], "scores": {"0": 12, "1": 7}})
        tokens.create(ANN[1], "bot", datetime.now(UTC))
        cookie = session_cookie(live, ANN[1])
    context.add_cookies([{"name": live.config.get("SESSION_COOKIE_NAME", "session"), "value": cookie,
                          "url": live.config["BASE_URL"]}])
    return live


@pytest.mark.parametrize("viewport", WIDTHS, ids=["phone", "desktop"])
@pytest.mark.parametrize("language", ["uk", "zh_Hant"])
def test_the_home_and_settings_pages_fit_and_read_in_the_persons_language(signed_in, page, viewport, language):
    with signed_in.app_context():
        languages.choose(ANN[1], language, datetime.now(UTC))
    page.set_viewport_size(viewport)
    base, width = signed_in.config["BASE_URL"], viewport["width"]
    page.goto(base + "/")
    assert page.locator("h1").inner_text() == WORDS[language][1]
    check(page, language)
    shot(page, f"home-{language}-{width}")
    page.goto(base + "/settings")
    assert page.locator("h1").inner_text() == WORDS[language][2]
    assert "Times are shown" not in page.locator("main").inner_text()  # timezone.js's note, translated too
    check(page, language)
    shot(page, f"settings-{language}-{width}")
    page.select_option("#language", "en")
    with page.expect_navigation():
        page.locator("#language-h ~ form button[type=submit]").click()
    assert page.locator("html").get_attribute("lang") == "en" and page.locator("h1").inner_text() == "Settings"
