"""Notifications my way (issue #23 item 4): each mode and quiet hours with the deadline sweep, through
the real outbox delivery and a real SMTP server (the aiosmtpd sink); the decision is the outbox's, at
delivery (service/mail/notify_policy.py)."""

from __future__ import annotations

import pytest

from service.mail import outbox
from service.people import digests
from service.store.models import Outbox, utcnow
from tests.deadlines.helpers import at, play_turn, rows, sweep, timed_game
from tests.people.helpers import sign_in_as
from tests.people.notify_helpers import (
    ANN,
    ann_rows,
    page_token,
    quiet_around_now,
    seat,
    set_ann,
    settle,
)


@pytest.fixture
def mailer(app, sink):
    app.config["SMTP_URL"] = sink.url
    return sink


def to_ann(messages, kind=None):
    return [m for m in messages if m["To"].addresses[0].addr_spec == ANN and (kind is None or m["X-Riftpost-Kind"] == kind)]


def started(mailer, game_id: int):
    """The game's first emails delivered (Ann's is her first turn: it always goes)."""
    settle([game_id])
    [first] = ann_rows(game_id, "turn")
    assert first.status == "sent"
    return first


def test_every_turn_is_todays_mode_and_sends_each_reminder(mailer):
    game_id = timed_game(hours=48)
    started(mailer, game_id)
    sweep(25)
    settle([game_id])
    [reminder] = ann_rows(game_id, "reminder")
    assert reminder.status == "sent"
    assert len(to_ann(mailer.wait_for(3), "reminder")) == 1


def test_none_skips_all_but_the_last_reminder_before_the_deadline(mailer):
    set_ann(mode="none")
    game_id = timed_game(hours=48)
    started(mailer, game_id)  # the game's first email is its invitation: never held or skipped
    sweep(25)
    settle([game_id])
    [early] = ann_rows(game_id, "reminder")
    assert (early.status, early.skip_reason) == ("skipped", "turned_off")
    sweep(47)
    settle([game_id])
    last = [row for row in ann_rows(game_id, "reminder") if row.params["hours"] == 2]
    assert [row.status for row in last] == ["sent"]
    reminders = to_ann(mailer.wait_for(3), "reminder")
    assert len(reminders) == 1 and "(in about 2 hours)" in reminders[0].get_body(("plain",)).get_content()


def test_until_visit_sends_one_email_then_nothing_until_the_page_is_opened(mailer, client):
    set_ann(mode="until_visit")
    game_id = timed_game(hours=48)
    started(mailer, game_id)
    sweep(25)
    settle([game_id])
    [unvisited] = ann_rows(game_id, "reminder")
    assert (unvisited.status, unvisited.skip_reason) == ("skipped", "until_visit")

    other = timed_game(hours=48, seed=8)
    started(mailer, other)
    # Opening the page records nothing (a GET never changes state); its beacon does.
    assert client.get(f"/p/{page_token(other)}").status_code == 200
    assert client.post(f"/p/{page_token(other)}/seen").status_code == 204
    sweep(25)
    settle([other])
    [visited] = ann_rows(other, "reminder")
    assert visited.status == "sent"


def test_until_visit_counts_a_move_as_a_visit(mailer):
    set_ann(mode="until_visit")
    game_id = timed_game(hours=48)
    started(mailer, game_id)
    play_turn(game_id, 1)  # Ann moves: her turn email is behind her
    play_turn(game_id, 2)  # Bob moves: Ann's turn again
    settle([game_id])
    turns = ann_rows(game_id, "turn")
    assert [row.status for row in turns] == ["sent", "sent"]
    sweep(27)  # 24 h before her new deadline: one email already told her of this turn
    settle([game_id])
    [reminder] = ann_rows(game_id, "reminder")
    assert reminder.skip_reason == "until_visit"


