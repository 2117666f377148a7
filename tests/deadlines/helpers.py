"""Driving timed games with the clock as an input: every call says what time it is."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import sqlalchemy as sa
from sqlmodel import select

from service.play import handle, new_game
from service.play.timeouts import sweep as sweep_at
from service.store import get_engine, read_session
from service.store.models import Deadline, Event, GameClock, JournalEntry, Outbox, Player, as_utc
from tests.consent import preconsent
from tests.service import toygame
from tests.service.helpers import current

T0 = datetime(2026, 1, 5, 12, 0, tzinfo=UTC)  # a Monday, noon UTC
PLAYERS = [("Ann", "ann@example.org"), ("Bob", "bob@example.org")]


def at(hours: float) -> datetime:
    return T0 + timedelta(hours=hours)


def timed_game(hours=48, policy="auto", reminders=(24, 2), target=60, players=PLAYERS, seed=7) -> int:
    preconsent(*[email for _, email in players])  # about the clocks: players who played before
    return new_game(toygame.NAME, list(players), {"target": target}, seed=seed,
                    deadline_hours=hours, policy=policy, reminders=list(reminders), now=T0)


def sweep(hours: float):
    return sweep_at(at(hours))


def rows(model, **where):
    with read_session(get_engine()) as session:
        query = select(model)
        for key, value in where.items():
            query = query.where(getattr(model, key) == value)
        return list(session.exec(query))


def label(kind: str, params: dict) -> str:
    """An outbox row's kind with its details: "reminder-24h", "notice:<journal entry id>", "turn"..."""
    if kind == "reminder":
        return f"reminder-{params['hours']}h"
    if kind == "notice":
        return f"notice:{params['entry']}"
    return kind


def outbox_kinds(game_id: int) -> list[tuple[int, str]]:
    """(seat, kind with details) of every outbox row of the game, in order."""
    with read_session(get_engine()) as session:
        found = session.execute(
            sa.select(Player.seat, Outbox.kind, Outbox.params).join(Player, Player.id == Outbox.player_id)
            .where(Outbox.game_id == game_id).order_by(Outbox.id)
        ).all()
    return [(seat, label(kind, params)) for seat, kind, params in found]


def reminders_of(game_id: int) -> list[tuple[int, str]]:
    return [(seat, kind) for seat, kind in outbox_kinds(game_id) if kind.startswith("reminder-")]


def event_kinds(game_id: int) -> list[str]:
    return [row.kind for row in sorted(rows(Event, game_id=game_id), key=lambda row: row.seq)]


def deadline(game_id: int, seat: int) -> Deadline | None:
    found = [row for row in rows(Deadline, game_id=game_id) if row.seat == seat]
    return found[0] if found else None


def clock(game_id: int) -> GameClock:
    return rows(GameClock, game_id=game_id)[0]


def journal_kinds(game_id: int) -> list[str]:
    return [entry.kind for entry in sorted(rows(JournalEntry, game_id=game_id), key=lambda e: e.id)]


def utc(moment):
    return as_utc(moment) if moment is not None else None


def play_turn(game_id: int, hours: float) -> None:
    """The seat to act plays its whole turn (a card, then end the turn) at the given time."""
    game, state = current(game_id)
    seat = game.to_act[0]
    handle(game_id, seat, toygame.GAME.legal_moves(state, seat)[0], game.seq, now=at(hours))
    game, state = current(game_id)
    if game.status == "active" and seat in game.to_act:
        handle(game_id, seat, {"type": "end_turn"}, game.seq, now=at(hours))
