"""Handing a dropped seat over for good (issue #25, part 2): in a game of 3 or more seats, a seat whose
turn timed out twice may be given to a bot, or to a new person by an invitation, if every remaining
person agrees.

- Timeouts are counted from the log: the events the deadline sweep played for the seat (kind
  "timeout", service/play/timeouts.py) grouped by the turn they fell in (the `turns` rows), so a turn
  of three default decisions is one timeout.  Only those after the seat's last handover count: the new
  holder starts clean.
- The voters: the game's person seats that play (consent "": not a bot, not an address that has not
  accepted) other than the seat, and other than a seat that is itself dropped.  Bots never vote.  Each
  voter has one vote per dropped seat (`seat_votes`), given by one POST from their page and replaced by
  their next; a proposal passes when every voter's vote is the same (to a bot, or to the same address).
- To a bot: at once.  The seat's row becomes a bot's ("Bot (normal)", no address), its links end (a
  new row key and generation), what was queued for the old holder is dropped, the old holder is told
  by email, and the worker's bot task is kicked (service/play/bots.py), so the bot plays its turn.
- To a person: an invitation (service/play/consent.py: the caps on naming an address, the declined
  inviters, the Invitation row and its /i/ links) whose inviter is the voter who named the address
  first.  Until it is accepted the seat stays as it is (its old holder may still play).  Accepting it
  gives the seat to the new person (their name and address, consent given, a new row key and link
  generation: every old link of the seat is refused) and leads to their page with a fresh link; the
  old holder is told.  Declining it (or an address that declined that inviter) ends the proposal: the
  remaining players may vote again.
- Nothing of the seat's hidden information is shown to the voters: the panel names the seat, its
  timeouts and the votes, nothing of its cards.  The emails to the old holder and the invitation carry
  no position either.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlmodel import Session, col

from service import store
from service.errors import Conflict, Invalid, NotFound
from service.lang import N_, Nf_
from service.mail import addresses, outbox
from service.mail.kinds import addressed
from service.names import name_problem
from service.people.access import masked
from service.people.identity import person
from service.play import bots, consent
from service.store import read_session, write_session
from service.store.db import get_engine
from service.store.inboxes import key
from service.store.models import (
    Consent,
    Event,
    Game,
    Invitation,
    Outbox,
    Player,
    SeatHandover,
    SeatVote,
    TurnStart,
    new_row_key,
)

TIMEOUTS = 2  # timed-out turns that make a seat one the others may hand over
MIN_SEATS = 3  # in a game of two, the other player alone would decide: not offered
BOT, PERSON = "bot", "person"
INVITED, DECLINED, DONE = "invited", "declined", "done"
TITLE = N_("This seat cannot be handed over")
INVITATION_TITLE = N_("This invitation to take a seat is not open")
# A proposal in words (marked for the catalogs: the page words it in its reader's language, as `Words`).
BOT_WORDS = {"easy": Nf_("a bot (easy)"), "normal": Nf_("a bot (normal)"), "strong": Nf_("a bot (strong)")}


@dataclass
class Vote:
    voter: int
    target: str  # bot | person
    address: str  # "" for a bot
    name: str
    created_at: datetime

    @property
    def choice(self) -> tuple[str, str]:
        return self.target, key(self.address) if self.address else ""


@dataclass
class Dropped:
    """A seat that timed out twice since its last handover, and where its handover stands."""

    seat: int
    timeouts: int
    votes: dict[int, Vote] = field(default_factory=dict)  # voter seat -> their vote
    invited: SeatHandover | None = None  # a person's invitation waiting for an answer


def timed_out_turns(conn: sa.Connection, game_id: int, since: dict[int, int]) -> dict[int, int]:
    """Seat -> the number of its turns that timed out after event `since[seat]` (0 when absent)."""
    timeouts = conn.execute(sa.select(col(Event.seq), col(Event.actor)).where(
        col(Event.game_id) == game_id, col(Event.kind) == "timeout").order_by(col(Event.seq))).all()
    if not timeouts:
        return {}
    starts: dict[int, list[int]] = {}  # seat -> seqs after which a turn of it began
    for seq, seats in conn.execute(sa.select(col(TurnStart.seq), col(TurnStart.seats)).where(
            col(TurnStart.game_id) == game_id).order_by(col(TurnStart.seq))):
        for seat in seats or []:
            starts.setdefault(seat, []).append(seq)
    turns: dict[int, set[int]] = {}
    for seq, actor in timeouts:
        if actor is None or seq <= since.get(actor, 0):
            continue
        begun = starts.get(actor, [])
        at = bisect.bisect_left(begun, seq) - 1  # the turn the event fell in: the last begun before it
        turns.setdefault(actor, set()).add(begun[at] if at >= 0 else seq)
    return {seat: len(found) for seat, found in turns.items()}


def is_person(player: Any) -> bool:
    """A seat that plays and reads its emails: not a bot, not an address that has not accepted."""
    return player.consent == ""


def dropped(session: Session, game: Any, players: list[Any]) -> dict[int, Dropped]:
    """The seats of an active game of 3+ seats that the others may hand over now, with their votes."""
    if game.status != "active" or len(players) < MIN_SEATS:
        return {}
    conn = session.connection()
    handovers = session.execute(sa.select(SeatHandover).where(col(SeatHandover.game_id) == game.id)
                                .order_by(col(SeatHandover.id))).scalars().all()
    since = {h.seat: int(h.after_seq or 0) for h in handovers if h.status == DONE}
    counts = timed_out_turns(conn, game.id, since)
    found: dict[int, Dropped] = {}
    for p in players:
        if bots.level_of(p) is None and counts.get(p.seat, 0) >= TIMEOUTS:
            found[p.seat] = Dropped(p.seat, counts[p.seat])
    if not found:
        return {}
    for h in handovers:
        if h.status == INVITED and h.seat in found:
            found[h.seat].invited = h
    for v in session.execute(sa.select(SeatVote).where(col(SeatVote.game_id) == game.id)).scalars():
        if v.seat in found:
            found[v.seat].votes[v.voter] = Vote(v.voter, v.target, v.address, v.name, v.created_at)
    return found


def voters(players: list[Any], found: dict[int, Dropped], seat: int) -> list[int]:
    """Who decides about `seat`: the person seats other than it that are not dropped themselves."""
    return [p.seat for p in players if p.seat != seat and p.seat not in found and is_person(p)]


# ---- the page's panel ----------------------------------------------------------------------------------


@dataclass
class Proposal:
    """One choice some voter made, as the voters' pages show it."""

    voter: int  # the first voter who made it: "agree" copies their vote
    words: str  # "a bot (normal)" or "invite b***@example.org"
    by: list[str]  # the names of the voters for it


