"""Invitation consent: nobody gets Riftpost's emails without asking for them.

An address has consented when it accepted an invitation (or had a seat before invitations existed:
migration 0007).  A new game to an address that has not consented queues one short `invitation` email
(service/mail/kinds.py: the inviter's name made unlinkable, the game's title, Accept and Decline) and
holds every other email to it (service/mail/outbox.py, `mailable_status`):

- accept: the address has consented; every email held for it, in every game, goes out.
- decline: the game's creator (its seat 0, "the inviter") can never again make the service email the
  address; the emails held for it in that inviter's games are dropped.  Other inviters still may ask.
- no answer: a second game from the same inviter sends nothing new (the first invitation stands).

An address gets at most INVITATIONS_PER_ADDRESS_PER_DAY invitations in a day, whoever sends them; a
game that would send one more is refused (TooMany, a 429 with Retry-After) and nothing is written.

While a seat has not accepted, the game goes on: the others play, and when it is that seat's turn the
game waits for it (in a timed game its deadline runs as anyone's; the invitation is what asks).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

import sqlalchemy as sa
from flask import current_app
from sqlalchemy.orm import aliased
from sqlmodel import Session, col

from service.clocks.people import person
from service.errors import Conflict, NotFound, TooMany
from service.mail import outbox
from service.mail.outbox import Queued
from service.store import write_session
from service.store.db import get_engine
from service.store.models import Game, Invitation, Outbox, Person, Player

ASKED, DECLINED, ACCEPTED = "asked", "declined", "accepted"
DAY = timedelta(days=1)
TITLE = "This invitation cannot be answered"


def address_key(email: str) -> str:
    """An address as one inbox: the case people type does not make another (limits and blocks
    compare these)."""
    return email.strip().lower()


def consented(session: Session, email: str) -> bool:
    found = session.execute(sa.select(col(Person.email)).where(
        sa.func.lower(col(Person.email)) == address_key(email), col(Person.consented_at).is_not(None)).limit(1))
    return found.first() is not None


def _invitation_status(session: Session, address: str, inviter: str, status: str) -> bool:
    return session.execute(sa.select(col(Invitation.id)).where(
        col(Invitation.address) == address, col(Invitation.inviter) == inviter,
        col(Invitation.status) == status).limit(1)).first() is not None


@dataclass(frozen=True)
class Seating:
    """What a new game does about one seat's address: its players.consent, and whether it sends an
    invitation now."""

    consent: str
    invite: bool


def seatings(session: Session, emails: list[str], now: datetime) -> list[Seating]:
    """For each seat's address (seat order; seat 0 is the inviter): declined by this inviter, consented,
    already asked by this inviter (nothing new is sent), or to be asked now.  Raises TooMany when an
    address to ask has had its day's invitations; nothing has been written then."""
    inviter = address_key(emails[0])
    limit = int(current_app.config["INVITATIONS_PER_ADDRESS_PER_DAY"])
    found = []
    for email in emails:
        address = address_key(email)
        if _invitation_status(session, address, inviter, DECLINED):
            found.append(Seating(DECLINED, False))
        elif consented(session, address):
            found.append(Seating("", False))
        elif _invitation_status(session, address, inviter, ASKED):
            found.append(Seating(ASKED, False))
        else:
            _within_limit(session, email, address, limit, now)
            found.append(Seating(ASKED, True))
    return found


def _within_limit(session: Session, email: str, address: str, limit: int, now: datetime) -> None:
    recent = session.execute(
        sa.select(col(Invitation.created_at)).where(col(Invitation.address) == address,
                                                    col(Invitation.created_at) > now - DAY)
        .order_by(col(Invitation.created_at)).limit(limit)
    ).scalars().all()
    if len(recent) >= limit:
        oldest = recent[0] if recent[0].tzinfo else recent[0].replace(tzinfo=now.tzinfo)
        wait = int((oldest + DAY - now).total_seconds()) + 1
        hours = max(1, round(wait / 3600))
        raise TooMany(f"{email} has been invited to {limit} games in the last day, the most an address that "
                      f"has not played here yet may be asked. Try again in about {hours} hour"
                      f"{'s' if hours != 1 else ''}, or start the game without that address.", wait,
                      "Too many invitations for one address")