def test_a_digest_sends_one_email_for_three_games_awaiting_once_a_day(mailer, app):
    now = utcnow()
    set_ann(mode="digest", digest_hour=now.hour)  # Ann's zone is UTC
    games = [timed_game(hours=48, seed=n) for n in range(3)]
    settle(games)
    for game_id in games:
        play_turn(game_id, 1)
        play_turn(game_id, 2)  # Bob played: Ann's turn, folded into the digest
    settle(games)
    for game_id in games:
        later = ann_rows(game_id, "turn")[-1]
        assert (later.status, later.skip_reason) == ("skipped", "digest")

    written = digests.queue_due(now)
    assert len(written) == 1
    assert digests.queue_due(now) == [] and digests.queue_due(now.replace(minute=59)) == []  # once a day
    assert outbox.deliver(written[0]) == "sent"
    [digest] = to_ann(mailer.wait_for(4), "digest")
    plain = digest.get_body(("plain",)).get_content()
    assert digest["Subject"] == "Your Riftpost digest: 3 games to play"
    assert plain.startswith("3 games await your move.")
    for game_id in games:
        assert f"#{game_id}: Ann vs Bob" in plain
    assert plain.count("Your choices") == 3 and plain.count("?step=") >= 3  # each game's first-step links
    assert plain.count("due ") >= 3  # each game's deadline, in her zone

    # Reminders before a deadline still come on their own.
    sweep(27)
    settle(games)
    assert [row.status for game_id in games for row in ann_rows(game_id, "reminder")] == ["sent"] * 3


def test_an_empty_digest_sends_nothing(mailer):
    now = utcnow()
    set_ann(mode="digest", digest_hour=now.hour)
    game_id = timed_game(hours=48)
    play_turn(game_id, 1)  # Ann played: nothing awaits her
    assert digests.queue_due(now) == []
    assert not [row for row in rows(Outbox, game_id=game_id) if row.kind == "digest"]


def test_a_digest_is_due_only_from_the_chosen_local_hour(app):
    from service.store.models import Person
    from tests.deadlines.helpers import T0
    person = Person(email=ANN, time_zone="Asia/Taipei", digest_hour=7)  # 07:00 Taipei is 23:00 UTC
    assert digests.slot(person, T0.replace(hour=22, minute=59)) is None
    assert str(digests.slot(person, T0.replace(hour=23, minute=5))) == "2026-01-06"
    assert digests.slot(person, T0.replace(hour=23) + (digests.GRACE)) is None


def test_quiet_hours_hold_an_email_until_they_end_but_never_the_last_reminder(mailer, client):
    start, end = quiet_around_now()
    set_ann(quiet_start=start, quiet_end=end)
    game_id = timed_game(hours=48)
    started(mailer, game_id)  # her first turn email: the game's invitation, never held
    sweep(25)
    assert settle([game_id])[-1] == "held"
    [held] = ann_rows(game_id, "reminder")
    assert (held.status, held.skip_reason, held.attempts) == ("pending", "quiet_hours", 0)
    assert held.next_attempt_at.hour == end and held.next_attempt_at.minute == 0
    sweep(47)
    settle([game_id])
    last = [row for row in ann_rows(game_id, "reminder") if row.params["hours"] == 2]
    assert [row.status for row in last] == ["sent"]
    sign_in_as(client, ANN)
    log = client.get("/api/me/deliveries").get_json()["deliveries"]
    # "held until 01:00", or with the date when the quiet hours end tomorrow (a run after 22:00 UTC)
    assert any(row["words"].startswith("held until ") and f"{end:02d}:00" in row["words"] for row in log), log

    # When they end, it goes (a held row is due at their end: the beat scan finds it then).
    with client.application.app_context():
        from service.store import get_engine, write_session
        with write_session(get_engine()) as session:
            session.get(Outbox, held.id).next_attempt_at = at(0)
    set_ann(quiet_start="", quiet_end="")
    assert outbox.deliver(held.id) == "sent"
    assert ann_rows(game_id, "reminder")[0].status == "sent"


def test_fresh_links_and_the_signin_link_are_never_held_by_quiet_hours_or_a_mode(mailer, app):
    from service.people import access
    start, end = quiet_around_now()
    set_ann(mode="none", quiet_start=start, quiet_end=end)
    game_id = timed_game(hours=48)
    started(mailer, game_id)  # the game's first email (its invitation) went too
    ann = seat(game_id, 0)
    access.fresh_link(ann.id, everywhere=False, now=utcnow())
    access.signin_link(ann.id, now=utcnow())
    settle([game_id])
    asked = [row for row in rows(Outbox, game_id=game_id) if row.kind in ("signin", "fresh_link")]
    assert sorted(row.kind for row in asked) == ["fresh_link", "signin"]
    assert [row.status for row in asked] == ["sent", "sent"]
