"""Whether a sign-in request (models.SigninRequest) still signs in: asked by the web when its link or
code is used and by the mail kind when its email is about to go out (a dead request's email is not
sent).  A reason code, no wording: service/people/signin.py words it."""

from __future__ import annotations

from datetime import datetime, timedelta

import sqlalchemy as sa
from sqlmodel import Session, col

from service.store.models import SigninRequest, as_utc

LIFETIME = timedelta(minutes=15)
MAX_WRONG_CODES = 5


def expires(request: SigninRequest) -> datetime:
    return as_utc(request.created_at) + LIFETIME


def dead(session: Session, request: SigninRequest, now: datetime) -> str | None:
    """None while the request signs in; else why not: "used", "expired", "guessed" (too many wrong
    codes), "replaced" (the address asked again since: only its newest request counts, so an older
    email's code cannot be guessed at beside the new one)."""
    if request.used_at is not None:
        return "used"
    if now >= expires(request):
        return "expired"
    if request.wrong_codes >= MAX_WRONG_CODES:
        return "guessed"
    if newest(session, request.address) != request.id:
        return "replaced"
    return None


def newest(session: Session, address: str) -> int | None:
    """The id of the address's (key's) newest request."""
    return session.execute(sa.select(col(SigninRequest.id)).where(col(SigninRequest.address) == address)
                           .order_by(col(SigninRequest.id).desc()).limit(1)).scalar_one_or_none()
