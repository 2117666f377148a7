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
from tests.service import toygame
from tests.service.helpers import outbox_rows, play_one, play_to_end

PLAYERS = [("Ann", "ann@example.org"), ("Bob", "bob@example.org")]


def body(message) -> str:
    return "\n".join(part.get_content() for part in message.walk() if part.get_content_maintype() == "text")


def test_invitation_and_turn_emails_are_threaded_per_game_and_player(app, sink):
    app.config["SMTP_URL"] = sink.url
    game_id = new_game(toygame.NAME, PLAYERS, {"target": 5}, seed=3)
    for row in outbox_rows(game_id):
        assert outbox.deliver(row.id) == "sent"
    invite_ann, invite_bob, turn_ann = sink.wait_for(3)
    assert invite_ann["Subject"] == f"[Toy #{game_id}] You are invited to a game of Toy"
    assert turn_ann["Subject"] == f"[Toy #{game_id}] Your turn"
    assert turn_ann["In-Reply-To"] == invite_ann["Message-ID"] == turn_ann["References"]
    assert invite_bob["Message-ID"] != invite_ann["Message-ID"]
    assert invite_ann["To"] == "Ann <ann@example.org>"
    assert turn_ann["List-Unsubscribe"].startswith("<http://riftpost.test/u/")
    assert turn_ann["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert turn_ann["Auto-Submitted"] == "auto-generated"
    assert [p.get_content_type() for p in turn_ann.iter_parts()] == ["text/plain", "text/html"]
    text = turn_ann.get_body(("plain",)).get_content()
    assert "It is your turn" in text and "/p/" in text and text.count("/m/") == 3  # 3 cards in hand


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
    row = outbox_rows(game_id)[2]
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
    assert [r.kind for r in outbox_rows(game_id)] == ["invite", "invite", "turn"]
    assert play_one(game_id).outbox_ids == []  # Ann's follow-up decision: no email
    outcome = play_one(game_id)  # Ann ends her turn: Bob's turn
    assert [r.kind for r in outbox_rows(game_id) if r.id in outcome.outbox_ids] == ["turn"]


def test_game_over_reaches_both_players(app, sink):
    app.config["SMTP_URL"] = sink.url
    game_id = new_game(toygame.NAME, PLAYERS, {"target": 4}, seed=9)
    play_to_end(game_id)
    for row in outbox_rows(game_id):
        outbox.deliver(row.id)
    over = [m for m in sink.wait_for(len(outbox_rows(game_id))) if "Game over" in m["Subject"]]
    assert sorted(m["To"] for m in over) == ["Ann <ann@example.org>", "Bob <bob@example.org>"]
    assert all(" won." in m["Subject"] for m in over)


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
    assert [row.status for row in outbox_rows(game_id)] == ["pending"] * 3
    assert "the beat scan will do it" in caplog.text
    assert outbox.due() == [row.id for row in outbox_rows(game_id)]


def test_emails_offer_the_rarest_kinds_of_choice_first():
    from service.mail.compose import MAX_MOVE_LINKS, one_click
    from service.views.positions import LegalMove

    plays = [LegalMove({"type": "play", "card": f"c{i}", "loc": i % 5}, f"play {i}") for i in range(30)]
    moves = plays[:10] + [LegalMove({"type": "check"}, "Check & Draw")] + plays[10:]
    offered = one_click(moves)
    assert len(offered) == MAX_MOVE_LINKS and offered[0].label == "Check & Draw"
    assert [m.label for m in offered[1:]] == [f"play {i}" for i in range(MAX_MOVE_LINKS - 1)]


def test_a_turn_email_queued_before_an_unsubscribe_is_skipped(app, sink):
    from service.store.models import Player

    app.config["SMTP_URL"] = sink.url
    game_id = new_game(toygame.NAME, PLAYERS, seed=3)
    turn = [row for row in outbox_rows(game_id) if row.kind == "turn"][0]
    with write_session(get_engine()) as session:
        session.execute(sa.update(Player).where(Player.id == turn.player_id).values(turn_emails=False))
    assert outbox.deliver(turn.id) == "skipped"
    assert sink.messages() == []
