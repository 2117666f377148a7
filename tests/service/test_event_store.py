"""The event store's contract, run on SQLite and on the real PostgreSQL."""

from __future__ import annotations

import copy
import threading

import pytest
import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError
from sqlmodel import select

import engine
from service import store
from service.errors import StaleState
from service.play import handle, new_game
from service.play.moves import apply
from service.store import current as current_store
from service.store import get_engine, read_session, write_session
from service.store.models import Event, GameState, Snapshot, utcnow
from tests.conftest import app_on
from tests.service import toygame
from tests.service.helpers import current, play_one, play_to_end
from tests.service.statements import counted

PLAYERS = [("Ann", "ann@example.org"), ("Bob", "bob@example.org")]


@pytest.fixture
def backend_app(backend_url, tmp_path):
    with app_on(tmp_path, backend_url, SNAPSHOT_EVERY=4) as app:
        yield app


class TestEventStoreContract:
    def test_new_game_records_setup_rules_version_and_snapshot(self, backend_app):
        game_id = new_game(toygame.NAME, PLAYERS, {"target": 6}, seed=11)
        game, state = current(game_id)
        assert game.rules_version == toygame.GAME.rules_version
        assert game.seq == 3 and game.to_act == [0] and game.status == "active"
        with read_session(get_engine()) as session:
            rows = store.stored_events(session, game_id)
            assert [row.seq for row in rows] == [1, 2, 3]
            assert {row.kind for row in rows} == {"setup"} and {row.actor for row in rows} == {None}
            assert store.last_snapshot_seq(session, game_id) == 3
        assert state == engine.replay(toygame.GAME, toygame.GAME.start(2, {"target": 6}, 11))

    def test_replay_from_event_one_equals_live_state_at_every_step(self, backend_app):
        game_id = new_game(toygame.NAME, PLAYERS, {"target": 9}, seed=5)
        while True:
            game, live = current(game_id)
            with read_session(get_engine()) as session:
                assert store.replay_from_start(session, game) == live
            if game.status != "active":
                break
            play_one(game_id, pick=lambda moves: moves[-1])
        assert game.result["winners"]

    def test_snapshots_every_n_events_and_at_turn_changes_are_only_a_cache(self, backend_app):
        game_id = new_game(toygame.NAME, PLAYERS, {"target": 30}, seed=2)
        for _ in range(9):
            play_one(game_id, pick=lambda moves: moves[0])  # play, end turn, play, end turn...
        game, live = current(game_id)
        with read_session(get_engine()) as session:
            snapshot_seqs = list(session.exec(select(Snapshot.seq).where(Snapshot.game_id == game_id)))
            turn_changes = [row.seq for row in store.stored_events(session, game_id) if row.type == "turn"]
        assert set(turn_changes) <= set(snapshot_seqs)
        with write_session(get_engine()) as session:
            session.execute(sa.delete(Snapshot).where(Snapshot.game_id == game_id))
        assert current(game_id)[1] == live

    def test_snapshot_every_n_events_within_a_turn(self, backend_app):
        # Inside one seat's turn the seats to act stay the same, so only the every-N rule applies.
        game_id = new_game(toygame.NAME, PLAYERS, seed=4)
        with write_session(get_engine()) as session:  # 5 events the toy game ignores, no snapshot
            game = store.get_game(session, game_id)
            store.append(session, game, 3, [{"type": "noop"}] * 5, actor=0, kind="move", read_model={})
        game, state = current(game_id)
        outcome = handle(game_id, 0, toygame.GAME.legal_moves(state, 0)[0], game.seq)
        assert outcome.to_act == [0]  # a follow-up decision of the same seat
        with read_session(get_engine()) as session:
            assert store.last_snapshot_seq(session, game_id) == outcome.seq

    def test_a_stale_expected_seq_writes_nothing(self, backend_app):
        game_id = new_game(toygame.NAME, PLAYERS, seed=8)
        game, state = current(game_id)
        move = toygame.GAME.legal_moves(state, 0)[0]
        handle(game_id, 0, move, game.seq)
        after, _ = current(game_id)
        with pytest.raises(StaleState):
            handle(game_id, 0, move, game.seq)
        assert current(game_id)[0].seq == after.seq

    def test_a_stale_move_in_a_transaction_that_goes_on_writes_nothing(self, backend_app):
        """The sweep's batch catches StaleState and goes on in the same transaction: the compare-and-set
        must have refused before anything else of the move went out (no event, no state row, no
        snapshot or turn start), not merely leave it to a rollback."""
        game_id = new_game(toygame.NAME, PLAYERS, {"target": 30}, seed=8)
        game, state = current(game_id)
        card = toygame.GAME.legal_moves(state, 0)[0]
        with write_session(get_engine()) as session:
            old = copy.deepcopy(current_store.read(session.connection(), game_id))
            moved = apply(session, game_id, 0, [card], game.seq, kind="move", now=utcnow())
            # a whole turn (a turn start and a snapshot due) from the position before the card
            with pytest.raises(StaleState):
                apply(session, game_id, 0, [toygame.GAME.legal_moves(state, 0)[-1], {"type": "end_turn"}], game.seq,
                      kind="move", now=utcnow(), loaded=old)
        after, live = current(game_id)
        assert after.seq == moved.seq and after.to_act == [0]
        with read_session(get_engine()) as session:
            assert [row.seq for row in store.stored_events(session, game_id)][-1] == moved.seq
            assert store.last_snapshot_seq(session, game_id) == old.snapshot_seq
            row = session.get(GameState, game_id)
            assert row.seq == moved.seq and row.state == live == store.replay_from_start(session, after)

    def test_the_unique_constraint_refuses_a_second_event_at_a_seq(self, backend_app):
        game_id = new_game(toygame.NAME, PLAYERS, seed=8)
        with pytest.raises(IntegrityError):
            with write_session(get_engine()) as session:
                session.add(Event(game_id=game_id, seq=1, type="x", payload={"type": "x"}))

    def test_concurrent_moves_at_the_same_seq_one_wins_one_is_told_the_game_moved_on(self, backend_app):
        game_id = new_game(toygame.NAME, PLAYERS, seed=9)
        game, state = current(game_id)
        moves = toygame.GAME.legal_moves(state, 0)[:2]
        barrier = threading.Barrier(2)
        outcomes: list = []

        def attempt(move):
            with backend_app.app_context():
                barrier.wait()
                try:
                    outcomes.append(handle(game_id, 0, move, game.seq))
                except StaleState as exc:
                    outcomes.append(exc)

        threads = [threading.Thread(target=attempt, args=(move,)) for move in moves]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(30)
        assert sorted(type(o).__name__ for o in outcomes) == ["Outcome", "StaleState"]
        with read_session(get_engine()) as session:
            rows = store.stored_events(session, game_id)
        assert [row.seq for row in rows] == list(range(1, game.seq + 2))  # exactly one move's event

    def test_a_move_waiting_on_a_winner_that_commits_writes_nothing(self, backend_app):
        """A move whose compare-and-set waits on another writer's uncommitted move of the same game (the
        games row locked on PostgreSQL, the database on SQLite) finds, once that one commits, that the
        game moved on: StaleState, and none of its rows (events, turn start, snapshot, state row), though
        its transaction goes on and commits."""
        game_id = new_game(toygame.NAME, PLAYERS, {"target": 30}, seed=8)
        game, state = current(game_id)
        with get_engine().connect() as conn:
            old = current_store.read(conn, game_id)
        holding, release = threading.Event(), threading.Event()
        outcome: list = []

        def winner():
            with backend_app.app_context(), write_session(get_engine()) as session:
                apply(session, game_id, 0, [toygame.GAME.legal_moves(state, 0)[0]], game.seq, kind="move",
                      now=utcnow())
                holding.set()
                release.wait(30)

        def loser():
            with backend_app.app_context():
                # a whole turn from the same position (a turn start and a snapshot due), in a transaction
                # that goes on and commits after StaleState, as the sweep's batch does
                with write_session(get_engine()) as session:
                    try:
                        apply(session, game_id, 0, [toygame.GAME.legal_moves(state, 0)[-1], {"type": "end_turn"}],
                              game.seq, kind="move", now=utcnow(), loaded=old)
                        outcome.append("written")
                    except StaleState:
                        outcome.append("stale")

        first = threading.Thread(target=winner)
        first.start()
        assert holding.wait(30)
        second = threading.Thread(target=loser)
        second.start()
        second.join(0.5)
        assert second.is_alive()  # waiting on the winner's lock
        release.set()
        first.join(30)
        second.join(30)
        assert outcome == ["stale"]
        after, live = current(game_id)
        assert after.seq == game.seq + 1 and after.to_act == [0]
        with read_session(get_engine()) as session:
            assert [row.seq for row in store.stored_events(session, game_id)][-1] == after.seq
            assert store.last_snapshot_seq(session, game_id) == old.snapshot_seq
            row = session.get(GameState, game_id)
            assert row.seq == after.seq and row.state == live == store.replay_from_start(session, after)

    def test_concurrent_appends_racing_past_the_read_fail_cleanly(self, backend_app):
        """Both writers read seq N before either writes: the store's compare-and-set decides."""
        game_id = new_game(toygame.NAME, PLAYERS, seed=10)
        barrier = threading.Barrier(2)
        results: list = []

        def append(tag):
            db = backend_app.extensions["riftpost.db"]
            with read_session(db) as session:
                game = store.get_game(session, game_id)  # both read seq 3 before either writes
            barrier.wait()
            try:
                with write_session(db) as session:
                    store.append(session, game, 3, [{"type": "noop", "tag": tag}], actor=0, kind="move",
                                 read_model={})
                results.append("ok")
            except StaleState:
                results.append("stale")

        threads = [threading.Thread(target=append, args=(tag,)) for tag in ("a", "b")]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(30)
        assert sorted(results) == ["ok", "stale"]
        with read_session(get_engine()) as session:
            assert len(store.stored_events(session, game_id)) == 4

    def test_a_finished_game_accepts_nothing(self, backend_app):
        game_id = new_game(toygame.NAME, PLAYERS, {"target": 2}, seed=1)
        play_to_end(game_id)
        game, state = current(game_id)
        assert game.status == "finished" and game.to_act == [] and game.result["winners"]
        with pytest.raises(engine.IllegalMove) as info:
            handle(game_id, 0, {"type": "end_turn"}, game.seq)
        assert info.value.code == "game_over"