@dataclass
class SeatPanel:
    seat: int
    name: str
    timeouts: int
    mine: str | None  # the viewer's vote in words, None before they vote
    proposals: list[Proposal]
    waiting: list[str]  # names of the voters who have not voted yet
    invited: str | None  # the masked address of a pending invitation
    bot: str = BOT_WORDS[bots.STAND_IN]  # the words of a vote for a bot (the page offers it unless proposed)


def _words(vote: Vote) -> str:
    return BOT_WORDS[bots.STAND_IN] if vote.target == BOT else Nf_("invite %(address)s", address=masked(vote.address))


def panel(session: Session, game: Any, players: list[Any], viewer: Any) -> list[SeatPanel]:
    """What the viewer's page shows of the seats the remaining players may hand over (nothing unless
    the viewer is one of the voters).  Names and masked addresses only: no cards, no address in full."""
    found = dropped(session, game, players)
    names = store.seat_names(players)
    shown = []
    for seat, drop in sorted(found.items()):
        deciders = voters(players, found, seat)
        if viewer.seat not in deciders:
            continue
        proposals: dict[tuple[str, str], Proposal] = {}
        for vote in sorted((drop.votes[s] for s in deciders if s in drop.votes), key=lambda v: v.created_at):
            voter = vote.voter
            entry = proposals.setdefault(vote.choice, Proposal(voter, _words(vote), []))
            entry.by.append(names[voter])
        mine = drop.votes.get(viewer.seat)
        shown.append(SeatPanel(
            seat, names[seat], drop.timeouts, _words(mine) if mine else None, list(proposals.values()),
            [names[s] for s in deciders if s not in drop.votes],
            masked(drop.invited.address) if drop.invited else None))
    return shown


