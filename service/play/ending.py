"""The end of a game, recorded exactly once.

When a move makes the engine report a result, `handle` already shows it (the games row holds the
status and result, so the player pages show the final position at once), stops the clocks and marks
the end as due (`game_clocks.end_due_at`); after its commit it asks the worker to run `record_end`,
and the deadline sweep retries any end still due (a lost kick, a crashed worker).  A forfeit on
timeout ends the game through the same function.

`record_end` appends one event of kind "system" (type "game_finished", with the result) through the
store's compare-and-set, deletes the deadlines and queues the game_over emails at that event's seq; the ratings
change in the same transaction (service/play/ratings.py).
Two runs at once: one appends, the other gets StaleState, looks again and finds the end recorded.
The engines never see system events: the store leaves them out of every replay.
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlmodel import col

from service import store
from service.clocks.seats import clock_of, journal_entry
from service.errors import StaleState
from service.mail import outbox, queue
from service.play import ratings
from service.store import write_session
from service.store.db import get_engine
from service.store.models import Deadline, Game

log = logging.getLogger(__name__)

END_TASK = "riftpost.record_end"


def forfeit_result(game: Game, seat: int, players: int) -> dict[str, Any]:
    """The service's own result for a forfeit on timeout: the others win (no scores: the game did not
    reach its end)."""
    return {"winners": [s for s in range(players) if s != seat], "forfeited": seat, "scores": {}}


def record_end(
    game_id: int, now: datetime, *, forfeit_seat: int | None = None, expected_seq: int | None = None,
) -> bool:
    """Record the game's end once; True when this call recorded it.

    Without `forfeit_seat`: the end of a game whose engine reported a result (a no-op otherwise).
    With it: `forfeit_seat` ran out of time under the forfeit policy; the others win.  Recorded only
    if the game is still at `expected_seq` (the position at which the deadline was found passed).
    """
    for _ in range(10):
        with write_session(get_engine()) as session:
            game = store.get_game(session, game_id)
            clock = clock_of(session, game_id, lock=True)
            if store.end_event(session, game_id) is not None:
                clock.end_due_at = None
                session.add(clock)
                return False
            players = store.players_of(session, game_id)
            if forfeit_seat is None:
                if game.result is None:
                    return False
                result = game.result
            else:
                if game.status != "active" or (expected_seq is not None and game.seq != expected_seq):
                    return False
                result = forfeit_result(game, forfeit_seat, len(players))
            try:
                store.append(
                    session, game, game.seq, [{"type": store.END_EVENT, "result": result}],
                    actor=forfeit_seat, kind=store.SYSTEM,
                    read_model={"to_act": [], "status": "finished", "result": result},
                )
            except StaleState:
                continue  # a move or another recorder got there first: look again
            session.execute(sa.delete(Deadline).where(col(Deadline.game_id) == game_id))
            clock.end_due_at = None
            clock.ended_at = now
            session.add(clock)
            # The ratings move with the recorded end, in its transaction, once (service/play/ratings.py).
            ratings.rate(session, game, players, result, now)
            if forfeit_seat is not None:
                journal_entry(session, game, "forfeit", forfeit_seat, {"name": players[forfeit_seat].name}, now)
            row_ids = outbox.ids(session, outbox.add(session, game, players, "game_over"))
        outbox.kick(row_ids)
        return True
    log.error("game %s: could not record its end after 10 tries", game_id)
    return False


def kick(game_id: int) -> None:
    """After the commit of a final move: ask the worker to record the end now (an optimisation
    only: the sweep records it anyway)."""
    queue.publish(END_TASK, [[game_id]])
