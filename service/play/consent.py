"""Invitation consent: nobody gets Riftpost's emails without asking for them, per inviter.

A game from the public form is its seat 0's only once that address confirmed that very game (its own
"did you start this game?", sent for every form game: anyone may type any address into the form, so
neither an earlier game nor an invitation accepted from someone else proves this one).  The command
line and a finished game's follow-up (reached from a player's signed link) start games whose creator is
known: there an inviter is a verified address (it accepted an invitation, or played before invitations
existed, migration 0007: `Person.consented_at`).  An address accepts mail from one
inviter at a time: a (address, inviter) row of `consents`, written when it accepts that inviter's
invitation (migration 0012a wrote one for the inviter of each game an address already played in).
Every address is compared by its key (service/store/inboxes.py), whatever the case typed.

A new game sets each seat's `players.consent` (service/mail/outbox.py `mailable_status` reads it):

- "" may be emailed: the seat is the verified creator's own, or its address accepted this inviter.
- UNCONFIRMED ("creator"): the creator has not confirmed the game yet: nothing of it goes to this
  seat, its invitation neither, until the creator confirms (a stranger cannot make us email anyone
  from an address they do not own).  Then the seat becomes one of the others.
- ASKED: the address has not accepted this inviter: one short `invitation` email (service/mail/kinds.py:
  the inviter's name made unlinkable, the game's title, Accept and Decline), the rest held.  A second
  game from the same inviter sends nothing new (the first invitation stands).
- DECLINED: the address declined this inviter: nothing is written for it.

Answers:
- accept inviter X: the address accepts X (a `consents` row) and is verified itself; X's games' held
  emails go to this address, and only X's (another inviter's stay held until it accepts theirs).
  Accepting its own "did you start this game?" confirms that game only: it goes out to its other seats,
  and stops counting against the address's caps (a stranger's unconfirmed games keep counting).
- decline its own: "I did not start it": nothing of the games waiting for that answer goes, and later
  form games naming the address in seat 0 send nothing.  What was held for a seat collapses
  into one email (the latest about the game's position: `_collapse`), not an invitation and two more.
- decline: X can never again make the service email the address; what X's games held for it is dropped.

The caps, per address (its `limit_key`: no +tag), whoever asks, counted in `namings` (one row per game
naming an address that has not accepted its inviter), in the game's transaction with the address's
address locked first, so concurrent games cannot pass a cap (SQLite's write transaction holds the
whole database; on PostgreSQL a transaction-long advisory lock per address, taken in key order):
- INVITATIONS_PER_ADDRESS_PER_DAY games naming it from inviters it has not accepted, invitation sent or
  not (a stranger's second and later games count as much as the first);
- NEW_INVITERS_PER_ADDRESS_PER_DAY games naming it from inviters it never played with nor accepted,
  whether it has played here or not.
A game past either is refused (TooMany, a 429 with Retry-After) and nothing is written.  The refusal's
words are the same for both caps and every address: they must not tell a stranger whether the
address played here.

While a seat has not accepted, the game goes on: the others play, and when it is that seat's turn the
game waits for it (in a timed game its deadline runs as anyone's; the invitation is what asks).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

import sqlalchemy as sa
from sqlalchemy.orm import aliased
from sqlmodel import Session, col

from service import running
from service.errors import Conflict, NotFound, TooMany
from service.lang import N_, Nn_
from service.mail import outbox
from service.mail.outbox import Queued
from service.people.identity import person
from service.store import write_session
from service.store.db import get_engine
from service.store.inboxes import key, limit_key
from service.store.models import Consent, Game, Invitation, Naming, Outbox, Person, Player

ASKED, DECLINED, ACCEPTED = "asked", "declined", "accepted"
UNCONFIRMED = outbox.UNCONFIRMED
DAY = timedelta(days=1)
TITLE = N_("This invitation cannot be answered")
# The kinds that say where the game stands for the reader: the latest of them, on acceptance, stands
# for every earlier email held for the seat.
POSITION_KINDS = ("invite", "turn", "game_over")


def verified(session: Session, inviter: str) -> bool:
    """Whether the address (a key) has shown it is its owner's: it may be a game's inviter."""
    found = session.execute(sa.select(col(Person.email)).where(
        col(Person.email) == key(inviter), col(Person.consented_at).is_not(None)).limit(1))
    return found.first() is not None


def consented(session: Session, address: str, inviter: str) -> bool:
    """Whether the address (a key) accepts the emails of the inviter's games."""
    if key(address) == key(inviter):
        return verified(session, inviter)
    found = session.execute(sa.select(col(Consent.address)).where(
        col(Consent.address) == key(address), col(Consent.inviter) == key(inviter)).limit(1))
    return found.first() is not None


