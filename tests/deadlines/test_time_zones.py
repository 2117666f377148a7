"""The time zone a person reads times in (issue #22, item 4): a short list of the zones near theirs and
a field for any other instead of every zone in one <select>; a zone never chosen is taken from the
browser once (the script's POST, tests/web/test_time_zone_browser.py drives it in a real browser) and
never overwrites a choice; the emails sent after use the zone.  The routes, as the page's forms and
script call them."""

from __future__ import annotations

import re

import pytest

from service import links
from service.mail import outbox
from service.people import identity
from service.store.models import Deadline, Outbox, Person, Player, as_utc
from service.views import zones
from service.views.times import local_time
from tests.deadlines.helpers import at, play_turn, rows, timed_game
from tests.people.helpers import sign_in_as
from tests.web.pages import csrf_token, text

SECTION = re.compile(r'<div id="time-zone".*?</div>', re.S)


@pytest.fixture
def game_id(app):
    return timed_game(hours=48)


def page_url(game_id: int, seat: int) -> str:
    player = [p for p in rows(Player, game_id=game_id) if p.seat == seat][0]
    return f"/p/{links.player_token(player.id, player.row_key)}"


def person(email: str) -> Person | None:
    found = rows(Person, email=email)
    return found[0] if found else None


def zone_section(page: str) -> str:
    match = SECTION.search(page)
    assert match, "the page has no time zone section"
    return match.group(0)


def options(page: str) -> list[str]:
    return re.findall(r'<option value="([^"]+)"', zone_section(page))


def test_the_page_lists_the_zones_near_the_persons_not_all_554(client, game_id):
    """The old <select> of every zone was 17,752 of the player page's 27,691 bytes."""
    url = page_url(game_id, 0)
    page = text(client.get(url))
    world = options(page)  # no zone chosen: UTC, which has no region
    assert len(world) <= zones.SHORT and "UTC" in world and "Asia/Taipei" in world and "Europe/Paris" in world
    assert len(zone_section(page).encode()) < 6000
    assert 'list="time-zone-names"' in page and '<datalist id="time-zone-names"></datalist>' in page
    identity.set_time_zone("ann@example.org", "Europe/Kyiv", at(0))
    page = text(client.get(url))
    near = options(page)
    assert len(near) <= zones.SHORT and '<option value="Europe/Kyiv" selected>' in page
    assert {"Europe/Warsaw", "Europe/Helsinki", "Europe/Moscow", "UTC"} <= set(near)
    assert not [name for name in near if not name.startswith("Europe/") and name != "UTC"]
    assert "Times here and in your emails are in <strong>Europe/Kyiv</strong>." in page


def test_any_zone_is_typed_by_its_name_or_its_city(client, game_id):
    url = page_url(game_id, 0)
    token = csrf_token(text(client.get(url)))
    for typed, meant in (("taipei", "Asia/Taipei"), ("New York", "America/New_York"), ("asia/tokyo", "Asia/Tokyo"),
                         ("Europe/Kyiv", "Europe/Kyiv")):
        answer = client.post(f"{url}/time-zone", data={"csrf_token": token, "time_zone": typed})
        assert answer.status_code == 303, typed
        assert person("ann@example.org").time_zone == meant
        assert f"Times are now shown in {meant}." in text(client.get(url))
    assert person("ann@example.org").time_zone_set_at is not None


@pytest.mark.parametrize(("typed", "words"), [
    ("Pariss", "'Pariss' is not a time zone we know. Type a zone's name (Europe/Paris) or its city (Paris): "
               "did you mean Europe/Paris?"),
    ("Mars/Olympus", "'Mars/Olympus' is not a time zone we know. Type a zone's name (Europe/Paris) or its city (Paris)."),
    ("", "'' is not a time zone we know."),
])
def test_an_unknown_zone_is_a_400_that_says_what_to_type(client, game_id, typed, words):
    url = page_url(game_id, 0)
    token = csrf_token(text(client.get(url)))
    answer = client.post(f"{url}/time-zone", data={"csrf_token": token, "time_zone": typed})
    assert answer.status_code == 400 and words in text(answer).replace("&#39;", "'")
    assert f'<a href="{url}#time-zone">Back to the time zone</a>' in text(answer)
    assert person("ann@example.org").time_zone_set_at is None  # consent's row, untouched


