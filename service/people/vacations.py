"""Vacations and their yearly allowance.

A vacation stops the person's clocks in every game (the time left is kept) and the other players are
told once per game; ending it restarts the clocks with the time that was left.  The allowance
(ALLOWANCE, 21 days) is counted in the calendar year the vacation started; the sweep ends a vacation
when the allowance runs out.  No function here reads the clock: `now` is an argument.
"""

from __future__ import annotations

from datetime import datetime, timedelta

import sqlalchemy as sa
from sqlmodel import Session, col

from service import store
from service.clocks.seats import BATCH, journal_entry, next_at, tell
from service.errors import Conflict
from service.mail import outbox
from service.people.identity import person
from service.store import write_session
from service.store.db import get_engine
from service.store.inboxes import key as inbox_key
from service.store.models import Deadline, Game, GameClock, Person, Player, as_utc

ALLOWANCE = timedelta(days=21)


def allowance_left(who: Person, now: datetime) -> timedelta:
    used = who.allowance_used_seconds if who.allowance_year == now.year else 0
    if who.vacation_since is not None and as_utc(who.vacation_since).year == who.allowance_year:
        used += int((now - as_utc(who.vacation_since)).total_seconds())
    return max(timedelta(0), ALLOWANCE - timedelta(seconds=used))


# ---- vacations -----------------------------------------------------------------------------------


def _seats_of(session: Session, email: str) -> list[tuple[Player, Game]]:
    """The person's seats in games that are still running."""
    return [(player, game) for player, game in session.execute(
        sa.select(Player, Game).join(Game, col(Game.id) == col(Player.game_id))
        .where(col(Player.address_key) == inbox_key(email), col(Game.status) == "active")
        .order_by(col(Game.id))
    ).all()]


def _tell_others(session: Session, email: str, kind: str, now: datetime) -> list[int]:
    ids = []
    for player, game in _seats_of(session, email):
        entry = journal_entry(session, game, kind, player.seat, {"name": player.name}, now)
        others = [p for p in store.players_of(session, game.id) if p.address_key != inbox_key(email)]
        ids += tell(session, game, others, entry)
    return ids


def start_vacation(email: str, now: datetime) -> Person:
    with write_session(get_engine()) as session:
        who = person(session, email, lock=True)
        if who.vacation_since is not None:
            raise Conflict("You are already on vacation.")
        if who.allowance_year != now.year:
            who.allowance_year, who.allowance_used_seconds = now.year, 0
        left = allowance_left(who, now)
        if left <= timedelta(0):
            raise Conflict(f"Your vacation allowance for {now.year} is used up.")
        who.vacation_since, who.vacation_until = now, now + left
        session.add(who)
        rows = session.execute(
            sa.select(Deadline).join(Player, col(Player.id) == col(Deadline.player_id))
            .where(col(Player.address_key) == inbox_key(email), col(Deadline.due_at).is_not(None))
            .with_for_update(of=Deadline)
        ).scalars().all()
        for row in rows:
            assert row.due_at is not None
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
            raise Conflict("You are not on vacation.")
        since = as_utc(who.vacation_since)
        spent = max(0, int((min(now, as_utc(who.vacation_until or now)) - since).total_seconds()))
        if who.allowance_year == since.year:
            who.allowance_used_seconds += spent
        who.vacation_since = who.vacation_until = None
        session.add(who)
        rows = session.execute(
            sa.select(Deadline, GameClock).join(Player, col(Player.id) == col(Deadline.player_id))
            .join(GameClock, col(GameClock.game_id) == col(Deadline.game_id))
            .where(col(Player.address_key) == inbox_key(email), col(Deadline.remaining_seconds).is_not(None),
                   col(GameClock.paused_at).is_(None))
            .with_for_update(of=Deadline)
        ).all()
        for row, clock in rows:
            row.due_at = now + timedelta(seconds=row.remaining_seconds)
            row.remaining_seconds = None
            row.next_at = next_at(row.due_at, row.reminders_done, list(clock.reminders))
            session.add(row)
        ids = _tell_others(session, email, "vacation_end", now)
    outbox.kick(ids)
    return who


def end_expired_vacations(now: datetime) -> int:
    with write_session(get_engine()) as session:
        emails = session.execute(
            sa.select(col(Person.email)).where(col(Person.vacation_until) <= now)
            .order_by(col(Person.vacation_until)).limit(BATCH)
        ).scalars().all()
    ended = 0
    for email in emails:
        try:
            end_vacation(email, now)
            ended += 1
        except Conflict:  # a concurrent sweep or the person ended it first
            pass
    return ended