def played_with(session: Session, address: str, inviter: str) -> bool:
    """Whether the address played (was emailed) in a game where the inviter had a seat."""
    other = aliased(Player)
    found = session.execute(sa.select(col(Player.id)).join(other, col(other.game_id) == col(Player.game_id)).where(
        col(Player.address_key) == address, col(Player.consent) == "", col(other.address_key) == inviter).limit(1))
    return found.first() is not None


def _invitation_status(session: Session, spellings: set[str], inviter: str, status: str) -> bool:
    """Whether an invitation of the inviter to any of these spellings of an address has this status."""
    return session.execute(sa.select(col(Invitation.id)).where(
        col(Invitation.address).in_(spellings), col(Invitation.inviter) == inviter,
        col(Invitation.status) == status).limit(1)).first() is not None


@dataclass(frozen=True)
class Seating:
    """What a new game does about one seat's address: its players.consent, whether it sends an
    invitation now, and what the caps count of it (`counted`: a naming; `new_inviter`)."""

    consent: str
    invite: bool
    counted: bool = False
    new_inviter: bool = False


def seatings(session: Session, emails: list[str], now: datetime, ask_creator: bool = False) -> list[Seating]:
    """For each seat's address (seat order; seat 0 is the inviter): what the game does about it (see the
    module's words).  `ask_creator` (a game from the public form): seat 0 confirms this game, whoever
    its address is, since typing an address proves nothing.  Raises TooMany when an address is past a
    cap; nothing has been written then."""
    keys = [key(email) for email in emails]
    inviter = keys[0]
    refused = _declined(session, inviter, inviter)  # "I did not start it": no game of this address is sent
    confirmed = not ask_creator and not refused and verified(session, inviter)
    found = []
    for address in keys:
        if address == inviter:
            if confirmed:
                found.append(Seating("", False))
            elif refused:
                found.append(Seating(DECLINED, False))
            else:  # the creator's own "did you start this game?", for this game: counted like a
                # stranger's invitation whether or not the address played here (the counts must not tell)
                found.append(Seating(ASKED, True, counted=True, new_inviter=True))
        elif _declined(session, address, inviter):
            found.append(Seating(DECLINED, False))
        elif consented(session, address, inviter):
            found.append(Seating("" if confirmed else UNCONFIRMED, False))
        else:
            invite = not _invitation_status(session, {address}, inviter, ASKED)
            found.append(Seating(ASKED if confirmed else UNCONFIRMED, invite, counted=True,
                                 new_inviter=not played_with(session, address, inviter)))
    _within_caps(session, [(email, seat) for email, seat in zip(emails, found) if seat.counted], now)
    return found


def _declined(session: Session, address: str, inviter: str) -> bool:
    """Whether the address declined the inviter, under its own spelling or without its +tag (a tag
    must not reopen a door its inbox closed)."""
    return _invitation_status(session, {key(address), limit_key(address)}, key(inviter), DECLINED)


