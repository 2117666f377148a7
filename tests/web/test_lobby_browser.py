"""The lobby's pages, the leaderboard and the rematch page in a real browser (Debian's Chromium) at 375 and
1280 px: they fit, axe-core finds nothing serious, and the whole flow works without JavaScript (issue #25:
open a game, list it, join by typed address, confirm by the emailed link's one button; the leaderboard;
play again)."""

from __future__ import annotations

import os
import re

import pytest
import sqlalchemy as sa

from service.play import ending, new_game
from service.store import get_engine, read_session, write_session
from service.store.models import Game, Outbox, Player, utcnow
from tests import tokens
from tests.consent import preconsent
from tests.people.helpers import sign_in_as
from tests.service import toygame
from tests.service.helpers import play_to_end
from tests.web.looks import DESKTOP, PHONE, assert_accessible, assert_fits
from tests.web.test_site_pages import assert_touch_targets

pytestmark = [pytest.mark.browser]
SHOTS = os.environ.get("RIFTPOST_SHOTS")


def _looks_right(page, name: str) -> None:
    """Fits, axe finds nothing serious, big enough targets (these checks run scripts in the page: in a
    context without JavaScript only the screenshot is taken, the flow being what is tested there)."""
    if page.context.__dict__.get("_riftpost_js", True):
        assert_fits(page)
        assert_accessible(page)
        assert_touch_targets(page)
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/lobby-{name}-{page.viewport_size['width']}.png", full_page=True)


def _sign_in(live, page, email: str) -> None:
    client = live.test_client()
    sign_in_as(client, email)
    cookie = client.get_cookie("session")
    page.context.add_cookies([{"name": "session", "value": cookie.value, "url": live.config["BASE_URL"]}])


def _context(browser, viewport, js: bool):
    context = browser.new_context(java_script_enabled=js, viewport=viewport)
    context.__dict__["_riftpost_js"] = js
    return context


