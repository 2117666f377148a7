"""Timed toy games between Ann and Bob, delivered through the real outbox to a real SMTP sink, with
Ann's notification settings set as the pages set them (service/people/notifications.py)."""

from __future__ import annotations

from datetime import datetime, timedelta

from service import links, store
from service.mail import outbox
from service.people import notifications
from service.store import get_engine, read_session
from service.store.models import Outbox, Player, utcnow
from tests.deadlines.helpers import rows

ANN = "ann@example.org"


def settle(game_ids) -> list[str]:
    """Deliver every due row of the games, oldest first, as the beat scan would."""
    due = sorted((row for game_id in game_ids for row in rows(Outbox, game_id=game_id)
                  if row.status == "pending" and row.next_attempt_at.replace(tzinfo=None) <= utcnow().replace(tzinfo=None)),
                 key=lambda row: row.id)
    return [outbox.deliver(row.id) for row in due]


def ann_rows(game_id: int, kind: str) -> list[Outbox]:
    ann = seat(game_id, 0)
    return [row for row in rows(Outbox, game_id=game_id, kind=kind) if row.player_id == ann.id]


def seat(game_id: int, number: int) -> Player:
    with read_session(get_engine()) as session:
        return next(p for p in store.players_of(session, game_id) if p.seat == number)


def page_token(game_id: int, number: int = 0) -> str:
    player = seat(game_id, number)
    return links.player_token(player.id, player.row_key, player.link_generation)


def set_ann(**values) -> None:
    notifications.change(ANN, values)


def quiet_around_now(now: datetime | None = None) -> tuple[int, int]:
    """Quiet hours (UTC) that hold now and for the next hour at least: (start, end)."""
    now = now or utcnow()
    return (now - timedelta(hours=1)).hour, (now + timedelta(hours=2)).hour