def _within_caps(session: Session, named: list[tuple[str, Seating]], now: datetime) -> None:
    """Refuse (TooMany) when a named address is past a cap, counting this game's seats too.  Each
    address is locked first (in key order: two games never wait on each other in a circle)."""
    if not named:
        return
    if session.get_bind().dialect.name == "postgresql":
        # One transaction per address at a time (SQLite's write transaction holds the whole database
        # already): a lock for the transaction's length, taken in key order, on no row (the address may
        # have none, and making one for a stranger's address is not ours to do).
        for address in sorted({limit_key(email) for email, _ in named}):
            session.execute(sa.text("SELECT pg_advisory_xact_lock(hashtextextended(:k, 0))"), {"k": f"naming:{address}"})
    caps = ((False, int(running.config()["INVITATIONS_PER_ADDRESS_PER_DAY"])),
            (True, int(running.config()["NEW_INVITERS_PER_ADDRESS_PER_DAY"])))
    for email, seat in named:
        address = limit_key(email)
        for new_only, limit in caps:
            if new_only and not seat.new_inviter:
                continue
            here = sum(1 for other, s in named if limit_key(other) == address and (s.new_inviter or not new_only))
            query = sa.select(col(Naming.created_at)).where(col(Naming.address) == address,
                                                            col(Naming.created_at) > now - DAY)
            if new_only:
                query = query.where(col(Naming.new_inviter))
            recent = session.execute(query.order_by(col(Naming.created_at)).limit(limit)).scalars().all()
            if len(recent) + here > limit:
                _refuse(email, recent[0] if recent else now, now)


def _refuse(email: str, oldest: datetime, now: datetime) -> None:
    oldest = oldest if oldest.tzinfo else oldest.replace(tzinfo=now.tzinfo)
    wait = max(1, int((oldest + DAY - now).total_seconds()) + 1)
    hours = max(1, round(wait / 3600))
    # The same words whichever cap it was and whether or not the address played here: no oracle.
    raise TooMany(Nn_("%(email)s has been named in as many games in the last day as we allow from people it has "
                      "not played with yet. Try again in about %(num)d hour, or start the game without that address.",
                      "%(email)s has been named in as many games in the last day as we allow from people it has "
                      "not played with yet. Try again in about %(num)d hours, or start the game without that "
                      "address.", hours, email=email), wait, N_("Too many games for one address"))


def invite(session: Session, game: Game, players: list[Player], seating: list[Seating], now: datetime) -> list[Queued]:
    """Record and queue the invitations of a new game's seats (in its transaction), and what the caps
    count of it; the outbox rows.  An invitation to a seat of an unconfirmed creator's game is written
    held (outbox.mailable_status): it goes once the creator confirms."""
    inviter = key(players[0].email)
    rows: list[Queued] = []
    for player, seat in zip(players, seating):
        if seat.counted:
            session.add(Naming(address=limit_key(player.email), inviter=inviter, game_id=game.id,
                               new_inviter=seat.new_inviter, created_at=now))
        if not seat.invite:
            continue
        invitation = Invitation(address=key(player.email), inviter=inviter, game_id=game.id,
                                player_id=player.id, status=ASKED, created_at=now)
        session.add(invitation)
        session.flush()
        rows += outbox.add(session, game, [player], "invitation", {"invitation": invitation.id})
    return rows


def ask_for_seat(session: Session, address: str, inviter: str, game_id: int, now: datetime) -> bool:
    """A running game's players invite `address` to take over a seat (service/play/handover.py), with
    `inviter` (a key: the player who named it) as its inviter: False when the address declined that
    inviter (nothing may be sent); else the naming is counted as a new game's would be, under the same
    caps (raises TooMany, nothing written), and the caller sends the invitation.  An address that
    accepted the inviter is asked all the same: a seat in a game under way is a new commitment."""
    if _declined(session, address, inviter):
        return False
    seating = Seating(ASKED, True, counted=True, new_inviter=not (
        consented(session, address, inviter) or played_with(session, key(address), inviter)))
    _within_caps(session, [(address, seating)], now)
    session.add(Naming(address=limit_key(address), inviter=inviter, game_id=game_id,
                       new_inviter=seating.new_inviter, created_at=now))
    return True


def get(session: Session, invitation_id: int, lock: bool = False) -> Invitation:
    found = session.get(Invitation, invitation_id, with_for_update=lock or None)
    if found is None:
        raise NotFound("There is no such invitation (the link belongs to another Riftpost).", TITLE)
    return found


def _seats_in_games_of(inviter: str) -> sa.Select[int]:
    """The ids of the seats of the games whose seat 0 is the inviter's address (a key)."""
    creator = aliased(Player)
    return sa.select(col(Player.id)).join(creator, col(creator.game_id) == col(Player.game_id)).where(
        col(creator.seat) == 0, col(creator.address_key) == inviter)


