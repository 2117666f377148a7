"""Rematch: "Play again" after a finished game (issue #25).  One player asks, choosing the seats (kept,
swapped, or random); every other player is asked by email and on their game page, and accepts with one
press; the new game starts when all have accepted, with the same game, options and time control.

- The asker's press and each acceptance are the person's consent to the new game (they clicked a link of
  their own seat, so the address is theirs): each becomes verified and accepts the new game's first
  player as an inviter (a `consents` row), so the new game is emailed to everyone at once, whoever
  ends up in seat 0.  A person who asked never to be emailed gets no email about it (delivery skips the
  kind like any game email): their game page shows the question.
- Bots (a seat without an address: the bots' work) accept at once and keep their seats whatever the
  seating; only people's seats move.  "swapped": each person moves to the next person's seat (in a duel
  the two swap; in team play the teams swap sides); "random": a random order of the people, drawn when
  asked and shown to everyone before they accept.
- A game has one rematch (`rematches`, unique per game): asking again leads to the one asked.  The start
  is claimed in the acceptance's transaction and the game created after it (new_game has its own), as a
  campaign's follow-up is (service/play/followups.py); the two games link to each other.
- "No thanks": any person asked (or in) may decline while the new game is not started: the rematch
  is closed (its row deleted, a `rematch_closures` row says who asked and who declined) and everyone
  else among the people is emailed (`rematch_declined`); the pages say it was declined, and a later
  "Play again" asks anew (a new row: the old emails' links find it, the old question's unsent emails
  are no longer wanted).
- A game whose adapter offers a follow-up of its own (Beyond the Rift's campaign: the next scenario, a
  replay) keeps it: rematch is the generic "play again" only.
"""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta

import sqlalchemy as sa
from sqlmodel import Session, col

from service import store
from service.errors import Conflict, Invalid, TooMany
from service.lang import N_
from service.mail import outbox
from service.people.identity import person
from service.play.moves import new_game
from service.store import read_session, write_session
from service.store.db import get_engine
from service.store.inboxes import key
from service.store.models import Consent, Game, GameClock, Player, Rematch, RematchClosure, as_utc, utcnow
from service.views import followups

TITLE = N_("Play again")
KEPT, SWAPPED, RANDOM = "kept", "swapped", "random"
SEATINGS = (KEPT, SWAPPED, RANDOM)
# How a bot seat is given to new_game (DESIGN.md: "bot" in place of an address).
BOT = "bot"
STALE_CLAIM = timedelta(minutes=5)
DECLINED_KIND = "rematch_declined"


def is_person(player: Player) -> bool:
    return bool(player.email)


def order_for(seating: str, players: list[Player]) -> list[int]:
    """The new game's seats: new seat i is the finished game's seat order[i].  Bots keep their seats."""
    if seating not in SEATINGS:
        raise Invalid(N_("Choose how to seat the players: the same seats, swapped, or at random."), TITLE)
    order = [p.seat for p in players]
    people = [p.seat for p in players if is_person(p)]
    if seating == SWAPPED:
        moved = people[-1:] + people[:-1]  # each person's seat goes to the next person
    elif seating == RANDOM:
        moved = list(people)
        secrets.SystemRandom().shuffle(moved)
    else:
        moved = people
    for seat, old in zip(people, moved):
        order[seat] = old
    return order


def _the_offer(session: Session, game: Game) -> None:
    offer = followups.offer(session, game)
    if offer is None:
        raise Conflict(N_("This game is not over yet: you can ask to play again once it ends."), TITLE)
    if offer.kind != followups.AGAIN:
        raise Conflict(N_("This game offers its own next game on its page."), TITLE)


def _consents(session: Session, players: list[Player], seats: list[int], order: list[int], now: datetime) -> None:
    """Those seats' people accept the new game: verified, and accepting its first player as inviter."""
    by_seat = {p.seat: p for p in players}
    inviter = by_seat[order[0]]
    for seat in seats:
        player = by_seat[seat]
        if not is_person(player):
            continue
        who = person(session, player.address_key, lock=True)
        if who.consented_at is None:
            who.consented_at = now
            session.add(who)
        if is_person(inviter) and player.address_key != inviter.address_key and session.get(
                Consent, (player.address_key, key(inviter.email))) is None:
            session.add(Consent(address=player.address_key, inviter=key(inviter.email), created_at=now))
    session.flush()


def closures(session: Session, game_id: int) -> int:
    """How many rematches of the game were declined."""
    return int(session.execute(sa.select(sa.func.count()).select_from(RematchClosure)
                               .where(col(RematchClosure.game_id) == game_id)).scalar_one())


def find(session: Session, game_id: int) -> Rematch | None:
    return session.execute(sa.select(Rematch).where(col(Rematch.game_id) == game_id)).scalar_one_or_none()


