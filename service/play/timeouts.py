"""The sweep: one idempotent pass, as of a given time, over everything that is due.  Celery beat runs it
every minute and `flask --app service sweep [--now ISO8601]` runs it by hand.

- vacations whose allowance ran out end (service/clocks/people.py);
- ends of games still to record are recorded (service/play/ending.py);
- due reminders are emailed (service/clocks/seats.py);
- timeouts enter through `handle(..., kind="timeout")`, so history shows them, with the move the
  engine's `timeout_move` gives for the game's policy: `auto` plays the engine's documented default
  for each remaining decision of the turn; `skip` passes where the rules offer a pass, else as `auto`;
  `forfeit` ends the game through the end-of-game path (the other seats win); `pause` stops every clock
  of the game and tells everyone.

A timeout is a `handle` bound to the seq that was read with the deadline row, so a second sweep (or
the player moving at the last second) makes it StaleState, and the row is looked at again.

Once a seat's timed-out turn is over, the seat gets a `timed_out` email: what the game played for it
and what comes next (service/play/emails.py says when another email tells it instead).
"""

from __future__ import annotations

import logging
from collections import Counter
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlmodel import col

import engine
from service import store
from service.clocks import people
from service.clocks.seats import BATCH, claim_due, clock_of, pause, remind
from service.errors import StaleState
from service.mail import outbox
from service.play import ending
from service.play.moves import handle
from service.store import write_session
from service.store.db import get_engine
from service.store.models import Deadline, Game, GameClock, Outbox, as_utc

log = logging.getLogger(__name__)

# A turn is a handful of decisions; more defaults than this in one turn means an engine loops.
MAX_DEFAULTS_PER_TURN = 200


def sweep(now: datetime) -> Counter[str]:
    """One pass as of `now`: end expired vacations, record pending ends, send due reminders, apply
    due timeouts.  Idempotent; safe beside other sweeps.  Counts of what it did."""
    now = as_utc(now)
    counts: Counter[str] = Counter()
    counts["vacations_ended"] += people.end_expired_vacations(now)
    with write_session(get_engine()) as session:
        pending = session.execute(
            sa.select(col(GameClock.game_id)).where(col(GameClock.end_due_at) <= now).limit(BATCH)
        ).scalars().all()
    for game_id in pending:
        try:
            counts["games_ended"] += int(ending.record_end(game_id, now))
        except Exception:
            log.exception("the end of game %s could not be recorded", game_id)
            counts["errors"] += 1
    while ids := claim_due(now):
        for row_id in ids:
            try:
                _process(row_id, now, counts)
            except Exception:
                log.exception("deadline %s could not be processed; its lease will bring it back", row_id)
                counts["errors"] += 1
    return counts


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
            kick_ids = remind(session, row, game, clock, now)
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
                move = engine.get(game.name).timeout_move(state, row.seat, clock.policy)
            except engine.IllegalMove as exc:  # the engine has nothing for this seat to do
                log.warning("game %s seat %s has no timeout move: %s", game.id, row.seat, exc.reason)
                session.delete(row)
                return None
            rules = engine.get(game.name)
            todo = {"game": game.id, "seat": row.seat, "seq": game.seq, "move": move,
                    "words": rules.describe_move(move, state)}
    outbox.kick(kick_ids)
    return todo


def _process(row_id: int, now: datetime, counts: Counter[str]) -> None:
    timed_out: tuple[int, int, int] | None = None  # (game, seat, the seq before its first default move)
    played: list[str] = []  # the default moves in words
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
                counts["timed_out_emails"] += len(tell_timed_out(*timed_out, played))
            except Exception:  # never hide the error that ended the loop, if any, behind this one
                log.exception("deadline %s: the timed-out email could not be written", row_id)


def tell_timed_out(game_id: int, seat: int, since: int, played: list[str]) -> list[int]:
    """Email the seat whose time ran out what the game played for it (`played`: the moves in words,
    the seat's own to read; the events after `since`) and what comes next; the outbox row ids.  Nothing when another email of this change tells it: the
    game ended (the game-over email), the game is paused (the pause notice), or its turn came round
    again (the turn email says the game played its last turn)."""
    with write_session(get_engine()) as session:
        game = store.get_game(session, game_id)
        player = next(p for p in store.players_of(session, game_id) if p.seat == seat)
        if game.status != "active" or clock_of(session, game_id).paused_at is not None:
            return []
        again = session.execute(sa.select(col(Outbox.id)).where(
            col(Outbox.game_id) == game_id, col(Outbox.player_id) == player.id, col(Outbox.kind) == "turn",
            col(Outbox.seq) > since).limit(1)).first()
        params: dict[str, Any] = {"from": since, "played": played}
        if again is not None or outbox.exists(session, game, player, "timed_out", params, game.seq):
            return []
        ids = outbox.ids(session, outbox.add(session, game, [player], "timed_out", params))
    outbox.kick(ids)
    return ids
