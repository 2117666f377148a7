"""The one move path, and game creation.

`handle(game_id, seat, moves, expected_seq)` is what the web form, the confirm page of an emailed
link and the JSON play API call, with one move or a whole turn of them; the deadline sweep calls its
inside, `apply`, in the transaction of a batch of timeouts.  In one transaction it appends the
engine's events, moves the read model and the current-state row on, records a turn that began, writes
a snapshot when due, moves the clocks on and writes the outbox rows; after the commit it nudges the
worker.  A stale `expected_seq` raises StaleState and writes nothing.
"""

from __future__ import annotations

import logging
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlmodel import Session

import engine
from service import running, store
from service.clocks import seats as clocks
from service.clocks.settings import parse_settings
from service.errors import Invalid, StaleState
from service.lang import N_
from service.mail import addresses, outbox
from service.play import bots, consent, emails, ending
from service.play.batch import Batch, GameOver, Played, as_moves, secrets_of
from service.store import current, deal, write_session
from service.store.db import get_engine, move_session
from service.store.models import Game, Player, utcnow

log = logging.getLogger(__name__)


@dataclass
class Outcome:
    game_id: int
    seq: int
    events: list[dict[str, Any]]
    to_act: list[int]
    status: str
    result: Mapping[str, Any] | None
    outbox_ids: list[int] = field(default_factory=list)
    played: list[Played] = field(default_factory=list)  # the moves, read and worded
    # Bot seats among `to_act` whose decision to queue (service/play/bots.py): known from the seats
    # read for the emails when the turn changed hands; a bot that goes on deciding, or a co-op phase
    # where a person's move leaves the same seats to act, is the bot task's own to follow.
    bots_to_act: list[int] = field(default_factory=list)
    # The position just written, for an answer that shows it without reading it back (the JSON play
    # API): the game row as moved on, the state after the moves (the full state: a caller shows it
    # only through the engine's `view` of one seat), the clock read with the game, the seats if read.
    game: current.GameRow | None = field(default=None, repr=False)
    state: dict[str, Any] | None = field(default=None, repr=False)
    clock: current.ClockRow | None = field(default=None, repr=False)
    players: list[current.PlayerRow] | None = field(default=None, repr=False)


def _snapshot_due(snapshot_seq: int, new_seq: int, before: Collection[int], after: Collection[int],
                  every: int) -> bool:
    if set(before) != set(after):  # a turn change: the positions people come back to
        return True
    return new_seq - snapshot_seq >= every


def handle(
    game_id: int, seat: int, moves: dict[str, Any] | list[dict[str, Any] | str], expected_seq: int, *,
    kind: str = "move", now: datetime | None = None, language: str = "en",
) -> Outcome:
    """Play `moves` for `seat` in the game as it stood at `expected_seq`: one move (a dict), or a
    list of moves (dicts or their text forms) played one after the other, all of them or none.

    Each move is played with the RNG of its own position, as if sent alone, so the log is the same
    either way; the turns, clocks, snapshot and emails follow the seats to act before the first move
    and after the last (service/play/batch.py says which moves may follow which).

    Raises GameNotFound, StaleState ("the game moved on"), service.errors.IllegalMoveAt (an
    engine.IllegalMove with the engine's reason and code and the index of the first illegal move;
    GameOver when the game has ended).  `kind` "timeout": the deadline sweep plays for a seat whose
    time ran out; `now`: the time the move counts as made at (the sweep's clock; default the wall
    clock), where the next seats' deadlines start; `language`: the played moves' labels (`Played.label`:
    the JSON API's request's, docs/i18n.md "Wired"; their facts, `Played.fact`, are the same in any).
    """
    todo = as_moves(moves)
    # (the ORM Session only if something of the move asks for it: service/store/db.py `move_session`)
    with move_session(get_engine()) as session:
        outcome = apply(session, game_id, seat, todo, expected_seq, kind=kind, now=now or utcnow(),
                        language=language)
    outbox.kick(outcome.outbox_ids)
    if outcome.result is not None:
        ending.kick(game_id)
    else:
        bots.publish(game_id, outcome.bots_to_act, outcome.seq)
    return outcome