def own_warning(session: Session, game: Any, players: list[Any], viewer: Any) -> int | None:
    """The viewer's own timed-out turns when the others may hand their seat over (their page says so:
    it is about them, and no secret of anyone's); None otherwise."""
    drop = dropped(session, game, players).get(viewer.seat)
    return drop.timeouts if drop is not None and drop.invited is None and is_person(viewer) else None


# ---- a vote ----------------------------------------------------------------------------------------


@dataclass
class Outcome:
    message: str
    kick: list[int] = field(default_factory=list)  # outbox rows to send after the commit
    bot: tuple[int, list[int], int] | None = None  # (game, to_act, seq) for the bot task


def vote(player_id: int, generation: int, seat: int, choice: str, address: str, name: str, now: datetime) -> str:
    """The player's vote about `seat`: `choice` "bot", "person" (with `address` and `name` typed) or
    "same:<voter seat>" (agree with that voter's vote).  What happened, in words.  Raises Invalid for a
    bad address or name, Conflict when the seat may not be handed over (any more) or the player may not
    vote about it, TooMany past an address's caps (nothing written)."""
    with write_session(get_engine()) as session:
        voter = store.get_player(session, player_id)
        # One vote of a game at a time: the game's row is the lock (SQLite's write transaction is anyway).
        game = session.execute(sa.select(Game).where(col(Game.id) == voter.game_id).with_for_update()
                               ).scalar_one()
        if voter.link_generation != generation:
            raise Conflict(N_("This page's link was replaced by a fresher one: vote from your latest email."), TITLE)
        players = store.players_of(session, game.id)
        found = dropped(session, game, players)
        drop = found.get(seat)
        if drop is None:
            raise Conflict(N_("That seat cannot be handed over: it has not missed two deadlines since it was last "
                              "handed over, the game is not under way, or it has fewer than three players."), TITLE)
        deciders = voters(players, found, seat)
        if voter.seat not in deciders:
            raise Conflict(N_("Only the players still in the game decide about this seat."), TITLE)
        if drop.invited is not None:
            raise Conflict(N_("Someone was invited to take this seat already: wait for their answer."), TITLE)
        target, address, name = _choice(session, drop, players, choice, address, name)
        row = session.execute(sa.select(SeatVote).where(
            col(SeatVote.game_id) == game.id, col(SeatVote.seat) == seat, col(SeatVote.voter) == voter.seat)
        ).scalar_one_or_none() or SeatVote(game_id=game.id, seat=seat, voter=voter.seat, target=target)
        row.target, row.address, row.name, row.created_at = target, address, name, now
        session.add(row)
        drop.votes[voter.seat] = Vote(voter.seat, target, address, name, now)
        wanted = drop.votes[voter.seat].choice
        if not all(s in drop.votes and drop.votes[s].choice == wanted for s in deciders):
            outcome = Outcome(N_("Your vote is recorded. The seat is handed over once every other player agrees."))
        else:
            holder = next(p for p in players if p.seat == seat)
            session.execute(sa.delete(SeatVote).where(col(SeatVote.game_id) == game.id, col(SeatVote.seat) == seat))
            if target == BOT:
                outcome = _to_bot(session, game, holder, now)
            else:
                first = min((drop.votes[s] for s in deciders), key=lambda v: v.created_at)
                inviter = next(p for p in players if p.seat == first.voter)
                outcome = _invite(session, game, holder, address, name, inviter, now)
    outbox.kick(outcome.kick)
    if outcome.bot is not None:
        bots.kick(*outcome.bot)
    return outcome.message


