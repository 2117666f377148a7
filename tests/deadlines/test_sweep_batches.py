"""The sweep's batches (service/play/timeouts.py): one transaction per claimed batch, what `handle`
would write, a bad row costing the others nothing, a stale row looked at again, and two sweeps at
once never doing one row twice.  On SQLite and PostgreSQL."""

from __future__ import annotations

import logging
import threading
from collections import Counter

import pytest
import sqlalchemy as sa

import engine
from service.clocks import seats
from service.play import moves, new_game, timeouts
from service.store import current as current_rows
from service.store import get_engine, read_session
from service.store.models import Deadline, Event, GameClock, JournalEntry, Outbox, Player
from tests.conftest import app_on
from tests.consent import preconsent
from tests.deadlines.helpers import PLAYERS, T0, at, deadline, event_kinds, rows, sweep, timed_game
from tests.service import toygame
from tests.service.helpers import current


def written(game_id: int) -> dict[str, list]:
    """Everything the sweeps wrote about a game, without its ids (two games compare equal when they
    went the same way)."""
    with read_session(get_engine()) as session:
        # (an event's created_at is the wall clock's, not the sweep's)
        events = session.execute(sa.select(Event.seq, Event.type, Event.payload, Event.actor, Event.kind)
                                 .where(Event.game_id == game_id).order_by(Event.seq)).all()
        emails = session.execute(
            sa.select(Player.seat, Outbox.kind, Outbox.params, Outbox.seq, Outbox.status)
            .join(Player, Player.id == Outbox.player_id).where(Outbox.game_id == game_id).order_by(Outbox.id)).all()
        journal = session.execute(
            sa.select(JournalEntry.kind, JournalEntry.seat, JournalEntry.payload, JournalEntry.after_seq,
                      JournalEntry.created_at).where(JournalEntry.game_id == game_id).order_by(JournalEntry.id)).all()
        clocks = session.execute(
            sa.select(Deadline.seat, Deadline.due_at, Deadline.reminders_done, Deadline.next_at)
            .where(Deadline.game_id == game_id).order_by(Deadline.seat)).all()
        clock = session.execute(sa.select(GameClock.paused_at, GameClock.timeout_streak, GameClock.end_due_at)
                                .where(GameClock.game_id == game_id)).one()
    # A notice names its journal entry by id: the ids differ between games, the entries' kinds not.
    return {"events": [tuple(row) for row in events],
            "emails": [(seat, kind, {k: v for k, v in params.items() if k != "entry"}, seq, status)
                       for seat, kind, params, seq, status in emails],
            "journal": [tuple(row) for row in journal], "clocks": [tuple(row) for row in clocks],
            "clock": [tuple(clock)]}


def one_by_one(monkeypatch):
    """Make every batch fail before it writes: the sweep then does each row alone, through `handle`
    (the path every sweep took before the batches)."""
    def refuse(self, session, ids):
        raise RuntimeError("no batches here")
    monkeypatch.setattr(timeouts._Batch, "run", refuse)


@pytest.mark.parametrize(("name", "options", "hours", "policy"), [
    ("toy", {"target": 60}, [24, 47, 48, 60, 72, 96, 100, 120, 150, 200, 250, 300], "auto"),
    ("riftforce", {}, [12, 24, 48, 72, 96, 120, 144], "auto"),
    ("beyond-the-rift", {"defense_modes": ["ask", "ask"]}, [12, 24, 36, 47, 48, 60, 96, 120, 144], "auto"),
    # Two heroes asked at once, both overdue in one batch: one pause, one notice each, and no
    # reminder of the same pass re-arms a clock the pause stopped.
    ("beyond-the-rift", {"defense_modes": ["ask", "ask"]}, [12, 23.5, 24, 36, 48, 60], "pause"),
])
def test_a_batch_writes_what_handle_writes(backend_url, tmp_path, monkeypatch, name, options, hours, policy):
    """The same game (same seed, same times) swept by batches and by the old one-row path: the same
    events, emails, journal lines and clocks, reminders, timed_out emails and the stall rule's pause
    included."""
    with app_on(tmp_path, backend_url):
        preconsent(*[email for _, email in PLAYERS])
        name = toygame.NAME if name == "toy" else name

        def play(batches: bool) -> int:
            game_id = new_game(name, PLAYERS, options, seed=3, deadline_hours=24, policy=policy,
                               reminders=[12, 1], now=T0)
            with monkeypatch.context() as patch:
                if not batches:
                    one_by_one(patch)
                for hour in hours:
                    sweep(hour)
            return game_id

        # The first game's clocks all run past the last hour swept, so the second one's sweeps never
        # find them due (a paused game has none running).
        batched = play(batches=True)
        alone = play(batches=False)
        if policy == "auto":
            assert event_kinds(batched).count("timeout") >= 3
        else:
            assert [kind for kind, *_ in written(batched)["journal"]].count("paused") == 1
        assert written(batched) == written(alone)


