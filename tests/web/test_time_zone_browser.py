"""The player page's time zone in a real browser (Debian's Chromium) set to Taipei, at a 375 px phone
and a 1280 px desktop (issue #22, item 4): a first visit takes the browser's zone and the page then
shows its times in it; a person who chose a zone keeps it and is offered the device's with one
button; without JavaScript the short list and the typed zone work.  Each fits, and axe (which needs
scripts) finds nothing serious on the pages with JavaScript."""

from __future__ import annotations

import os

import pytest

from service import links, store
from service.people import identity
from service.play import new_game
from service.store import get_engine, read_session
from service.store.models import Person
from service.views import zones
from service.views.times import local_time
from tests.consent import preconsent
from tests.deadlines.helpers import PLAYERS, T0, at
from tests.service import toygame
from tests.web import looks
from tests.web.looks import WIDTHS

# Chromium and its launch settings: tests/conftest.py.
pytestmark = [pytest.mark.browser]

DEVICE = "Asia/Taipei"
SHOTS = os.environ.get("RIFTPOST_SHOTS")  # a folder to keep the screenshots in
DUE = at(48)  # a 48-hour turn from Monday noon UTC


@pytest.fixture
def browser_context_args(browser_context_args):
    return {**browser_context_args, "timezone_id": DEVICE}


@pytest.fixture
def app(live):
    with live.app_context():
        yield live


@pytest.fixture
def ann_url(app):
    preconsent(*[email for _, email in PLAYERS])
    game_id = new_game(toygame.NAME, list(PLAYERS), {"target": 60}, seed=7, deadline_hours=48, policy="auto",
                       reminders=[24, 2], now=T0)
    with read_session(get_engine()) as session:
        ann = store.players_of(session, game_id)[0]
    return app.config["BASE_URL"] + f"/p/{links.player_token(ann.id, ann.row_key)}"


def ann() -> Person:
    with read_session(get_engine()) as session:
        found = session.get(Person, "ann@example.org")
    assert found is not None
    return found


def shot(page, name: str) -> None:
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/tz-{name}-{page.viewport_size['width']}.png", full_page=True)
        section = page.locator("section:has(#time-zone)")
        if section.count():  # the part to look at, readable at a phone's width
            section.screenshot(path=f"{SHOTS}/tz-{name}-{page.viewport_size['width']}-time.png")


def zone_options(page) -> list[str]:
    return page.locator("#time_zone option").evaluate_all("options => options.map(o => o.value)")


def looks_right(page) -> None:
    looks.assert_fits(page)
    looks.assert_accessible(page)


@pytest.mark.parametrize("viewport", WIDTHS, ids=["phone", "desktop"])
def test_a_first_visit_takes_the_browsers_zone_and_the_page_shows_its_times_in_it(app, page, ann_url, viewport):
    assert ann().time_zone_set_at is None  # UTC, never chosen
    page.set_viewport_size(viewport)
    page.goto(ann_url)
    note = page.locator(".tz-note")
    note.wait_for()
    assert note.inner_text() == f"Times are shown in {DEVICE} (from your browser). Change"
    assert note.get_by_role("link", name="Change").get_attribute("href") == "#time-zone"
    assert ann().time_zone == DEVICE and ann().time_zone_set_at is not None
    # The page's times, refreshed in place: the deadline in Taipei, not in UTC.
    due = page.locator('[data-time="due"]')
    assert due.inner_text() == local_time(DUE, DEVICE) == "Wed 7 Jan 2026, 20:00 CST"
    section = page.locator("#time-zone")
    assert f"are in {DEVICE}." in section.locator(".tz-shown").inner_text()
    assert page.locator("#time_zone").input_value() == DEVICE
    near = zone_options(page)  # now the zones of Asia near Taipei's time, and UTC
    assert DEVICE in near and "Asia/Tokyo" in near and len(near) <= zones.SHORT
    assert all(name.startswith("Asia/") or name == "UTC" for name in near)
    assert section.locator("form.tz-device").is_hidden()  # the device's zone is the zone: nothing to offer
    shot(page, "first-visit")
    looks_right(page)
    page.reload()  # once chosen, taken once: no note and no POST again
    assert page.locator('[data-time="due"]').inner_text() == "Wed 7 Jan 2026, 20:00 CST"
    page.wait_for_load_state("networkidle")
    assert page.locator(".tz-note").count() == 0


