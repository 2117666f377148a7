"""Seat clocks: per-seat deadlines, the reminder ladder, pauses, and the notices that tell about them.

Everything lives in the database; the sweep (service/play/timeouts.py) drives it.  No function here
reads the clock (`now` is an argument, so tests drive whole games through chosen times) and none plays
a move: timeouts are the play layer's, above this one.

- A seat's deadline starts when its turn starts, or it is newly asked to decide (`after_move`, inside
  the move's transaction, and `on_create`).  Follow-up decisions of the same turn keep it.  A decision
  may get a share of the deadline (engine `deadline_share`), and a seat that joins a window others are
  still deciding in never gets a later deadline than theirs.
- Reminders: for a ladder of (24, 2) one email 24 h and one 2 h before the deadline, each at most once
  per deadline (a step whose time falls before the turn started is skipped; a sweep that finds two
  steps due sends only the later one: reminders never pile up).
- The stall rule: a game whose seats only time out never ends (a game can loop on default moves), so
  after STREAK_ROUNDS full rounds of timed-out turns in a row (2 x the number of seats) an `auto` or
  `skip` game is paused and everyone is told.  A paused game resumes, with fresh clocks, on any
  player's move.

Concurrency: the sweep claims due rows with `SELECT ... FOR UPDATE SKIP LOCKED` (PostgreSQL; SQLite
write transactions are serialised by BEGIN IMMEDIATE) and leases them by moving `next_at` LEASE into
the future, so two sweeps never work on the same row (a batch does its rows in one transaction, the
lease holding them between its claim and its commit); and even then a reminder is only written while
its deterministic Message-ID is free, and that column is UNIQUE.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import datetime, timedelta
from typing import Any

import sqlalchemy as sa
from sqlmodel import Session, col

from service import store
from service.clocks.settings import DEFAULT_REMINDERS
from service.mail import kinds, outbox
from service.store import write_session
from service.store.current import CLOCKS, DEADLINES, AnyGame, AnyPlayer, ClockRow, Due
from service.store.db import get_engine
from service.store.models import Deadline, Game, GameClock, JournalEntry, Person, Player, as_utc

JOURNAL = JournalEntry.__table__  # type: ignore[attr-defined]
LEASE = timedelta(minutes=5)
STREAK_ROUNDS = 2
BATCH = 200


def next_at(due_at: datetime, done: int, ladder: list[int]) -> datetime:
    """When to look next: the next reminder step, or the deadline itself."""
    if done < len(ladder):
        return due_at - timedelta(hours=ladder[done])
    return due_at


def _steps_before(start: datetime, due_at: datetime, ladder: list[int]) -> int:
    """Ladder steps that would fall at or before the start of the turn (never sent)."""
    return sum(1 for h in ladder if due_at - timedelta(hours=h) <= start)


PEOPLE = Person.__table__  # type: ignore[attr-defined]
_AWAY = sa.select(PEOPLE.c.email).where(PEOPLE.c.email.in_(sa.bindparam("emails", expanding=True)),
                                        PEOPLE.c.vacation_since.is_not(None))
_START = sa.insert(DEADLINES)


def _start_clocks(conn: sa.Connection, game_id: int, hours: int, ladder: list[int], players: Sequence[AnyPlayer],
                  now: datetime, shares: dict[int, float] | None = None,
                  cap: datetime | None = None) -> dict[int, datetime]:
    """Start the clocks of `players` (their rows must be gone: the caller deleted them), in one
    statement; the deadlines of the clocks that run, by seat.  `shares`: the part of the game's
    deadline each seat's decision gets (engine `deadline_share`); `cap`: the deadline of a window the
    seats join, which they never outlast.  A seat whose person is on vacation gets a stopped clock
    holding the time it will have."""
    if not players:
        return {}
    away = set(conn.execute(_AWAY, {"emails": sorted({p.email for p in players})}).scalars())
    rows = []
    started: dict[int, datetime] = {}
    for player in players:
        total = timedelta(hours=hours * (shares or {}).get(player.seat, 1.0))
        if cap is not None:
            total = max(timedelta(0), min(total, cap - now))
        due = now + total
        done = _steps_before(now, due, ladder)
        stopped = player.email in away
        if not stopped:
            started[player.seat] = due
        rows.append({
            "game_id": game_id, "seat": player.seat, "player_id": player.id, "started_at": now,
            "due_at": None if stopped else due,
            "remaining_seconds": int(total.total_seconds()) if stopped else None,
            "reminders_done": done,
            "next_at": None if stopped else next_at(due, done, ladder),
        })
    conn.execute(_START, rows)
    return started


def clock_of(session: Session, game_id: int, lock: bool = False) -> GameClock:
    """The game's clock row; games from before deadlines existed get an untimed one."""
    clock = session.get(GameClock, game_id, with_for_update=lock or None)
    if clock is None:
        clock = GameClock(game_id=game_id, deadline_hours=None, policy="auto", reminders=list(DEFAULT_REMINDERS))
        session.add(clock)
        session.flush()
    return clock


