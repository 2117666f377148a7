"""The sign-in pages and the settings in a real browser (Debian's Chromium), at 375 and 1280 px: they
fit, axe finds nothing serious, and the flow works with the keyboard's forms as a person uses them.
RIFTPOST_SHOTS=<folder> keeps the screenshots."""

from __future__ import annotations

import os

import pytest
import sqlalchemy as sa

from service import links
from service.play import new_game
from service.store import get_engine, read_session
from service.store.models import SigninRequest
from tests.service import toygame
from tests.web import looks

pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("everyone_played_before")]
SHOTS = os.environ.get("RIFTPOST_SHOTS")


def check(page, name: str) -> None:
    for size in looks.WIDTHS:
        page.set_viewport_size(size)
        looks.assert_fits(page)
        looks.assert_accessible(page)
        if SHOTS:
            page.screenshot(path=f"{SHOTS}/signin-{name}-{size['width']}.png", full_page=True)


def newest_link(app) -> str:
    with app.app_context(), read_session(get_engine()) as session:
        request = session.execute(sa.select(SigninRequest).order_by(SigninRequest.id.desc())).scalars().first()
        return f"/signin/{links.signin_token(request.id, request.nonce)}"


def test_signing_in_from_the_start_page_and_the_settings_at_both_widths(live, page):
    base = live.config["BASE_URL"]
    with live.app_context():
        new_game(toygame.NAME, [("Ann", "ann@example.org"), ("Bob", "bob@example.org")], seed=4)
    page.goto(base + "/")
    page.get_by_label("Your email address").fill("ann@example.org")
    check(page, "start")
    with page.expect_navigation():
        page.get_by_role("button", name="Email me a sign-in link").click()
    assert page.get_by_text("If this address has played here, we sent it a sign-in link").is_visible()
    check(page, "sent")

    page.goto(base + newest_link(live))
    assert page.get_by_role("heading", level=1).inner_text() == "Sign in to Riftpost"
    check(page, "link")
    with page.expect_navigation():
        page.get_by_role("button", name="Sign in").click()
    assert page.url == base + "/settings"
    assert page.get_by_text("You are signed in as ann@example.org.").is_visible()
    page.get_by_label("Name of a new token").fill("my bot")
    with page.expect_navigation():
        page.get_by_role("button", name="Make a token").click()
    assert page.get_by_role("textbox", name="Token", exact=True).input_value().startswith("rpt_")
    check(page, "settings")

    with page.expect_navigation():
        page.get_by_role("button", name="Sign out everywhere").click()
    page.goto(base + "/settings")
    assert page.get_by_role("heading", level=1).inner_text() == "Sign in"
    check(page, "needed")
