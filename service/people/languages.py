"""A person's language (service/lang.py LANGUAGES), by their address key: what their pages and, as
the emails learn it, their emails are worded in.  Chosen on the settings page, the sign-in page, or
the JSON twin; never carried by a link's token (a forwarded link would carry it to someone else)."""

from __future__ import annotations

from datetime import datetime

import sqlalchemy as sa
from sqlmodel import col

from service.errors import Invalid
from service.lang import known
from service.store import write_session
from service.store.db import get_engine, single_reads
from service.store.inboxes import key as inbox_key
from service.store.models import PersonLanguage

_LANGUAGE = sa.select(col(PersonLanguage.language)).where(col(PersonLanguage.person) == sa.bindparam("person"))


def language_of(email: str) -> str | None:
    """The person's chosen language, or None if they never chose one (or chose one no longer known)."""
    with single_reads(get_engine()).connect() as conn:
        found: str | None = conn.execute(_LANGUAGE, {"person": inbox_key(email)}).scalar()
    return known(found)


def choose(email: str, language: str, now: datetime) -> str:
    """Set the person's language (any spelling `known` reads); the language as stored.  Invalid for a
    language Riftpost does not speak."""
    chosen = known(language)
    if chosen is None:
        raise Invalid("Choose English, Українська or 繁體中文.")
    person = inbox_key(email)
    for attempt in range(2):  # a simultaneous first choice inserts the row first: then update it
        try:
            with write_session(get_engine()) as session:
                row = session.get(PersonLanguage, person, with_for_update=True)
                if row is None:
                    session.add(PersonLanguage(person=person, language=chosen, changed_at=now))
                else:
                    row.language, row.changed_at = chosen, now
                    session.add(row)
            return chosen
        except sa.exc.IntegrityError:
            if attempt:
                raise
    raise AssertionError("unreachable")