def accept(invitation_id: int, now: datetime) -> int:
    """The address accepts the inviter: the emails held for it in that inviter's games go out, collapsed
    to one per seat.  Its own "did you start this game?" confirms that one game (and verifies the
    address for the games the command line or a follow-up starts): it starts emailing its other seats.
    The id of the invited player's row (its page is where the acceptance leads).  Raises Conflict after
    a decline."""
    with write_session(get_engine()) as session:
        invitation = get(session, invitation_id, lock=True)
        if invitation.status == DECLINED:
            raise Conflict("You declined this invitation, so this game does not email you. Nothing was changed.",
                           TITLE)
        player = session.get(Player, invitation.player_id)
        assert player is not None
        if player.address_key != invitation.address:
            # The seat was handed over to someone else since (service/play/handover.py): an old
            # invitation must not make the seat's new holder accept anything, nor give its page back.
            raise Conflict("This invitation's seat was handed over to another player since, so it cannot be "
                           "answered any more. Nothing was changed.", TITLE)
        if invitation.status == ASKED:
            invitation.status, invitation.answered_at = ACCEPTED, now
            session.add(invitation)
        address, inviter = player.address_key, invitation.inviter
        who = person(session, address, lock=True)
        if who.consented_at is None:
            who.consented_at = now
            session.add(who)
        if address == inviter:  # its own "did you start this game?": this game is confirmed, no other
            # (a friend's invitation accepted, or an earlier game confirmed, proves nothing of this one)
            seats: list[int] = [player.id] if player.consent == ASKED else []
            session.execute(sa.update(Player).where(col(Player.id).in_(seats)).values(consent=""))
            released = _collapse(session, seats, now)
            released += _confirmed(session, address, invitation.game_id, now)
            # A confirmed game is its creator's own: it no longer counts against the address's caps.
            session.execute(sa.delete(Naming).where(col(Naming.game_id) == invitation.game_id,
                                                    col(Naming.address) == limit_key(address),
                                                    col(Naming.inviter) == inviter))
        else:
            if not consented(session, address, inviter):
                session.add(Consent(address=address, inviter=inviter, created_at=now))
                session.flush()
            # This address's seats in the inviter's games, waiting for it.  A seat of a game its
            # creator has not confirmed is not among them (UNCONFIRMED): it waits for the creator.
            seats = list(session.execute(sa.select(col(Player.id)).where(
                col(Player.address_key) == address, col(Player.consent) == ASKED,
                col(Player.id).in_(_seats_in_games_of(inviter)))).scalars().all())
            session.execute(sa.update(Player).where(col(Player.id).in_(seats)).values(consent=""))
            released = _collapse(session, list(seats), now)
        player_id = player.id
    outbox.kick(sorted(released))
    return player_id


def _collapse(session: Session, seats: list[int], now: datetime) -> list[int]:
    """Release what was held for these seats, one email per seat about the game's position: the latest
    position email (its turn, the game's start, its end) stands for every earlier one, and a turn email
    that stands for the game's first says the invitation's words too; what came after it goes as well.
    The ids of the rows to send."""
    held = session.execute(sa.select(Outbox).where(
        col(Outbox.player_id).in_(seats), col(Outbox.status) == outbox.HELD, col(Outbox.kind) != "invitation")
        .order_by(col(Outbox.seq), col(Outbox.id))).scalars().all()
    by_seat: dict[int, list[Outbox]] = {}
    for row in held:
        by_seat.setdefault(row.player_id, []).append(row)
    release, superseded = [], []
    for rows in by_seat.values():
        position = [row for row in rows if row.kind in POSITION_KINDS]
        if not position:
            release += rows
            continue
        latest = position[-1]
        earlier = rows[:rows.index(latest)]
        superseded += [row.id for row in earlier]
        release += rows[rows.index(latest):]
        if latest.kind == "turn" and any(row.kind == "invite" or row.params.get("invite") for row in earlier):
            latest.params = {**latest.params, "invite": True}
            session.add(latest)
    if superseded:
        session.execute(sa.update(Outbox).where(col(Outbox.id).in_(superseded)).values(
            status="skipped", skip_reason="superseded", sent_at=now,
            last_error="held for consent; a later email about the game stood for it"))
    ids = [row.id for row in release]
    session.execute(sa.update(Outbox).where(col(Outbox.id).in_(ids)).values(status="pending", next_attempt_at=now))
    return ids


