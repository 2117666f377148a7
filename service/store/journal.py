"""The journal: what happened around a game that is not a move (reminders, vacations, pauses).

Entries are written in the caller's transaction, so a journal line exists exactly when the thing
it records happened.  Payloads hold public details only: every viewer of the history sees them.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlmodel import Session, col, select

from service.store.models import JournalEntry, utcnow


def record(
    session: Session, game_id: int, after_seq: int, kind: str,
    seat: int | None = None, payload: dict[str, Any] | None = None, at: datetime | None = None,
) -> int:
    """Write one entry; its id (notices emailed about it refer to it).  `at`: when it happened, for
    callers that run on a given clock (the deadline sweep); default now."""
    return session.execute(sa.insert(JournalEntry).values(  # type: ignore[no-any-return]
        game_id=game_id, after_seq=after_seq, kind=kind, seat=seat,
        payload=payload or {}, created_at=at or utcnow(),
    ).returning(col(JournalEntry.id))).scalar_one()


def entries(session: Session, game_id: int, upto: int | None = None) -> list[JournalEntry]:
    """The game's journal in order, optionally only the entries placed at or before seq `upto`."""
    query = select(JournalEntry).where(col(JournalEntry.game_id) == game_id)
    if upto is not None:
        query = query.where(col(JournalEntry.after_seq) <= upto)
    return list(session.exec(query.order_by(col(JournalEntry.after_seq), col(JournalEntry.id))))
