"""/settings/channels, its JSON twin /api/me/channels, and the feeds it gives out (service/web/channels.py):
only the signed-in person's own webhooks and games; a feed read back with `icalendar` and as Atom."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from datetime import timedelta

import icalendar
import pytest
from flask import g
from sqlmodel import select

from service import store
from service.people import vacations
from service.play import new_game
from service.store import get_engine, read_session
from service.store.models import FeedKey, Webhook
from tests.consent import preconsent
from tests.deadlines.helpers import T0, at
from tests.people.channels_receiver import Receiver
from tests.people.helpers import send_csrf_header, sign_in_as
from tests.service import toygame
from tests.web.pages import csrf_token, text

ANN, BOB, CY = "ann@example.org", "bob@example.org", "cy@example.org"
ATOM = "{http://www.w3.org/2005/Atom}"


@pytest.fixture
def receiver():
    server = Receiver()
    yield server
    server.stop()


@pytest.fixture(autouse=True)
def _one_person_per_request(app):
    """The `app` fixture keeps one app context pushed for the whole test, so every request of the test
    shares one `g`, where service/web/auth.py keeps who is signed in for the request: two people's
    clients in one test would see each other.  In the server each request has its own app context."""
    @app.before_request
    def forget() -> None:
        g.pop("signed_in", None)


def signed_in(app, email=ANN):
    client = app.test_client()
    sign_in_as(client, email)
    return client


def timed(players, hours=48):
    preconsent(*[email for _, email in players])
    return new_game(toygame.NAME, players, {"target": 60}, seed=7, deadline_hours=hours, policy="auto",
                    reminders=[24], now=T0)


def test_the_page_and_the_api_need_a_sign_in(client):
    assert client.get("/settings/channels").status_code == 401
    response = client.get("/api/me/channels")
    assert response.status_code == 401 and response.json["error"] == "Please sign in"


def test_a_webhook_added_on_the_page_is_listed_with_its_secret_and_a_test_reaches_the_receiver(app, receiver):
    app.config["WEBHOOK_ALLOW_NETWORKS"] = ["127.0.0.0/8"]
    client = signed_in(app)
    page = client.get("/settings/channels")
    assert page.status_code == 200 and page.headers["Cache-Control"] == "private, no-store"
    added = client.post("/settings/channels/webhooks",
                        data={"csrf_token": csrf_token(page.text), "url": receiver.url, "shape": "generic"})
    assert added.status_code == 303
    page = client.get("/settings/channels")
    with read_session(get_engine()) as session:
        (hook,) = session.exec(select(Webhook)).all()
    assert hook.person == ANN and hook.url == receiver.url and hook.secret in page.text
    tested = client.post(f"/settings/channels/webhooks/{hook.id}/test", data={"csrf_token": csrf_token(page.text)},
                         follow_redirects=True)
    assert "The test went through: the webhook answered HTTP 204." in text(tested)
    (got,) = receiver.got
    assert got.signed_by(hook.secret) and got.json["kind"] == "test" and got.json["game"] is None
    receiver.status = 410
    tested = client.post(f"/settings/channels/webhooks/{hook.id}/test", data={"csrf_token": csrf_token(page.text)},
                         follow_redirects=True)
    assert "The test did not go through: the webhook refused the message (HTTP 410)." in text(tested)


def test_a_bad_url_brings_the_form_back_with_the_reason_and_what_was_typed(app):
    client = signed_in(app)
    page = client.get("/settings/channels")
    response = client.post("/settings/channels/webhooks", data={
        "csrf_token": csrf_token(page.text), "url": "https://me:pw@hooks.example.org/x", "shape": "slack"})
    assert response.status_code == 422
    assert "Take the user name and password out of the URL" in text(response)
    assert 'value="https://me:pw@hooks.example.org/x"' in response.text
    assert 'value="slack" checked>' in response.text and response.text.count(" checked>") == 1
    assert client.post("/settings/channels/webhooks", data={"url": "https://hooks.example.org/x"}).status_code == 400


def test_the_api_adds_lists_and_removes_only_the_persons_own_webhooks(app):
    ann, bob = signed_in(app, ANN), signed_in(app, BOB)
    # With the session cookie as the proof, a change carries the page's CSRF token (auth.require_api_email).
    send_csrf_header(ann)
    send_csrf_header(bob)
    made = ann.post("/api/me/channels", json={"url": "https://hooks.example.org/ann", "shape": "discord"})
    assert made.status_code == 201 and made.json["shape"] == "discord" and len(made.json["secret"]) == 64
    assert ann.post("/api/me/channels", data="url=x").status_code == 415
    bad = ann.post("/api/me/channels", json={"url": "http://192.168.0.10/", "shape": "generic"})
    assert bad.status_code == 422 and "a private address" in bad.json["message"]
    assert ann.post("/api/me/channels", json={"url": "https://h.example.org/", "shape": "teams"}).status_code == 422
    assert [hook["url"] for hook in ann.get("/api/me/channels").json["webhooks"]] == ["https://hooks.example.org/ann"]
    assert bob.get("/api/me/channels").json == {"webhooks": [], "feeds": None}
    # Someone else's webhook is answered as one that does not exist.
    hook_id = made.json["id"]
    assert bob.delete(f"/api/me/channels/{hook_id}").status_code == 404
    assert bob.delete("/api/me/channels/99999").status_code == 404
    assert bob.post(f"/api/me/channels/{hook_id}/test").status_code == 404
    assert ann.delete(f"/api/me/channels/{hook_id}").status_code == 204
    assert ann.get("/api/me/channels").json["webhooks"] == []
    del ann.environ_base["HTTP_X_CSRFTOKEN"]
    assert ann.post("/api/me/channels", json={"url": "https://h.example.org/x"}).status_code == 403
    send_csrf_header(ann)
    for n in range(3):
        assert ann.post("/api/me/channels", json={"url": f"https://h.example.org/{n}"}).status_code == 201
    full = ann.post("/api/me/channels", json={"url": "https://h.example.org/4"})
    assert full.status_code == 422 and "remove one first" in full.json["message"]


def test_looking_at_the_page_changes_nothing(app):
    client = signed_in(app)
    assert "Give me the addresses" in client.get("/settings/channels").text
    with read_session(get_engine()) as session:
        assert session.exec(select(FeedKey)).all() == []


def feed_urls(client):
    page = client.get("/settings/channels")
    client.post("/settings/channels/feeds", data={"csrf_token": csrf_token(page.text), "action": "on"})
    feeds = client.get("/api/me/channels").json["feeds"]
    return feeds["calendar"].removeprefix("http://riftpost.test"), feeds["atom"].removeprefix("http://riftpost.test")


def events(response):
    cal = icalendar.Calendar.from_ical(response.data)
    return list(cal.walk("VEVENT"))


def test_the_calendar_has_one_event_per_own_pending_deadline_and_follows_it_when_it_moves(app):
    mine = timed([("Ann", ANN), ("Bob", BOB)])
    others = timed([("Bob", BOB), ("Cy", CY)])
    client = signed_in(app)
    calendar, _ = feed_urls(client)
    response = client.get(calendar)
    assert response.status_code == 200 and response.mimetype == "text/calendar"
    assert response.headers["Cache-Control"] == "private, max-age=300"
    (event,) = events(response)
    assert event["summary"] == f"Your move is due: Toy #{mine}"
    assert event.decoded("dtstart") == at(48)
    assert str(event["url"]).startswith("http://riftpost.test/p/")
    assert f"Toy #{others}" not in response.text and "bob@" not in response.text and "cy@" not in response.text
    uid, sequence = str(event["uid"]), int(event["sequence"])
    # A vacation stops the clock (no due time: no event), its end moves the deadline later.
    vacations.start_vacation(ANN, at(10))
    assert events(client.get(calendar)) == []
    vacations.end_vacation(ANN, at(13))
    (moved,) = events(client.get(calendar))
    assert str(moved["uid"]) == uid and int(moved["sequence"]) > sequence
    assert moved.decoded("dtstart") == at(51)


def test_the_atom_feed_lists_the_games_where_it_is_the_persons_move(app):
    mine = timed([("Ann", ANN), ("Bob", BOB)])
    waiting = timed([("Bob", BOB), ("Ann", ANN)])  # Bob moves first there
    client = signed_in(app)
    _, atom = feed_urls(client)
    response = client.get(atom)
    assert response.status_code == 200 and response.mimetype == "application/atom+xml"
    root = ET.fromstring(response.data)
    assert root.tag == f"{ATOM}feed"
    (entry,) = root.findall(f"{ATOM}entry")
    assert entry.findtext(f"{ATOM}title") == f"Your move: Toy #{mine}"
    assert entry.find(f"{ATOM}link").get("href").startswith("http://riftpost.test/p/")
    assert "due Wed 7 Jan 2026, 12:00 UTC" in entry.findtext(f"{ATOM}content")
    assert f"#{waiting}" not in response.text
    first_id = entry.findtext(f"{ATOM}id")
    assert first_id == ET.fromstring(client.get(atom).data).find(f"{ATOM}entry").findtext(f"{ATOM}id")  # stable


def test_new_addresses_end_the_old_ones_and_a_feed_never_carries_a_session(app):
    timed([("Ann", ANN), ("Bob", BOB)])
    client = signed_in(app)
    calendar, atom = feed_urls(client)
    # Fetched by a browser that is signed in: no cookie comes back, set or refreshed.
    for url in (calendar, atom):
        response = client.get(url)
        assert response.status_code == 200 and "Set-Cookie" not in response.headers
        assert "Cookie" not in response.headers.get("Vary", "")
    page = client.get("/settings/channels")
    client.post("/settings/channels/feeds", data={"csrf_token": csrf_token(page.text), "action": "rotate"})
    new_calendar, _ = (url.removeprefix("http://riftpost.test") for url in client.get("/api/me/channels").json["feeds"].values())
    assert new_calendar != calendar
    stale = client.get(calendar)
    assert stale.status_code == 404 and "Set-Cookie" not in stale.headers
    assert client.get(atom).status_code == 404
    assert client.get(new_calendar).status_code == 200
    # A forged MAC, a made-up id: the same 404.
    feed_id = new_calendar.split("/")[2].split("-")[0]
    assert client.get(f"/feeds/{feed_id}-{'0' * 32}/deadlines.ics").status_code == 404
    assert client.get("/feeds/nothing/deadlines.ics").status_code == 404
    send_csrf_header(client)
    off = client.post("/api/me/channels/feeds", json={"action": "off"})
    assert off.status_code == 200 and off.json is None
    assert client.get(new_calendar).status_code == 404
    assert client.post("/api/me/channels/feeds", json={"action": "sideways"}).status_code == 400


def test_a_feed_survives_a_secret_key_rotation(app):
    timed([("Ann", ANN), ("Bob", BOB)])
    client = signed_in(app)
    calendar, _ = feed_urls(client)
    app.config["SECRET_KEY_FALLBACKS"] = [app.config["SECRET_KEY"]]
    app.config["SECRET_KEY"] = "a newer key"
    assert client.get(calendar).status_code == 200


def test_a_finished_game_leaves_the_feeds(app):
    game_id = timed([("Ann", ANN), ("Bob", BOB)])
    client = signed_in(app)
    calendar, atom = feed_urls(client)
    from tests.service.helpers import play_to_end
    play_to_end(game_id)
    with read_session(get_engine()) as session:
        assert store.get_game(session, game_id).status == "finished"
    assert events(client.get(calendar)) == []
    assert ET.fromstring(client.get(atom).data).findall(f"{ATOM}entry") == []


def test_deadline_feed_times_are_utc(app):
    timed([("Ann", ANN), ("Bob", BOB)])
    client = signed_in(app)
    calendar, _ = feed_urls(client)
    (event,) = events(client.get(calendar))
    assert event.decoded("dtstart").utcoffset() == timedelta(0)
