"""The turn on a phone (#22 item 7), in a real browser (Debian's Chromium), with JavaScript and
without: at 375 x 812 the board's top, the current step's first choice and the Confirm button are on
the screen at once in the middle of a turn; without JavaScript the turn is composed step by step
(nothing recorded, a step taken back) and played whole by the one Confirm; at 1280 the panel stands
beside the board.  Both fit the viewport and are clean for axe."""

from __future__ import annotations

import os

import pytest

from service.play import new_game
from tests.service.helpers import current
from tests.turns import RIFTFORCE, drive, not_drafting, plan, three_card_play
from tests.web import looks
from tests.web.looks import DESKTOP, PHONE
from tests.web.test_composer import compose, open_composer, page_url

pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("everyone_played_before")]

PLAYERS = [("Ann", "ann@example.org"), ("Bob", "bob@example.org")]
SHOTS = os.environ.get("RIFTPOST_SHOTS")  # a folder to keep the screenshots in


@pytest.fixture
def app(live):
    with live.app_context():
        yield live


@pytest.fixture
def turn(app):
    """A Riftforce duel past the draft: the game, the seat to act and its planned three-card Play."""
    game_id = new_game("riftforce", PLAYERS, seed=5)
    game, state, seat = drive(game_id, not_drafting)
    chosen = iter(three_card_play(state, seat, game.secret, game.seq))
    steps = plan(RIFTFORCE, state, seat, game.secret, game.seq, lambda s, seat, legal: next(chosen))
    return game_id, game, seat, steps


def in_viewport(page, selector: str) -> bool:
    """Whether the element's top edge and at least 20 px of it are on the screen, not covered."""
    box = page.locator(selector).first.bounding_box()
    height = page.viewport_size["height"]
    return box is not None and box["y"] >= -1 and box["y"] + min(box["height"], 20) <= height


def all_on_one_screen(page, choice: str) -> None:
    # The rift too (the locations the steps change), not only the board's heading: on a phone the
    # Riftforce board shows what is asked, then the rift, above the panel (static/board/riftforce.css).
    for selector in ("#board", "#board table.rift:visible", choice, ".composer-confirm"):
        assert in_viewport(page, selector), selector
    rift = page.locator("#board table.rift:visible").first.bounding_box()
    panel = page.locator(".step-panel").first.bounding_box()
    assert rift and panel and (rift["y"] + rift["height"] <= panel["y"] + 1 or panel["x"] >= rift["x"] + rift["width"]), \
        "the rift is behind the step panel"
    # and not under the panel: what is at the choice's and the button's centre is that element
    for selector in (choice, ".composer-confirm"):
        hit = page.locator(selector).first.evaluate(
            """e => { const r = e.getBoundingClientRect();
                      const top = document.elementFromPoint(r.x + r.width / 2, r.y + Math.min(r.height, 20) / 2);
                      return e === top || e.contains(top) || (top && top.control === e); }""")
        assert hit, selector


def nothing_hidden_below(page) -> None:
    """Scrolled to the end, the panel is back in its place in the page: it covers neither the
    sections after it nor the footer (sticky, not fixed)."""
    page.evaluate("() => window.scrollTo(0, document.documentElement.scrollHeight)")
    for selector in ("#players-h", "footer a"):
        covered = page.locator(selector).first.evaluate(
            """e => { const r = e.getBoundingClientRect();
                      if (r.bottom < 0 || r.top > innerHeight) return 'off screen';
                      const top = document.elementFromPoint(r.x + 2, r.y + r.height / 2);
                      return e === top || e.contains(top) ? null : String(top && top.className); }""")
        assert covered is None, (selector, covered)
    page.evaluate("() => window.scrollTo(0, 0)")


def shoot(page, name: str) -> None:
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/{name}-{page.viewport_size['width']}.png")
        page.screenshot(path=f"{SHOTS}/{name}-{page.viewport_size['width']}-full.png", full_page=True)


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_with_javascript_the_board_the_choices_and_confirm_are_on_one_screen(app, page, turn, viewport):
    game_id, game, seat, steps = turn
    open_composer(page, page_url(app, game_id, seat), viewport)
    compose(page, RIFTFORCE, steps[:2], seat)  # mid-turn: two of three steps planned
    all_on_one_screen(page, ".composer-choices button")
    shoot(page, "composer-js")
    nothing_hidden_below(page)
    looks.assert_fits(page)
    looks.assert_accessible(page)
    assert current(game_id)[0].seq == game.seq  # nothing played yet


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_without_javascript_the_board_the_choices_and_confirm_are_on_one_screen(app, browser, turn, viewport):
    game_id, game, seat, steps = turn
    context = browser.new_context(java_script_enabled=False, viewport=viewport, timezone_id="UTC")
    page = context.new_page()
    page.goto(page_url(app, game_id, seat))
    for state, move, _ in steps[:2]:
        page.locator("#moves").get_by_role("radio", name=RIFTFORCE.describe_move(move, state), exact=True).check()
        with page.expect_navigation():
            page.get_by_role("button", name="Add this step").click()
    assert page.locator(".composer-taken li").count() == 2
    assert "not played yet" in page.locator("#board-h").inner_text()
    all_on_one_screen(page, "#moves label.choice")
    shoot(page, "composer-nojs")
    nothing_hidden_below(page)
    looks.assert_fits(page)
    composed = page.url
    context.close()
    # axe-core waits on timers, which a page without JavaScript never runs: the same composed page
    # with JavaScript on (a composed address is served without the composer, so it is the same panel).
    context = browser.new_context(viewport=viewport, timezone_id="UTC")
    page = context.new_page()
    page.goto(composed)
    assert page.locator("#composer").count() == 0 and page.locator(".composer-taken li").count() == 2
    looks.assert_accessible(page)
    context.close()
    assert current(game_id)[0].seq == game.seq
