"""Games of every kind for the "my games" tests, and a signed-in browser's cookie."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import sqlalchemy as sa

from service.people import sessions
from service.store import write_session
from service.store.db import get_engine
from service.store.inboxes import key
from service.store.models import Deadline, Game

ANN, BO, CY, DI = ("Ann", "ann@example.org"), ("Bo", "bo@example.org"), ("Cy", "cy@example.org"), ("Di", "di@example.org")


def finish(game_id: int, result: dict[str, Any], at: datetime | None = None) -> None:
    """The game's read model as the recorded end leaves it (the end itself: tests/deadlines)."""
    with write_session(get_engine()) as session:
        session.execute(sa.update(Game).where(Game.id == game_id).values(  # type: ignore[arg-type]
            status="finished", to_act=[], result=result, updated_at=at or datetime.now(UTC)))


def due_in(game_id: int, seat: int, hours: float) -> None:
    """Move a running clock's deadline to `hours` from now."""
    with write_session(get_engine()) as session:
        session.execute(sa.update(Deadline).where(Deadline.game_id == game_id, Deadline.seat == seat)  # type: ignore[arg-type]
                        .values(due_at=datetime.now(UTC) + timedelta(hours=hours)))


def session_cookie(app: Any, email: str) -> str:
    """The session cookie's value of a browser signed in as `email` (as service/web/auth.py writes it)."""
    generation = sessions.start(email)
    serializer = app.session_interface.get_signing_serializer(app)
    return str(serializer.dumps({"who": key(email), "gen": generation, "_permanent": True}))
