"""A person's "answer my replies" setting (table `reply_settings`, by address key): on by default; off,
their replies by email are still read and played, and nothing is emailed back about them."""

from __future__ import annotations

from datetime import datetime

from service.mail.answers import confirmations_on
from service.store import read_session, write_session
from service.store.db import get_engine
from service.store.models import ReplySetting, utcnow


def confirmations(address_key: str) -> bool:
    with read_session(get_engine()) as session:
        return confirmations_on(session, address_key)


def set_confirmations(address_key: str, on: bool, now: datetime | None = None) -> None:
    with write_session(get_engine()) as session:
        row = session.get(ReplySetting, address_key)
        if row is None:
            row = ReplySetting(person=address_key)
        row.confirmations, row.changed_at = on, now or utcnow()
        session.add(row)
