"""The journal: what happened around a game that is not a move (reminders, vacations, pauses).

Entries are written in the caller's transaction, so a journal line exists exactly when the thing
it records happened.  Payloads hold public details only: every viewer of the history sees them.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlmodel import Session, col

from service.store.attach import attached, columns, table
from service.store.models import JournalEntry, utcnow
from service.store.prepared import Prepared


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


# Every turn email and history page reads the journal, most often to find nothing: built once and run
# on the DB-API cursor (service/store/prepared.py), the rows made the session's ORM objects.
_JOURNAL = table(JournalEntry)
_ENTRIES = Prepared(
    sa.select(*columns(JournalEntry))
    .where(_JOURNAL.c.game_id == sa.bindparam("game_id"), _JOURNAL.c.after_seq >= sa.bindparam("since"),
           _JOURNAL.c.after_seq <= sa.bindparam("upto"))
    .order_by(_JOURNAL.c.after_seq, _JOURNAL.c.id)
)
_NO_START, _NO_END = -(2**31), 2**31 - 1  # no bound: after_seq is a 32-bit integer column


def entries(session: Session, game_id: int, upto: int | None = None, since: int | None = None) -> list[JournalEntry]:
    """The game's journal in order, optionally only the entries placed at or before seq `upto`, and at
    or after seq `since` (Prepared: the session is not flushed first, service/store/prepared.py)."""
    rows = _ENTRIES.rows(session.connection(), {"game_id": game_id, "since": _NO_START if since is None else since,
                                                "upto": _NO_END if upto is None else upto})
    return [attached(session, JournalEntry, row) for row in rows]