def apply(
    session: Session, game_id: int, seat: int, todo: list[dict[str, Any] | str], expected_seq: int, *,
    kind: str, now: datetime, loaded: current.Loaded | None = None, language: str = "en",
) -> Outcome:
    """`handle` inside the caller's write transaction (its own, or a sweep's batch); the outbox rows
    are the caller's to kick after the commit.  `loaded`: the game as `current.read` (or the sweep's
    `current.read_due`) loaded it in this transaction, not read again; its seq is checked anyway by
    the compare-and-set UPDATE, so a move made since makes this StaleState.

    The lean path (service/store/current.py): one read of the game with its state row, the seats only
    when an email or a clock needs them, then the compare-and-set and the rest of the move's rows, all
    on the DB-API cursor (a decision that keeps the turn: four statements in all).  A game whose state
    row is missing or stale (made before the row existed, or by an older engine) is rebuilt from its
    snapshots and events once."""
    conn = session.connection()
    loaded = loaded or current.read(conn, game_id)
    game = loaded.game
    if game.seq != expected_seq:
        raise StaleState(game_id, expected_seq, game.seq)
    if game.status != "active":
        raise GameOver()
    rules = engine.get(game.name)
    state, snapshot_seq = loaded.state, loaded.snapshot_seq
    if state is None:
        state, snapshot_seq = store.load_state(session, game)
    walk = Batch(rules, game.secret, state, seat, expected_seq, secrets=lambda: secrets_of(session, game, seat),
                 language=language)
    for index, move in enumerate(todo):
        walk.play(index, move, judge=index < len(todo) - 1)
    state, before, new_events = walk.state, walk.before, walk.events
    after = rules.to_act(state)
    result = rules.result(state)
    turn = rules.turn(state)
    new_seq = expected_seq + len(new_events)
    starts = set(turn.seats) if walk.turn_began is not None else set()
    snapshot = result is not None or _snapshot_due(snapshot_seq, new_seq, before, after,
                                                   running.config()["SNAPSHOT_EVERY"])
    snapshot_seq = new_seq if snapshot else snapshot_seq
    # the turn start: the seq after which the turn in progress at the end began
    began = None if walk.turn_began is None else (walk.turn_began, turn.number, list(turn.seats))
    current.advance(conn, game, expected_seq, new_events, actor=seat, kind=kind, to_act=after, result=result,
                    at=utcnow(), written=current.Written(rules.rules_version, state, loaded.kept, snapshot_seq,
                                                         snapshot, began))
    restart = starts | (set(after) - set(before))
    mailed = result is None and bool(set(before) ^ set(after) or starts)
    clock = loaded.clock
    # The seats, only when something asks for them: the emails, the end, and of the clocks
    # (clocks.after_move) one that (re)starts, resumes from a pause or counts a timeout; a decision that
    # keeps the turn in a timed game reads no seat, as in an untimed one (issue #27: a statement less).
    clock_needs_seats = clock is not None and not loaded.clock_idle and (
        bool(restart) or kind == "timeout" or clock.paused_at is not None)
    players = current.players(conn, game_id) if mailed or result is not None or clock_needs_seats else []
    due: dict[int, datetime] = {}
    if result is not None or not loaded.clock_idle:
        # The clocks follow the turns (service/clocks).  A result stops them and marks the end as due:
        # the end-of-game task records it once and sends the game_over emails.  An untimed game that
        # is not paused and has no timeout streak has nothing to move on, and pays nothing here.
        due = clocks.after_move(
            session, game, players, seat, before, after, restart, kind, result is not None, now,
            shares={s: rules.deadline_share(state, s) for s in after}, clock=loaded.clock,
        )
    # The turn emails state the deadlines just started (none: the game is untimed or paused).
    rows = emails.on_change(session, game, players, seat, before, after, starts, due=due) if mailed else []
    return Outcome(game_id, game.seq, list(new_events), after, game.status, result, outbox.ids(session, rows),
                   walk.played, [p.seat for p in players if p.seat in after and bots.is_seat(p.consent)],
                   game=game, state=state, clock=clock, players=players or None)


