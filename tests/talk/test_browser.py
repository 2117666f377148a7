"""The talk panel of the player page, the spectator view and the "tell me at once" setting in a real
browser (Debian's Chromium) at 375 and 1280 px: they fit, axe finds nothing serious, the forms work."""

from __future__ import annotations

import os

import pytest
from flask import g

from service.store import get_engine, read_session
from service.store.models import TalkAtOnce
from tests.people.helpers import sign_in_as
from tests.talk import helpers
from tests.web import looks
from tests.web.looks import WIDTHS

pytestmark = [pytest.mark.browser]
SHOTS = os.environ.get("RIFTPOST_SHOTS")


@pytest.fixture
def app(live, everyone_played_before):
    with live.app_context():
        yield live


def shot(page, name: str, *parts: str) -> None:
    """The whole page, and each of `parts` (selectors) on its own: a long page's interesting part."""
    if SHOTS:
        width = page.viewport_size["width"]
        page.screenshot(path=f"{SHOTS}/talk-{name}-{width}.png", full_page=True)
        for number, selector in enumerate(parts):
            page.locator(selector).first.screenshot(path=f"{SHOTS}/talk-{name}-{width}-part{number}.png")


@pytest.mark.parametrize("viewport", WIDTHS, ids=["phone", "desktop"])
def test_the_talk_panel_fits_is_accessible_and_talks(app, page, viewport):
    base = app.config["BASE_URL"]
    game_id = helpers.riftforce_team(4)
    page.set_viewport_size(viewport)
    page.goto(f"{base}/p/{helpers.token(game_id, 1)}#talk")
    page.fill("#talk-text", "Good luck all! <b>not bold</b> http://evil.example " + "long" * 40)
    with page.expect_navigation():
        page.get_by_role("button", name="Send message").click()
    page.goto(f"{base}/p/{helpers.token(game_id, 0)}#talk")
    page.fill("#talk-text", "Partner: I hold the left.")
    page.get_by_label("Only your team").check()
    with page.expect_navigation():
        page.get_by_role("button", name="Send message").click()
    assert "Your message is at the table." in page.inner_text("main")
    talk = page.inner_text("main")  # (among the last moves, or in the panel before any move)
    assert "<b>not bold</b>" in talk and "Partner: I hold the left." in talk and "to your team" in talk
    assert page.locator("main a[href*='evil']").count() == 0
    looks.assert_fits(page)
    looks.assert_accessible(page)
    shot(page, "panel")
    with page.expect_navigation():
        page.get_by_role("button", name="Delete").click()
    assert "(deleted)" in page.inner_text("main")
    # The other team never sees it, and the spectators see the table's once it is opened.
    page.goto(f"{base}/p/{helpers.token(game_id, 0)}#talk")
    with page.expect_navigation():
        page.get_by_role("button", name="Let spectators read the table's talk now").click()
    page.goto(f"{base}/games/{game_id}")
    assert "Good luck all!" in page.inner_text("#talk")
    looks.assert_fits(page)
    looks.assert_accessible(page)
    shot(page, "spectator")


@pytest.mark.parametrize("viewport", WIDTHS, ids=["phone", "desktop"])
def test_tell_me_at_once_is_its_own_form_on_the_notifications_page(app, page, context, viewport):
    client = app.test_client()
    g.pop("signed_in", None)
    sign_in_as(client, "ann@example.org")
    cookie = client.get_cookie("session")
    context.add_cookies([{"name": "session", "value": cookie.value, "url": app.config["BASE_URL"]}])
    page.set_viewport_size(viewport)
    page.goto(app.config["BASE_URL"] + "/settings/notifications")
    page.get_by_label("Tell me at once").check()
    with page.expect_navigation():
        page.get_by_role("button", name="Update table talk emails").click()
    assert page.get_by_label("Tell me at once").is_checked()
    looks.assert_fits(page)
    looks.assert_accessible(page)
    shot(page, "settings", "#talk")
    with read_session(get_engine()) as session:
        assert session.get(TalkAtOnce, "ann@example.org") is not None


@pytest.mark.parametrize("viewport", WIDTHS, ids=["phone", "desktop"])
def test_talk_among_the_moves_and_in_the_history_fits_and_is_accessible(app, page, viewport):
    """A team game with moves and talk between them: a team message, a table message, a deleted one,
    a muted person's; the player page and the history page, each in time order, at both widths."""
    from service.store import write_session
    from service.store.models import TalkMute
    from service.talk import messages
    from tests.service.helpers import current, play_one

    def say(seat: int, words: str, channel: str = "all") -> int:
        with write_session(get_engine()) as session:
            return messages.post(session, session.merge(helpers.seat(game_id, seat)), words, channel=channel).id

    base = app.config["BASE_URL"]
    game_id = helpers.riftforce_team(4)
    say(1, "Good luck, all four of you!")
    play_one(game_id)
    say(0, "Partner: I hold the left lane, you take the right.", channel="team")
    play_one(game_id)
    taken_back = say(0, "oops, wrong game")
    say(3, "This one is from Dee, whom Ann muted.")
    play_one(game_id)
    say(1, "sorry, away until Monday\nback on Tuesday at the latest")
    play_one(game_id)
    with write_session(get_engine()) as session:
        from service.store.models import TalkMessage, utcnow

        row = session.get(TalkMessage, taken_back)
        row.deleted_at, row.text = utcnow(), ""
        session.add(TalkMute(person="ann@example.org", muted="dee@example.org"))
    page.set_viewport_size(viewport)
    page.goto(f"{base}/p/{helpers.token(game_id, 0)}")
    shown = page.inner_text("section:has(#recent-h)")
    assert shown.index("Partner: I hold") < shown.index("(deleted)") < shown.index("sorry, away until Monday")
    assert "whom Ann muted" not in page.inner_text("main") and "You muted Dee" in page.inner_text("#talk")
    looks.assert_fits(page)
    looks.assert_accessible(page)
    shot(page, "among-moves", "section:has(#recent-h)", "#talk")
    game, _ = current(game_id)
    page.goto(f"{base}/p/{helpers.token(game_id, 0)}/history?at=1&by=turn")
    assert "Good luck, all four of you!" in page.inner_text("#step-h + ol")
    page.goto(f"{base}/p/{helpers.token(game_id, 0)}/history")
    assert "sorry, away until Monday" in page.inner_text("main")
    looks.assert_fits(page)
    looks.assert_accessible(page)
    shot(page, "history", "section:has(#step-h)", "section:has(#since-h)")
