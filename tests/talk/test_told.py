"""Talk reaches the next email actually sent (service/mail/talk_email.py): what an email tells is decided
at delivery, so a skipped or held email loses none, the daily digest tells each game's, and nothing is
told twice.  Through the real outbox delivery and a real SMTP server."""

from __future__ import annotations

import pytest

from service.mail import outbox
from service.people import digests
from service.store import get_engine, write_session
from service.store.models import Outbox, TalkAtOnce, utcnow
from service.talk import messages
from tests.deadlines.helpers import play_turn, rows, timed_game
from tests.people.notify_helpers import ANN, ann_rows, quiet_around_now, seat, set_ann, settle


@pytest.fixture
def mailer(app, sink):
    app.config["SMTP_URL"] = sink.url
    return sink


def bob_says(game_id: int, text: str) -> int:
    with write_session(get_engine()) as session:
        return messages.post(session, session.merge(seat(game_id, 1)), text).id


def plain_to_ann(mailer, kind: str | None = None) -> list[str]:
    return [m.get_body(("plain",)).get_content() for m in mailer.messages()
            if m["To"].addresses[0].addr_spec == ANN and (kind is None or m["X-Riftpost-Kind"] == kind)]


def test_talk_of_a_skipped_turn_email_reaches_the_next_email_sent_and_only_once(mailer):
    game_id = timed_game(hours=48)
    settle([game_id])  # Ann's first turn email
    play_turn(game_id, 1)  # Ann played: Bob's turn
    set_ann(mode="none")  # Ann's turn emails: off
    bob_says(game_id, "sorry, away until Monday")
    play_turn(game_id, 2)  # Bob played: Ann's turn email is written...
    settle([game_id])
    skipped = ann_rows(game_id, "turn")[-1]
    assert (skipped.status, skipped.skip_reason) == ("skipped", "turned_off")  # ...and skipped
    assert "talk" not in skipped.params  # nothing was taken by the email that did not go

    set_ann(mode="every")
    play_turn(game_id, 3)
    play_turn(game_id, 4)
    settle([game_id])
    sent = ann_rows(game_id, "turn")[-1]
    assert sent.status == "sent"
    last = plain_to_ann(mailer, "turn")[-1]
    assert "Bob: sorry, away until Monday" in last

    with write_session(get_engine()) as session:  # Ann now wants talk at once: the next email is a talk email
        session.add(TalkAtOnce(person=ANN))
    bob_says(game_id, "back now")
    settle([game_id])
    bodies = plain_to_ann(mailer)
    assert "Bob: back now" in bodies[-1] and "away until Monday" not in bodies[-1]  # never told twice
    assert sum("away until Monday" in body for body in bodies) == 1


def test_quiet_hours_hold_the_email_and_talk_written_meanwhile_goes_with_it(mailer):
    game_id = timed_game(hours=48)
    settle([game_id])
    play_turn(game_id, 1)
    start, end = quiet_around_now()
    set_ann(quiet_start=start, quiet_end=end)
    bob_says(game_id, "first")
    play_turn(game_id, 2)
    settle([game_id])
    assert ann_rows(game_id, "turn")[-1].skip_reason == "quiet_hours"
    bob_says(game_id, "second, while you sleep")
    set_ann(quiet_start=None, quiet_end=None)
    with write_session(get_engine()) as session:  # the quiet hours are over: the row is due
        for row in rows(Outbox, game_id=game_id, status="pending"):
            row.next_attempt_at = utcnow()
            session.merge(row)
    settle([game_id])
    assert ann_rows(game_id, "turn")[-1].status == "sent"
    body = plain_to_ann(mailer, "turn")[-1]
    assert "Bob: first" in body and "Bob: second, while you sleep" in body


def test_the_daily_digest_tells_each_games_talk_and_the_next_email_does_not_again(mailer):
    now = utcnow()
    set_ann(mode="digest", digest_hour=now.hour)
    games = [timed_game(hours=48, seed=n) for n in range(2)]
    settle(games)
    for number, game_id in enumerate(games):
        play_turn(game_id, 1)
        bob_says(game_id, f"hello from game {number + 1}")
        play_turn(game_id, 2)
    settle(games)
    assert {ann_rows(game_id, "turn")[-1].skip_reason for game_id in games} == {"digest"}

    [digest_row] = digests.queue_due(now)
    assert outbox.deliver(digest_row) == "sent"
    [digest] = plain_to_ann(mailer, "digest")
    first, second = digest.index("hello from game 1"), digest.index("hello from game 2")
    assert digest.index(f"#{games[0]}:") < first < digest.index(f"#{games[1]}:") < second  # each under its game
    assert digest.count("At the table:") == 2

    set_ann(mode="every")
    play_turn(games[0], 3)
    play_turn(games[0], 4)
    settle(games)
    assert "hello from game" not in plain_to_ann(mailer, "turn")[-1]


def test_an_email_skipped_after_another_was_written_leaves_its_talk_to_the_one_that_goes(mailer):
    """Two rows of the seat waiting at once: neither took anything when written, so whichever goes tells it."""
    game_id = timed_game(hours=48)
    settle([game_id])
    play_turn(game_id, 1)
    bob_says(game_id, "one line")
    play_turn(game_id, 2)
    [row] = [r for r in ann_rows(game_id, "turn") if r.status == "pending"]
    assert "talk" not in row.params  # written without talk: decided when it goes
    settle([game_id])
    assert "Bob: one line" in plain_to_ann(mailer, "turn")[-1]
    [told] = [r for r in ann_rows(game_id, "turn") if r.id == row.id]
    assert told.params["talk"] == {str(game_id): [told.params["talk"][str(game_id)][0]]}
