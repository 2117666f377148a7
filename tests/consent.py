"""The one way tests that are not about consent skip the invitation: their addresses are marked as
having shown they are theirs (verified inviters) and as accepting each other's games, as addresses that
played together before would be.  Tests about the invitation itself (tests/service/test_consent.py, the
e2e games) go through the real one."""

from __future__ import annotations

import sqlalchemy as sa

from service.people.identity import person
from service.store import write_session
from service.store.db import get_engine
from service.store.inboxes import key
from service.store.models import Consent, utcnow


def preconsent(*addresses: str) -> None:
    """Mark each address as verified and as accepting the games of every other one (in the current
    app's database), so a game among them emails everyone from its first move."""
    keys = sorted({key(address) for address in addresses})
    with write_session(get_engine()) as session:
        for address in keys:
            who = person(session, address, lock=True)
            if who.consented_at is None:
                who.consented_at = utcnow()
                session.add(who)
            for inviter in keys:
                if inviter != address and session.get(Consent, (address, inviter)) is None:
                    session.add(Consent(address=address, inviter=inviter, created_at=utcnow()))


def confirm_creator(game_id: int) -> None:
    """Seat 0 says "yes, I started it" to the game it started from the form (as its creator does from
    the email asking; every form game waits for that, service/play/consent.py)."""
    from service.play import consent
    from service.store import read_session
    from service.store.models import Invitation

    with read_session(get_engine()) as session:
        asked = session.execute(sa.select(Invitation.id).where(
            Invitation.game_id == game_id, Invitation.address == Invitation.inviter,
            Invitation.status == consent.ASKED)).scalars().all()
    for invitation_id in asked:
        consent.accept(invitation_id, utcnow())
