"""The bots' pages in Chromium at 375 and 1280 px with axe: the start form (the bot hint, the "a bot
plays" timeout policy) and the vote panel of a seat that missed two deadlines, which one click hands to a
bot once everyone agrees."""

from __future__ import annotations

import os

import pytest

from service.play import bots
from tests.consent import preconsent
from tests.deadlines.test_seat_handover import ANN, BOB, CY, DAN, Table
from tests.web.looks import PHONE, WIDTHS, assert_accessible, assert_fits
from tests.web.test_site_pages import assert_touch_targets

pytestmark = [pytest.mark.browser]
SHOTS = os.environ.get("RIFTPOST_SHOTS")  # a folder to keep the screenshots in


@pytest.mark.parametrize("viewport", WIDTHS, ids=["phone", "desktop"])
def test_the_start_form_shows_the_bot_hint_and_the_bot_policy(live, page, viewport):
    page.set_viewport_size(viewport)
    assert page.goto(live.config["BASE_URL"] + "/games/new/riftwalker").status == 200
    assert "in place of an email address to seat a bot" in page.locator("#bot-hint").inner_text()
    page.locator("details.advanced summary").click()
    page.locator("#policy").select_option("bot")
    assert_fits(page)
    assert_accessible(page)
    assert_touch_targets(page)
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/start-form-bot-policy-{viewport['width']}.png", full_page=True)


@pytest.mark.parametrize("viewport", WIDTHS, ids=["phone", "desktop"])
def test_the_vote_panel_fits_reads_and_hands_the_seat_to_a_bot(live, page, viewport):
    with live.app_context():
        preconsent(ANN[1], BOB[1], CY[1], DAN[1])
        table = Table([ANN, BOB, CY, DAN], dropped=1)
        table.until_timeouts(2)
        ann, cy, dan = table.token(0), table.token(2), table.token(3)
    base = live.config["BASE_URL"]
    page.set_viewport_size(viewport)
    page.goto(f"{base}/p/{dan}")
    page.get_by_role("button", name="Propose this person").scroll_into_view_if_needed()
    page.locator("#handover-address-1").fill("eve@example.org")
    with page.expect_navigation():
        page.get_by_role("button", name="Propose this person").click()
    page.goto(f"{base}/p/{cy}")
    panel = page.locator("section.handover")
    assert "Bob missed 2 deadlines" in panel.inner_text()
    assert_fits(page)
    assert_accessible(page)
    assert_touch_targets(page)
    if SHOTS:
        panel.screenshot(path=f"{SHOTS}/vote-panel-{viewport['width']}.png")
        page.screenshot(path=f"{SHOTS}/vote-page-{viewport['width']}.png", full_page=True)
    with page.expect_navigation():
        page.get_by_role("button", name="Give the seat to a bot (normal)").click()
    assert "Your vote is recorded" in page.content()
    page.goto(f"{base}/p/{ann}")
    with page.expect_navigation():
        page.get_by_role("button", name="Agree: a bot (normal)").click()
    page.goto(f"{base}/p/{dan}")
    with page.expect_navigation():
        page.get_by_role("button", name="Agree: a bot (normal)").click()
    assert "a bot (normal) plays that seat from now on" in page.content()
    with live.app_context():
        assert bots.level_of(table.seats()[1]) == "normal"
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/vote-done-{viewport['width']}.png")


def test_the_handover_emails_fit_a_phone(tmp_path, backend_url, sink, page):
    """The invitation to take the seat, the old holder's notice and the new holder's first email, opened
    in Chromium as a mail client shows them: they fit 375 px and axe finds nothing serious."""
    from datetime import timedelta

    import sqlalchemy as sa

    from service.play import handover
    from service.store import get_engine, read_session
    from service.store.models import Invitation
    from tests.conftest import app_on
    from tests.deadlines.helpers import T0
    from tests.deadlines.test_seat_handover import EVE, deliver_pending

    with app_on(tmp_path, backend_url, SMTP_URL=sink.url) as app:
        preconsent(ANN[1], BOB[1], CY[1])
        table = Table([ANN, BOB, CY], dropped=1)
        table.until_timeouts(2)
        client = app.test_client()
        from tests.deadlines.test_seat_handover import _invite_eve

        _invite_eve(client, table)
        deliver_pending()
        with read_session(get_engine()) as session:
            invitation = session.execute(sa.select(Invitation).where(Invitation.address == EVE)).scalar_one()
        handover.accept(invitation.id, T0 + timedelta(days=30))
        deliver_pending()
    mails = {m["X-Riftpost-Kind"]: m for m in sink.messages()}
    page.set_viewport_size(PHONE)
    for kind in ("seat_invitation", "seat_handed_over", "seat_taken"):
        page.set_content(mails[kind].get_body(("html",)).get_content(), wait_until="load")
        assert_fits(page)
        assert_accessible(page)
        if SHOTS:
            page.screenshot(path=f"{SHOTS}/email-{kind}-375.png", full_page=True)