def _confirmed(session: Session, creator: str, game_id: int, now: datetime) -> list[int]:
    """The creator (an address key) confirmed the game: its seats held for that are settled as a new game
    would settle them now; the ids of the rows to send."""
    waiting = session.execute(sa.select(Player).where(
        col(Player.game_id) == game_id, col(Player.id).in_(_seats_in_games_of(creator)),
        col(Player.consent) == UNCONFIRMED)).scalars().all()
    ids: list[int] = []
    for seat in waiting:
        held = sa.select(col(Outbox.id)).where(col(Outbox.player_id) == seat.id, col(Outbox.status) == outbox.HELD)
        if _declined(session, seat.address_key, creator):
            seat.consent = DECLINED
            session.execute(sa.update(Outbox).where(col(Outbox.id).in_(held)).values(
                status="skipped", skip_reason="no_consent", last_error="the address declined the invitation"))
        elif consented(session, seat.address_key, creator):
            seat.consent = ""
            session.execute(sa.update(Outbox).where(col(Outbox.id).in_(held), col(Outbox.kind) == "invitation")
                            .values(status="skipped", skip_reason="unwanted", sent_at=now))
            ids += _collapse(session, [seat.id], now)
        else:  # its invitation (if this game sent one) goes; the rest waits for the answer
            seat.consent = ASKED
            found = session.execute(sa.select(col(Outbox.id)).where(
                col(Outbox.id).in_(held), col(Outbox.kind) == "invitation")).scalars().all()
            session.execute(sa.update(Outbox).where(col(Outbox.id).in_(found)).values(
                status="pending", next_attempt_at=now))
            ids += found
        session.add(seat)
    return ids


def decline(invitation_id: int, now: datetime) -> Invitation:
    """The address declines its inviter: no email of that inviter's games (those where the inviter's
    address has seat 0) goes to it again; what was held is dropped.  An address that declines its own
    "did you start this game?" drops what its games held for everyone.  Raises Conflict after an accept."""
    with write_session(get_engine()) as session:
        invitation = get(session, invitation_id, lock=True)
        if invitation.status == ACCEPTED:
            raise Conflict("You accepted this invitation already. To stop a game's emails, use the link at the "
                           "end of any of its emails.", TITLE)
        if invitation.status == ASKED:
            invitation.status, invitation.answered_at = DECLINED, now
            session.add(invitation)
        theirs = sa.select(col(Player.id)).where(col(Player.id).in_(_seats_in_games_of(invitation.inviter)),
                                                 col(Player.address_key) == invitation.address)
        ids = session.execute(theirs).scalars().all()
        session.execute(sa.update(Outbox).where(col(Outbox.player_id).in_(ids),
                                                col(Outbox.status).in_([outbox.HELD, "pending"]))
                        .values(status="skipped", skip_reason="no_consent",
                                last_error="the address declined the invitation"))
        session.execute(sa.update(Player).where(col(Player.id).in_(ids)).values(consent=DECLINED))
        if invitation.address == invitation.inviter:  # "I did not start it": nothing of its games goes
            # (this one's, and those still waiting for the same answer; later ones are refused by seatings)
            others = sa.select(col(Player.id)).where(col(Player.id).in_(_seats_in_games_of(invitation.inviter)),
                                                     col(Player.consent) == UNCONFIRMED)
            session.execute(sa.update(Outbox).where(col(Outbox.player_id).in_(others),
                                                    col(Outbox.status) == outbox.HELD)
                            .values(status="skipped", skip_reason="no_consent",
                                    last_error="the game's creator said they did not start it"))
        session.flush()
        session.expunge(invitation)
    return invitation


def decline_unanswered(email: str, now: datetime) -> int:
    """"Never email me" from an address that has unanswered invitations declines them all: their games
    stop waiting for mail that will not come, and their players see the seat declined.  How many."""
    with write_session(get_engine()) as session:
        asked = session.execute(sa.select(col(Invitation.id)).where(
            col(Invitation.address) == key(email), col(Invitation.status) == ASKED)).scalars().all()
    for invitation_id in asked:
        decline(invitation_id, now)
    return len(asked)