def _choice(session: Session, drop: Dropped, players: list[Any], choice: str, address: str, name: str
            ) -> tuple[str, str, str]:
    if choice == BOT:
        return BOT, "", ""
    if choice.startswith("same:"):
        try:
            other = drop.votes[int(choice[5:])]
        except (ValueError, KeyError):
            raise Invalid(N_("That proposal is not open any more: choose again."), TITLE) from None
        return other.target, other.address, other.name
    if choice != PERSON:
        raise Invalid(N_("Choose a bot, or type the address of the person to invite."), TITLE)
    if not address.strip():
        raise Invalid(N_("Type the email address of the person to invite."), TITLE)
    typed = addresses.normalized(address.strip())
    if any(key(p.email) == key(typed) for p in players if p.email):
        raise Invalid(N_("That address has a seat in this game already: invite someone who does not."), TITLE)
    name = " ".join(name.split()) or typed.partition("@")[0]
    problem = name_problem(name)
    if problem is not None:
        raise Invalid(problem, TITLE)
    return PERSON, typed, name


def _former(player: Player) -> dict[str, Any]:
    """What an email to the seat's old holder needs once the seat's row is someone else's."""
    return {"email": player.email, "name": player.name, "consent": player.consent, "row_key": player.row_key,
            "generation": player.link_generation}


def _release(session: Session, game: Game, player: Player, now: datetime, to: str) -> list[int]:
    """The seat leaves its holder: what was queued for them is dropped, they are told (if they ever took
    the game's emails), and every link of the seat ends.  The outbox rows to send."""
    session.execute(sa.update(Outbox).where(
        col(Outbox.player_id) == player.id, col(Outbox.status).in_(["pending", outbox.HELD]))
        .values(status="skipped", skip_reason="handed_over", sent_at=now,
                last_error="the seat was handed over to another player"))
    ids: list[int] = []
    if is_person(player):
        former = _former(player)
        rows = outbox.add(session, game, [addressed(player, former)], "seat_handed_over",
                          {"to": former, "by": to})
        ids = outbox.ids(session, rows)
    return ids


def _takeover(player: Player, email: str, name: str, consent_value: str) -> str:
    """The seat's row becomes its new holder's; the old row key (for the old links' answer)."""
    former = player.row_key
    player.email, player.address_key, player.name = email, key(email), name[:80]
    player.consent, player.turn_emails = consent_value, bool(email)
    player.link_generation += 1
    player.row_key = new_row_key()
    return former or ""


def _to_bot(session: Session, game: Game, player: Player, now: datetime) -> Outcome:
    ids = _release(session, game, player, now, BOT)
    name = bots.seat_name(bots.STAND_IN)
    former = _takeover(player, "", name, bots.consent_of(bots.STAND_IN))
    session.add(player)
    session.add(SeatHandover(game_id=game.id, seat=player.seat, player_id=player.id, target=BOT, status=DONE,
                             name=name, after_seq=game.seq, former_key=former, created_at=now, done_at=now))
    session.flush()
    return Outcome(Nf_("Everyone agreed: %(bot)s plays that seat from now on.", bot=BOT_WORDS[bots.STAND_IN]), ids,
                   (game.id, list(game.to_act or []), game.seq))


def _invite(session: Session, game: Game, player: Player, address: str, name: str, inviter: Player,
            now: datetime) -> Outcome:
    handover = SeatHandover(game_id=game.id, seat=player.seat, player_id=player.id, target=PERSON,
                            address=address, name=name, inviter=inviter.address_key, created_at=now, status=INVITED)
    if not consent.ask_for_seat(session, address, inviter.address_key, game.id, now):
        # The address declined the inviter: nothing may be sent.  Said as a decline would be said.
        handover.status = DECLINED
        session.add(handover)
        return Outcome(N_("Everyone agreed, but the person you named will not take the seat: you may vote again."))
    invitation = Invitation(address=key(address), inviter=inviter.address_key, game_id=game.id,
                            player_id=player.id, status=consent.ASKED, created_at=now)
    session.add(invitation)
    session.flush()
    handover.invitation_id = invitation.id
    session.add(handover)
    to = {"email": address, "name": name, "consent": consent.ASKED, "row_key": new_row_key()}
    rows = outbox.add(session, game, [addressed(player, to)], "seat_invitation",
                      {"invitation": invitation.id, "to": to})
    return Outcome(Nf_("Everyone agreed: we invited %(address)s to take the seat. It is theirs once they accept.",
                       address=masked(address)), outbox.ids(session, rows))


