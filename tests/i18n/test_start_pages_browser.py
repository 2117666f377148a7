"""The start pages' game words in Chromium (issue #26): the start page, each game's start form (and one
with a mistake), the lobby and the signed-in home page in Ukrainian and Traditional Chinese at a 375 px
phone and a 1280 px desktop: the adapters' summaries, modes and player counts, the rows' modes and
results and the rules pages' text are in the page's language, the text fits (no sideways scrolling) and axe finds nothing
serious.  RIFTPOST_SHOTS=folder keeps the screenshots."""

from __future__ import annotations

import pytest

from tests.i18n.test_pages_browser import HEADERS, look
from tests.people.helpers import sign_in_as
from tests.people.home_helpers import ANN
from tests.people.test_home_games import every_kind
from tests.web.looks import WIDTHS

pytestmark = [pytest.mark.browser]
# A word of each page's game words in each language: a summary, a mode and its count, a row's mode.
SAID = {
    "uk": {
        "start": "Елементалі чотирьох гільдій",
        "riftforce": "10 базових гільдій",
        "riftwalker": "Щоходу беріть стихію",
        "beyond-the-rift": "Кооперативна гра",
        "mistake": "Riftwalker: потрібно від 2 до 4 гравців; ви ввели 1 адресу",
        "home": "Ann",
        "rules riftforce": "Захопити території й взяти карти",
        "rules riftwalker": "Один підрив за хід.",
        "rules beyond-the-rift": "Фаза ворогів",
    },
    "zh_Hant": {
        "start": "四個公會的元素使",
        "riftforce": "10 個基本公會",
        "riftwalker": "每回合從共用的 3×3 矩陣",
        "beyond-the-rift": "合作遊戲",
        "mistake": "Riftwalker 需要 2 到 4 位玩家；你填了 1 個電子郵件地址。",
        "home": "Ann",
        "rules riftforce": "檢查並抽牌",
        "rules riftwalker": "每回合只能爆破一次。",
        "rules beyond-the-rift": "敵人階段",
    },
}
# The selects of the bots' stars narrower than their widest option (measured at width: max-content).
SELECTS_CUT = """() => [...document.querySelectorAll('select[name^="stars"]')].filter(select => {
  const shown = select.getBoundingClientRect().width;
  const [width, minWidth, maxWidth] = [select.style.width, select.style.minWidth, select.style.maxWidth];
  select.style.width = "max-content"; select.style.minWidth = "0"; select.style.maxWidth = "none";
  const needed = select.getBoundingClientRect().width;
  select.style.width = width; select.style.minWidth = minWidth; select.style.maxWidth = maxWidth;
  return shown < needed - 0.5;
}).map(select => select.name)"""


@pytest.mark.parametrize("viewport", WIDTHS, ids=["phone", "desktop"])
@pytest.mark.parametrize("language", ["uk", "zh_Hant"])
def test_the_start_pages_lobby_and_home_fit_and_read(live, context, page, viewport, language):
    context.set_extra_http_headers({"Accept-Language": HEADERS[language]})
    page.set_viewport_size(viewport)
    base, width = live.config["BASE_URL"], viewport["width"]
    said = SAID[language]
    page.goto(base + "/")
    assert said["start"] in page.locator("main").inner_text()
    look(page, language, f"start-{language}-{width}")
    with live.app_context():
        every_kind()
        client = live.test_client()
        sign_in_as(client, ANN[1])
    page.context.add_cookies([{"name": "session", "value": client.get_cookie("session").value, "url": base}])
    for game in ("riftforce", "riftwalker", "beyond-the-rift"):
        page.goto(f"{base}/games/new/{game}")
        assert said[game] in page.locator("main").inner_text(), game
        look(page, language, f"form-{game}-{language}-{width}")
    for mode in ("team", "solo"):  # Riftforce's other modes' own fields (the trainer's guilds, its bots' stars)
        page.goto(f"{base}/games/new/riftforce?mode={mode}")
        page.locator("details.advanced summary").click()
        if mode == "solo":  # the bots' stars: each select as wide as its words ("1 зірка", never "1 зірк")
            assert page.evaluate(SELECTS_CUT) == [], (language, width)
        look(page, language, f"form-riftforce-{mode}-{language}-{width}")
    page.goto(base + "/games/new/riftwalker")
    page.locator("#email0").fill("ann@example.org")
    with page.expect_navigation():
        page.locator('main button[type="submit"]:not([hidden]):not([name])').last.click()
    assert said["mistake"] in page.locator(".problem").inner_text()
    look(page, language, f"form-mistake-{language}-{width}")
    for game in ("riftforce", "riftwalker", "beyond-the-rift"):  # the rules pages: their text in the language
        page.goto(f"{base}/rules/{game}")
        assert said[f"rules {game}"] in page.locator(".rules-text").inner_text(), game
        look(page, language, f"rules-{game}-{language}-{width}")
    page.goto(base + "/lobby")
    look(page, language, f"lobby-{language}-{width}")
    page.goto(base + "/")
    assert page.locator(".my-game").count() > 0
    look(page, language, f"home-{language}-{width}")
