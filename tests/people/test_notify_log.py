"""The delivery log (issue #23 item 6) and the notification settings' pages and JSON twins: each status
and skip reason in words, only the signed-in person's rows, nothing hidden; settings validated, a game's
"none" the same switch as its RFC 8058 unsubscribe."""

from __future__ import annotations

import pytest
from flask import g
from sqlmodel import select

from service.mail import outbox
from service.people import access
from service.play import new_game
from service.store import get_engine, read_session, write_session
from service.store.models import NotifyGame, Outbox, Person, Player, utcnow
from tests.consent import preconsent
from tests.deadlines.helpers import T0, play_turn, rows, sweep, timed_game
from tests.people.helpers import send_csrf_header, sign_in_as
from tests.people.notify_helpers import ANN, ann_rows, page_token, seat, set_ann, settle
from tests.service import toygame
from tests.smtp import RefusingSink
from tests.web.pages import csrf_token


@pytest.fixture
def mailer(app, sink):
    app.config["SMTP_URL"] = sink.url
    return sink


def log_of(client, email=ANN) -> list[dict]:
    client = client.application.test_client()
    g.pop("signed_in", None)  # the tests' app context (and its `g`) outlives a request
    sign_in_as(client, email)
    answer = client.get("/api/me/deliveries")
    assert answer.status_code == 200
    return answer.get_json()["deliveries"]


def words(client, email=ANN) -> list[str]:
    return [row["words"] for row in log_of(client, email)]


def test_the_log_says_why_for_each_skip_reason(mailer, client):
    set_ann(mode="none")
    off = timed_game(hours=48, seed=1)
    settle([off])
    sweep(25)
    settle([off])
    set_ann(mode="until_visit")
    unvisited = timed_game(hours=48, seed=2)
    settle([unvisited])
    sweep(25)
    settle([unvisited])
    set_ann(mode="digest")
    folded = timed_game(hours=48, seed=3)
    play_turn(folded, 1)
    play_turn(folded, 2)
    settle([folded])
    shown = words(client)
    assert "skipped: turned off" in shown
    assert "skipped: until you visit the game" in shown
    assert "skipped: in your daily digest" in shown
    assert "sent" in shown

    set_ann(mode="every")
    access.set_never_email(ANN, True, utcnow())
    play_turn(off, 3)
    play_turn(off, 4)
    settle([off])
    assert words(client)[0] == "skipped: you asked never to be emailed"
    access.set_never_email(ANN, False, utcnow())

    with write_session(get_engine()) as session:
        person = session.get(Person, ANN)
        person.bounced_at, person.bounce_status = utcnow(), "5.1.1"
    play_turn(off, 5)
    play_turn(off, 6)
    settle([off])
    assert words(client)[0] == "skipped: your address bounced"


def test_the_log_says_not_yet_accepted_for_a_game_ann_has_not_accepted(mailer, client):
    preconsent("bob@example.org")
    new_game(toygame.NAME, [("Bob", "bob@example.org"), ("Ann", ANN)], {"target": 60}, seed=3, now=T0)
    shown = log_of(client)
    assert [row["kind"] for row in shown] == ["game started", "invitation"]
    assert shown[0]["status"] == "held" and "not yet accepted" in shown[0]["words"]


def test_the_log_says_retrying_until_and_failed_with_the_servers_answer_in_plain_words(app, client, tmp_path):
    app.config["SMTP_URL"] = "smtp://127.0.0.1:9"  # nothing listens: a transient failure
    game_id = timed_game(hours=48)
    assert settle([game_id])[0] == "retrying"
    [row] = log_of(client)
    assert row["status"] == "retrying"
    assert row["words"].startswith("retrying until ") and row["words"].endswith("our mail server could not be reached")
    assert row["attempts"] == 1

    refusing = RefusingSink(tmp_path / "refusing", {ANN})
    try:
        app.config["SMTP_URL"] = refusing.url
        with write_session(get_engine()) as session:
            session.get(Outbox, ann_rows(game_id, "turn")[0].id).next_attempt_at = utcnow()
        assert outbox.deliver(ann_rows(game_id, "turn")[0].id) == "failed"
    finally:
        refusing.stop()
    [row] = log_of(client)
    assert row == {**row, "status": "failed", "words": "failed: the mail server refused your address", "attempts": 2}
    assert "no such mailbox" not in str(row)  # never the server's own text