def ask(game_id: int, player_id: int, seating: str, now: datetime | None = None) -> Rematch:
    """The player asks to play again with this seating (or finds the rematch already asked); the others
    are emailed.  Starts the game at once when nobody else is to be asked (everyone else a bot)."""
    now = now or utcnow()
    with write_session(get_engine()) as session:
        game = store.get_game(session, game_id, lock=True)  # two asks at once take turns here
        _the_offer(session, game)
        found = find(session, game_id)
        if found is None:
            players = store.players_of(session, game_id)
            asker = next(p for p in players if p.id == player_id)
            order = order_for(seating, players)
            accepted = sorted({asker.seat} | {p.seat for p in players if not is_person(p)})
            found = Rematch(game_id=game_id, asked_by=asker.seat, seating=seating, order=order, accepted=accepted,
                            created_at=now)
            session.add(found)
            session.flush()
            _consents(session, players, accepted, order, now)
            others = [p for p in players if p.seat not in accepted]
            # Asked anew after a "No thanks": the ask's round (the closures before it) tells its emails from
            # the earlier question's (SQLite may give the new row the deleted one's id).
            asked = {"rematch": found.id}
            if rounds := closures(session, game_id):
                asked["round"] = rounds
            row_ids = outbox.ids(session, outbox.add(session, game, others, "rematch", asked))
        else:
            row_ids = []
        session.expunge(found)
    outbox.kick(row_ids)
    return _start_if_ready(game_id)


def accept(game_id: int, player_id: int, now: datetime | None = None) -> Rematch:
    """The player accepts the rematch asked; the game starts when they were the last."""
    now = now or utcnow()
    with write_session(get_engine()) as session:
        store.get_game(session, game_id, lock=True)
        found = find(session, game_id)
        if found is None:
            raise Conflict(N_("Nobody has asked to play this game again yet."), TITLE)
        players = store.players_of(session, game_id)
        seat = next(p.seat for p in players if p.id == player_id)
        if seat not in found.accepted:
            found.accepted = sorted({*found.accepted, seat})
            session.add(found)
            _consents(session, players, [seat], found.order, now)
    return _start_if_ready(game_id)


def decline(game_id: int, player_id: int, now: datetime | None = None) -> RematchClosure:
    """The player says "No thanks": the rematch asked is closed and the other people are told.  Raises
    Conflict when nothing is asked, or the new game has started (or is being started)."""
    now = now or utcnow()
    with write_session(get_engine()) as session:
        game = store.get_game(session, game_id, lock=True)  # as ask and accept: one at a time per game
        found = find(session, game_id)
        if found is None:
            raise Conflict(N_("Nobody is asking to play this game again now."), TITLE)
        if found.new_game_id is not None or (found.started_at is not None
                                             and as_utc(found.started_at) > now - STALE_CLAIM):
            raise Conflict(N_("The new game has already started: everyone had accepted."), TITLE)
        players = store.players_of(session, game_id)
        me = next(p for p in players if p.id == player_id)
        if not is_person(me):
            raise Conflict(N_("Only a player may decline."), TITLE)
        closed = RematchClosure(game_id=game_id, asked_by=found.asked_by, declined_by=me.seat,
                                seating=found.seating, closed_at=now)
        session.add(closed)
        session.delete(found)
        session.flush()
        told = [p for p in players if is_person(p) and p.seat != me.seat]
        row_ids = outbox.ids(session, outbox.add(session, game, told, DECLINED_KIND, {"closure": closed.id}))
        session.expunge(closed)
    outbox.kick(row_ids)
    return closed


def _start_if_ready(game_id: int) -> Rematch:
    """Start the new game if everyone accepted and nobody is starting it (the claim), and link the two."""
    now = utcnow()
    with write_session(get_engine()) as session:
        store.get_game(session, game_id, lock=True)
        found = find(session, game_id)
        assert found is not None
        players = store.players_of(session, game_id)
        ready = found.new_game_id is None and set(found.accepted) >= {p.seat for p in players}
        if ready and found.started_at is not None and as_utc(found.started_at) > now - STALE_CLAIM:
            ready = False  # another press is creating it right now
        if ready:
            found.started_at = now
            session.add(found)
        game = store.get_game(session, game_id)
        clock = session.get(GameClock, game_id) or GameClock(game_id=game_id)
        seated = [(players[old].name, players[old].email or BOT) for old in found.order]
        session.flush()
        session.expunge(found)
    if not ready:
        return found
    try:
        new_id = new_game(game.name, seated, dict(game.options or {}), deadline_hours=clock.deadline_hours,
                          policy=clock.policy, reminders=list(clock.reminders))
    except Exception as exc:
        with write_session(get_engine()) as session:  # released: a later press tries again
            session.execute(sa.update(Rematch).where(col(Rematch.game_id) == game_id).values(started_at=None))
        if isinstance(exc, TooMany):  # its words name an address: not another player's to read
            raise TooMany(N_("The new game could not be started now: one of the players has been named in as many "
                             "new games today as we allow. Try again later."), exc.retry_after, exc.title) from exc
        raise
    with write_session(get_engine()) as session:
        row = find(session, game_id)
        assert row is not None
        row.new_game_id = new_id
        session.add(row)
        session.flush()
        session.expunge(row)
    return row


def seat_in_new_game(rematch: Rematch, old_seat: int) -> int:
    return rematch.order.index(old_seat)


def rematch_of(session: Session, game_id: int) -> Rematch | None:
    """The rematch that started this game (the link back), if it was one."""
    return session.execute(sa.select(Rematch).where(col(Rematch.new_game_id) == game_id)).scalar_one_or_none()


def new_seat_player(game_id: int, rematch: Rematch, old_seat: int) -> Player:
    with read_session(get_engine()) as session:
        return session.execute(sa.select(Player).where(col(Player.game_id) == rematch.new_game_id,
                                                       col(Player.seat) == seat_in_new_game(rematch, old_seat))).scalar_one()
