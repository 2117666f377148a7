"""The "answers to my replies" setting: its own form on /settings/notifications (a POST of its own,
CSRF-checked, signed in), in a real browser at 375 and 1280 px with axe, and what it changes."""

from __future__ import annotations

import os

import pytest
from flask import g

from service.inbound import settings as reply_settings
from service.store import get_engine, read_session
from service.store.models import ReplySetting
from tests.people.helpers import sign_in_as
from tests.web import looks
from tests.web.looks import WIDTHS
from tests.web.pages import csrf_token

ANN = "ann@example.org"
SHOTS = os.environ.get("RIFTPOST_SHOTS")


def test_answers_to_replies_are_on_until_the_person_turns_them_off(app):
    assert reply_settings.confirmations(ANN)
    reply_settings.set_confirmations(ANN, False)
    assert not reply_settings.confirmations(ANN)
    reply_settings.set_confirmations(ANN, True)
    with read_session(get_engine()) as session:
        assert session.get(ReplySetting, ANN).confirmations


def test_the_form_needs_a_sign_in_a_csrf_token_and_on_or_off(app, client):
    assert client.post("/settings/notifications/replies", data={"confirmations": "off"}).status_code in (400, 403)
    sign_in_as(client, ANN)
    page = client.get("/settings/notifications")
    assert page.status_code == 200 and 'id="replies"' in page.text
    token = csrf_token(page.text)
    g.pop("csrf_token", None)
    assert client.post("/settings/notifications/replies", data={"confirmations": "off"}).status_code == 400  # no token
    bad = client.post("/settings/notifications/replies", data={"confirmations": "maybe", "csrf_token": token})
    assert bad.status_code == 400 and reply_settings.confirmations(ANN)
    done = client.post("/settings/notifications/replies", data={"confirmations": "off", "csrf_token": token})
    assert done.status_code == 303 and not reply_settings.confirmations(ANN)
    assert 'id="confirmations-off" checked' in client.get("/settings/notifications").text


@pytest.fixture
def live_app(live):
    with live.app_context():
        yield live


@pytest.mark.browser
@pytest.mark.parametrize("viewport", WIDTHS, ids=["phone", "desktop"])
def test_the_replies_form_fits_is_accessible_and_saves(live_app, context, page, viewport):
    client = live_app.test_client()
    g.pop("signed_in", None)
    sign_in_as(client, ANN)
    cookie = client.get_cookie("session")
    context.add_cookies([{"name": "session", "value": cookie.value, "url": live_app.config["BASE_URL"]}])
    page.set_viewport_size(viewport)
    page.goto(live_app.config["BASE_URL"] + "/settings/notifications")
    looks.assert_fits(page)
    looks.assert_accessible(page)
    page.get_by_label("No answers: I check my game pages").check()
    if SHOTS:
        page.locator("#replies").screenshot(path=f"{SHOTS}/replies-form-{viewport['width']}.png")
    with page.expect_navigation():
        page.get_by_role("button", name="Save answers to replies").click()
    assert "Your choice about answers to your replies is saved." in page.inner_text("main")
    assert page.locator("#confirmations-off").is_checked()
    assert not reply_settings.confirmations(ANN)
    looks.assert_fits(page)
