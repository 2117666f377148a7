"""The sweep: one idempotent pass, as of a given time, over everything that is due.  Celery beat runs it
every minute and `flask --app service sweep [--now ISO8601]` runs it by hand.

- vacations whose allowance ran out end (service/people/vacations.py);
- ends of games still to record are recorded (service/play/ending.py);
- due reminders are emailed (service/clocks/seats.py);
- timeouts enter through the move path (`apply(..., kind="timeout")`, what `handle` runs), so history
  shows them, with the move the engine's `timeout_move` gives for the game's policy: `auto` plays the
  engine's documented default for each remaining decision of the turn; `skip` passes where the rules
  offer a pass, else as `auto`; `forfeit` ends the game through the end-of-game path (the other seats
  win); `pause` stops every clock of the game and tells everyone.

The sweep works in batches: `claim_due` leases up to BATCH due rows to it (SKIP LOCKED: other sweeps
skip them), and one transaction per batch does all of them (`_Batch`): one query loads every row with
its game, state row and clock (service/store/current.py `read_due`), the reminders, journal lines and
timed_out emails of the batch are one statement each, and the timeout moves go through the move
path's `apply` on the game as loaded, so they write what `handle` would.  The outbox rows and the
ends of the batch are kicked after its commit.  A batch works in passes: a game moves once per pass,
and a row whose seat still has a decision of the timed-out turn to make, or whose move was StaleState
(the player moved at the last second: the compare-and-set on the seq that was read writes nothing),
is looked at again in the next pass.  A forfeit records the end in transactions of its own
(service/play/ending.py), after the batch's commit.  An unexpected error rolls the whole batch back
and its rows are done again one by one, each in transactions of its own (`_process`), so one bad row
costs the others nothing and never leaves a game half written.

Once a seat's timed-out turn is over, the seat gets a `timed_out` email: what the game played for it
and what comes next (service/play/emails.py says when another email tells it instead).
"""

from __future__ import annotations

import logging
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlmodel import Session, col

import engine
from service import store
from service.clocks.seats import BATCH, claim_due, clock_of, pause, remind
from service.errors import StaleState
from service.mail import digest, outbox
from service.people import vacations as people
from service.play import bots, ending, lobby
from service.play.moves import apply, handle
from service.store import current, read_session, write_session
from service.store.current import GameRow, PlayerRow
from service.store.db import get_engine
from service.store.models import Deadline, Game, GameClock, Outbox, as_utc
from service.views.sentences import move_fact

Played = str | dict[str, Any]  # a default move as its email's params keep it: a message's JSON (older rows: words)

log = logging.getLogger(__name__)

# A turn is a handful of decisions; more defaults than this in one turn means an engine loops.
MAX_DEFAULTS_PER_TURN = 200


def record_ends(now: datetime) -> Counter[str]:
    """Record the ends still due (games whose final move's kick was lost, or never sent: the embedded
    broker gets no kicks, and its outbox scan calls this every 2 s)."""
    counts: Counter[str] = Counter()
    with read_session(get_engine()) as session:
        pending = session.execute(
            sa.select(col(GameClock.game_id)).where(col(GameClock.end_due_at) <= now).limit(BATCH)
        ).scalars().all()
    for game_id in pending:
        try:
            counts["games_ended"] += int(ending.record_end(game_id, now))
        except Exception:
            log.exception("the end of game %s could not be recorded", game_id)
            counts["errors"] += 1
    return counts


def sweep(now: datetime) -> Counter[str]:
    """One pass as of `now`: end expired vacations, record pending ends, send due reminders, apply
    due timeouts.  Idempotent; safe beside other sweeps.  Counts of what it did."""
    now = as_utc(now)
    counts: Counter[str] = Counter()
    counts["vacations_ended"] += people.end_expired_vacations(now)
    counts += record_ends(now)
    counts["lobby_expired"] += lobby.expire(now)  # open games nobody filled (service/play/lobby.py)
    while ids := claim_due(now):
        _sweep_batch(ids, now, counts)
    return counts