def test_a_failing_row_rolls_its_batch_back_and_the_others_are_done_one_by_one(app, monkeypatch, caplog):
    games = [timed_game(hours=48) for _ in range(4)]
    bad = games[1]
    real = current_rows.advance

    def advance(conn, game, *args, **kwargs):
        if game.id == bad:
            raise RuntimeError("a bug in one game")
        return real(conn, game, *args, **kwargs)

    monkeypatch.setattr(current_rows, "advance", advance)
    with caplog.at_level(logging.ERROR, logger="service.play.timeouts"):
        counts = sweep(48)
    assert counts["batch_failures"] == 1 and counts["errors"] == 1
    assert counts["timeouts"] == 3 and counts["timed_out_emails"] == 3
    for game_id in games:  # (a toy turn is two decisions: two default moves)
        assert bool(event_kinds(game_id).count("timeout")) == (game_id != bad), game_id
    # The culprit is logged, and nothing of it was written: its row waits for its lease to run out.
    assert any(record.exc_info and "a bug in one game" in str(record.exc_info[1]) for record in caplog.records)
    assert rows(Outbox, game_id=bad, kind="timed_out") == []
    monkeypatch.setattr(current_rows, "advance", real)
    assert sweep(48)["timeouts"] == 0  # leased
    assert sweep(48 + seats.LEASE.total_seconds() / 3600)["timeouts"] == 1
    assert event_kinds(bad).count("timeout") == event_kinds(games[0]).count("timeout")


def test_a_move_made_after_the_batch_read_it_wins_and_the_row_is_looked_at_again(app, monkeypatch):
    """The player moves between the batch's read and its timeout move (here: inside the batch's
    transaction, right after the read): the timeout move is StaleState and writes nothing, and the
    next pass finds the seat's turn over."""
    raced, calm = timed_game(hours=48), timed_game(hours=48)
    seat = current(raced)[0].to_act[0]
    real = current_rows.read_due
    reads: list[list[int]] = []
    stale = Counter[str]()

    def read_due(conn, ids):
        found = real(conn, ids)
        reads.append(list(ids))
        if len(reads) == 1:
            from sqlmodel import Session

            game = next(due.loaded.game for due in found if due.loaded.game.id == raced)
            state = next(due.loaded.state for due in found if due.loaded.game.id == raced)
            move = engine.get(game.name).timeout_move(dict(state), seat, "auto")
            player = Session(bind=conn)
            moves.apply(player, raced, seat, [move], game.seq, kind="move", now=at(47.5))
            player.flush()
        return found

    real_apply = timeouts.apply

    def apply(*args, **kwargs):
        try:
            return real_apply(*args, **kwargs)
        except timeouts.StaleState:
            stale["stale"] += 1
            raise

    monkeypatch.setattr(current_rows, "read_due", read_due)
    monkeypatch.setattr(timeouts, "apply", apply)
    before = current(raced)[0].seq
    row_id = deadline(raced, seat).id
    counts = sweep(48)
    assert stale["stale"] == 1 and row_id in reads[1]  # nothing written, and looked at again
    raced_events = sorted(rows(Event, game_id=raced), key=lambda row: row.seq)
    assert raced_events[before].kind == "move" and raced_events[before].actor == seat  # the player's
    # the rest of the turn (if the player's move left any) was played for them on the next pass
    assert all(row.kind == "timeout" for row in raced_events[before + 1:])
    assert event_kinds(calm).count("timeout") >= 1 and counts["timeouts"] == 1 + bool(raced_events[before + 1:])


@pytest.mark.postgres
def test_two_sweeps_in_small_batches_at_once_never_do_one_row_twice(tmp_path, monkeypatch):
    """Two sweeps at the same time, in threads, each claiming batches of 3 (so both claim, SKIP
    LOCKED and leases decide): every due seat timed out once, every timed_out email once."""
    from service.migrate import upgrade
    from tests import services

    url = services.postgres_database()
    try:
        upgrade(url)
        monkeypatch.setattr(seats, "BATCH", 3)
        with app_on(tmp_path, url) as app:
            games = [timed_game(hours=48, seed=n) for n in range(24)]
            first = {game_id: set(current(game_id)[0].to_act) for game_id in games}
            totals: list[Counter[str]] = []
            start = threading.Barrier(2)

            def run():
                with app.app_context():
                    start.wait()
                    totals.append(timeouts.sweep(at(48)))

            threads = [threading.Thread(target=run) for _ in range(2)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(120)
            assert len(totals) == 2 and not any(counts["errors"] for counts in totals)
            assert all(counts["timeouts"] for counts in totals), totals  # both sweeps did some
            assert sum(counts["timeouts"] for counts in totals) == sum(len(s) for s in first.values())
            for game_id in games:
                timed_out = [row for row in rows(Event, game_id=game_id) if row.kind == "timeout"]
                assert {row.actor for row in timed_out} == first[game_id]
                told = Counter(row.player_id for row in rows(Outbox, game_id=game_id, kind="timed_out"))
                assert len(told) == len(first[game_id]) and set(told.values()) == {1}, told
    finally:
        services.drop_postgres(url)
