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


def shot(page, name: str) -> None:
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/talk-{name}-{page.viewport_size['width']}.png", full_page=True)


@pytest.mark.parametrize("viewport", WIDTHS, ids=["phone", "desktop"])
def test_the_talk_panel_fits_is_accessible_and_talks(app, page, viewport):
    base = app.config["BASE_URL"]
    game_id = helpers.riftforce_team(4)
    page.set_viewport_size(viewport)
    page.goto(f"{base}/p/{helpers.token(game_id, 1)}#talk")
    page.fill("#talk-text", "Good luck all! <b>not bold</b> http://evil.example " + "long" * 40)
    page.get_by_role("button", name="Send message").click()
    page.goto(f"{base}/p/{helpers.token(game_id, 0)}#talk")
    page.fill("#talk-text", "Partner: I hold the left.")
    page.get_by_label("Only your team").check()
    page.get_by_role("button", name="Send message").click()
    assert "Your message is at the table." in page.inner_text("main")
    talk = page.inner_text("#talk")
    assert "<b>not bold</b>" in talk and "Partner: I hold the left." in talk and "to your team" in talk
    assert page.locator("#talk a[href*='evil']").count() == 0
    looks.assert_fits(page)
    looks.assert_accessible(page)
    shot(page, "panel")
    page.get_by_role("button", name="Delete").click()
    assert "(deleted)" in page.inner_text("#talk")
    # The other team never sees it, and the spectators see the table's once it is opened.
    page.goto(f"{base}/p/{helpers.token(game_id, 0)}#talk")
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
    page.get_by_role("button", name="Update table talk emails").click()
    assert page.get_by_label("Tell me at once").is_checked()
    looks.assert_fits(page)
    looks.assert_accessible(page)
    shot(page, "settings")
    with read_session(get_engine()) as session:
        assert session.get(TalkAtOnce, "ann@example.org") is not None