# ---- the invited person's answer ----------------------------------------------------------------------


def of_invitation(session: Session, invitation_id: int) -> SeatHandover | None:
    """The handover an invitation asks for, if it is one."""
    return session.execute(sa.select(SeatHandover).where(col(SeatHandover.invitation_id) == invitation_id)
                           ).scalar_one_or_none()


def accept(invitation_id: int, now: datetime) -> tuple[int, bool]:
    """The invited person takes the seat: the id of its players row (now theirs, with a new link
    generation), and whether this press took it (False: taken already, so the page must not mint a
    link: a forwarded invitation would hand the seat's page to whoever holds it).  Raises Conflict when
    the invitation is no longer open."""
    with write_session(get_engine()) as session:
        invitation = consent.get(session, invitation_id, lock=True)
        handover = of_invitation(session, invitation.id)
        if handover is None or invitation.status == consent.DECLINED or handover.status == DECLINED:
            raise Conflict(N_("This invitation was declined, so the seat was not taken. Nothing was changed."),
                           INVITATION_TITLE)
        if handover.status == DONE:
            return handover.player_id, False
        game = session.execute(sa.select(Game).where(col(Game.id) == handover.game_id).with_for_update()
                               ).scalar_one()
        if game.status != "active":
            raise Conflict(N_("This game has ended since you were invited, so there is no seat to take."),
                           INVITATION_TITLE)
        player = session.get(Player, handover.player_id, with_for_update=True)
        assert player is not None
        ids = _release(session, game, player, now, PERSON)
        handover.former_key = _takeover(player, handover.address, handover.name, "")
        session.add(player)
        invitation.status, invitation.answered_at = consent.ACCEPTED, now
        session.add(invitation)
        who = person(session, player.address_key, lock=True)
        if who.consented_at is None:
            who.consented_at = now
            session.add(who)
        if not consent.consented(session, player.address_key, handover.inviter):
            session.add(Consent(address=player.address_key, inviter=handover.inviter, created_at=now))
        handover.status, handover.after_seq, handover.done_at = DONE, game.seq, now
        session.add(handover)
        session.execute(sa.delete(SeatVote).where(col(SeatVote.game_id) == game.id,
                                                  col(SeatVote.seat) == player.seat))
        session.flush()
        # The new holder's first email: the root of their thread, with their page's link.
        ids += outbox.ids(session, outbox.add(session, game, [player], "seat_taken", {}))
        player_id = player.id
    outbox.kick(ids)
    return player_id, True


def decline(invitation_id: int, now: datetime) -> None:
    """The invited person declines: the address declines the inviter as any invitation's decline does
    (service/play/consent.py), and the proposal ends: the remaining players may vote again."""
    with write_session(get_engine()) as session:
        handover = of_invitation(session, invitation_id)
        if handover is None:
            raise NotFound(N_("There is no such invitation."), INVITATION_TITLE)
        if handover.status == DONE:
            raise Conflict(N_("You took this seat already. To stop the game's emails, use the link at the end of "
                              "any of its emails."), INVITATION_TITLE)
    consent.decline(invitation_id, now)
    with write_session(get_engine()) as session:
        session.execute(sa.update(SeatHandover).where(col(SeatHandover.invitation_id) == invitation_id,
                                                      col(SeatHandover.status) == INVITED)
                        .values(status=DECLINED))


def handed_over(player_id: int, row_key: str | None) -> bool:
    """Whether a link's row key is one the seat carried before a handover (its links were its holder's)."""
    if not row_key:
        return False
    with read_session(get_engine()) as session:
        return session.execute(sa.select(col(SeatHandover.id)).where(
            col(SeatHandover.player_id) == player_id, col(SeatHandover.former_key) == row_key).limit(1)
        ).first() is not None
