"""The site's own pages (not the boards) in a real browser, at a 375 px phone and a 1280 px desktop:
each fits the viewport, axe-core finds nothing serious, and every control is a touch target of at
least 44 x 44 px.  The toy game (its board is the text board) stands in for the three games, whose
boards have browser tests of their own."""

from __future__ import annotations

import time
from dataclasses import dataclass

import pytest

from service import links, mailsink, store
from service.mail import outbox
from service.play import new_game
from service.store import get_engine, read_session
from tests import tokens
from tests.service import toygame
from tests.service.helpers import outbox_rows, play_one, play_to_end
from tests.services import free_port
from tests.web.looks import DESKTOP, PHONE, assert_accessible, assert_fits

# Chromium and its launch settings: tests/conftest.py; pages, not invitations: every address played before.
pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("everyone_played_before")]

PLAYERS = [("Ann", "ann@example.org"), ("Bob", "bob@example.org")]
MINIMUM = 44  # CSS px each way (WCAG 2.5.5)

# Every control a finger aims at; a radio button or checkbox is aimed at through its label.
SMALL_TARGETS = """min => [...document.querySelectorAll(
        'button, select, textarea, summary, input:not([type=hidden]), header a, footer a, nav a, .mail-list a')]
    .filter(e => e.getClientRects().length)
    .map(e => ((e.type === 'radio' || e.type === 'checkbox') && e.labels && e.labels.length) ? e.labels[0] : e)
    .map(e => { const r = e.getBoundingClientRect();
                return {what: e.tagName + (e.id ? '#' + e.id : '') + ' ' + (e.innerText || e.value || '').trim().slice(0, 30),
                        width: Math.round(r.width * 10) / 10, height: Math.round(r.height * 10) / 10}; })
    .filter(t => t.width < min - 0.5 || t.height < min - 0.5)"""


@dataclass
class Site:
    base: str
    urls: dict[str, str]


@pytest.fixture
def site(live):
    """A live app with mail in its dev mailbox, a game under way and a finished 3-player game."""
    sink = mailsink.start(live.config["MAILDIR"], "127.0.0.1", free_port())
    live.config["SMTP_URL"] = f"smtp://127.0.0.1:{sink.port}"
    try:
        with live.app_context():
            game_id = new_game(toygame.NAME, PLAYERS, {"target": 60})  # drawn: its commitment shows
            for _ in range(9):
                play_one(game_id, pick=lambda moves: moves[-1])
            for row in outbox_rows(game_id):
                assert outbox.deliver(row.id) == "sent"
            finished = new_game(toygame.NAME, PLAYERS + [("Cyd", "cyd@example.org")], {"target": 8})  # its secret shows
            play_to_end(finished)
            with read_session(get_engine()) as session:
                ann = store.players_of(session, game_id)[0].id
                ann_finished = store.players_of(session, finished)[0].id
            urls = {
                "index": "/",
                "new game": "/games/new",
                "created": f"/games/{game_id}/created",
                "dev mailbox": "/dev/mail/",
                "not found": "/games/999",
                "bad link": "/p/not-a-token",
                "unsubscribe": f"/u/{tokens.unsubscribe(ann)}",
                "history": f"/p/{tokens.page(ann)}/history",
                "finished history": f"/p/{tokens.page(ann_finished)}/history?view=all",
                "public history": f"/games/{finished}/history",
                "player page": f"/p/{tokens.page(ann)}",
                # The pages of link generations and the account (service/web/account.py).
                "never email": f"/p/{tokens.page(ann)}/account?why=never",
                "one-click": f"/never/{links.never_email_token('ann@example.org')}",
                "account": f"/a/{links.account_token('ann@example.org', int(time.time()))}",
            }
        yield Site(live.config["BASE_URL"], urls)
    finally:
        sink.stop()


def assert_touch_targets(page) -> None:
    small = page.evaluate(SMALL_TARGETS, MINIMUM)
    assert not small, f"controls smaller than {MINIMUM} x {MINIMUM} px: {small}"