def _sweep_batch(ids: list[int], now: datetime, counts: Counter[str]) -> None:
    batch = _Batch(now)
    try:
        with write_session(get_engine()) as session:
            batch.run(session, ids)
    except Exception:
        log.exception("a batch of %s deadlines failed and was rolled back; each is done on its own", len(ids))
        counts["batch_failures"] += 1
        batch.one_by_one = list(ids)  # the path of a failed batch: a transaction (or a few) per row
    else:
        counts.update(batch.counts)
        with read_session(get_engine()) as session:
            kick = digest.leads(session, batch.kick_ids)  # one timed_out row per address: it carries the rest
        outbox.kick(kick)
        for game_id in sorted(batch.ended):
            ending.kick(game_id)
    for row_id in batch.one_by_one:
        try:
            _process(row_id, now, counts)
        except Exception:
            log.exception("deadline %s could not be processed; its lease will bring it back", row_id)
            counts["errors"] += 1


@dataclass(slots=True)
class _TimedOut:
    """A row whose seat was played for in this batch: for its timed_out email."""

    game: GameRow
    player: PlayerRow
    since: int  # the seq before its first default move
    played: list[Played] = field(default_factory=list)  # the default moves (sentences.move_fact)


class _Batch:
    """One transaction's work on a batch of leased deadline rows (see the module's docstring)."""

    def __init__(self, now: datetime) -> None:
        self.now = now
        self.counts: Counter[str] = Counter()
        self.kick_ids: list[int] = []
        self.ended: set[int] = set()
        self.one_by_one: list[int] = []  # rows to do after the commit through `_process` (forfeits)
        self.looks: Counter[int] = Counter()  # row id -> passes that looked at it
        self.timed_out: dict[int, _TimedOut] = {}  # row id -> its seat's timed-out turn, until told

    def run(self, session: Session, ids: list[int]) -> None:
        look = list(ids)
        while look:
            # The clock rows the last pass's moves changed through the ORM are read by Core below.
            session.flush()
            look = self.step(session, look)

    def step(self, session: Session, ids: list[int]) -> list[int]:
        """One pass over `ids`: a game moves at most once; the rows to look at again."""
        now = self.now
        found = {due.id: due for due in current.read_due(session.connection(), ids)}
        again: list[int] = []
        gone: list[int] = []
        reminders: list[current.Due] = []
        touched: set[int] = set()  # games this pass moved, paused or reminded: their other rows wait
        # In the order of the games (stable: a game's rows keep the claim's order), so two sweeps whose
        # batches share games lock their rows in the same order and never deadlock each other.
        order = sorted(ids, key=lambda row_id: found[row_id].loaded.game.id if row_id in found else 0)
        for row_id in order:
            due = found.get(row_id)
            if due is None or due.due_at is None:
                continue  # the turn is over, or the clock stopped meanwhile
            game = due.loaded.game
            if game.id in touched:
                # Another row of this game was acted on in this pass (a move, a pause, a reminder): read
                # it again in the next one, which sees what that did (a pause stops every clock).
                again.append(row_id)
                continue
            self.looks[row_id] += 1
            if self.looks[row_id] > MAX_DEFAULTS_PER_TURN:
                log.error("deadline %s: still due after %s default moves", row_id, MAX_DEFAULTS_PER_TURN)
                continue
            clock = due.loaded.clock
            if game.status != "active" or due.seat not in game.to_act or clock is None or clock.deadline_hours is None:
                gone.append(row_id)
            elif as_utc(due.due_at) > now:
                touched.add(game.id)
                reminders.append(due)
            elif clock.policy == "pause":
                touched.add(game.id)
                pause(session, game, clock_of(session, game.id), current.players(session.connection(), game.id),
                      due.seat, now, reason="timeout")
                self.counts["paused"] += 1
            elif clock.policy == "forfeit":
                self.one_by_one.append(row_id)  # ending.record_end runs transactions of its own
            else:
                touched.add(game.id)
                self.move(session, due, again, gone)
        if gone:
            session.execute(sa.delete(Deadline).where(col(Deadline.id).in_(gone)))
        if reminders:
            sent = remind(session, reminders, now)
            self.counts["reminders"] += len(sent)
            self.kick_ids += sent
        # A row whose loop ended (its timed-out turn is over, or anything else happened to it) says
        # what the game played for its seat; one looked at again says it later.
        later = set(again)
        timed_out = [self.timed_out.pop(row_id) for row_id in ids if row_id in self.timed_out and row_id not in later]
        if timed_out:
            session.flush()  # a pause of the stall rule, made through the ORM clock row
            sent = _tell_timed_out_many(session, timed_out, now)
            self.counts["timed_out_emails"] += len(sent)
            self.kick_ids += sent
        return again

    def move(self, session: Session, due: current.Due, again: list[int], gone: list[int]) -> None:
        """Play the timeout move of a row whose deadline passed, on the game as the pass loaded it."""
        game, seat, loaded = due.loaded.game, due.seat, due.loaded
        rules = engine.get(game.name)
        if loaded.state is None:  # a state row that is missing or stale: rebuilt from the log once
            loaded.state, loaded.snapshot_seq = store.load_state(session, game, state_row=False)
        try:
            assert loaded.clock is not None
            move = timeout_move(rules, game, loaded.state, seat, loaded.clock.policy)
        except engine.IllegalMove as exc:  # the engine has nothing for this seat to do
            log.warning("game %s seat %s has no timeout move: %s", game.id, seat, exc.reason)
            gone.append(due.id)
            return
        # The move as a fact (a message, worded when the email is made), before the move: apply may evolve
        # the state in place.
        words = move_fact(rules, move, loaded.state)
        since = game.seq
        try:
            outcome = apply(session, game.id, seat, [move], since, kind="timeout", now=self.now, loaded=loaded)
        except StaleState:
            again.append(due.id)  # someone moved meanwhile: nothing was written; look again
            return
        except engine.IllegalMove as exc:
            log.warning("timeout of game %s seat %s: %s", game.id, seat, exc.reason)
            gone.append(due.id)
            return
        self.kick_ids += outcome.outbox_ids
        if outcome.result is not None:
            self.ended.add(game.id)
        entry = self.timed_out.get(due.id)
        if entry is None:
            entry = self.timed_out[due.id] = _TimedOut(game, due.player, since)
            self.counts["timeouts"] += 1
        entry.game = game
        entry.played.append(words)
        self.counts["default_moves"] += 1
        if seat in outcome.to_act:
            again.append(due.id)  # a follow-up decision, or a turn of its own again: look again