@pytest.mark.parametrize("viewport", WIDTHS, ids=["phone", "desktop"])
def test_a_chosen_zone_is_kept_and_the_devices_zone_offered_with_one_button(app, page, ann_url, viewport):
    identity.set_time_zone("ann@example.org", "Europe/Paris", at(0))
    chosen_at = ann().time_zone_set_at
    page.set_viewport_size(viewport)
    page.goto(ann_url)
    offer = page.get_by_role("button", name=f"Use {DEVICE} (this device's zone)")
    offer.wait_for()
    page.wait_for_load_state("networkidle")
    assert ann().time_zone == "Europe/Paris" and ann().time_zone_set_at == chosen_at  # nothing changed silently
    assert page.locator('[data-time="due"]').inner_text() == "Wed 7 Jan 2026, 13:00 CET"
    assert page.locator(".tz-note").count() == 0
    # The field's suggestions: every zone, fetched when the field is first used.
    page.locator("#time_zone_name").focus()
    page.wait_for_function("() => document.querySelectorAll('#time-zone-names option').length > 500")
    assert page.locator("#time-zone-names option").count() == len(zones.names())
    page.keyboard.press("Escape")  # the suggestions' pop-up closed, as a person's next click would
    page.locator("#time_zone_name").blur()
    shot(page, "offer")
    looks_right(page)
    with page.expect_navigation():
        offer.click()
    assert page.get_by_text(f"Times are now shown in {DEVICE}.").is_visible()
    assert page.locator('[data-time="due"]').inner_text() == "Wed 7 Jan 2026, 20:00 CST"
    assert ann().time_zone == DEVICE and ann().time_zone_set_at > chosen_at
    assert page.locator("form.tz-device").is_hidden()


@pytest.mark.parametrize("viewport", WIDTHS, ids=["phone", "desktop"])
def test_without_javascript_the_short_list_and_a_typed_zone_work(app, browser, ann_url, viewport):
    context = browser.new_context(java_script_enabled=False, timezone_id=DEVICE, viewport=viewport)
    page = context.new_page()
    try:
        page.goto(ann_url)
        assert ann().time_zone_set_at is None  # nothing is taken without the script
        assert page.locator(".tz-shown").inner_text() == (
            "Times here and in your emails are in UTC (you have not chosen a time zone yet).")
        world = zone_options(page)
        assert len(world) <= zones.SHORT and DEVICE in world and page.locator("#time_zone").input_value() == "UTC"
        shot(page, "no-js")
        looks.assert_fits(page)  # axe needs scripts: the same page is checked with them above
        # A zone typed by its city.
        page.locator("#time_zone_name").fill("taipei")
        with page.expect_navigation():
            page.get_by_role("button", name="Use this zone").click()
        assert page.get_by_text(f"Times are now shown in {DEVICE}.").is_visible()
        assert page.locator('[data-time="due"]').inner_text() == "Wed 7 Jan 2026, 20:00 CST"
        # One from the short list, now of Asia's zones.
        page.locator("#time_zone").select_option("Asia/Tokyo")
        with page.expect_navigation():
            page.get_by_role("button", name="Save").click()
        assert ann().time_zone == "Asia/Tokyo"
        assert page.locator('[data-time="due"]').inner_text() == "Wed 7 Jan 2026, 21:00 JST"
        # An unknown name: a 400 that says what to type.
        page.locator("#time_zone_name").fill("Tokio")
        with page.expect_navigation():
            page.get_by_role("button", name="Use this zone").click()
        assert "did you mean Asia/Tokyo?" in page.locator("main").inner_text()
        assert ann().time_zone == "Asia/Tokyo"
        shot(page, "no-js-unknown")
        looks.assert_fits(page)
        with page.expect_navigation():
            page.get_by_role("link", name="Back to the time zone").click()
        assert page.locator("#time_zone").input_value() == "Asia/Tokyo"
    finally:
        context.close()

