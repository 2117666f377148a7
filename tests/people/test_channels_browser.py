"""The channels page in a real browser (Debian's Chromium) at a 375 px phone and a 1280 px desktop: a
webhook added, tested against a receiver on loopback, a mistake shown, the feeds turned on; it fits the
width and axe finds nothing serious in any of these states."""

from __future__ import annotations

import os

import pytest

from service.people import channels
from tests.people.channels_receiver import Receiver
from tests.people.helpers import sign_in_as
from tests.web import looks
from tests.web.looks import WIDTHS

pytestmark = [pytest.mark.browser]
SHOTS = os.environ.get("RIFTPOST_SHOTS")  # a folder to keep the screenshots in


@pytest.fixture
def app(live):
    live.config["WEBHOOK_ALLOW_NETWORKS"] = ["127.0.0.0/8"]
    with live.app_context():
        yield live


@pytest.fixture
def receiver():
    server = Receiver()
    yield server
    server.stop()


def sign_in(app, page) -> None:
    """The browser gets the session cookie a real sign-in of Ann would give it."""
    client = app.test_client()
    sign_in_as(client, "ann@example.org")
    cookie = client.get_cookie("session")
    page.context.add_cookies([{"name": "session", "value": cookie.value, "url": app.config["BASE_URL"]}])


def looks_right(page, name: str) -> None:
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/channels-{name}-{page.viewport_size['width']}.png", full_page=True)
    looks.assert_fits(page)
    looks.assert_accessible(page)


@pytest.mark.parametrize("viewport", WIDTHS, ids=["phone", "desktop"])
def test_the_channels_page_adds_and_tests_a_webhook_and_gives_the_feeds(app, page, receiver, viewport):
    page.set_viewport_size(viewport)
    sign_in(app, page)
    page.goto(app.config["BASE_URL"] + "/settings/channels")
    assert page.get_by_role("heading", name="Channels", level=1).is_visible()
    looks_right(page, "empty")
    # A mistake: said above the field, what was typed kept.
    page.get_by_label("Webhook URL").fill("http://10.0.0.7/hook")
    page.get_by_label("Slack").check()
    with page.expect_navigation():
        page.get_by_role("button", name="Add the webhook").click()
    assert page.get_by_role("alert").inner_text().startswith("That URL points at a private address")
    assert page.get_by_label("Webhook URL").input_value() == "http://10.0.0.7/hook"
    assert page.get_by_label("Slack").is_checked()
    looks_right(page, "mistake")
    page.get_by_label("Webhook URL").fill(receiver.url)
    page.get_by_label("JSON, signed (for your own receiver)").check()
    with page.expect_navigation():
        page.get_by_role("button", name="Add the webhook").click()
    assert page.get_by_text("Webhook added.").is_visible()
    with page.expect_navigation():
        page.get_by_role("button", name="Send a test").click()
    assert page.get_by_text("The test went through: the webhook answered HTTP 204.").is_visible()
    page.get_by_text("Signing secret").click()
    (got,) = receiver.got
    with app.app_context():
        from service.store import get_engine, read_session
        with read_session(get_engine()) as session:
            (hook,) = channels.webhooks_of(session, "ann@example.org")
    assert got.signed_by(hook.secret) and page.get_by_text(hook.secret).is_visible()
    with page.expect_navigation():
        page.get_by_role("button", name="Give me the addresses").click()
    calendar = page.get_by_label("Calendar (iCalendar)").input_value()
    assert calendar.startswith(app.config["BASE_URL"] + "/feeds/") and calendar.endswith("/deadlines.ics")
    looks_right(page, "full")
    response = page.request.get(calendar)
    assert response.ok and response.headers["content-type"] == "text/calendar; charset=utf-8"
