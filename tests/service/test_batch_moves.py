"""`handle` with a whole turn of moves: one transaction, all or nothing, the very log the same moves
make one by one; on SQLite and on the real PostgreSQL."""

from __future__ import annotations

import pytest
from sqlmodel import select

import engine
from service import store
from service.errors import IllegalMoveAt, StaleState
from service.play import handle, new_game
from service.play.batch import Batch, secrets_of
from service.store import get_engine, read_session
from service.store.models import Outbox, Player, TurnStart
from tests.beyond_helpers import RULES as BEYOND
from tests.consent import preconsent
from tests.service import toygame
from tests.service.helpers import current
from tests.service.test_event_store import backend_app  # noqa: F401 - the SQLite/PostgreSQL fixture
from tests.turns import RIFTFORCE, after, counts, decisions, drive, not_drafting, three_card_play

PLAYERS = [("Ann", "ann@example.org"), ("Bob", "bob@example.org")]


def riftforce_at_play(seed):
    preconsent(*[email for _, email in PLAYERS])  # the tests compare the game's emails
    game_id = new_game("riftforce", PLAYERS, seed=seed)
    game, state, seat = drive(game_id, not_drafting)
    return game_id, game, state, seat


def log(game_id):
    with read_session(get_engine()) as session:
        rows = store.stored_events(session, game_id)
        turns = list(session.exec(select(TurnStart.seq, TurnStart.number, TurnStart.seats)
                                  .where(TurnStart.game_id == game_id).order_by(TurnStart.seq)))
        mail = list(session.exec(select(Outbox.kind, Player.seat).join(Player, Player.id == Outbox.player_id)
                                 .where(Outbox.game_id == game_id).order_by(Outbox.id)))
    return [(r.seq, r.payload, r.actor, r.kind) for r in rows], [tuple(t) for t in turns], [tuple(m) for m in mail]


