"""Time control: per-seat deadlines, the reminder ladder, timeouts, pauses and vacations.

Everything lives in the database and is driven by one idempotent sweep (`sweep(now)`), which celery
beat runs every minute and `flask --app service sweep [--now ISO8601]` runs by hand.  No function
here reads the clock: `now` is always an argument, so tests drive whole games through chosen times.

The rows (service/models.py): `game_clocks` (one per game: hours, policy, reminder ladder, paused,
timeout streak, end pending), `deadlines` (one per seat that is to act in a timed game) and `people`
(per email address: time zone, vacation, yearly allowance).

How the rules play out:

- A seat's deadline starts when it becomes that seat's turn (`after_move`, inside `handle`'s
  transaction, and `on_create`).  Follow-up decisions of the same turn keep the same deadline.
- Reminders: for a ladder of (24, 2) one email 24 h and one 2 h before the deadline, each at most
  once per deadline (a step whose time falls before the turn started is skipped; a sweep that finds
  two steps due sends only the later one: reminders never pile up).  Outbox rows are keyed
  (game, player, "reminder-<h>h", seq), and the delivery skips a reminder whose player has moved.
- Timeouts enter through `handle(..., kind="timeout")` with the policy's move: `auto` plays the
  engine's `default_move` for each remaining decision of the turn; `skip` plays a pass-type legal
  move ("pass"/"skip") where the engine offers one and otherwise falls back to `auto`; `forfeit`
  ends the game through the end-of-game path (the other seats win); `pause` stops every clock of
  the game and tells everyone.  A paused game resumes, with fresh clocks, on any player's move.
- The stall rule: a game whose seats only time out never ends (a Riftwalker game can loop on
  default moves), so after STREAK_ROUNDS full rounds of timed-out turns in a row (2 x the number of
  seats) an `auto`/`skip` game is paused the same way and everyone is told.
- Vacation stops the person's clocks in every game (the time left is kept) and the other players
  are told once per game; ending it restarts the clocks with the time that was left.  A yearly
  allowance (ALLOWANCE, 21 days by default) is counted in the calendar year the vacation started;
  the sweep ends a vacation when the allowance runs out.

Concurrency: the sweep claims due rows with `SELECT ... FOR UPDATE SKIP LOCKED` (PostgreSQL; SQLite
write transactions are serialised by BEGIN IMMEDIATE) and leases them by moving `next_at` LEASE into
the future, so two sweeps never work on the same row; and even then a reminder is a conditional
step of `reminders_done` under a row lock plus a unique outbox key, and a timeout is a `handle` call
bound to the seq that was read with the deadline (a second one gets StaleState and re-reads).
"""

from __future__ import annotations

import logging
from collections import Counter
from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import sqlalchemy as sa
from sqlmodel import Session

import engine
from service import journal, notify, outbox, store
from service.db import get_engine, write_session
from service.models import Deadline, Game, GameClock, JournalEntry, Outbox, Person, Player

log = logging.getLogger(__name__)

DEFAULT_HOURS = 72  # what the creation form offers
DEFAULT_REMINDERS = (24, 2)
POLICIES = ("auto", "skip", "forfeit", "pause")
MAX_HOURS = 24 * 60
ALLOWANCE = timedelta(days=21)
LEASE = timedelta(minutes=5)
STREAK_ROUNDS = 2
PASS_TYPES = ("pass", "skip")
BATCH = 200
# A turn is a handful of decisions; more defaults than this in one turn means an engine loops.
MAX_DEFAULTS_PER_TURN = 200


class DeadlineError(ValueError):
    """Bad time-control input or a vacation that cannot start/end; the message is for people."""


# ---- settings ------------------------------------------------------------------------------------


def parse_settings(hours, policy, reminders) -> tuple[int | None, str, list[int]]:
    """Validated (hours, policy, ladder) from CLI or form text; raises DeadlineError."""
    if hours in (None, "", "none", "0", 0):
        parsed_hours = None
    else:
        try:
            parsed_hours = int(str(hours).strip())
        except ValueError:
            raise DeadlineError("The deadline must be a whole number of hours (or empty for none).") from None
        if not 1 <= parsed_hours <= MAX_HOURS:
            raise DeadlineError(f"The deadline must be between 1 and {MAX_HOURS} hours.")
    policy = (policy or "auto").strip().lower()
    if policy not in POLICIES:
        raise DeadlineError(f"The timeout policy must be one of: {', '.join(POLICIES)}.")
    if reminders is None:
        ladder = list(DEFAULT_REMINDERS)
    else:
        text = reminders if isinstance(reminders, str) else ",".join(str(r) for r in reminders)
        try:
            ladder = sorted({int(part) for part in text.split(",") if part.strip()}, reverse=True)
        except ValueError:
            raise DeadlineError("Reminders are hours before the deadline, like 24,2.") from None
        if any(not 1 <= h <= MAX_HOURS for h in ladder) or len(ladder) > 5:
            raise DeadlineError(f"Give at most 5 reminders, each 1 to {MAX_HOURS} hours before the deadline.")
    return parsed_hours, policy, ladder


