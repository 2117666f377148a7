"""Which emails a change of the game causes: outbox rows written inside the move's transaction.

- invite:     every player, when the game is created.
- turn:       a seat whose turn begins with this change (the engine's `turn` counted a new turn and
              it is among its seats), or a seat newly asked to decide inside someone's turn (a forced
              discard, a defense prompt), unless that player turned turn emails off for this game.
              Never twice for one need: a seat that left the seats to act without deciding anything
              (another's attack or choice in a simultaneous phase) and comes back still has its earlier,
              unanswered turn email, so it gets no new one.
- partner:    in games with teams (the engine's `teams`), when a seat's turn ends (it leaves the seats
              to act) its teammates get a short "your partner did this" email, except a teammate whose
              turn it now is (the turn email covers it); like turn emails, not to a player who turned
              them off for this game.
- game_over:  every player, when the end of the game is recorded (service/play/ending.py).
"""

from __future__ import annotations

from collections.abc import Collection

import sqlalchemy as sa
from sqlmodel import Session, col, select

from service import store
from service.mail import outbox
from service.store.models import Game, Outbox, Player


def on_create(session: Session, game: Game, players: list[Player], starting: Collection[int]) -> list[Outbox]:
    """The invitations, and the turn emails of the seats whose turn the game starts with."""
    rows = outbox.add(session, game, players, "invite")
    return rows + outbox.add(session, game, [p for p in players if p.seat in starting and p.turn_emails], "turn")


def unanswered(session: Session, game: Game, player: Player) -> bool:
    """Whether the player still has a turn email for a simultaneous need: their last turn email came
    after their last own decision, and it went out with others' (several seats were asked at once; in
    turn-by-turn games a seat never leaves the seats to act without deciding, so this never holds
    there)."""
    # Only emails already written count, not rows of the change being decided: no autoflush.
    with session.no_autoflush:
        last_email = session.exec(
            select(sa.func.coalesce(sa.func.max(col(Outbox.seq)), -1)).where(
                col(Outbox.game_id) == game.id, col(Outbox.player_id) == player.id, col(Outbox.kind) == "turn")
        ).one()
        if last_email < 0 or last_email <= store.last_own_seq(session, game.id, player.seat, game.seq + 1):
            return False
        together = session.exec(
            select(sa.func.count()).select_from(Outbox).where(
                col(Outbox.game_id) == game.id, col(Outbox.seq) == last_email, col(Outbox.kind) == "turn")
        ).one()
    return together > 1


def on_change(
    session: Session,
    game: Game,
    players: list[Player],
    actor: int,
    before: Collection[int],
    after: Collection[int],
    starts: Collection[int],
    teams: list[list[int]],
) -> list[Outbox]:
    """The outbox rows of one move by `actor`: `starts` are the seats whose turn began with it,
    `teams` the game's teams (for partner emails)."""
    starts = set(starts)
    asked = set(after) - set(before)
    if actor not in before:
        # A seat the game was not waiting on chose to act (it reopened a window it had closed): its
        # clock starts again (service/clocks), but no email tells it what it just did.
        asked.discard(actor)
    # Decided before any row of this change is written: only earlier emails count as unanswered.
    turn = [p for p in players if p.turn_emails and (
        p.seat in starts or (p.seat in asked and (p.seat == actor or not unanswered(session, game, p))))]
    ended = set(before) - set(after)
    told = {seat for team in teams if set(team) & ended
            for seat in set(team) - ended - set(after)}  # whose turn it is gets the turn email instead
    partner = [p for p in players if p.seat in told and p.turn_emails]
    return outbox.add(session, game, turn, "turn") + outbox.add(session, game, partner, "partner")