def check(page) -> None:
    assert_fits(page)
    assert_accessible(page)
    assert_touch_targets(page)


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
@pytest.mark.parametrize("name", ["index", "new game", "created", "dev mailbox", "not found", "bad link",
                                  "unsubscribe", "history", "finished history", "public history",
                                  "never email", "one-click", "account"])
def test_the_page_fits_reads_and_has_big_enough_targets(site, page, viewport, name):
    page.set_viewport_size(viewport)
    answer = page.goto(site.base + site.urls[name])
    assert answer.status == {"not found": 404, "bad link": 400}.get(name, 200)
    check(page)
    if "history" in name:  # its own parts are there to be checked: steps, chart with legend, turns
        assert page.locator("nav a").count() >= 3
        assert page.locator("svg.score-chart").count() == 1 and page.locator(".chart-legend li").count() >= 2
        assert page.locator(".hist-turns li").count() >= 3


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_start_forms_mistakes_fit_and_read(site, page, viewport):
    page.set_viewport_size(viewport)
    page.goto(site.base + site.urls["new game"])
    page.get_by_role("link", name="Start Toy").click()
    page.fill("#email0", "ann@example.org")
    page.fill("#email1", "Ann@example.org")
    page.get_by_text("More options").click()
    page.fill("#options", "colour")
    with page.expect_navigation():
        page.get_by_role("button", name="Start the game").click()
    alert = page.get_by_role("alert")
    assert alert.get_by_role("listitem").all_inner_texts() == [
        "ann@example.org is entered for players 1 and 2; each player needs an address of their own.",
        "Option 'colour' is not KEY=VALUE.",
    ]
    check(page)
    # What was typed is there to be fixed.
    assert page.input_value("#email1") == "Ann@example.org" and page.input_value("#options") == "colour"


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_dev_mailbox_message_shows_the_whole_email(site, page, viewport):
    page.set_viewport_size(viewport)
    page.goto(site.base + site.urls["dev mailbox"])
    page.locator(".mail-list a").first.click()  # the newest: a turn email, with its HTML part
    page.wait_for_load_state("load")
    frame = page.locator("iframe")
    # devmail.js measures the email (the frame shares the page's origin for that, never scripts).
    page.wait_for_function("f => f.contentDocument && f.contentDocument.readyState === 'complete' && f.style.height",
                           arg=frame.element_handle(), timeout=10_000)
    sizes = frame.evaluate("""f => ({frame: f.getBoundingClientRect().height,
                                    inner: f.contentDocument.documentElement.scrollHeight,
                                    viewport: f.contentDocument.documentElement.clientHeight})""")
    # The frame is as tall as the email: nothing of it is below the frame's own fold.
    assert sizes["inner"] <= sizes["viewport"] + 1, sizes
    # ...down to its last line, inside the frame's box.
    bottom = frame.evaluate("f => f.contentDocument.body.lastElementChild.getBoundingClientRect().bottom")
    assert bottom <= sizes["viewport"], (bottom, sizes)
    assert "allow-scripts" not in (frame.get_attribute("sandbox") or "")
    check(page)


def test_the_player_pages_controls_are_big_enough_on_a_phone(site, page, browser):
    """The player page is not this module's to lay out (its board and composer are drawn elsewhere),
    but its controls take the site's touch-target sizes: the composer's with JavaScript, the plain
    list's radio buttons and drop-downs without."""
    page.set_viewport_size(PHONE)
    page.goto(site.base + site.urls["player page"])
    page.wait_for_selector("#composer button")
    assert_touch_targets(page)
    plain = browser.new_context(java_script_enabled=False, viewport=PHONE).new_page()
    try:
        plain.goto(site.base + site.urls["player page"])
        assert plain.get_by_role("radio").count() >= 1 and plain.locator("select").count() >= 1
        assert_touch_targets(plain)
    finally:
        plain.context.close()