def zone(name: str | None) -> ZoneInfo:
    try:
        return ZoneInfo(name or "UTC")
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


def local_time(moment: datetime, zone_name: str | None) -> str:
    """An absolute time in the person's zone, unambiguous in an email ("Tue 24 Nov 2026, 14:00 CET")."""
    return moment.astimezone(zone(zone_name)).strftime("%a %d %b %Y, %H:%M %Z")


def as_utc(moment: datetime) -> datetime:
    return moment.replace(tzinfo=timezone.utc) if moment.tzinfo is None else moment.astimezone(timezone.utc)


# ---- people --------------------------------------------------------------------------------------


def _ensure_person(session: Session, email: str) -> None:
    dialect = session.get_bind().dialect.name
    if dialect == "postgresql":
        from sqlalchemy.dialects.postgresql import insert
    else:
        from sqlalchemy.dialects.sqlite import insert
    # Concurrent first visits both insert; the loser's row is simply not needed.
    session.execute(insert(Person).values(
        email=email, time_zone="UTC", allowance_year=0, allowance_used_seconds=0,
    ).on_conflict_do_nothing(index_elements=["email"]))


def person(session: Session, email: str, lock: bool = False) -> Person:
    """The person's row, created on first use (so every read sees the defaults)."""
    found = session.get(Person, email, with_for_update=lock or None, populate_existing=True)
    if found is None:
        _ensure_person(session, email)
        found = session.get(Person, email, with_for_update=lock or None, populate_existing=True)
    return found


def peek_person(session: Session, email: str) -> Person:
    """For reads (GET pages): the stored row or an unsaved one with the defaults."""
    return session.get(Person, email) or Person(email=email)


def allowance_left(who: Person, now: datetime) -> timedelta:
    used = who.allowance_used_seconds if who.allowance_year == now.year else 0
    if who.vacation_since is not None and as_utc(who.vacation_since).year == who.allowance_year:
        used += int((now - as_utc(who.vacation_since)).total_seconds())
    return max(timedelta(0), ALLOWANCE - timedelta(seconds=used))


def set_time_zone(email: str, name: str) -> None:
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise DeadlineError(f"{name!r} is not a time zone we know; pick one from the list.") from None
    with write_session(get_engine()) as session:
        who = person(session, email, lock=True)
        who.time_zone = name
        session.add(who)


# ---- clocks of seats -----------------------------------------------------------------------------


def _next_at(due_at: datetime, done: int, ladder: list[int]) -> datetime:
    """When to look next: the next reminder step, or the deadline itself."""
    if done < len(ladder):
        return due_at - timedelta(hours=ladder[done])
    return due_at


def _steps_before(start: datetime, due_at: datetime, ladder: list[int]) -> int:
    """Ladder steps that would fall at or before the start of the turn (never sent)."""
    return sum(1 for h in ladder if due_at - timedelta(hours=h) <= start)


def _start_clock(session: Session, game_id: int, clock: GameClock, player: Player, now: datetime,
                 share: float = 1.0, cap: datetime | None = None) -> None:
    """`share`: the part of the game's deadline this decision gets (engine `deadline_share`); `cap`:
    the deadline of a window the seat joins, which it never outlasts."""
    session.execute(sa.delete(Deadline).where(Deadline.game_id == game_id, Deadline.seat == player.seat))
    total = timedelta(hours=clock.deadline_hours * share)
    if cap is not None:
        total = max(timedelta(0), min(total, cap - now))
    due = now + total
    ladder = list(clock.reminders)
    done = _steps_before(now, due, ladder)
    away = session.get(Person, player.email)
    stopped = away is not None and away.vacation_since is not None
    session.execute(sa.insert(Deadline), [{
        "game_id": game_id, "seat": player.seat, "player_id": player.id, "started_at": now,
        "due_at": None if stopped else due,
        "remaining_seconds": int(total.total_seconds()) if stopped else None,
        "reminders_done": done,
        "next_at": None if stopped else _next_at(due, done, ladder),
    }])


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
        for player in players:
            if player.seat in game.to_act:
                _start_clock(session, game.id, clock, player, now, (shares or {}).get(player.seat, 1.0))