def invite(session: Session, game: Game, players: list[Player], seating: list[Seating], now: datetime) -> list[Queued]:
    """Record and queue the invitations of a new game's seats (in its transaction); the outbox rows."""
    inviter = address_key(players[0].email)
    rows: list[Queued] = []
    for player, seat in zip(players, seating):
        if not seat.invite:
            continue
        invitation = Invitation(address=address_key(player.email), inviter=inviter, game_id=game.id,
                                player_id=player.id, status=ASKED, created_at=now)
        session.add(invitation)
        session.flush()
        rows += outbox.add(session, game, [player], "invitation", {"invitation": invitation.id})
    return rows


def get(session: Session, invitation_id: int, lock: bool = False) -> Invitation:
    found = session.get(Invitation, invitation_id, with_for_update=lock or None)
    if found is None:
        raise NotFound("There is no such invitation (the link belongs to another Riftpost).", TITLE)
    return found


def accept(invitation_id: int, now: datetime) -> int:
    """The address accepts: it has consented, and every email held for it goes out.  The id of the
    invited player's row (its page is where the acceptance leads).  Raises Conflict after a decline."""
    with write_session(get_engine()) as session:
        invitation = get(session, invitation_id, lock=True)
        if invitation.status == DECLINED:
            raise Conflict("You declined this invitation, so this game does not email you. Nothing was changed.",
                           TITLE)
        player = session.get(Player, invitation.player_id)
        assert player is not None
        if invitation.status == ASKED:
            invitation.status, invitation.answered_at = ACCEPTED, now
            session.add(invitation)
        who = person(session, player.email, lock=True)
        if who.consented_at is None:
            who.consented_at = now
            session.add(who)
        waiting = sa.select(col(Player.id)).where(sa.func.lower(col(Player.email)) == invitation.address,
                                                   col(Player.consent) == ASKED)
        seats = session.execute(waiting).scalars().all()
        released = session.execute(sa.select(col(Outbox.id)).where(
            col(Outbox.status) == outbox.HELD, col(Outbox.player_id).in_(seats))).scalars().all()
        session.execute(sa.update(Outbox).where(col(Outbox.id).in_(released))
                        .values(status="pending", next_attempt_at=now))
        session.execute(sa.update(Player).where(col(Player.id).in_(seats)).values(consent=""))
        player_id = player.id
    outbox.kick(sorted(released))
    return player_id


def decline(invitation_id: int, now: datetime) -> Invitation:
    """The address declines its inviter: no email of that inviter's games (those where the inviter's
    address has seat 0) goes to it again; what was held is dropped.  Raises Conflict after an accept."""
    with write_session(get_engine()) as session:
        invitation = get(session, invitation_id, lock=True)
        if invitation.status == ACCEPTED:
            raise Conflict("You accepted this invitation already. To stop a game's emails, use the link at the "
                           "end of any of its emails.", TITLE)
        if invitation.status == ASKED:
            invitation.status, invitation.answered_at = DECLINED, now
            session.add(invitation)
        creator = aliased(Player)
        theirs = sa.select(col(Player.id)).join(creator, col(creator.game_id) == col(Player.game_id)).where(
            sa.func.lower(col(Player.email)) == invitation.address, col(creator.seat) == 0,
            sa.func.lower(col(creator.email)) == invitation.inviter)
        ids = session.execute(theirs).scalars().all()
        session.execute(sa.update(Outbox).where(col(Outbox.player_id).in_(ids),
                                                col(Outbox.status).in_([outbox.HELD, "pending"]))
                        .values(status="skipped", skip_reason="no_consent",
                                last_error="the address declined the invitation"))
        session.execute(sa.update(Player).where(col(Player.id).in_(ids)).values(consent=DECLINED))
        session.flush()
        session.expunge(invitation)
    return invitation


def decline_unanswered(email: str, now: datetime) -> int:
    """"Never email me" from an address that has unanswered invitations declines them all: their games
    stop waiting for mail that will not come, and their players see the seat declined.  How many."""
    with write_session(get_engine()) as session:
        asked = session.execute(sa.select(col(Invitation.id)).where(
            col(Invitation.address) == address_key(email), col(Invitation.status) == ASKED)).scalars().all()
    for invitation_id in asked:
        decline(invitation_id, now)
    return len(asked)