class TestWholeTurns:
    def test_a_three_card_play_in_one_call_writes_what_the_three_moves_write_one_by_one(self, backend_app):
        one_by_one, game, state, seat = riftforce_at_play(5)
        together, *_ = riftforce_at_play(5)
        moves = three_card_play(state, seat, game.secret, game.seq)
        seq = game.seq
        for move in moves:
            seq = handle(one_by_one, seat, move, seq).seq
        outcome = handle(together, seat, moves, game.seq)
        assert outcome.seq == seq > game.seq + 2
        assert [p.move for p in outcome.played] == moves and [p.index for p in outcome.played] == [0, 1, 2]
        assert outcome.to_act == [1 - seat]  # three cards end the Play: the other seat's turn
        events_a, turns_a, mail_a = log(one_by_one)
        events_b, turns_b, mail_b = log(together)
        assert events_b == events_a  # the same events, seqs, actor and kind: replay is unchanged
        assert turns_b == turns_a and turns_b[-1][2] == [1 - seat]  # the new turn recorded once, where it began
        assert mail_b == mail_a  # the same emails (one turn email for the other seat)
        for game_id in (one_by_one, together):
            live_game, live = current(game_id)
            with read_session(get_engine()) as session:
                assert store.replay_from_start(session, live_game) == live

    def test_moves_may_be_given_as_their_text_forms(self, backend_app):
        game_id, game, state, seat = riftforce_at_play(5)
        moves = three_card_play(state, seat, game.secret, game.seq)
        texts, now, at = [], state, game.seq
        for move in moves:
            texts.append(RIFTFORCE.move_text(now, seat, move))
            now, events = after(RIFTFORCE, now, seat, move, game.secret, at)
            at += len(events)
        outcome = handle(game_id, seat, texts, game.seq)
        assert [p.move for p in outcome.played] == moves and [p.text for p in outcome.played] == texts
        assert current(game_id)[1] == now

    def test_an_illegal_third_move_plays_nothing_and_names_its_index(self, backend_app):
        game_id, game, state, seat = riftforce_at_play(5)
        moves = three_card_play(state, seat, game.secret, game.seq)
        before = counts(game_id)
        for bad in ({"type": "play", "card": "nobody-9z", "loc": 0}, "play", "fly to the moon", 7):
            with pytest.raises(IllegalMoveAt) as caught:
                handle(game_id, seat, [*moves[:2], bad], game.seq)
            assert caught.value.index == 2 and caught.value.reason
            assert isinstance(caught.value, engine.IllegalMove)  # every existing caller still catches it
        assert counts(game_id) == before and current(game_id)[0].seq == game.seq

    def test_a_move_after_the_turn_ended_is_refused_with_a_reason(self, backend_app):
        game_id = new_game(toygame.NAME, PLAYERS, seed=4)
        game, state = current(game_id)
        card = state["hands"][0][0]
        before = counts(game_id)
        with pytest.raises(IllegalMoveAt) as caught:
            handle(game_id, 0, [{"type": "play", "card": card}, {"type": "end_turn"}, {"type": "pass"}], game.seq)
        assert (caught.value.index, caught.value.code) == (2, "turn_over") and "turn ended" in caught.value.reason
        assert counts(game_id) == before
        outcome = handle(game_id, 0, [{"type": "play", "card": card}, {"type": "end_turn"}], game.seq)
        assert outcome.seq == game.seq + 2 and outcome.to_act == [1]

    def test_nothing_may_follow_a_move_whose_outcome_is_hidden(self, backend_app):
        # A hero's "draw" action leaves the hero acting, but what the next move may be depends on the
        # card drawn: a request may not try moves after it and back out.
        game_id = new_game("beyond-the-rift", PLAYERS, {"scenario": "tutorial", "heroes": ["brannoc", "isolde"]},
                           seed=3)
        game, state = current(game_id)
        seat = game.to_act[0]
        draw = next(m for m in BEYOND.legal_moves(state, seat) if m["type"] == "draw")
        now, _ = after(BEYOND, state, seat, draw, game.secret, game.seq)
        follow = next(m for m in decisions(BEYOND, now, seat) if m["type"] == "discard_ap")
        before = counts(game_id)
        with pytest.raises(IllegalMoveAt) as caught:
            handle(game_id, seat, [draw, follow], game.seq)
        assert (caught.value.index, caught.value.code) == (1, "after_hidden")
        assert counts(game_id) == before
        assert handle(game_id, seat, [draw], game.seq).seq > game.seq  # alone it is fine
        assert handle(game_id, seat, follow, current(game_id)[0].seq)

    def test_a_stale_batch_writes_nothing(self, backend_app):
        game_id = new_game(toygame.NAME, PLAYERS, seed=4)
        game, state = current(game_id)
        moves = [{"type": "play", "card": state["hands"][0][0]}, {"type": "end_turn"}]
        handle(game_id, 0, moves[0], game.seq)
        before = counts(game_id)
        with pytest.raises(StaleState):
            handle(game_id, 0, moves, game.seq)
        assert counts(game_id) == before

    @pytest.mark.parametrize("moves", [[], "play", 7, None, [{"type": "play"}, ["nested"]]])
    def test_a_malformed_batch_is_an_illegal_move_with_its_index(self, backend_app, moves):
        game_id = new_game(toygame.NAME, PLAYERS, seed=4)
        game, _ = current(game_id)
        with pytest.raises(IllegalMoveAt) as caught:
            handle(game_id, 0, moves, game.seq)
        assert caught.value.code in ("malformed", "unreadable", "illegal")
        assert caught.value.index == (1 if isinstance(moves, list) and len(moves) == 2 else 0)
        assert counts(game_id)["events"] == game.seq


def test_a_draw_is_a_hidden_outcome_even_of_a_card_the_seat_was_not_kept_from(app):
    # The first test (an event a spectator may not see as it is) stands on its own: here the game
    # "kept nothing" from the seat, so only it can tell that a draw must not be shown.
    game_id = new_game(toygame.NAME, PLAYERS, seed=4)
    game, state = current(game_id)
    walk = Batch(toygame.GAME, game.secret, state, 0, game.seq, secrets=set, pure=True)
    assert walk.play(0, {"type": "play", "card": state["hands"][0][0]}, judge=True).hidden is False
    assert walk.play(1, "draw", judge=True).hidden is True
    assert walk.ended is not None and walk.previous is not None


def test_a_reveal_is_a_hidden_outcome_though_no_event_is_redacted(app):
    # A game whose draw events are public as they are, but whose deck the seat was kept from (the
    # setup's redaction): the card appearing in the seat's hand is a reveal.
    game_id = new_game(toygame.NAME, PLAYERS, seed=4)
    game, state = current(game_id)

    class Open(type(toygame.GAME)):
        def redact_event(self, event, seat):
            return event if event["type"] == "drew" else super().redact_event(event, seat)

    rules = Open()
    with read_session(get_engine()) as session:
        walk = Batch(rules, game.secret, state, 0, game.seq, secrets=lambda: secrets_of(session, game, 0), pure=True)
        walk.play(0, {"type": "play", "card": state["hands"][0][0]}, judge=True)
        assert walk.play(1, "draw", judge=True).hidden is True
    walk = Batch(rules, game.secret, state, 0, game.seq, secrets=set, pure=True)  # nothing kept: nothing revealed
    walk.play(0, {"type": "play", "card": state["hands"][0][0]}, judge=True)
    assert walk.play(1, "draw", judge=True).hidden is False