def timeout_move(rules: engine.Game, game: Any, state: dict[str, Any], seat: int, policy: str) -> dict[str, Any]:
    """What a timed-out seat plays under `policy`: the engine's `timeout_move`, or under "bot" the move a
    bot of the stand-in level chooses from what the seat may see (service/play/bots.py).  Raises
    engine.IllegalMove when the seat has nothing to decide."""
    if policy != "bot":
        return rules.timeout_move(state, seat, policy)
    try:
        return bots.choose(rules, state, seat, game.secret, game.seq, bots.STAND_IN)
    except ValueError as exc:
        raise engine.IllegalMove(str(exc), "not_your_turn") from None


def _look(row_id: int, now: datetime, counts: Counter[str]) -> dict[str, Any] | None:
    """Look at a deadline row in a transaction of its own: send its due reminder, or apply a pause;
    what remains to do outside it (a forfeit or a timeout move), or None when nothing does."""
    kick_ids: list[int] = []
    with write_session(get_engine()) as session:
        row = session.execute(
            sa.select(Deadline).where(col(Deadline.id) == row_id).with_for_update()
        ).scalar_one_or_none()
        if row is None or row.due_at is None:
            return None  # the turn is over, or the clock stopped meanwhile
        game = session.get(Game, row.game_id, populate_existing=True)
        assert game is not None and game.id is not None
        clock = clock_of(session, game.id)
        if game.status != "active" or row.seat not in game.to_act or clock.deadline_hours is None:
            session.delete(row)
            return None
        if as_utc(row.due_at) > now:
            kick_ids = remind(session, current.read_due(session.connection(), [row_id]), now)
            counts["reminders"] += len(kick_ids)
            todo = None
        elif clock.policy == "pause":
            pause(session, game, clock, store.players_of(session, game.id), row.seat, now, reason="timeout")
            counts["paused"] += 1
            todo = None
        elif clock.policy == "forfeit":
            todo = {"game": game.id, "seat": row.seat, "seq": game.seq, "forfeit": True}
        else:
            # The move is chosen on the position read with the row; handle re-checks the seq.
            state, _ = store.load_state(session, game)
            try:
                move = timeout_move(engine.get(game.name), game, state, row.seat, clock.policy)
            except engine.IllegalMove as exc:  # the engine has nothing for this seat to do
                log.warning("game %s seat %s has no timeout move: %s", game.id, row.seat, exc.reason)
                session.delete(row)
                return None
            rules = engine.get(game.name)
            todo = {"game": game.id, "seat": row.seat, "seq": game.seq, "move": move,
                    "words": move_fact(rules, move, state)}
    outbox.kick(kick_ids)
    return todo


