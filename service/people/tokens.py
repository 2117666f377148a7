"""Personal API tokens: a person makes one on the settings page for a bot or another client, sees it
once, and revokes it there.  `Authorization: Bearer <token>` then acts as the person on /api/me
(service/web/auth.py).  Only the token's SHA-256 is stored: 256 random bits need no slow hash, and a
copy of the table lets nobody in.  No function here reads the clock: `now` is an argument."""

from __future__ import annotations

import hashlib
import secrets
from datetime import datetime, timedelta

import sqlalchemy as sa
from sqlmodel import col

from service.errors import Invalid
from service.lang import N_, Nf_, Nn_
from service.store import read_session, write_session
from service.store.db import get_engine
from service.store.inboxes import key as inbox_key
from service.store.models import PersonalToken, as_utc
from service.store.rows import MAX_ID

PREFIX = "rpt_"  # says what it is, to a person and to secret scanners
MAX_NAME = 60
MAX_LIVE = 20
# last_used_at is written at most this often per token: a bot polling every second must not make every
# read a write.
USE_GRANULARITY = timedelta(minutes=1)


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def create(email: str, name: str, now: datetime) -> str:
    """A new token for the person, named `name`; the token itself (shown once, never stored)."""
    name = " ".join(name.split())
    if not name or len(name) > MAX_NAME:
        raise Invalid(Nf_("Give the token a name of 1 to %(num)d characters (what it is for: \"my bot\").", num=MAX_NAME),
                      N_("Name the token"))
    token = PREFIX + secrets.token_urlsafe(32)
    with write_session(get_engine()) as session:
        live = session.execute(sa.select(sa.func.count()).select_from(PersonalToken).where(
            col(PersonalToken.person) == inbox_key(email), col(PersonalToken.revoked_at).is_(None))).scalar_one()
        if live >= MAX_LIVE:
            raise Invalid(Nn_("You have %(num)d token: revoke it first if you no longer use it.",
                              "You have %(num)d tokens: revoke one you no longer use first.", MAX_LIVE),
                          N_("Too many tokens"))
        session.add(PersonalToken(person=inbox_key(email), name=name, token_hash=_hash(token), created_at=now))
    return token


def listed(email: str) -> list[PersonalToken]:
    """The person's tokens that still work, newest first."""
    with read_session(get_engine()) as session:
        return list(session.execute(sa.select(PersonalToken).where(
            col(PersonalToken.person) == inbox_key(email), col(PersonalToken.revoked_at).is_(None))
            .order_by(col(PersonalToken.id).desc())).scalars())


def revoke(email: str, token_id: int, now: datetime) -> bool:
    """End one of the person's own tokens; whether it was theirs and alive (another's id does nothing)."""
    if not 0 < token_id < MAX_ID:
        return False
    with write_session(get_engine()) as session:
        done = session.execute(sa.update(PersonalToken).where(
            col(PersonalToken.id) == token_id, col(PersonalToken.person) == inbox_key(email),
            col(PersonalToken.revoked_at).is_(None)).values(revoked_at=now)
            .execution_options(synchronize_session=False))
        return done.rowcount == 1  # type: ignore[attr-defined]


def bearer(token: str, now: datetime) -> str | None:
    """The address key a live token acts for (its use noted), or None."""
    if not token.startswith(PREFIX) or len(token) > 100:
        return None
    digest = _hash(token)
    with read_session(get_engine()) as session:
        found = session.execute(sa.select(PersonalToken).where(
            col(PersonalToken.token_hash) == digest, col(PersonalToken.revoked_at).is_(None))).scalar_one_or_none()
    if found is None:
        return None
    if found.last_used_at is None or now - as_utc(found.last_used_at) >= USE_GRANULARITY:
        with write_session(get_engine()) as session:
            session.execute(sa.update(PersonalToken).where(col(PersonalToken.id) == found.id)
                            .values(last_used_at=now).execution_options(synchronize_session=False))
    return found.person