def after_move(
    session: Session, game: Game, actor: int, before: list[int], after: list[int], kind: str,
    finished: bool, now: datetime, events: list[dict] = (), shares: dict[int, float] | None = None,
) -> None:
    """Inside `handle`'s transaction: move the clocks on after `actor`'s decision of `kind`.

    A seat's clock (re)starts when its turn starts: it is newly among the seats to act, or it
    starts a new turn right after its own (Riftforce solo; `notify.newly_to_act`)."""
    clock = clock_of(session, game.id)
    players = {p.seat: p for p in notify.players_of(session, game.id)}
    if finished:
        # The end-of-game task records the end; until then no clock may run.
        session.execute(sa.delete(Deadline).where(Deadline.game_id == game.id))
        clock.end_due_at = now
        session.add(clock)
        return
    restart = notify.newly_to_act(before, after, events, actor)
    if kind == "timeout":
        if actor not in after or actor in restart:  # the timed-out turn is over
            clock.timeout_streak += 1
    else:
        clock.timeout_streak = 0
        if clock.paused_at is not None:
            clock.paused_at = None
            restart = set(after)
            entry = journal_entry(session, game, "resumed", actor, {"by": players[actor].name}, now)
            notify_notice(session, game, list(players.values()), entry)
    session.execute(sa.delete(Deadline).where(
        Deadline.game_id == game.id, Deadline.seat.in_(sorted(set(before) - set(after)))))
    if clock.deadline_hours is not None and clock.paused_at is None:
        # only when a clock (re)starts: a follow-up decision of the same turn needs no query
        cap = _window_due(session, game.id, set(before) & set(after) - restart) if restart else None
        for seat in sorted(restart):
            _start_clock(session, game.id, clock, players[seat], now, (shares or {}).get(seat, 1.0), cap)
        if (
            kind == "timeout" and clock.policy in ("auto", "skip")
            and clock.timeout_streak >= STREAK_ROUNDS * len(players)
        ):
            pause(session, game, clock, list(players.values()), actor, now, reason="timeouts")
    session.add(clock)


def _window_due(session: Session, game_id: int, staying: set[int]) -> datetime | None:
    """The deadline of the decision window that seats join while `staying` seats go on deciding in it
    (Beyond the Rift's hero phase: a DONE hero who reopens, or is reopened, joins the phase).  Without
    this, DONE then UNDONE would win a fresh clock each time and hold the phase open for ever (rules
    3.2: the phase closes at its deadline).  None when nobody stays, or no clock of theirs runs."""
    if not staying:
        return None
    due = session.execute(sa.select(sa.func.min(Deadline.due_at)).where(
        Deadline.game_id == game_id, Deadline.seat.in_(sorted(staying)))).scalar()
    return as_utc(due) if due is not None else None


def pause(
    session: Session, game: Game, clock: GameClock, players: list[Player], seat: int | None,
    now: datetime, reason: str,
) -> None:
    """Stop every clock of the game and tell everyone (the pause policy and the stall rule)."""
    clock.paused_at = now
    session.add(clock)
    session.execute(
        sa.update(Deadline).where(Deadline.game_id == game.id)
        .values(due_at=None, next_at=None, remaining_seconds=None)
    )
    names = {p.seat: p.name for p in players}
    entry = journal_entry(session, game, "paused", seat, {
        "reason": reason, "name": names.get(seat, ""), "rounds": STREAK_ROUNDS,
    }, now)
    notify_notice(session, game, players, entry)


# ---- journal and notices -------------------------------------------------------------------------


def journal_entry(
    session: Session, game: Game, kind: str, seat: int | None, payload: dict, now: datetime,
) -> int:
    return journal.record(session, game.id, game.seq, kind, seat, payload, at=now)


NOTICE_PREFIX = "notice:"


def notify_notice(session: Session, game: Game, players: list[Player], entry_id: int) -> list[Outbox]:
    """Email a journal entry to `players`: one outbox row each, keyed by the entry ("notice:<id>")."""
    rows = [
        Outbox(
            game_id=game.id, player_id=p.id, kind=f"{NOTICE_PREFIX}{entry_id}", seq=game.seq,
            message_id=notify.message_id(game, p, f"n{entry_id}", game.seq),
        )
        for p in players
    ]
    session.add_all(rows)
    session.flush()
    return rows