@pytest.mark.parametrize("js", [False, True], ids=["no-js", "js"])
@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_open_list_join_by_address_and_confirm(live, browser, viewport, js):
    base = live.config["BASE_URL"]
    page = _context(browser, viewport, js).new_page()
    with live.app_context():
        _sign_in(live, page, "ann@example.org")
        page.goto(base + "/lobby/new/riftforce")
        _looks_right(page, "new")
        page.get_by_label("Your name in the game").fill("Ann")
        page.get_by_label("Anyone: list it in the lobby").check()
        with page.expect_navigation():
            page.get_by_role("button", name="Open the game").click()
        _looks_right(page, "game-creator")
        stranger = _context(browser, viewport, js).new_page()
        stranger.goto(base + "/lobby")
        _looks_right(stranger, "index")
        with stranger.expect_navigation():
            stranger.get_by_role("link", name=re.compile("Riftforce")).first.click()
        _looks_right(stranger, "game-stranger")
        stranger.get_by_label("Your name in the game").fill("Bo")
        stranger.get_by_label("Your email address").fill("bo@example.org")
        with stranger.expect_navigation():
            stranger.get_by_role("button", name="Email me a link to join").click()
        assert "If that address can take the seat" in stranger.locator("main").inner_text()
        _looks_right(stranger, "asked")
        with read_session(get_engine()) as session:
            row = session.execute(sa.select(Outbox).where(Outbox.kind == "lobby_join")).scalar_one()
        from service.links import lobby_join_token
        from service.store.models import Joining
        with read_session(get_engine()) as session:
            joining = session.get(Joining, row.params["joining"])
        stranger.goto(base + "/lobby/confirm/" + lobby_join_token(joining.id, joining.nonce))
        _looks_right(stranger, "confirm")
        with stranger.expect_navigation():
            stranger.get_by_role("button", name="Join the game").click()
        assert "/p/" in stranger.url and "the game has started" in stranger.locator("main").inner_text()
        with read_session(get_engine()) as session:
            assert session.execute(sa.select(Game.status).where(Game.id == joining.open_game_id)).scalar_one() == "active"


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_leaderboard_and_the_rematch_page_read_well(live, page, viewport):
    base = live.config["BASE_URL"]
    page.set_viewport_size(viewport)
    live.config["RATING_MIN_GAMES"] = 1
    with live.app_context():
        preconsent("ann@example.org", "bob@example.org")
        game_id = new_game("riftforce", [("Ann", "ann@example.org"), ("Bob", "bob@example.org")], seed=1)
        with write_session(get_engine()) as session:
            session.execute(sa.update(Game).where(Game.id == game_id).values(
                status="finished", result={"winners": [0], "scores": {"0": 12, "1": 7}}))
        ending.record_end(game_id, utcnow())
        page.goto(base + "/leaderboard/riftforce")
        _looks_right(page, "leaderboard")
        page.goto(base + "/leaderboard/beyond-the-rift")
        _looks_right(page, "leaderboard-coop")
        toy = new_game(toygame.NAME, [("Ann", "ann@example.org"), ("Bob", "bob@example.org")], {"target": 5}, seed=3)
        play_to_end(toy)
        with read_session(get_engine()) as session:
            ann, bob = session.execute(sa.select(Player).where(Player.game_id == toy).order_by(Player.seat)).scalars()
        page.goto(base + f"/p/{tokens.page(ann)}/again")
        _looks_right(page, "again-ask")
        page.get_by_label("Swapped").check()
        with page.expect_navigation():
            page.get_by_role("button", name="Play again").click()
        _looks_right(page, "again-asked")
        page.goto(base + f"/p/{tokens.page(bob)}/again")
        _looks_right(page, "again-accept")
        with page.expect_navigation():
            page.get_by_role("button", name="Accept and play again").click()
        _looks_right(page, "again-started")
        assert "go to your seat in game" in page.locator("main").inner_text()


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_bot_seat_the_home_s_open_games_and_cancel_read_well(live, browser, viewport):
    """#25 part 3: open a game of 3 with a bot and an open seat, see it on the home (seats left, the link
    to share, cancel), cancel it from there."""
    base = live.config["BASE_URL"]
    page = _context(browser, viewport, True).new_page()
    with live.app_context():
        _sign_in(live, page, "ann@example.org")
        page.goto(base + "/lobby/new/riftwalker")
        page.get_by_label("Your name in the game").fill("Ann")
        page.get_by_label("Players in all (you included)").fill("3")
        page.get_by_label("Seat 2").select_option("bot:easy")
        _looks_right(page, "new-bot")
        with page.expect_navigation():
            page.get_by_role("button", name="Open the game").click()
        main = page.locator("main").inner_text()
        assert "A bot plays too: Bot (easy). The game is not rated." in main and "The link to share:" in main
        _looks_right(page, "game-bot-creator")
        page.goto(base + "/")
        section = page.locator("#lobby-h + ul").inner_text()
        assert "2 seats left" not in section and "1 seat left" in section and "Ann and Bot (easy)" in section
        _looks_right(page, "home-open")
        for language, words in (("uk", "Чекають на гравців"), ("zh-TW", "等待玩家加入")):  # the reader's language
            context = browser.new_context(viewport=viewport, locale=language)
            other = context.new_page()
            _sign_in(live, other, "ann@example.org")
            other.goto(base + "/")
            assert words in other.locator("#lobby-h").inner_text()
            _looks_right(other, f"home-open-{language}")
            other.goto(page.url.rstrip("/") + "/")
            context.close()
        with page.expect_navigation():
            page.get_by_role("button", name=re.compile("Cancel this game")).click()
        assert "The game is cancelled" in page.locator("main").inner_text()
        _looks_right(page, "cancelled")
        page.goto(base + "/")
        assert page.locator("#lobby-h").count() == 0


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_no_thanks_on_the_rematch_page_reads_well(live, page, viewport):
    base = live.config["BASE_URL"]
    page.set_viewport_size(viewport)
    with live.app_context():
        preconsent("ann@example.org", "bob@example.org")
        toy = new_game(toygame.NAME, [("Ann", "ann@example.org"), ("Bob", "bob@example.org")], {"target": 5}, seed=3)
        play_to_end(toy)
        with read_session(get_engine()) as session:
            ann, bob = session.execute(sa.select(Player).where(Player.game_id == toy).order_by(Player.seat)).scalars()
        page.goto(base + f"/p/{tokens.page(ann)}/again")
        with page.expect_navigation():
            page.get_by_role("button", name="Play again").click()
        page.goto(base + f"/p/{tokens.page(bob)}/again")
        _looks_right(page, "again-decline")
        with page.expect_navigation():
            page.get_by_role("button", name="No thanks").click()
        assert "You said no thanks to the rematch: it is closed." in page.locator("main").inner_text()
        _looks_right(page, "again-declined")
        page.goto(base + f"/p/{tokens.page(ann)}")
        assert "Bob said no thanks to your rematch: it is closed." in page.locator("main").inner_text()
        page.locator("#again").scroll_into_view_if_needed()
        _looks_right(page, "again-declined-asker")