def new_game(
    name: str,
    players: list[tuple[str, str]],
    options: dict[str, Any] | None = None,
    seed: int | None = None,
    *,
    deadline_hours: Any = None,
    policy: str = "auto",
    reminders: Any = None,
    now: datetime | None = None,
    ask_creator: bool = False,
) -> int:
    """Create a game for (name, email) players in seat order; queue the invitations; its id.

    `ask_creator`: the game comes from the public form, where anyone may type any address into seat 0,
    so seat 0 confirms this very game by email before anything of it goes to anyone else
    (service/play/consent.py).  The command line and a finished game's follow-up (reached from a
    player's signed link) start games whose creator is known.

    An address that has not consented gets one short invitation instead, and its other emails wait
    for its answer (service/play/consent.py).

    `seed`: deal from this seed, for a reproducible game (the operator's `new-game --seed`, tests);
    None, as for every game a player starts: a secret drawn from the operating system's random source
    (service/store/deal.py), which nobody sees before the game ends.

    `deadline_hours` None: no time control; else each turn's deadline, with the timeout `policy`
    and the `reminders` ladder (hours before the deadline), see service/clocks.

    Raises engine.UnknownGame, engine.IllegalMove (code bad_options) for a bad player count or option,
    service.errors.TooMany when an address to invite has had its day's invitations.
    """
    try:
        hours, policy, ladder = parse_settings(deadline_hours, policy, reminders)
    except ValueError as exc:  # (a ClockError's marked message, said in the reader's language where shown)
        raise engine.IllegalMove(getattr(exc, "message", str(exc)), "bad_options") from exc
    rules = engine.get(name)
    options = dict(options or {})
    if not rules.min_players <= len(players) <= rules.max_players:
        raise engine.IllegalMove(
            f"{rules.title or rules.name} needs {rules.min_players} to {rules.max_players} players.",
            "bad_options",
        )
    checked = []
    levels = _bot_levels(players)
    for seat, (who, email) in enumerate(players):
        if seat in levels:
            checked.append((bots.seat_name(levels[seat]), ""))
            continue
        # Names and addresses go into every email's headers and body: a line break there would
        # break (or forge) the headers of each email naming that player.
        for text, said in ((who or "", N_("A player's name must be one line of printable characters (no line "
                                          "breaks or control characters).")),
                           (email, N_("A player's email address must be one line of printable characters (no "
                                      "line breaks or control characters)."))):
            if not text.isprintable():
                raise engine.IllegalMove(said, "bad_options")
        # Every way in (the form, the command line, a campaign's follow-up) comes through here: an
        # address that cannot receive mail is refused before the game exists, and the normalized
        # form is stored (one player typing Ann@Example.ORG and another ann@example.org share an inbox).
        try:
            checked.append((who, addresses.normalized(email)))
        except Invalid as exc:
            raise engine.IllegalMove(exc.message, "bad_options") from None
    players = checked
    try:
        secret = deal.draw() if seed is None else deal.of_seed(int(seed))
    except ValueError as exc:
        raise engine.IllegalMove(str(exc), "bad_options") from None
    setup = rules.start(players=len(players), options=options, seed=deal.start_seed(secret))
    state = engine.replay(rules, setup)
    result = rules.result(state)
    turn = rules.turn(state)
    now = now or utcnow()
    with write_session(get_engine()) as session:
        # Who may be emailed, who is asked first (before anything is written: a limit refuses the game).
        seating = _seatings(session, players, levels, now, ask_creator)
        game = Game(
            name=name, rules_version=str(rules.rules_version), options=options,
            secret=secret, commitment=deal.commit(secret), seq=0, to_act=[], status="active",
        )
        session.add(game)
        session.flush()
        assert game.id is not None
        seats = [
            Player(game_id=game.id, seat=seat, name=(who or email.partition("@")[0])[:80], email=email,
                   consent=seating[seat].consent)
            for seat, (who, email) in enumerate(players)
        ]
        session.add_all(seats)
        session.flush()
        store.append(
            session, game, 0, setup, actor=None, kind="setup",
            read_model={
                "to_act": rules.to_act(state),
                "status": "finished" if result is not None else "active",
                "result": result,
            },
        )
        # The first turn, snapshot and state row, as a move writes them (service/store/current.py).
        conn = session.connection()
        current.turn_began(conn, game.id, game.seq, turn.number, list(turn.seats))
        current.snapshot(conn, game.id, game.seq, rules.rules_version, state, utcnow())
        current.keep_state(conn, game.id, game.seq, rules.rules_version, state, exists=False, snapshot_seq=game.seq)
        # The invitations (about the game as set up) first: each is its address's first email from us.
        rows = consent.invite(session, game, seats, seating, now)
        rows += emails.on_create(session, game, seats, game.to_act if result is None else [])
        clocks.on_create(session, game, seats, hours, policy, ladder, now,
                         shares={s: rules.deadline_share(state, s) for s in rules.to_act(state)})
        game_id, row_ids, start_seq = game.id, outbox.ids(session, rows), game.seq
    outbox.kick(row_ids)
    if result is None:
        bots.kick(game_id, rules.to_act(state), start_seq)
    return game_id


def _bot_levels(players: list[tuple[str, str]]) -> dict[int, str]:
    """Seats typed as `bot` / `bot:LEVEL` in place of an address: seat -> level (service/play/bots.py)."""
    levels = {seat: level for seat, (_, email) in enumerate(players) if (level := bots.parse(email)) is not None}
    if 0 in levels and len(levels) < len(players):
        # Seat 1 is who starts the game: the people's invitations come from that address.
        raise engine.IllegalMove("Seat 1 must be a person (the one who starts the game) when the game has people "
                                 "in it; bots may sit in any other seat.", "bad_options")
    return levels


def _seatings(session: Session, players: list[tuple[str, str]], levels: dict[int, str], now: datetime,
              ask_creator: bool) -> list[consent.Seating]:
    """consent.seatings for the people's seats; a bot seat gets consent "bot:LEVEL" and no invitation.
    The first person's address is the inviter; a game of bots only has nobody to ask."""
    people = [email for seat, (_, email) in enumerate(players) if seat not in levels]
    found = iter(consent.seatings(session, people, now, ask_creator=ask_creator and 0 not in levels) if people else [])
    return [consent.Seating(bots.consent_of(levels[seat]), False) if seat in levels else next(found)
            for seat in range(len(players))]