def on_create(
    session: Session, game: Game, players: list[Player], hours: int | None, policy: str,
    reminders: list[int], now: datetime, shares: dict[int, float] | None = None,
) -> None:
    clock = GameClock(game_id=game.id, deadline_hours=hours, policy=policy, reminders=list(reminders))
    session.add(clock)
    session.flush()
    if hours is not None and game.result is None:
        _start_clocks(session.connection(), game.id, hours, list(reminders),
                      [p for p in players if p.seat in game.to_act], now, shares)


_CLOCK = sa.select(*[CLOCKS.c[name] for name in ClockRow.__slots__]).where(CLOCKS.c.game_id == sa.bindparam("game_id"))


def after_move(
    session: Session, game: AnyGame, players: Sequence[AnyPlayer], actor: int, before: Collection[int],
    after: Collection[int], restart: set[int], kind: str, finished: bool, now: datetime,
    shares: dict[int, float] | None = None, clock: ClockRow | None = None,
) -> dict[int, datetime]:
    """Inside the move's transaction: move the clocks on after `actor`'s decision of `kind`; `clock`:
    the game's clock row when the caller read it already (service/store/current.py `read`).  The
    deadlines it started, by seat (what the turn emails of the change state).

    `restart`: the seats whose clock (re)starts: those whose turn began with this move and those newly
    asked to decide (service/play/moves.py says which).  Core statements only, and only those a change
    needs: a turn passing from one seat to another in a timed game costs three (read the clock, delete
    the two seats' rows, insert the new one) plus the vacation look-up."""
    assert game.id is not None
    conn = session.connection()
    if clock is None:
        found = conn.execute(_CLOCK, {"game_id": game.id}).first()
        clock = None if found is None else ClockRow(*found)
    if finished:
        # The end-of-game task records the end; until then no clock may run.
        conn.execute(sa.delete(DEADLINES).where(DEADLINES.c.game_id == game.id))
        if clock is None:  # a game from before deadlines existed: its (untimed) row now
            clock_of(session, game.id)
        conn.execute(sa.update(CLOCKS).where(CLOCKS.c.game_id == game.id).values(end_due_at=now))
        return {}
    if clock is None:  # a game from before deadlines existed: untimed, nothing to move on
        return {}
    by_seat = {p.seat: p for p in players}
    restart = set(restart)
    streak, paused = clock.timeout_streak, clock.paused_at
    if kind == "timeout":
        if actor not in after or actor in restart:  # the timed-out turn is over
            streak += 1
    else:
        streak = 0
        if paused is not None:
            paused = None
            restart = set(after)
            entry = journal_entry(session, game, "resumed", actor, {"by": by_seat[actor].name}, now)
            tell(session, game, players, entry)  # sent by the outbox scan
    hours = clock.deadline_hours if paused is None else None  # None: no clock runs
    gone = (set(before) - set(after)) | (restart if hours is not None else set())
    if gone:
        conn.execute(sa.delete(DEADLINES).where(DEADLINES.c.game_id == game.id, DEADLINES.c.seat.in_(sorted(gone))))
    if (streak, paused) != (clock.timeout_streak, clock.paused_at):
        conn.execute(sa.update(CLOCKS).where(CLOCKS.c.game_id == game.id).values(timeout_streak=streak, paused_at=paused))
    if hours is None:
        return {}
    # only when a clock (re)starts: a follow-up decision of the same turn needs no query
    cap = _window_due(session, game.id, set(before) & set(after) - restart) if restart else None
    started = _start_clocks(conn, game.id, hours, list(clock.reminders),
                            [by_seat[seat] for seat in sorted(restart)], now, shares, cap)
    if kind == "timeout" and clock.policy in ("auto", "skip") and streak >= STREAK_ROUNDS * len(players):
        pause(session, game, clock_of(session, game.id), players, actor, now, reason="timeouts")
        return {}  # every clock stopped
    return started


def _window_due(session: Session, game_id: int, staying: set[int]) -> datetime | None:
    """The deadline of the decision window that seats join while `staying` seats go on deciding in it
    (a simultaneous phase: a seat that said it was done and reopens, or is reopened, joins it).  Without
    this, done-then-undone would win a fresh clock each time and hold the window open for ever.  None
    when nobody stays, or no clock of theirs runs."""
    if not staying:
        return None
    due = session.execute(sa.select(sa.func.min(col(Deadline.due_at))).where(
        col(Deadline.game_id) == game_id, col(Deadline.seat).in_(sorted(staying)))).scalar()
    return as_utc(due) if due is not None else None


