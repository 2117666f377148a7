"""Which emails a change of the game causes: outbox rows written inside the move's transaction.

The volume policy: **at most one email per player per change of whose turn it is**, where a change is
one move (or a game's creation, or a sweep's timeout).  A player who is waiting hears nothing of the
others' moves until it is their turn again: their next turn email (or the game-over email) says what
happened since their last move, partner moves, vacations and a resumed game included.

- turn:       a seat whose turn begins with this change (the engine's `turn` counted a new turn and
              it is among its seats), or a seat newly asked to decide inside someone's turn (a forced
              discard, a defense prompt: params {"asked": true}), unless that player turned turn
              emails off for this game.  Never twice for one need: a seat that left the seats to act
              without deciding anything (another's attack or choice in a simultaneous phase) and comes
              back still has its earlier, unanswered turn email, so it gets no new one.
- invite:     every player, when the game is created, except the seats the game starts with: their
              first turn email is their invitation (params {"invite": true}, the thread's root), so
              nobody gets two emails for the start.
- partner:    no longer written.  Teammates' moves fold into the next turn email ("Your partner played
              ..." among the lines since your last turn); rows queued before still render.
- notice:     a journal entry told at once, to every player: only a pause (service/mail/kinds.py,
              TOLD_AT_ONCE), because it stops every clock and nobody's turn begins until someone plays,
              so without it the waiting players would hear nothing for as long as it lasts.  A vacation
              begun or ended and a resumed game are not emailed: they are lines of the next turn or
              game-over email (the journal's entries since the reader's last move).  Written by
              service/clocks (`tell`).
- timed_out:  the seat whose time ran out, once its timed-out turn is over (service/play/timeouts.py):
              what the game played for it and what comes next.  Not when this change also emails it
              otherwise (its turn again: the turn email says the game played for it; a pause: the
              pause notice; the end: the game-over email says who forfeited).
- reminder:   the seat to act, at the steps of the reminder ladder (service/clocks); a reminder is
              about the same turn as the turn email before it, not a change.
- game_over:  every player, when the end of the game is recorded (service/play/ending.py), with what
              happened since their last move; no turn email is written for a change that ends the game.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlmodel import Session, col, select

from service import store
from service.mail import outbox
from service.mail.outbox import Queued
from service.store.current import AnyGame, AnyPlayer
from service.store.models import Outbox, as_utc


def on_create(session: Session, game: AnyGame, players: Sequence[AnyPlayer], starting: Collection[int],
              lobby: bool = False) -> list[Queued]:
    """The invitations: a seat the game starts with gets its first turn email as its invitation.
    `lobby`: the game is an open game filled (service/play/lobby.py): its first emails say so."""
    extra = {"lobby": True} if lobby else {}
    waiting = [p for p in players if p.seat not in starting]
    return (outbox.add(session, game, waiting, "invite", extra or None)
            + outbox.add(session, game, [p for p in players if p.seat in starting], "turn", {"invite": True, **extra}))


def unanswered(session: Session, game: AnyGame, player: AnyPlayer) -> bool:
    """Whether the player still has a turn email for a simultaneous need: their last turn email came
    after their last own decision, and it went out with others' (several seats were asked at once; in
    turn-by-turn games a seat never leaves the seats to act without deciding, so this never holds
    there)."""
    # Only emails already written count, not rows of the change being decided: no autoflush.
    with session.no_autoflush:
        last_email = session.exec(
            select(sa.func.coalesce(sa.func.max(col(Outbox.seq)), -1)).where(
                col(Outbox.game_id) == game.id, col(Outbox.player_id) == player.id, col(Outbox.kind) == "turn")
        ).one()  # the first turn email of a seat the game starts with is its invitation, a turn row too
        if last_email < 0 or last_email <= store.last_own_seq(session, game.id, player.seat, game.seq + 1):
            return False
        together = session.exec(
            select(sa.func.count()).select_from(Outbox).where(
                col(Outbox.game_id) == game.id, col(Outbox.seq) == last_email, col(Outbox.kind) == "turn",
                col(Outbox.channel) == "email")  # (a webhook's twin is the same email, not another seat's)
        ).one()
    return together > 1


def on_change(
    session: Session,
    game: AnyGame,
    players: Sequence[AnyPlayer],
    actor: int,
    before: Collection[int],
    after: Collection[int],
    starts: Collection[int],
    *,
    due: Mapping[int, datetime] | None = None,
) -> list[Queued]:
    """The outbox rows of one move by `actor`: `starts` are the seats whose turn began with it.
    Partners get no emails of their own: they read each other's moves in their next turn email.
    `due`: the deadlines the change started, by seat (service/clocks `after_move` returns them; none
    in an untimed or paused game)."""
    starts = set(starts)
    asked = set(after) - set(before)
    if actor not in before:
        # A seat the game was not waiting on chose to act (it reopened a window it had closed): its
        # clock starts again (service/clocks), but no email tells it what it just did.
        asked.discard(actor)
    # Decided before any row of this change is written: only earlier emails count as unanswered.
    turn = [p for p in players if p.turn_emails and (
        p.seat in starts or (p.seat in asked and (p.seat == actor or not unanswered(session, game, p))))]
    if not turn:
        return []
    # The deadlines just started (service/clocks ran first): each email states its own, as of now.
    due = due or {}
    each = []
    for player in turn:
        params: dict[str, Any] = {} if player.seat in starts else {"asked": True}
        if due.get(player.seat) is not None:
            params["due"] = as_utc(due[player.seat]).isoformat()
        each.append((player, params))
    return outbox.add_each(session, game, "turn", each)
