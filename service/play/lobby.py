"""Open seats and the lobby (issue #25): a game opened with its creator's seat taken and the others open,
to "anyone with this link" or listed in the lobby (/lobby); it starts when the last seat is filled.

- Opening takes a signed-in creator (their session proves their address, and the lobby shows their
  profile line): the game is dealt at once (a secret drawn as for any game), its games row of status
  "open" (no move can be played: service/play/moves.py plays "active" games only), the creator in seat 0.
- Joining is consent.  A signed-in person joins with one press (their session proves the address).
  Anyone else types an address: it gets one confirmation email (kind `lobby_join`: no name typed by a
  stranger, its own subject) whose link opens a page with one button; only that press joins.  Until then
  the join holds its seat (a players row of consent "joining", which the email hangs on) for
  LOBBY_HOLD_HOURS; unconfirmed after that, it lapses and the seat goes to the next person.  The web
  limits the typed addresses per client and per address and answers the same words whatever the
  address (service/web/lobby.py); an address that asked never to be emailed gets nothing (delivery skips
  it), an address with a join of this game already gets no second email, and a confirmation counts
  against the address's daily cap of unasked-for emails as an invitation does (`namings`,
  INVITATIONS_PER_ADDRESS_PER_DAY: past it, nothing is sent, with the same answer).
- The last seat confirmed starts the game in that transaction: status "active", the first turn's emails
  to everyone (the creator's among them: that is how the creator is told) and the clocks, as new_game
  does for a game started from the form.
- Bot seats from the start: the creator may give any other seat to a bot of a level ("bot", "bot:easy",
  "bot:strong", as the start form takes them); its players row is written when the game is opened (no
  address, consent "bot:LEVEL", as new_game writes one) and counts as filled.  At least one seat stays
  open.  A game with a bot is never rated (service/play/ratings.py: "bot").
- The creator may cancel an open game (`cancel`): its games row and open game become "cancelled" and
  everyone who had joined (confirmed) gets a `lobby_cancelled` email; a confirmation link of a join
  not confirmed yet then answers that the game was cancelled (and its email, if unsent, is not sent).
- An open game nobody filled expires after LOBBY_EXPIRY_DAYS (the deadline sweep: `expire`): its games
  row becomes "expired" and everyone who had joined (confirmed), the creator too, gets a `lobby_expired`
  email.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import sqlalchemy as sa
from sqlmodel import Session, col

import engine
from engine.bots import LEVELS
from service import running, store
from service.clocks import seats as clocks
from service.clocks.settings import parse_settings
from service.errors import Conflict, Forbidden, Gone, Invalid, NotFound
from service.lang import N_, Nf_
from service.mail import outbox
from service.people.identity import person
from service.play import bots as bot_seats
from service.play import emails
from service.store import current, deal, read_session, write_session
from service.store.db import get_engine
from service.store.inboxes import key as inbox_key
from service.store.inboxes import limit_key
from service.store.models import Game, Joining, Naming, OpenGame, Player, as_utc, utcnow

TITLE = N_("This game cannot be joined")
OPEN, STARTED, EXPIRED, CANCELLED = "open", "started", "expired", "cancelled"
# players.consent of a seat held for a join not confirmed yet: only its confirmation email is written to it.
ASKED = "joining"
JOIN_KIND, EXPIRED_KIND, CANCELLED_KIND = "lobby_join", "lobby_expired", "lobby_cancelled"


def hold() -> timedelta:
    return timedelta(hours=float(running.config()["LOBBY_HOLD_HOURS"]))


def open_game(name: str, mode: str, options: dict[str, Any], seats: int, creator: tuple[str, str], *, listed: bool,
              deadline_hours: Any = None, policy: str = "auto", reminders: Any = None,
              bots: dict[int, str] | None = None, now: datetime | None = None) -> OpenGame:
    """Open a game of `seats` players with the creator (name, signed-in address) in seat 0 and `bots`
    (seat -> level, seats 1 to seats - 1) at their seats.  Raises engine.IllegalMove (bad options,
    player count, time control, a bot's seat or level, or no seat left open)."""
    now = now or utcnow()
    try:
        hours, policy, ladder = parse_settings(deadline_hours, policy, reminders)
    except ValueError as exc:  # (a ClockError's marked message, said in the reader's language where shown)
        raise engine.IllegalMove(getattr(exc, "message", str(exc)), "bad_options") from exc
    rules = engine.get(name)
    if not (max(2, rules.min_players) <= seats <= rules.max_players):
        raise engine.IllegalMove(Nf_("An open game of %(game)s takes %(least)d to %(most)d players.",
                                     game=rules.title or rules.name, least=max(2, rules.min_players),
                                     most=rules.max_players), "bad_options")
    levels = _levels(bots or {}, seats)
    secret = deal.draw()
    setup = rules.start(players=seats, options=options, seed=deal.start_seed(secret))
    state = engine.replay(rules, setup)
    turn = rules.turn(state)
    who, address = creator
    with write_session(get_engine()) as session:
        me = person(session, address, lock=True)
        if me.consented_at is None:  # signed in: the address is theirs, as an accepted invitation shows
            me.consented_at = now
            session.add(me)
        game = Game(name=name, rules_version=str(rules.rules_version), options=options, secret=secret,
                    commitment=deal.commit(secret), seq=0, to_act=[], status=OPEN)
        session.add(game)
        session.flush()
        assert game.id is not None
        session.add(Player(game_id=game.id, seat=0, name=(who or address.partition("@")[0])[:80], email=address))
        session.add_all([Player(game_id=game.id, seat=seat, name=bot_seats.seat_name(level), email="",
                                consent=bot_seats.consent_of(level)) for seat, level in sorted(levels.items())])
        store.append(session, game, 0, setup, actor=None, kind="setup",
                     read_model={"to_act": [], "status": OPEN, "result": None})
        conn = session.connection()
        current.turn_began(conn, game.id, game.seq, turn.number, list(turn.seats))
        current.snapshot(conn, game.id, game.seq, rules.rules_version, state, utcnow())
        current.keep_state(conn, game.id, game.seq, rules.rules_version, state, exists=False, snapshot_seq=game.seq)
        opened = OpenGame(game_id=game.id, mode=mode, seats=seats, listed=listed, deadline_hours=hours, policy=policy,
                          reminders=ladder, created_at=now,
                          expires_at=now + timedelta(days=float(running.config()["LOBBY_EXPIRY_DAYS"])))
        session.add(opened)
        session.flush()
        session.expunge(opened)
    return opened


def _levels(bots: dict[int, str], seats: int) -> dict[int, str]:
    """The bot seats checked: seats 1 to seats - 1, known levels, and at least one seat left open."""
    levels = {}
    for seat, level in bots.items():
        if not 1 <= seat < seats:
            raise engine.IllegalMove(Nf_("Seat %(num)d is not one of this game's other seats.", num=seat + 1),
                                     "bad_options")
        if level not in LEVELS:
            raise engine.IllegalMove(Nf_("A bot plays at one of these levels: %(levels)s.", levels=", ".join(LEVELS)),
                                     "bad_options")
        levels[seat] = level
    if len(levels) >= seats - 1:
        raise engine.IllegalMove(N_("Leave at least one seat open for a person to join: a game of you and bots "
                                    "only is started from the game's start form."), "bad_options")
    return levels


def named(session: Session, open_id: int, key: str, lock: bool = False) -> OpenGame:
    found = session.get(OpenGame, open_id, with_for_update=lock or None)
    if found is None or not secrets.compare_digest(found.key, key or ""):
        raise NotFound(N_("There is no such open game (the link is wrong or belongs to another Riftpost)."), TITLE)
    return found


@dataclass(frozen=True)
class Seat:
    player: Player
    joining: Joining | None  # None: the creator's seat, or a bot's

    def confirmed(self) -> bool:
        return self.joining is None or self.joining.confirmed_at is not None


def seats_of(session: Session, opened: OpenGame, now: datetime) -> list[Seat]:
    """The seats taken: the creator's, each confirmed join and each join still holding its seat."""
    players = {p.id: p for p in store.players_of(session, opened.game_id)}
    joins = session.execute(sa.select(Joining).where(col(Joining.open_game_id) == opened.id,
                                                     col(Joining.lapsed_at).is_(None))).scalars().all()
    taken = [Seat(p, None) for p in players.values() if p.seat == 0 or bot_seats.level_of(p) is not None]
    for joining in joins:
        holding = joining.confirmed_at is not None or as_utc(joining.created_at) > now - hold()
        if holding:
            taken.append(Seat(players[joining.player_id], joining))
    return sorted(taken, key=lambda seat: seat.player.seat)


def seats_left(session: Session, opened: OpenGame, now: datetime) -> int:
    """Seats nobody has confirmed: what the lobby shows (a held seat may still lapse)."""
    return opened.seats - sum(1 for seat in seats_of(session, opened, now) if seat.confirmed())


def _take_seat(session: Session, opened: OpenGame, name: str, email: str, consent: str, now: datetime) -> Player | None:
    """A free seat for this address (lowest first: a seat never taken, or one whose join lapsed): its
    players row, written for the address; None when every seat is taken or held."""
    taken = {seat.player.seat for seat in seats_of(session, opened, now)}
    free = [seat for seat in range(1, opened.seats) if seat not in taken]
    if not free:
        return None
    seat = free[0]
    existing = session.execute(sa.select(Player).where(col(Player.game_id) == opened.game_id,
                                                       col(Player.seat) == seat)).scalar_one_or_none()
    if existing is not None:  # a lapsed join's seat: its row is given to the next person, links renewed
        lapsed = session.execute(sa.select(Joining).where(col(Joining.player_id) == existing.id,
                                                          col(Joining.lapsed_at).is_(None))).scalars().all()
        for joining in lapsed:
            joining.lapsed_at = now
            session.add(joining)
        existing.name, existing.email, existing.consent = name, email, consent
        existing.address_key = inbox_key(email)
        existing.link_generation += 1
        session.add(existing)
        session.flush()
        return existing
    player = Player(game_id=opened.game_id, seat=seat, name=name, email=email, consent=consent)
    session.add(player)
    session.flush()
    return player


def _joined(session: Session, opened: OpenGame, address: str, now: datetime) -> Seat | None:
    return next((seat for seat in seats_of(session, opened, now) if seat.player.address_key == address), None)


def _check_open(session: Session, opened: OpenGame) -> Game:
    game = store.get_game(session, opened.game_id, lock=True)
    if opened.status == EXPIRED:
        raise Gone(N_("This game expired before its seats were filled."), TITLE)
    if opened.status == STARTED:
        raise Conflict(N_("This game has started: every seat was taken."), TITLE)
    if opened.status == CANCELLED:
        raise Gone(N_("This game was cancelled by the player who opened it."), TITLE)
    return game


def ask_to_join(open_id: int, key: str, name: str, email: str, now: datetime | None = None) -> None:
    """Someone typed an address to join: one confirmation email to it, or silently nothing (the address
    is in this game already, or every seat is held).  The caller answers the same words either way."""
    now = now or utcnow()
    address = inbox_key(email)
    row_ids: list[int] = []
    with write_session(get_engine()) as session:
        opened = named(session, open_id, key, lock=True)
        _check_open(session, opened)
        if _joined(session, opened, address, now) is not None:
            return  # one confirmation email per address and game
        if not _within_cap(session, opened, email, now):
            return
        player = _take_seat(session, opened, name, email, ASKED, now)
        if player is None:
            return
        creator = next(p for p in store.players_of(session, opened.game_id) if p.seat == 0)
        session.add(Naming(address=limit_key(email), inviter=creator.address_key, game_id=opened.game_id,
                           new_inviter=True, created_at=now))
        joining = Joining(open_game_id=opened.id, player_id=player.id, address=address,
                          nonce=secrets.token_hex(16), created_at=now)
        session.add(joining)
        session.flush()
        game = store.get_game(session, opened.game_id)
        row_ids = outbox.ids(session, outbox.add(session, game, [player], JOIN_KIND, {"joining": joining.id}))
    outbox.kick(row_ids)


def _within_cap(session: Session, opened: OpenGame, email: str, now: datetime) -> bool:
    """Whether the address (its limit key: no +tag) may get one more unasked-for email today: a join's
    confirmation counts as an invitation does (`namings`, INVITATIONS_PER_ADDRESS_PER_DAY, in the
    database whichever web process answers).  Past it, nothing is sent and the answer stays the same."""
    address = limit_key(email)
    if session.get_bind().dialect.name == "postgresql":  # as consent.py counts: one transaction per address
        session.execute(sa.text("SELECT pg_advisory_xact_lock(hashtextextended(:k, 0))"), {"k": f"naming:{address}"})
    recent = session.execute(sa.select(sa.func.count()).select_from(Naming).where(
        col(Naming.address) == address, col(Naming.created_at) > now - timedelta(days=1))).scalar_one()
    return int(recent) < int(running.config()["INVITATIONS_PER_ADDRESS_PER_DAY"])


def join_signed_in(open_id: int, key: str, name: str, email: str, now: datetime | None = None) -> Player:
    """A signed-in person joins with one press; their seat's row.  Raises Conflict when no seat is free."""
    now = now or utcnow()
    address = inbox_key(email)
    with write_session(get_engine()) as session:
        opened = named(session, open_id, key, lock=True)
        _check_open(session, opened)
        found = _joined(session, opened, address, now)
        if found is not None and found.joining is not None and found.joining.confirmed_at is None:
            joining = found.joining  # an emailed confirmation not pressed yet: this press confirms it
            player = found.player
        elif found is not None:
            return found.player
        else:
            taken = _take_seat(session, opened, name, email, ASKED, now)
            if taken is None:
                raise Conflict(N_("Every seat of this game is taken or held for someone confirming by email."), TITLE)
            player = taken
            joining = Joining(open_game_id=opened.id, player_id=player.id, address=address,
                              nonce=secrets.token_hex(16), created_at=now)
        started = _confirm(session, opened, joining, player, now)
        session.flush()
        session.expunge(player)
    started.kick()
    return player


def joining_of(session: Session, joining_id: int, nonce: str) -> Joining:
    found = session.get(Joining, joining_id)
    if found is None or not secrets.compare_digest(found.nonce, nonce):
        raise NotFound(N_("This link belongs to no join here (it was changed, or belongs to another Riftpost)."), TITLE)
    return found


def confirm(joining_id: int, nonce: str, now: datetime | None = None) -> Player:
    """The emailed link's button: the address joins (its seat's row).  Raises Gone when the join lapsed
    (its seat went to someone else) or the game expired, Conflict when it started without this seat."""
    now = now or utcnow()
    with write_session(get_engine()) as session:
        joining = joining_of(session, joining_id, nonce)
        opened = session.get(OpenGame, joining.open_game_id, with_for_update=True)
        assert opened is not None
        player = store.get_player(session, joining.player_id)
        if joining.confirmed_at is not None:
            session.expunge(player)
            return player
        _check_open(session, opened)
        # A hold past its time may still be confirmed while nobody took its seat since (its row is still
        # this address's and the joining was not marked lapsed by the next person's join).
        if joining.lapsed_at is not None or player.address_key != joining.address:
            raise Gone(N_("Your seat was held for you for a while and went to someone else. Join again from "
                          "the game's page if a seat is free."), TITLE)
        started = _confirm(session, opened, joining, player, now)
        session.flush()
        session.expunge(player)
    started.kick()
    return player


@dataclass
class Started:
    """What to do after the commit of a change that may have started the game: the outbox rows to kick,
    and the bot seats to ask for a decision (the seats to act at `seq`)."""

    row_ids: list[int]
    game_id: int = 0
    to_act: tuple[int, ...] = ()
    seq: int = 0

    def kick(self) -> None:
        outbox.kick(self.row_ids)
        if self.to_act:
            bot_seats.kick(self.game_id, list(self.to_act), self.seq)


def _confirm(session: Session, opened: OpenGame, joining: Joining, player: Player, now: datetime) -> Started:
    """The join is confirmed (the address is its owner's): its seat plays; the game starts when it was
    the last."""
    joining.confirmed_at = now
    session.add(joining)
    player.consent = ""
    session.add(player)
    who = person(session, player.address_key, lock=True)
    if who.consented_at is None:
        who.consented_at = now
        session.add(who)
    session.flush()
    if seats_left(session, opened, now) > 0:
        return Started([])
    return _start(session, opened, now)


def _start(session: Session, opened: OpenGame, now: datetime) -> Started:
    """Every seat confirmed: the game begins, as new_game begins a game (its first emails, its clocks)."""
    game = store.get_game(session, opened.game_id, lock=True)
    rules = engine.get(game.name)
    state, _ = store.load_state(session, game)
    to_act = rules.to_act(state)
    game.status, game.to_act, game.updated_at = "active", list(to_act), now
    session.add(game)
    opened.status, opened.ended_at = STARTED, now
    session.add(opened)
    session.flush()
    seats = store.players_of(session, game.id)
    rows = emails.on_create(session, game, seats, to_act, lobby=True)
    clocks.on_create(session, game, seats, opened.deadline_hours, opened.policy, list(opened.reminders), now,
                     shares={s: rules.deadline_share(state, s) for s in to_act})
    return Started(outbox.ids(session, rows), game.id, tuple(to_act), game.seq)


def expire(now: datetime) -> int:
    """The sweep's part: every open game past its expiry is closed and its people told; how many."""
    with read_session(get_engine()) as session:
        due = session.execute(sa.select(col(OpenGame.id)).where(col(OpenGame.status) == OPEN,
                                                                col(OpenGame.expires_at) <= now)).scalars().all()
    done = 0
    for open_id in due:
        with write_session(get_engine()) as session:
            opened = session.get(OpenGame, open_id, with_for_update=True)
            if opened is None or opened.status != OPEN:
                continue
            row_ids = _close(session, opened, EXPIRED, EXPIRED_KIND, now, creator_too=True)
        outbox.kick(row_ids)
        done += 1
    return done


def cancel(open_id: int, key: str, email: str, now: datetime | None = None) -> None:
    """The creator (signed in as `email`) cancels their open game: everyone who joined is told.  Raises
    Forbidden for anyone else; Gone or Conflict when it is no longer open."""
    now = now or utcnow()
    with write_session(get_engine()) as session:
        opened = named(session, open_id, key, lock=True)
        creator = next(p for p in store.players_of(session, opened.game_id) if p.seat == 0)
        if creator.address_key != inbox_key(email):
            raise Forbidden(N_("Only the player who opened this game can cancel it."), TITLE)
        _check_open(session, opened)
        row_ids = _close(session, opened, CANCELLED, CANCELLED_KIND, now, creator_too=False)
    outbox.kick(row_ids)


def _close(session: Session, opened: OpenGame, status: str, kind: str, now: datetime, creator_too: bool) -> list[int]:
    """The open game ends unplayed (`status`): its games row too; each confirmed seat (people only; the
    creator's if `creator_too`) gets a `kind` email.  The outbox ids to kick."""
    game = store.get_game(session, opened.game_id, lock=True)
    game.status, game.updated_at = status, now
    session.add(game)
    opened.status, opened.ended_at = status, now
    session.add(opened)
    session.flush()
    told = [seat.player for seat in seats_of(session, opened, now)
            if seat.confirmed() and seat.player.email and (creator_too or seat.player.seat != 0)]
    return outbox.ids(session, outbox.add(session, game, told, kind, {"open_game": opened.id}))


def listed(session: Session, now: datetime) -> list[OpenGame]:
    """The open games listed in the lobby, newest first."""
    return list(session.execute(sa.select(OpenGame).where(col(OpenGame.status) == OPEN, col(OpenGame.listed),
                                                          col(OpenGame.expires_at) > now)
                                .order_by(col(OpenGame.id).desc()).limit(200)).scalars())


def check_seats(seats_text: str) -> int:
    try:
        return int(seats_text)
    except ValueError:
        raise Invalid(N_("Say how many players the game is for."), N_("Open seats")) from None