class TestCurrentStateRow:
    """The state after each game's latest event, in one row beside `games` (game_states): what a move
    reads and rewrites in its own transaction; a cache like the snapshots."""

    def test_each_move_leaves_the_row_equal_to_the_replay_from_event_one(self, backend_app):
        game_id = new_game(toygame.NAME, PLAYERS, {"target": 9}, seed=5)
        while True:
            game, _ = current(game_id)
            with read_session(get_engine()) as session:
                row = session.get(GameState, game_id)
                assert row.seq == game.seq and row.rules_version == toygame.GAME.rules_version
                assert row.state == store.replay_from_start(session, game)
            if game.status != "active":
                break
            play_one(game_id, pick=lambda moves: moves[-1])

    @pytest.mark.parametrize("damage", ["gone", "older engine", "behind"])
    def test_a_missing_or_stale_row_is_rebuilt_from_the_log_by_the_next_move(self, backend_app, damage):
        game_id = new_game(toygame.NAME, PLAYERS, {"target": 30}, seed=2)
        for _ in range(3):
            play_one(game_id, pick=lambda moves: moves[0])
        with write_session(get_engine()) as session:
            if damage == "gone":
                session.execute(sa.delete(GameState).where(GameState.game_id == game_id))
            else:  # a row the current engine did not make, or one a writer left behind: never trusted
                values = {"rules_version": "0"} if damage == "older engine" else {"seq": 1}
                session.execute(sa.update(GameState).where(GameState.game_id == game_id)
                                .values(state={"garbage": True}, **values))
        game, state = current(game_id)
        assert "garbage" not in state
        play_one(game_id, pick=lambda moves: moves[0])
        game, state = current(game_id)
        with read_session(get_engine()) as session:
            row = session.get(GameState, game_id)
            assert row.seq == game.seq and row.rules_version == toygame.GAME.rules_version
            assert row.state == state == store.replay_from_start(session, game)

    def test_a_move_reads_one_row_and_writes_a_handful(self, backend_app):
        """The lean path, counted in statements (not timed): a move that passes the turn reads the
        game with its state, reads the seats (for the turn email), then writes the games row, the
        events, a turn start, a snapshot, the state row and the outbox rows; a follow-up decision of the
        same turn reads one row and writes three (on PostgreSQL, in one statement with the
        compare-and-set)."""
        game_id = new_game(toygame.NAME, PLAYERS, {"target": 30}, seed=2)
        # counted at the driver: the move path runs its statements on the DB-API cursor
        game, state = current(game_id)
        with counted(get_engine()) as sent:
            handle(game_id, 0, toygame.GAME.legal_moves(state, 0)[0], game.seq)  # a card: the seat decides on
        same_turn = sent.transactions()
        game, state = current(game_id)
        with counted(get_engine()) as sent:
            handle(game_id, 0, {"type": "end_turn"}, game.seq)
        [passing] = sent.transactions()
        if get_engine().dialect.name == "postgresql":  # the writes in one statement (current._ADVANCE_PG)
            assert same_turn == [["SELECT", "WITH"]]
            assert passing == ["SELECT", "WITH", "SELECT", "INSERT"], passing
        else:
            assert same_turn == [["SELECT", "UPDATE", "INSERT", "UPDATE"]]
            assert passing.count("SELECT") == 2 and len(passing) <= 8, passing