def describe(entry: JournalEntry, names: dict[int, str]) -> str:
    """A journal entry as one sentence for players (and the history pages)."""
    who = names.get(entry.seat, f"seat {entry.seat + 1}") if entry.seat is not None else ""
    data = entry.payload or {}
    if entry.kind == "reminder":
        return f"{who} was reminded: {data.get('hours')} hours left to move."
    if entry.kind == "vacation_start":
        return f"{who} is on vacation: their clock is stopped until they are back."
    if entry.kind == "vacation_end":
        return f"{who} is back from vacation: their clock runs again."
    if entry.kind == "paused":
        if data.get("reason") == "timeouts":
            return (f"The game is paused: every player's turns timed out {data.get('rounds')} rounds "
                    "in a row. It resumes, with fresh clocks, when anyone plays.")
        return f"The game is paused: {who} ran out of time. It resumes, with fresh clocks, when {who} plays."
    if entry.kind == "resumed":
        return f"The game resumed: {data.get('by') or who} played. The clocks run again."
    if entry.kind == "forfeit":
        return f"{who} ran out of time and forfeited the game."
    return entry.kind.replace("_", " ")


# ---- vacations -----------------------------------------------------------------------------------


def _seats_of(session: Session, email: str) -> list[tuple[Player, Game]]:
    """The person's seats in games that are still running."""
    return list(session.execute(
        sa.select(Player, Game).join(Game, Game.id == Player.game_id)
        .where(Player.email == email, Game.status == "active")
        .order_by(Game.id)
    ).all())


def _tell_others(session: Session, email: str, kind: str, now: datetime) -> list[int]:
    ids = []
    for player, game in _seats_of(session, email):
        entry = journal_entry(session, game, kind, player.seat, {"name": player.name}, now)
        others = [p for p in notify.players_of(session, game.id) if p.email != email]
        ids += [row.id for row in notify_notice(session, game, others, entry)]
    return ids


def start_vacation(email: str, now: datetime) -> Person:
    with write_session(get_engine()) as session:
        who = person(session, email, lock=True)
        if who.vacation_since is not None:
            raise DeadlineError("You are already on vacation.")
        if who.allowance_year != now.year:
            who.allowance_year, who.allowance_used_seconds = now.year, 0
        left = allowance_left(who, now)
        if left <= timedelta(0):
            raise DeadlineError(f"Your vacation allowance for {now.year} is used up.")
        who.vacation_since, who.vacation_until = now, now + left
        session.add(who)
        rows = session.execute(
            sa.select(Deadline).join(Player, Player.id == Deadline.player_id)
            .where(Player.email == email, Deadline.due_at.is_not(None))
            .with_for_update(of=Deadline)
        ).scalars().all()
        for row in rows:
            row.remaining_seconds = max(0, int((as_utc(row.due_at) - now).total_seconds()))
            row.due_at = row.next_at = None
            session.add(row)
        ids = _tell_others(session, email, "vacation_start", now)
    outbox.kick(ids)
    return who


def end_vacation(email: str, now: datetime) -> Person:
    with write_session(get_engine()) as session:
        who = person(session, email, lock=True)
        if who.vacation_since is None:
            raise DeadlineError("You are not on vacation.")
        since = as_utc(who.vacation_since)
        spent = max(0, int((min(now, as_utc(who.vacation_until or now)) - since).total_seconds()))
        if who.allowance_year == since.year:
            who.allowance_used_seconds += spent
        who.vacation_since = who.vacation_until = None
        session.add(who)
        rows = session.execute(
            sa.select(Deadline, GameClock).join(Player, Player.id == Deadline.player_id)
            .join(GameClock, GameClock.game_id == Deadline.game_id)
            .where(Player.email == email, Deadline.remaining_seconds.is_not(None), GameClock.paused_at.is_(None))
            .with_for_update(of=Deadline)
        ).all()
        for row, clock in rows:
            row.due_at = now + timedelta(seconds=row.remaining_seconds)
            row.remaining_seconds = None
            row.next_at = _next_at(row.due_at, row.reminders_done, list(clock.reminders))
            session.add(row)
        ids = _tell_others(session, email, "vacation_end", now)
    outbox.kick(ids)
    return who