def test_the_browsers_zone_is_taken_only_while_none_was_chosen(client, game_id):
    """The page's script POSTs `first_visit=browser`: it sets the zone of a person who never chose one
    (answered in JSON), and a second device's or tab's later try changes nothing (409)."""
    url = page_url(game_id, 0)
    people_before = rows(Person)
    page = text(client.get(url))
    assert 'data-chosen="no"' in page and rows(Person) == people_before  # a GET changes nothing
    token = csrf_token(page)
    first = client.post(f"{url}/time-zone", data={"csrf_token": token, "time_zone": "Asia/Taipei",
                                                   "first_visit": "browser"})
    assert first.status_code == 200 and first.get_json() == {"time_zone": "Asia/Taipei", "changed": True}
    assert person("ann@example.org").time_zone == "Asia/Taipei"
    again = client.post(f"{url}/time-zone", data={"csrf_token": token, "time_zone": "Europe/Paris",
                                                   "first_visit": "browser"})
    assert again.status_code == 409 and again.get_json()["changed"] is False
    assert person("ann@example.org").time_zone == "Asia/Taipei"
    page = text(client.get(url))
    assert 'data-chosen="yes"' in page and "Wed 7 Jan 2026, 20:00 CST" in page  # noon UTC, in Taipei
    assert "Times are now shown" not in page  # the script says it on the page, not a flashed message
    assert client.post(f"{url}/time-zone", data={"time_zone": "Asia/Taipei", "first_visit": "browser"}
                       ).status_code == 400  # no CSRF token


def test_the_zone_names_for_the_fields_suggestions(client):
    answer = client.get("/time-zones")
    assert answer.status_code == 200 and answer.get_json() == list(zones.names())
    assert len(answer.get_json()) > 500 and "Asia/Taipei" in answer.get_json()
    assert "max-age=86400" in answer.headers["Cache-Control"]


def test_the_settings_offer_the_same_short_list_and_field(client, game_id):
    sign_in_as(client, "ann@example.org")
    account = "/settings"
    page = text(client.get(account))
    assert len(options(page)) <= zones.SHORT and 'id="time_zone_name"' in page
    token = csrf_token(page)
    assert client.post(f"{account}/time-zone", data={"csrf_token": token, "time_zone": "kyiv"}).status_code == 303
    assert person("ann@example.org").time_zone == "Europe/Kyiv"
    bad = client.post(f"{account}/time-zone", data={"csrf_token": token, "time_zone": "Atlantis"})
    assert bad.status_code == 400 and "not a time zone we know" in text(bad)


def test_an_email_sent_after_the_browser_set_the_zone_states_the_deadline_in_it(app, client, sink, game_id):
    """Through the real SMTP path: Bob's page took his browser's zone; Ann's turn then gives him the
    turn, and his email's deadline is in Taipei."""
    app.config["SMTP_URL"] = sink.url
    bob = page_url(game_id, 1)
    token = csrf_token(text(client.get(bob)))
    assert client.post(f"{bob}/time-zone", data={"csrf_token": token, "time_zone": "Asia/Taipei",
                                                 "first_visit": "browser"}).status_code == 200
    sent = len(sink.messages())
    play_turn(game_id, 1)
    due = [as_utc(row.due_at) for row in rows(Deadline, game_id=game_id) if row.seat == 1][0]
    for row in rows(Outbox, game_id=game_id):
        if row.status == "pending":
            outbox.deliver(row.id)
    mail = [m for m in sink.wait_for(sent + 1)[sent:] if m["To"].addresses[0].addr_spec == "bob@example.org"][-1]
    body = mail.get_body(("plain",)).get_content()
    assert local_time(due, "Asia/Taipei") == "Wed 7 Jan 2026, 21:00 CST" and local_time(due, "Asia/Taipei") in body
    assert "Times are in Asia/Taipei" in body
    assert "21:00 CST" in mail.get_body(("html",)).get_content()
