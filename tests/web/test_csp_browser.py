"""The Content-Security-Policy (service/web/headers.py) in a real browser (Debian's Chromium): the
site's pages load under it with no violation at all (a blocked script, stylesheet, inline style,
sprite or frame), the dev mailbox still frames and sizes an email, history.js still steps, and the
composer still plays a whole turn.  Nothing here bypasses the policy."""

from __future__ import annotations

import pytest

import engine
from service import links, store
from service.play import new_game
from service.store import get_engine, read_session
from service.web.headers import PAGE_POLICY
from tests.riftwalker_helpers import choose as riftwalker_choose
from tests.service.helpers import current
from tests.turns import plan
from tests.web.looks import DESKTOP
from tests.web.test_composer import play_planned
from tests.web.test_site_pages import site  # noqa: F401 - the fixture: mail, a game under way, a finished one

# Chromium and its launch settings: tests/conftest.py; pages, not invitations: every address played before.
pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("everyone_played_before")]

PLAYERS = [("Ann", "ann@example.org"), ("Bob", "bob@example.org")]
# Every violation the page's documents see, whatever the console says about it.
LISTEN = """window.__violations = [];
document.addEventListener('securitypolicyviolation',
    e => window.__violations.push(e.effectiveDirective + ' blocked ' + (e.blockedURI || 'inline') + ' at ' + e.sourceFile + ':' + e.lineNumber));"""


class Violations:
    """CSP violations seen by a page: its console's reports (every frame's, the sandboxed email's
    included, where no listener can run) and the documents' securitypolicyviolation events."""

    def __init__(self, page):
        self.page = page
        self.console: list[str] = []
        page.add_init_script(LISTEN)
        page.on("console", self._console)

    def _console(self, message) -> None:
        words = message.text
        if "Content Security Policy" in words or "Refused to" in words:
            self.console.append(words)

    def found(self) -> list[str]:
        return self.console + self.page.evaluate("window.__violations || []")

    def assert_none(self, where: str) -> None:
        found = self.found()
        assert not found, f"{where}: {found}"


def player_url(base: str, game_id: int, seat: int = 0) -> str:
    with read_session(get_engine()) as session:
        player = next(p for p in store.players_of(session, game_id) if p.seat == seat)
    return f"{base}/p/{links.player_token(player.id, player.row_key)}"


def test_the_watch_sees_a_violation(site, page):
    """Without this, "no violation" could mean a listener that hears nothing."""
    watch = Violations(page)
    page.goto(site.base + "/")
    watch.assert_none("the start page")
    page.evaluate("document.body.setAttribute('style', 'color: red')")  # an inline style: refused
    page.wait_for_function("() => window.__violations.length > 0")
    assert any("style-src" in v for v in watch.found())


def test_the_sites_pages_load_with_no_violation(site, page):
    page.set_viewport_size(DESKTOP)
    watch = Violations(page)
    spectator = site.urls["created"].removesuffix("/created")
    for name, url in [*site.urls.items(), ("spectator", spectator)]:
        answer = page.goto(site.base + url)
        page.wait_for_load_state("load")
        assert answer.headers["content-security-policy"] == PAGE_POLICY, name
        assert answer.headers["referrer-policy"] == "no-referrer", name
        if name == "player page":  # composer.js ran: the composer replaced the plain list
            page.wait_for_selector("#composer:not([hidden])")
        watch.assert_none(name)
    # history.js under the policy: a key steps back one event.
    page.goto(site.base + site.urls["history"])
    where = page.locator("#hist-where").inner_text()
    with page.expect_navigation():
        page.keyboard.press("ArrowLeft")
    assert page.locator("#hist-where").inner_text() != where
    watch.assert_none("history stepped")


def test_the_dev_mailbox_frames_a_styled_email_with_no_violation(site, page):
    watch = Violations(page)
    page.goto(site.base + site.urls["dev mailbox"])
    page.locator(".mail-list a").first.click()  # the newest: a turn email, with its HTML part
    page.wait_for_load_state("load")
    frame = page.locator("iframe.mail-html")
    # devmail.js measured the framed email (same origin, no scripts of its own).
    page.wait_for_function("f => f.contentDocument && f.contentDocument.readyState === 'complete'"
                           " && f.contentDocument.body && f.style.height && parseFloat(f.style.height) > 200",
                           arg=frame.element_handle(), timeout=10_000)
    # The email keeps its inline styles inside the frame (the page's own policy would drop them:
    # a refused style attribute leaves the element's declarations empty).
    styled = frame.evaluate("""f => [...f.contentDocument.querySelectorAll('[style]')]
                                   .map(e => e.style.length > 0)""")
    assert styled and all(styled)
    watch.assert_none("dev mailbox message")


@pytest.mark.parametrize("game", ["riftforce", "riftwalker", "beyond-the-rift"])
def test_each_games_board_loads_with_no_violation(live, page, game):
    """The drawn boards: their stylesheets and SVG sprites (`<use href>`) under the policy."""
    options = {"scenario": "tutorial", "heroes": ["brannoc", "isolde"]} if game == "beyond-the-rift" else {}
    with live.app_context():
        game_id = new_game(game, PLAYERS, options, seed=3)
        seat = current(game_id)[0].to_act[0]
        url = player_url(live.config["BASE_URL"], game_id, seat)
    watch = Violations(page)
    page.goto(url)
    page.wait_for_selector("#composer:not([hidden])")
    if game != "beyond-the-rift":  # Beyond's page draws its icons only once there is a board to draw
        page.wait_for_function("() => [...document.querySelectorAll('svg.icon use')].length > 0")
    watch.assert_none(game)
    public = page.goto(f"{live.config['BASE_URL']}/games/{game_id}")
    assert public.headers["content-security-policy"] == PAGE_POLICY
    watch.assert_none(f"{game} spectator")


def test_the_composer_plays_a_whole_turn_under_the_policy(live, page):
    """The composer's fetches to the play API and its previewed board (the server's HTML put into the
    page) work under the policy, with no violation from the first click to the recorded turn."""
    with live.app_context():
        rules = engine.get("riftwalker")
        game_id = new_game("riftwalker", PLAYERS, seed=3)
        game, state = current(game_id)
        seat = game.to_act[0]
        steps = plan(rules, state, seat, game.secret, game.seq, riftwalker_choose)
        watch = Violations(page)
        play_planned(page, live, game_id, seat, steps, DESKTOP, "riftwalker-csp")
    watch.assert_none("the composer's turn")