def pause(
    session: Session, game: AnyGame, clock: GameClock, players: Sequence[AnyPlayer], seat: int | None,
    now: datetime, reason: str,
) -> None:
    """Stop every clock of the game and tell everyone (the pause policy and the stall rule)."""
    clock.paused_at = now
    session.add(clock)
    session.execute(
        sa.update(Deadline).where(col(Deadline.game_id) == game.id)
        .values(due_at=None, next_at=None, remaining_seconds=None)
    )
    names = {p.seat: p.name for p in players}
    entry = journal_entry(session, game, "paused", seat, {
        "reason": reason, "name": names.get(seat, "") if seat is not None else "", "rounds": STREAK_ROUNDS,
    }, now)
    tell(session, game, players, entry)  # sent by the outbox scan


# ---- journal and notices -------------------------------------------------------------------------


def journal_entry(
    session: Session, game: AnyGame, kind: str, seat: int | None, payload: dict[str, Any], now: datetime,
) -> int:
    assert game.id is not None
    return store.journal_record(session, game.id, game.seq, kind, seat, payload, at=now)


def tell(session: Session, game: AnyGame, players: Sequence[AnyPlayer], entry_id: int) -> list[int]:
    """Email a journal entry to `players` (a notice each) if its kind is told at once (a pause); the
    outbox row ids.  Other entries wait for each reader's next turn or game-over email, which tells
    them among what happened since (service/play/emails.py)."""
    entry = session.get(JournalEntry, entry_id)
    if entry is None or not kinds.told_at_once(entry.kind):
        return []
    return outbox.ids(session, outbox.add(session, game, players, "notice", {"entry": entry_id}))


# ---- reminders -----------------------------------------------------------------------------------


def claim_due(now: datetime) -> list[int]:
    """Lease up to BATCH due rows to this sweep (other sweeps skip them)."""
    with write_session(get_engine()) as session:
        ids = session.execute(
            sa.select(col(Deadline.id)).where(col(Deadline.next_at) <= now).order_by(col(Deadline.next_at))
            .limit(BATCH).with_for_update(skip_locked=True)
        ).scalars().all()
        if ids:
            session.execute(sa.update(Deadline).where(col(Deadline.id).in_(ids)).values(next_at=now + LEASE))
    return list(ids)


_STEP = (
    sa.update(Deadline).where(col(Deadline.id) == sa.bindparam("b_id"))
    .values(reminders_done=sa.bindparam("done"), next_at=sa.bindparam("look"))
)


def remind(session: Session, rows: Sequence[Due], now: datetime) -> list[int]:
    """The reminder step of deadlines still ahead (a sweep's batch): email each the latest ladder step
    that is due (once per deadline) and schedule its next look; the outbox row ids.  The emails, journal
    lines and row updates of the batch are one statement each."""
    emails: list[outbox.Email] = []
    steps: list[dict[str, Any]] = []
    for row in rows:
        assert row.due_at is not None
        due_at = as_utc(row.due_at)
        done = row.reminders_done
        assert row.loaded.clock is not None
        ladder = list(row.loaded.clock.reminders)
        passed = [i for i in range(done, len(ladder)) if due_at - timedelta(hours=ladder[i]) <= now]
        if passed:
            emails.append((row.loaded.game, row.player, "reminder", {"hours": ladder[passed[-1]]}, None))
            done = passed[-1] + 1
        steps.append({"b_id": row.id, "done": done, "look": next_at(due_at, done, ladder)})
    taken = outbox.taken(session, emails)
    emails = [email for email in emails if outbox.message_id_of(email) not in taken]
    sent = outbox.ids(session, outbox.add_many(session, emails))
    if emails:
        session.connection().execute(sa.insert(JOURNAL), [
            {"game_id": game.id, "after_seq": game.seq, "kind": "reminder", "seat": player.seat,
             "payload": params, "created_at": now}
            for game, player, _, params, _ in emails])
    if steps:
        session.connection().execute(_STEP, steps)
    return sent


def status_for(session: Session, game_id: int, seat: int) -> dict[str, Any] | None:
    """The seat's clock as the player page shows it (read only); None for an untimed game."""
    clock = session.get(GameClock, game_id)
    if clock is None or clock.deadline_hours is None:
        return None
    row = session.execute(
        sa.select(Deadline).where(col(Deadline.game_id) == game_id, col(Deadline.seat) == seat)
    ).scalar_one_or_none()
    return {"clock": clock, "deadline": row}
