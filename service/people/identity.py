"""A person's row and time zone: a person is an email address across all its games (its inbox key,
service/store/inboxes.py).  No function here reads the clock: `now` is an argument."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from sqlmodel import Session

from service.errors import BadRequest
from service.store import write_session
from service.store.db import get_engine
from service.store.inboxes import key as inbox_key
from service.store.models import Person


def _ensure_person(session: Session, email: str) -> None:
    # The dialect's own module, imported here: the engine loads only its own, and importing both at
    # the top mapped PostgreSQL's (~2 MB) into every process of a SQLite deployment.
    if session.get_bind().dialect.name == "postgresql":
        from sqlalchemy.dialects.postgresql import insert
    else:  # the same on_conflict_do_nothing(), another class to mypy
        from sqlalchemy.dialects.sqlite import insert  # type: ignore[assignment]
    # Concurrent first visits both insert; the loser's row is simply not needed.
    session.execute(insert(Person).values(
        email=email, time_zone="UTC", allowance_year=0, allowance_used_seconds=0,
    ).on_conflict_do_nothing(index_elements=["email"]))


def person(session: Session, email: str, lock: bool = False) -> Person:
    """The person's row, created on first use (so every read sees the defaults); any spelling of the
    address finds its inbox's row (service/store/inboxes.py)."""
    email = inbox_key(email)
    found = session.get(Person, email, with_for_update=lock or None, populate_existing=True)
    if found is None:
        _ensure_person(session, email)
        found = session.get(Person, email, with_for_update=lock or None, populate_existing=True)
    assert found is not None
    return found


def set_time_zone(email: str, name: str, now: datetime, only_if_unset: bool = False) -> bool:
    """The person chose `name` (at `now`).  `only_if_unset`: only if they never chose one, for a page
    that takes the browser's zone on a first visit (a choice made meanwhile elsewhere stays).
    Whether the zone was set."""
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise BadRequest(f"{name!r} is not a time zone we know; pick one from the list.") from None
    with write_session(get_engine()) as session:
        who = person(session, email, lock=True)
        if only_if_unset and who.time_zone_set_at is not None:
            return False
        who.time_zone, who.time_zone_set_at = name, now
        session.add(who)
    return True
