"""The one way tests that are not about consent skip the invitation: their addresses are marked as
having accepted Riftpost's emails before their games start, as an address that played before would
be.  Tests about the invitation itself (tests/service/test_consent.py, the e2e games) go through
the real one."""

from __future__ import annotations

from service.clocks.people import person
from service.store import write_session
from service.store.db import get_engine
from service.store.models import utcnow


def preconsent(*addresses: str) -> None:
    """Mark each address as consented (in the current app's database)."""
    with write_session(get_engine()) as session:
        for address in addresses:
            who = person(session, address, lock=True)
            who.consented_at = utcnow()
            session.add(who)