def _process(row_id: int, now: datetime, counts: Counter[str]) -> None:
    timed_out: tuple[int, int, int] | None = None  # (game, seat, the seq before its first default move)
    played: list[Played] = []  # the default moves (sentences.move_fact)
    try:
        for _ in range(MAX_DEFAULTS_PER_TURN):
            todo = _look(row_id, now, counts)
            if todo is None:
                return
            # The deadline passed: apply the policy outside the row's transaction (handle has its own).
            if todo.get("forfeit"):
                if ending.record_end(todo["game"], now, forfeit_seat=todo["seat"], expected_seq=todo["seq"]):
                    counts["forfeits"] += 1
                continue  # re-read: the row is gone when the end was recorded
            try:
                handle(todo["game"], todo["seat"], todo["move"], todo["seq"], kind="timeout", now=now)
            except StaleState:
                continue  # someone moved meanwhile: look again
            except engine.IllegalMove as exc:
                log.warning("timeout of game %s seat %s: %s", todo["game"], todo["seat"], exc.reason)
                with write_session(get_engine()) as session:
                    session.execute(sa.delete(Deadline).where(col(Deadline.id) == row_id))
                return
            if timed_out is None:
                timed_out = (todo["game"], todo["seat"], todo["seq"])
                counts["timeouts"] += 1
            played.append(todo["words"])
            counts["default_moves"] += 1
        log.error("deadline %s: still due after %s default moves", row_id, MAX_DEFAULTS_PER_TURN)
    finally:
        # Said on every way out, an error included: the default moves played so far are recorded.
        if timed_out is not None:
            try:
                counts["timed_out_emails"] += len(tell_timed_out(*timed_out, played, now=now))
            except Exception:  # never hide the error that ended the loop, if any, behind this one
                log.exception("deadline %s: the timed-out email could not be written", row_id)


def _tell_timed_out_many(session: Session, rows: list[_TimedOut], now: datetime) -> list[int]:
    """`tell_timed_out` for the rows of a batch's pass, in the batch's transaction: three reads and one
    insert for all of them.  Each row names the sweep (its `now`): the rows of one sweep to one address
    go out as one email (service/mail/digest.py)."""
    games = sorted({row.game.id for row in rows})
    paused = {game_id for game_id, at in session.execute(
        sa.select(col(GameClock.game_id), col(GameClock.paused_at)).where(col(GameClock.game_id).in_(games)))
        if at is not None}
    last_turn_email = {(game_id, player_id): seq for game_id, player_id, seq in session.execute(
        sa.select(col(Outbox.game_id), col(Outbox.player_id), sa.func.max(col(Outbox.seq)))
        .where(col(Outbox.game_id).in_(games), col(Outbox.kind) == "turn")
        .group_by(col(Outbox.game_id), col(Outbox.player_id)))}
    emails: list[outbox.Email] = [
        (row.game, row.player, "timed_out", {"from": row.since, "played": row.played, "sweep": as_utc(now).isoformat()},
         None) for row in rows
        if row.game.status == "active" and row.game.id not in paused
        and last_turn_email.get((row.game.id, row.player.id), -1) <= row.since]
    taken = outbox.taken(session, emails)
    return outbox.ids(session, outbox.add_many(
        session, [email for email in emails if outbox.message_id_of(email) not in taken]))


def tell_timed_out(game_id: int, seat: int, since: int, played: list[Played], now: datetime) -> list[int]:
    """Email the seat whose time ran out what the game played for it (`played`: the moves in words,
    the seat's own to read; the events after `since`) and what comes next, in a transaction of its own
    (the one-row path); the outbox row ids.  Nothing when another email of this change tells it: the
    game ended (the game-over email), the game is paused (the pause notice), or its turn came round
    again (the turn email says the game played its last turn); the rule is `_tell_timed_out_many`'s."""
    with write_session(get_engine()) as session:
        conn = session.connection()
        game = current.read(conn, game_id).game
        player = next(p for p in current.players(conn, game_id) if p.seat == seat)
        ids = _tell_timed_out_many(session, [_TimedOut(game, player, since, played)], now)
    outbox.kick(ids)
    return ids
