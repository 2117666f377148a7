"""The notification settings and the delivery log in a real browser (Debian's Chromium) at a 375 px
phone and a 1280 px desktop: they fit, axe finds nothing serious, the form saves; and the player page's
script sends the visit beacon ("until I visit")."""

from __future__ import annotations

import os

import pytest
from flask import g

from service.store import get_engine, read_session
from service.store.models import NotifyGame
from tests.deadlines.helpers import rows, timed_game
from tests.people.helpers import sign_in_as
from tests.people.notify_helpers import ANN, page_token, set_ann, settle
from tests.web import looks
from tests.web.looks import WIDTHS

pytestmark = [pytest.mark.browser]
SHOTS = os.environ.get("RIFTPOST_SHOTS")


@pytest.fixture
def app(live):
    with live.app_context():
        yield live


@pytest.fixture
def signed_in(app, context):
    """The browser signed in as Ann: the cookie a real sign-in writes, from a test client."""
    client = app.test_client()
    g.pop("signed_in", None)
    sign_in_as(client, ANN)
    cookie = client.get_cookie("session")
    context.add_cookies([{"name": "session", "value": cookie.value, "url": app.config["BASE_URL"]}])
    return app.config["BASE_URL"]


def shot(page, name: str) -> None:
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/notify-{name}-{page.viewport_size['width']}.png", full_page=True)


@pytest.mark.parametrize("viewport", WIDTHS, ids=["phone", "desktop"])
def test_the_notifications_page_fits_is_accessible_and_saves(app, signed_in, page, viewport):
    games = [timed_game(hours=48, seed=n) for n in range(2)]
    page.set_viewport_size(viewport)
    page.goto(signed_in + "/settings/notifications")
    looks.assert_fits(page)
    looks.assert_accessible(page)
    page.get_by_label("A daily digest at my chosen hour").check()
    page.select_option("#digest-hour", "18")
    page.select_option("#quiet-start", "22")
    page.select_option("#quiet-end", "7")
    page.select_option(f"#game-{games[0]}", "none")
    shot(page, "settings")
    with page.expect_navigation():
        page.get_by_role("button", name="Save", exact=True).click()  # (the page has a second form: replies)
    assert "Your notification settings are saved." in page.inner_text("main")
    assert page.locator("#mode-digest").is_checked() and page.input_value("#quiet-start") == "22"
    assert page.input_value(f"#game-{games[0]}") == "none"
    looks.assert_fits(page)


@pytest.mark.parametrize("viewport", WIDTHS, ids=["phone", "desktop"])
def test_the_delivery_log_fits_is_accessible_and_says_why(app, signed_in, page, viewport, sink):
    app.config["SMTP_URL"] = sink.url
    set_ann(mode="none")
    game_id = timed_game(hours=48)
    settle([game_id])
    from tests.deadlines.helpers import sweep
    sweep(25)
    settle([game_id])
    page.set_viewport_size(viewport)
    page.goto(signed_in + "/settings/deliveries")
    text = page.inner_text("main")
    assert "Skipped: turned off" in text and "Sent" in text
    shot(page, "deliveries")
    looks.assert_fits(page)
    looks.assert_accessible(page)


def test_opening_the_player_page_sends_the_visit_beacon(app, page):
    game_id = timed_game(hours=48)
    page.goto(app.config["BASE_URL"] + f"/p/{page_token(game_id)}")
    page.wait_for_load_state("networkidle")
    with read_session(get_engine()) as session:
        visit = session.get(NotifyGame, (ANN, game_id))
    assert visit is not None and visit.visited_at is not None
    assert rows(NotifyGame, game_id=game_id)
