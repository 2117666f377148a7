"""Signing in without a password: "email me a sign-in link" makes a request (models.SigninRequest) and
mails its link and its 6-digit code (service/mail/kinds.py `signin`).  The link opens a page whose POST
signs in (mail scanners fetch links: a GET changes nothing); the code signs in on another device, typed
with the address.  Either works once, for 15 minutes, while it is the address's newest request; five
wrong codes end it (service/store/signins.py).

Two ways to ask:
- `ask`: the public form (anyone may type any address).  Only an address that plays here and may be
  emailed gets the email: one that never played or never accepted an invitation, asked never to be
  emailed, or bounces gets nothing, and the web answers the same words whatever happened, so the form
  tells nobody whether an address is known.  The web limits it per client and per address.
- `ask_from_seat`: a player page's button (service/people/access.py `signin_link`), the person's own
  way back in: it reaches even an address that asked never to be emailed.

The web signs the browser in (service/web/auth.py) with the address `redeem_link`/`redeem_code` return.
No function here reads the clock: `now` is an argument.
"""

from __future__ import annotations

import re
import secrets
from datetime import datetime

import sqlalchemy as sa
from sqlmodel import Session, col

from service import links, store
from service.errors import LINK_TITLE, Gone, Invalid, NotFound
from service.lang import N_
from service.mail import outbox
from service.people.identity import person
from service.store import signins, write_session
from service.store.db import get_engine
from service.store.inboxes import key as inbox_key
from service.store.models import Player, SigninRequest
from service.store.rows import MAX_ID

KIND = "signin"
WRONG_CODE = N_("That code did not sign you in: check the address and the 6 digits of the newest sign-in email "
                 "(a code works once, for 15 minutes). Or ask for a new email.")
DEAD = {
    "used": "This sign-in link was used already: each works once. Ask for a new one on the sign-in page.",
    "expired": "This sign-in link has expired: it works for 15 minutes. Ask for a new one on the sign-in page.",
    "guessed": "This sign-in link ended after too many wrong codes were typed for it. Ask for a new one.",
    "replaced": "A newer sign-in email replaced this one: use the link in the newest email.",
}


def open_request(session: Session, seat: Player, now: datetime) -> list[int]:
    """Record a request for the seat's address and queue its email on that seat (in the caller's
    transaction); the outbox ids to kick after the commit.  An email needs a game to hang on: the seat's."""
    request = SigninRequest(address=seat.address_key, nonce=secrets.token_hex(16), created_at=now)
    session.add(request)
    session.flush()
    # The request's time in milliseconds names the email too (its Message-ID): ids can come back after a
    # restore, and a Message-ID must not.
    rows = outbox.add(session, store.get_game(session, seat.game_id), [seat], KIND,
                      {"request": request.id, "issued_ms": int(now.timestamp() * 1000)})
    return outbox.ids(session, rows)


def _mailable_seat(session: Session, address: str) -> Player | None:
    """The address's newest seat in a game that may email it (it accepted that game's inviter, or played
    before invitations): the one its sign-in email hangs on; None for an address we may not write to."""
    return session.execute(sa.select(Player).where(col(Player.address_key) == address, col(Player.consent) == "")
                           .order_by(col(Player.id).desc()).limit(1)).scalar_one_or_none()


def ask(email: str, now: datetime) -> None:
    """The public form's request: mail the address a link and a code, or silently nothing (see above)."""
    address = inbox_key(email)
    ids: list[int] = []
    with write_session(get_engine()) as session:
        seat = _mailable_seat(session, address)
        if seat is None:
            return
        who = person(session, address, lock=True)  # one request per address at a time
        if who.never_email_at is not None or who.bounced_at is not None:
            return
        ids = open_request(session, seat, now)
    outbox.kick(ids)


def redeem_link(link: links.SigninLink, now: datetime) -> str:
    """Use the link's request (once); the address key to sign in as.  410 when it no longer works."""
    with write_session(get_engine()) as session:
        request = session.get(SigninRequest, link.request_id, with_for_update=True) if 0 < link.request_id < MAX_ID else None
        if request is None or not secrets.compare_digest(request.nonce, link.nonce):
            raise NotFound("This sign-in link belongs to nothing here. Ask for a new one on the sign-in page.",
                           LINK_TITLE)
        reason = signins.dead(session, request, now)
        if reason is not None or not _use(session, request, now):
            raise Gone(DEAD[reason or "used"], LINK_TITLE)
        return request.address


def _use(session: Session, request: SigninRequest, now: datetime) -> bool:
    """Mark it used, if nobody did meanwhile (a conditional update: two presses sign in once)."""
    done = session.execute(sa.update(SigninRequest).where(col(SigninRequest.id) == request.id,
                                                          col(SigninRequest.used_at).is_(None))
                           .values(used_at=now).execution_options(synchronize_session=False))
    return done.rowcount == 1  # type: ignore[attr-defined]


def redeem_code(email: str, code: str, now: datetime) -> str:
    """The address's newest request, if `code` is its code; the address key to sign in as.  Every
    failure (unknown address, no request, a dead one, a wrong code) is the same 422, and a wrong code
    counts against the request: five and it is dead."""
    typed = re.sub(r"[\s-]", "", code)
    if not re.fullmatch(r"\d{6}", typed):
        raise Invalid(N_("Type the 6 digits of the code from the sign-in email."), N_("Check the code"))
    address = inbox_key(email)
    signed_in = None
    with write_session(get_engine()) as session:
        newest = signins.newest(session, address)
        request = session.get(SigninRequest, newest, with_for_update=True) if newest is not None else None
        if request is not None and signins.dead(session, request, now) is None:
            if links.signin_code_matches(request.nonce, typed):
                signed_in = request.address if _use(session, request, now) else None
            else:  # counted in this transaction, which commits: the answer is raised after it
                session.execute(sa.update(SigninRequest).where(col(SigninRequest.id) == request.id)
                                .values(wrong_codes=col(SigninRequest.wrong_codes) + 1))
    if signed_in is None:
        raise Invalid(WRONG_CODE, N_("That code did not work"))
    return signed_in
