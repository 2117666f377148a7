"""A person's signed-in browsers: each holds the session generation it signed in under, and "sign out
everywhere" moves the generation on, so every browser of the earlier one is signed out at its next
request.  The cookie itself is the web's (service/web/auth.py)."""

from __future__ import annotations

import sqlalchemy as sa
from sqlmodel import col

from service.people.identity import person
from service.store import write_session
from service.store.db import get_engine, single_reads
from service.store.inboxes import key as inbox_key
from service.store.models import Person

# Every signed-in request reads it (service/web/auth.py): one column in one statement, no ORM object
# and no BEGIN/ROLLBACK around it.
_GENERATION = sa.select(col(Person.session_generation)).where(col(Person.email) == sa.bindparam("email"))


def generation(email: str) -> int | None:
    """The address's current session generation; None when it has no person row (nobody to be)."""
    with single_reads(get_engine()).connect() as conn:
        found: int | None = conn.execute(_GENERATION, {"email": inbox_key(email)}).scalar()
    return found


def start(email: str) -> int:
    """The generation a new sign-in of the address is bound to (its person row made if need be)."""
    with write_session(get_engine()) as session:
        return person(session, email).session_generation


def end_everywhere(email: str) -> None:
    """Sign the person out of every browser."""
    with write_session(get_engine()) as session:
        who = person(session, email, lock=True)
        who.session_generation += 1
        session.add(who)