def end_expired_vacations(now: datetime) -> int:
    with write_session(get_engine()) as session:
        emails = session.execute(
            sa.select(Person.email).where(Person.vacation_until <= now).order_by(Person.vacation_until).limit(BATCH)
        ).scalars().all()
    ended = 0
    for email in emails:
        try:
            end_vacation(email, now)
            ended += 1
        except DeadlineError:  # a concurrent sweep or the person ended it first
            pass
    return ended


# ---- the sweep -----------------------------------------------------------------------------------


def _claim(now: datetime) -> list[int]:
    """Lease up to BATCH due rows to this sweep (other sweeps skip them)."""
    with write_session(get_engine()) as session:
        ids = session.execute(
            sa.select(Deadline.id).where(Deadline.next_at <= now).order_by(Deadline.next_at)
            .limit(BATCH).with_for_update(skip_locked=True)
        ).scalars().all()
        if ids:
            session.execute(sa.update(Deadline).where(Deadline.id.in_(ids)).values(next_at=now + LEASE))
    return list(ids)


def sweep(now: datetime) -> Counter:
    """One pass as of `now`: end expired vacations, record pending ends, send due reminders, apply
    due timeouts.  Idempotent; safe beside other sweeps.  Counts of what it did."""
    from service import ending

    now = as_utc(now)
    counts: Counter = Counter()
    counts["vacations_ended"] += end_expired_vacations(now)
    with write_session(get_engine()) as session:
        pending = session.execute(
            sa.select(GameClock.game_id).where(GameClock.end_due_at <= now).limit(BATCH)
        ).scalars().all()
    for game_id in pending:
        try:
            counts["games_ended"] += int(ending.record_end(game_id, now))
        except Exception:  # noqa: BLE001 - the next sweep tries again; the others' ends go on
            log.exception("the end of game %s could not be recorded", game_id)
            counts["errors"] += 1
    while ids := _claim(now):
        for row_id in ids:
            try:
                _process(row_id, now, counts)
            except Exception:  # noqa: BLE001 - one broken game must not stop the others' clocks
                log.exception("deadline %s could not be processed; its lease will bring it back", row_id)
                counts["errors"] += 1
    return counts


def _timeout_move(rules: engine.Game, state: dict, seat: int, policy: str) -> dict:
    if policy == "skip":
        for move in rules.legal_moves(state, seat):
            if move.get("type") in PASS_TYPES:
                return move
    return rules.default_move(state, seat)


def _process(row_id: int, now: datetime, counts: Counter) -> None:
    from service import ending
    from service.moves import handle

    first_timeout = True
    for _ in range(MAX_DEFAULTS_PER_TURN):
        kick_ids: list[int] = []
        with write_session(get_engine()) as session:
            row = session.execute(
                sa.select(Deadline).where(Deadline.id == row_id).with_for_update()
            ).scalar_one_or_none()
            if row is None or row.due_at is None:
                return  # the turn is over, or the clock stopped meanwhile
            game = session.get(Game, row.game_id, populate_existing=True)
            clock = clock_of(session, game.id)
            ladder = list(clock.reminders)
            due_at = as_utc(row.due_at)
            if game.status != "active" or row.seat not in game.to_act or clock.deadline_hours is None:
                session.delete(row)
                return
            if due_at > now:
                steps = [i for i in range(row.reminders_done, len(ladder)) if due_at - timedelta(hours=ladder[i]) <= now]
                if steps:
                    hours = ladder[steps[-1]]
                    player = session.get(Player, row.player_id)
                    kind = f"reminder-{hours}h"
                    exists = session.execute(sa.select(Outbox.id).where(
                        Outbox.game_id == game.id, Outbox.player_id == player.id,
                        Outbox.kind == kind, Outbox.seq == game.seq)).first()
                    if exists is None:
                        reminder = Outbox(game_id=game.id, player_id=player.id, kind=kind, seq=game.seq,
                                          message_id=notify.message_id(game, player, kind, game.seq))
                        session.add(reminder)
                        journal.record(session, game.id, game.seq, "reminder", row.seat, {"hours": hours}, at=now)
                        session.flush()
                        kick_ids.append(reminder.id)
                        counts["reminders"] += 1
                    row.reminders_done = steps[-1] + 1
                row.next_at = _next_at(due_at, row.reminders_done, ladder)
                session.add(row)
                done = True
            else:
                done = False
                seq, seat, policy = game.seq, row.seat, clock.policy
                if policy == "pause":
                    pause(session, game, clock, notify.players_of(session, game.id), seat, now, reason="timeout")
                    counts["paused"] += 1
                    done = True
                elif policy != "forfeit":
                    # The move is chosen on the position read with the row; handle re-checks the seq.
                    state, _ = store.load_state(session, game)
                    try:
                        move = _timeout_move(engine.get(game.name), state, seat, policy)
                    except engine.IllegalMove as exc:  # the engine has nothing for this seat to do
                        log.warning("game %s seat %s has no default move: %s", game.id, seat, exc.reason)
                        session.delete(row)
                        done = True
        if done:
            outbox.kick(kick_ids)
            return
        # The deadline passed: apply the policy outside the row's transaction (handle has its own).
        if policy == "forfeit":
            if ending.record_end(game.id, now, forfeit_seat=seat, expected_seq=seq):
                counts["forfeits"] += 1
            continue  # re-read: the row is gone when the end was recorded
        try:
            handle(game.id, seat, move, seq, kind="timeout", now=now)
        except store.StaleState:
            continue  # someone moved meanwhile: look again
        except engine.IllegalMove as exc:
            log.warning("timeout of game %s seat %s: %s", game.id, seat, exc.reason)
            with write_session(get_engine()) as session:
                session.execute(sa.delete(Deadline).where(Deadline.id == row_id))
            return
        if first_timeout:
            counts["timeouts"] += 1
            first_timeout = False
        counts["default_moves"] += 1
    log.error("deadline %s: still due after %s default moves", row_id, MAX_DEFAULTS_PER_TURN)