def test_the_log_shows_only_the_signed_in_persons_rows_and_nothing_hidden(mailer, client):
    game_id = timed_game(hours=48)
    play_turn(game_id, 1)
    sweep(27)
    settle([game_id])
    mine, bobs = log_of(client, ANN), log_of(client, "bob@example.org")
    with read_session(get_engine()) as session:
        ann_ids = {p.id for p in session.exec(select(Player).where(Player.address_key == ANN))}
    ann_count = sum(1 for row in rows(Outbox, game_id=game_id) if row.player_id in ann_ids)
    assert len(mine) == ann_count and len(bobs) == len(rows(Outbox, game_id=game_id)) - ann_count
    assert bobs and any(row["kind"] == "reminder" for row in bobs)
    assert not any(row["kind"] == "reminder" for row in mine)  # Bob's reminder is his alone
    for row in mine + bobs:
        assert set(row) == {"channel", "kind", "game", "queued", "sent", "attempts", "status", "words"}
        assert "@" not in str(row)
    g.pop("signed_in", None)
    sign_in_as(client, "bob@example.org")
    page = client.get("/settings/deliveries").get_data(as_text=True)
    assert "Reminder" in page and "ann@" not in page and "bob@" not in page


def test_the_log_and_settings_need_a_sign_in(client):
    for path in ("/settings/notifications", "/settings/deliveries", "/api/me/notifications", "/api/me/deliveries"):
        assert client.get(path).status_code == 401, path
    assert client.post("/api/me/notifications", json={"mode": "none"}).status_code == 401


def test_settings_change_through_the_page_and_say_so(client):
    game_id = timed_game(hours=48)
    sign_in_as(client, ANN)
    page = client.get("/settings/notifications").get_data(as_text=True)
    assert f"#{game_id}" in page and "Quiet hours" in page
    answer = client.post("/settings/notifications", data={
        "csrf_token": csrf_token(page), "mode": "digest", "digest_hour": "18", "quiet_start": "22", "quiet_end": "7",
        f"game-{game_id}": "until_visit"})
    assert answer.status_code == 303
    now = client.get("/api/me/notifications").get_json()
    assert now == {**now, "mode": "digest", "digest_hour": 18, "quiet_start": 22, "quiet_end": 7}
    assert now["games"] == [{"game_id": game_id, "title": now["games"][0]["title"], "mode": "until_visit"}]
    assert client.post("/settings/notifications", data={"mode": "digest"}).status_code == 400  # no CSRF token


def test_bad_settings_are_a_clear_4xx_and_change_nothing(client):
    sign_in_as(client, ANN)
    send_csrf_header(client)
    for body in ({"mode": "sometimes"}, {"digest_hour": 24}, {"digest_hour": "seven"}, {"quiet_start": 22},
                 {"games": {"99999": "none"}}, {"games": [1]}, {"digest_hour": True}):
        answer = client.post("/api/me/notifications", json=body)
        assert answer.status_code == 422, body
        assert answer.get_json()["message"]
    assert client.post("/api/me/notifications", data="mode=none").status_code == 415
    assert client.post("/api/me/notifications", data="[1]", content_type="application/json").status_code == 400
    assert client.get("/api/me/notifications").get_json()["mode"] == "every"


def test_another_persons_game_cannot_be_set_and_answers_as_a_game_that_does_not_exist(client):
    preconsent("cy@example.org", "di@example.org")
    theirs = new_game(toygame.NAME, [("Cy", "cy@example.org"), ("Di", "di@example.org")], {"target": 60}, seed=1)
    sign_in_as(client, ANN)
    send_csrf_header(client)
    strangers = client.post("/api/me/notifications", json={"games": {str(theirs): "none"}}).get_json()
    nobodys = client.post("/api/me/notifications", json={"games": {"99999": "none"}}).get_json()
    assert strangers["message"] == nobodys["message"] and "game" in nobodys["message"]
    assert all(p.turn_emails for p in rows(Player, game_id=theirs))


def test_a_games_none_is_its_turn_emails_switch_and_the_one_click_unsubscribe_still_works(client):
    game_id = timed_game(hours=48)
    sign_in_as(client, ANN)
    send_csrf_header(client)
    client.post("/api/me/notifications", json={"games": {str(game_id): "none"}})
    assert not seat(game_id, 0).turn_emails
    client.post("/api/me/notifications", json={"games": {str(game_id): "default"}})
    assert seat(game_id, 0).turn_emails
    from service import links
    ann = seat(game_id, 0)
    token = links.unsubscribe_token(ann.id, ann.row_key, ann.link_generation)
    answer = client.post(f"/u/{token}", data={"List-Unsubscribe": "One-Click"})
    assert answer.status_code == 200
    assert client.get("/api/me/notifications").get_json()["games"][0]["mode"] == "none"


def test_the_visit_beacon_needs_a_valid_link_and_a_get_records_nothing(client):
    game_id = timed_game(hours=48)
    token = page_token(game_id)
    assert client.get(f"/p/{token}").status_code == 200
    assert 'data-seen="/p/' in client.get(f"/p/{token}").get_data(as_text=True)
    assert rows(NotifyGame) == []
    assert client.post(f"/p/{token[:-3]}xyz/seen").status_code in (400, 404)
    assert client.post(f"/p/{token}/seen").status_code == 204
    [visit] = rows(NotifyGame)
    assert (visit.email, visit.game_id, visit.mode) == (ANN, game_id, None) and visit.visited_at is not None
