"""Outbox rows become emails: headers, threading, idempotent delivery, retries, no leaks."""

from __future__ import annotations

from datetime import timedelta

import pytest
import sqlalchemy as sa

from service import store
from service.mail import outbox, queue
from service.play import new_game
from service.store import get_engine, read_session, write_session
from service.store.models import Outbox, utcnow
from tests.consent import preconsent
from tests.service import toygame
from tests.service.helpers import outbox_rows, play_one, play_to_end

PLAYERS = [("Ann", "ann@example.org"), ("Bob", "bob@example.org")]


@pytest.fixture(autouse=True)
def _consented(app):
    preconsent(*[email for _, email in PLAYERS])  # the game's own emails; the invitation: test_consent.py


def body(message) -> str:
    return "\n".join(part.get_content() for part in message.walk() if part.get_content_maintype() == "text")


def test_invitation_and_turn_emails_are_threaded_per_game_and_player(app, sink):
    app.config["SMTP_URL"] = sink.url
    game_id = new_game(toygame.NAME, PLAYERS, {"target": 5}, seed=3)
    play_one(game_id)
    play_one(game_id)  # Ann's turn ends: Bob's turn
    for row in outbox_rows(game_id):
        assert outbox.deliver(row.id) == "sent"
    invite_bob, first_ann, turn_bob = sink.wait_for(3)
    # One subject for the whole thread, naming the game and its players; the first line says what it is.
    subject = f"Toy #{game_id}: Ann vs Bob"
    assert invite_bob["Subject"] == first_ann["Subject"] == turn_bob["Subject"] == subject
    assert first_line(invite_bob) == "Ann invited you to a game of Toy. Ann starts; we will email you when it is your turn."
    assert first_line(first_ann) == "Your game of Toy with Bob has begun. Your turn."
    assert first_line(turn_bob).endswith(" Your turn.") and first_line(turn_bob).startswith("Ann played ")
    # Ann starts: her first turn email is her invitation, the root of her thread.
    assert first_ann["Message-ID"] == thread_root_of(game_id, "ann@example.org") and first_ann["In-Reply-To"] is None
    assert turn_bob["In-Reply-To"] == invite_bob["Message-ID"] == turn_bob["References"]
    assert invite_bob["Message-ID"] != first_ann["Message-ID"]
    assert [m["X-Riftpost-Kind"] for m in (invite_bob, first_ann, turn_bob)] == ["invite", "turn", "turn"]
    assert invite_bob["To"] == "Bob <bob@example.org>"
    assert turn_bob["List-Unsubscribe"].startswith("<http://riftpost.test/u/")
    assert turn_bob["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert turn_bob["Auto-Submitted"] == "auto-generated"
    assert [p.get_content_type() for p in turn_bob.iter_parts()] == ["text/plain", "text/html"]
    text = turn_bob.get_body(("plain",)).get_content()
    assert text.startswith(first_line(turn_bob) + "\n")
    # One link per card in hand (each opens the player page with that card chosen), none to /m/.
    assert "/p/" in text and text.count("?step=play+") == 3 and "/m/" not in text


def first_line(message) -> str:
    return message.get_body(("plain",)).get_content().splitlines()[0]


def thread_root_of(game_id: int, email: str) -> str:
    from service.mail.threads import thread_root
    from service.store.models import Player

    with read_session(get_engine()) as session:
        game = store.get_game(session, game_id)
        player = session.execute(sa.select(Player).where(Player.game_id == game_id, Player.email == email)).scalar_one()
        return thread_root(game, player)


def test_delivery_claims_its_row_so_a_duplicate_task_sends_nothing(app, sink):
    app.config["SMTP_URL"] = sink.url
    game_id = new_game(toygame.NAME, PLAYERS, seed=3)
    row = outbox_rows(game_id)[0]
    assert outbox.deliver(row.id) == "sent"
    assert outbox.deliver(row.id) == "not pending"
    assert len(sink.wait_for(1)) == 1


def test_a_retry_renders_the_same_message_id(app, sink):
    app.config["SMTP_URL"] = sink.url
    game_id = new_game(toygame.NAME, PLAYERS, seed=3)
    row = outbox_rows(game_id)[1]
    outbox.deliver(row.id)
    with write_session(get_engine()) as session:  # as if the worker died after SMTP accepted it
        session.execute(sa.update(Outbox).where(Outbox.id == row.id).values(status="pending"))
    outbox.deliver(row.id)
    first, second = sink.wait_for(2)
    assert first["Message-ID"] == second["Message-ID"] == row.message_id


def test_smtp_down_leaves_the_row_pending_with_backoff_then_failed(app):
    app.config["SMTP_URL"] = "smtp://127.0.0.1:1"  # nothing listens there
    app.config["OUTBOX_MAX_ATTEMPTS"] = 3
    game_id = new_game(toygame.NAME, PLAYERS, seed=3)
    row_id = outbox_rows(game_id)[0].id
    with pytest.raises(outbox.TransientMailError):
        outbox.deliver(row_id)
    row = [r for r in outbox_rows(game_id) if r.id == row_id][0]
    assert row.status == "pending" and row.attempts == 1 and row.next_attempt_at > utcnow()
    assert row_id not in outbox.due()  # not due before its backoff
    with pytest.raises(outbox.TransientMailError):
        outbox.deliver(row_id)
    assert outbox.deliver(row_id) == "failed"


def test_due_rows_include_rows_of_workers_that_died_mid_send(app):
    game_id = new_game(toygame.NAME, PLAYERS, seed=3)
    rows = outbox_rows(game_id)
    assert outbox.due() == [row.id for row in rows]
    assert outbox.claim(rows[0].id)
    assert rows[0].id not in outbox.due()
    with write_session(get_engine()) as session:
        session.execute(sa.update(Outbox).where(Outbox.id == rows[0].id)
                        .values(claimed_at=utcnow() - timedelta(hours=1)))
    assert rows[0].id in outbox.due()


def test_turn_email_only_when_a_seat_newly_has_to_act(app):
    game_id = new_game(toygame.NAME, PLAYERS, {"target": 60}, seed=4)
    # Bob's invitation; Ann starts, and her first turn email is her invitation.
    assert [(r.kind, r.player_id, r.params) for r in outbox_rows(game_id)] == [
        ("invite", 2, {}), ("turn", 1, {"invite": True})]
    assert play_one(game_id).outbox_ids == []  # Ann's follow-up decision: no email
    outcome = play_one(game_id)  # Ann ends her turn: Bob's turn
    assert [r.kind for r in outbox_rows(game_id) if r.id in outcome.outbox_ids] == ["turn"]


def test_game_over_reaches_both_players(app, sink):
    app.config["SMTP_URL"] = sink.url
    game_id = new_game(toygame.NAME, PLAYERS, {"target": 4}, seed=9)
    play_to_end(game_id)
    for row in outbox_rows(game_id):
        outbox.deliver(row.id)
    over = [m for m in sink.wait_for(len(outbox_rows(game_id))) if m["X-Riftpost-Kind"] == "game_over"]
    assert sorted(m["To"] for m in over) == ["Ann <ann@example.org>", "Bob <bob@example.org>"]
    assert all(m["Subject"] == f"Toy #{game_id}: Ann vs Bob" for m in over)
    assert all(first_line(m).startswith("Game over: ") and first_line(m).endswith(" won.") for m in over)


def test_no_email_shows_a_card_its_reader_may_not_see(app, sink):
    app.config["SMTP_URL"] = sink.url
    game_id = new_game(toygame.NAME, PLAYERS, {"target": 9}, seed=12)
    play_to_end(game_id, pick=lambda moves: moves[-1])  # draws too: hands change all game
    rows = outbox_rows(game_id)
    for row in rows:
        outbox.deliver(row.id)
    messages = {m["Message-ID"]: m for m in sink.wait_for(len(rows))}
    with read_session(get_engine()) as session:
        game = store.get_game(session, game_id)
        for row in rows:
            state, _ = store.load_state(session, game, row.seq)
            seat = row.player_id - 1
            hidden = set(state["deck"]) | {c for s, hand in enumerate(state["hands"]) if s != seat for c in hand}
            shown = toygame.cards_in(body(messages[row.message_id]))
            assert not shown & hidden, (row.kind, row.seq, shown & hidden)
            assert set(state["hands"][seat]) <= shown or row.kind == "game_over"


def test_a_move_succeeds_when_the_broker_is_down(app, caplog):
    """The kick is only a nudge: with no broker the move stands and its rows wait for the beat scan."""
    app.config["OUTBOX_KICK"] = True
    app.config["CELERY_BROKER_URL"] = "redis://127.0.0.1:1/0"  # nothing listens there
    game_id = new_game(toygame.NAME, PLAYERS, seed=5)
    queue._kicker.submit(lambda: None).result(30)  # wait for the background kick to give up
    assert [row.status for row in outbox_rows(game_id)] == ["pending"] * 2
    assert "the beat scan will do it" in caplog.text
    assert outbox.due() == [row.id for row in outbox_rows(game_id)]


def test_emails_offer_one_choice_per_first_step_rarest_kinds_first():
    from service.mail.compose import MAX_MOVE_LINKS, one_click
    from service.views.positions import LegalMove, Step

    def step(move, label):
        return Step(str(move), label, [LegalMove(move, label)])

    plays = [step({"type": "play", "card": f"c{i}"}, f"Play card {i}…") for i in range(30)]
    steps = plays[:10] + [step({"type": "check"}, "Check & Draw")] + plays[10:]
    offered = one_click(steps)
    assert len(offered) == MAX_MOVE_LINKS and offered[0].label == "Check & Draw"
    assert [s.label for s in offered[1:]] == [f"Play card {i}…" for i in range(MAX_MOVE_LINKS - 1)]
    # Two copies of one card make the same label: one link, the first copy's.
    twins = [step({"type": "play", "card": "fire-5a"}, "Play Fire 5…"), step({"type": "play", "card": "fire-5b"}, "Play Fire 5…")]
    assert [s.key for s in one_click(twins)] == [twins[0].key]


def test_a_turn_email_queued_before_an_unsubscribe_is_skipped(app, sink):
    from service.store.models import Player

    app.config["SMTP_URL"] = sink.url
    game_id = new_game(toygame.NAME, PLAYERS, seed=3)
    play_one(game_id)
    play_one(game_id)  # Bob's turn
    turn = [row for row in outbox_rows(game_id) if row.kind == "turn"][-1]
    with write_session(get_engine()) as session:
        session.execute(sa.update(Player).where(Player.id == turn.player_id).values(turn_emails=False))
    assert outbox.deliver(turn.id) == "skipped"
    assert sink.messages() == []


def test_the_first_turn_email_is_an_invitation_and_goes_out_even_after_an_unsubscribe(app, sink):
    """It is the thread's root and the only email the starting player gets about the new game."""
    from service.store.models import Player

    app.config["SMTP_URL"] = sink.url
    game_id = new_game(toygame.NAME, PLAYERS, seed=3)
    first = [row for row in outbox_rows(game_id) if row.kind == "turn"][0]
    with write_session(get_engine()) as session:
        session.execute(sa.update(Player).where(Player.id == first.player_id).values(turn_emails=False))
    assert outbox.deliver(first.id) == "sent"