def status_for(session: Session, game_id: int, seat: int) -> dict | None:
    """What the player page shows about the seat's clock (read only)."""
    clock = session.get(GameClock, game_id)
    if clock is None or clock.deadline_hours is None:
        return None
    row = session.execute(
        sa.select(Deadline).where(Deadline.game_id == game_id, Deadline.seat == seat)
    ).scalar_one_or_none()
    return {"clock": clock, "deadline": row}


# ---- emails (service/mail.py asks) ---------------------------------------------------------------


def is_reminder(kind: str) -> bool:
    return kind.startswith("reminder-")


def is_notice(kind: str) -> bool:
    return kind.startswith(NOTICE_PREFIX)


def template_name(kind: str) -> str:
    if is_reminder(kind):
        return "reminder"
    if is_notice(kind):
        return "notice"
    return kind


def mail_context(session: Session, row: Outbox, game: Game, player: Player, names: dict[int, str]) -> dict:
    """What reminder and notice templates need beyond the turn email's context."""
    if is_reminder(row.kind):
        deadline = session.execute(
            sa.select(Deadline).where(Deadline.game_id == game.id, Deadline.seat == player.seat)
        ).scalar_one_or_none()
        who = peek_person(session, player.email)
        due = as_utc(deadline.due_at) if deadline is not None and deadline.due_at is not None else None
        return {
            "reminder_hours": int(row.kind.removeprefix("reminder-").removesuffix("h")),
            "deadline_local": local_time(due, who.time_zone) if due else None,
            "time_zone": who.time_zone,
            "policy_words": POLICY_WORDS.get(_policy(session, game.id), ""),
        }
    if is_notice(row.kind):
        entry = session.get(JournalEntry, int(row.kind.removeprefix(NOTICE_PREFIX)))
        return {"notice": describe(entry, names) if entry is not None else ""}
    return {}


def subject(kind: str, context: dict) -> str | None:
    prefix = positions_prefix(context["game"])
    if is_reminder(kind):
        return f"{prefix} Reminder: your move is due by {context['deadline_local'] or 'soon'}"
    if is_notice(kind):
        return f"{prefix} {context['notice']}"
    return None


def positions_prefix(game: Game) -> str:
    from service import positions

    return positions.subject_prefix(game)


def _policy(session: Session, game_id: int) -> str:
    clock = session.get(GameClock, game_id)
    return clock.policy if clock is not None else "auto"


POLICY_WORDS = {
    "auto": "If the deadline passes, the game's safe default move is played for you.",
    "skip": "If the deadline passes, your turn is passed where the rules allow it (else the default move is played).",
    "forfeit": "If the deadline passes, you forfeit the game.",
    "pause": "If the deadline passes, the game is paused and everyone is told.",
}


def reminder_obsolete(session: Session, row: Outbox) -> bool:
    """At delivery: a reminder whose player has moved since (or whose game ended) is not sent."""
    game = session.get(Game, row.game_id)
    player = session.get(Player, row.player_id)
    if game is None or player is None or game.status != "active" or player.seat not in game.to_act:
        return True
    return store.last_own_seq(session, game.id, player.seat, game.seq + 1) > row.seq
