"""Which emails a change of the game causes: outbox rows written inside the move's transaction.

- invite:     every player, when the game is created.
- turn:       a seat that is newly among the seats to act (not follow-up decisions of a seat that
              was already acting), or the lone acting seat whose own move began its next turn (a
              "turn" event names it: Riftforce solo, where the trainer plays inside the player's
              move), or every seat to act after a move that ran through a moment where nobody had
              anything to decide (Beyond the Rift: the last DONE runs the enemy, quest, draw and end
              phases, and a new round starts for all heroes), unless that player turned turn emails
              off for this game.  Never twice for one need: a seat that left the seats to act without
              deciding anything (another hero's attack or choice in a simultaneous hero phase) and
              comes back still has its earlier, unanswered turn email, so it gets no new one.
- partner:    in games with teams (the view lists `teams`, each with its `seats`), when a seat's
              turn ends (it leaves the seats to act) its teammates get a short "your partner did
              this" email, except a teammate whose turn it now is (the turn email covers it);
              like turn emails, not to a player who turned them off for this game.
- game_over:  every player, when the engine reports a result.
"""

from __future__ import annotations

import hashlib
from typing import Iterable

import sqlalchemy as sa
from flask import current_app
from sqlmodel import Session, select

from service import store
from service.models import Game, Outbox, Player


def thread_key(game: Game) -> str:
    """A short stable key per game, so Message-IDs never collide with an earlier database's."""
    raw = f"{game.id}:{game.seed}:{game.created_at:%Y%m%d%H%M%S}"
    return hashlib.sha256(raw.encode()).hexdigest()[:12]


def thread_root(game: Game, player: Player) -> str:
    """The Message-ID of the player's invitation: the root of their thread for this game."""
    return f"<riftpost.{thread_key(game)}.g{game.id}.p{player.id}@{current_app.config['MAIL_DOMAIN']}>"


def message_id(game: Game, player: Player, kind: str, seq: int) -> str:
    if kind == "invite":
        return thread_root(game, player)
    domain = current_app.config["MAIL_DOMAIN"]
    return f"<riftpost.{thread_key(game)}.g{game.id}.p{player.id}.{kind}.s{seq}@{domain}>"


def _row(game: Game, player: Player, kind: str, seq: int) -> Outbox:
    return Outbox(
        game_id=game.id,
        player_id=player.id,
        kind=kind,
        seq=seq,
        message_id=message_id(game, player, kind, seq),
    )


def players_of(session: Session, game_id: int) -> list[Player]:
    return list(session.exec(select(Player).where(Player.game_id == game_id).order_by(Player.seat)))


def on_create(session: Session, game: Game, players: list[Player]) -> list[Outbox]:
    rows = [_row(game, player, "invite", game.seq) for player in players]
    session.add_all(rows)
    rows += on_change(session, game, players, before=(), after=game.to_act, finished=False)
    return rows


def newly_to_act(
    before: Iterable[int], after: Iterable[int], events: Iterable[dict] = (), actor: int | None = None
) -> set[int]:
    """Seats whose turn starts with this change: the seats newly among those to act, plus the
    acting seat itself when it was and stays the only seat to act and one of the move's events is
    `{"type": "turn", "seat": actor}` (the engines' "seat s starts a turn").  That second case is a
    seat starting a new turn right after its own (Riftforce solo: the trainer plays inside the
    player's move): its seats to act do not change, yet the player must hear about the new turn."""
    after = set(after)
    newly = after - set(before)
    if actor is not None and set(before) == after == {actor} and any(
        isinstance(e, dict) and e.get("type") == "turn" and e.get("seat") == actor for e in events
    ):
        newly.add(actor)
    return newly


def unanswered(session: Session, game: Game, player: Player) -> bool:
    """Whether the player still has a turn email for a simultaneous need: their last turn email came
    after their last own decision, and it went out with others' (several seats were asked at once, as
    in Beyond the Rift's hero phase; in turn-by-turn games a seat never leaves the seats to act without
    deciding, so this never holds there and their emails stay as they were)."""
    # Only emails already written count, not the rows of the change being decided: no autoflush.
    with session.no_autoflush:
        last_email = session.exec(
            select(sa.func.coalesce(sa.func.max(Outbox.seq), -1)).where(
                Outbox.game_id == game.id, Outbox.player_id == player.id, Outbox.kind == "turn")
        ).one()
        if last_email < 0 or last_email <= store.last_own_seq(session, game.id, player.seat, game.seq + 1):
            return False
        together = session.exec(
            select(sa.func.count()).select_from(Outbox).where(
                Outbox.game_id == game.id, Outbox.seq == last_email, Outbox.kind == "turn")
        ).one()
    return together > 1


def teams(view: dict | None) -> list[set[int]]:
    """The teams of a game whose view lists them (`"teams": [{"seats": [0, 2]}, ...]`, Riftforce
    team play); [] for games without teams."""
    found = view.get("teams") if isinstance(view, dict) else None
    if not isinstance(found, list):
        return []
    return [set(t.get("seats") or ()) for t in found if isinstance(t, dict)]


def on_change(
    session: Session,
    game: Game,
    players: list[Player],
    before: Iterable[int],
    after: Iterable[int],
    finished: bool,
    events: Iterable[dict] = (),
    team_seats: list[set[int]] | None = None,
    actor: int | None = None,
    idle: bool = False,
) -> list[Outbox]:
    """The outbox rows of one change.  `events` are the new events of `actor`'s move (see
    `newly_to_act`); `team_seats` the game's teams (see `teams`), for partner emails; `idle`: the
    move ran through a moment where no seat was to act (every seat to act after it starts anew)."""
    rows = []
    if finished:
        rows += [_row(game, player, "game_over", game.seq) for player in players]
    else:
        newly = set(after) if idle else newly_to_act(before, after, events, actor)
        if not idle and actor is not None and actor not in before:
            # A seat the game was not waiting on chose to act (a DONE hero's UNDONE, on their page):
            # its clock starts again (service/deadlines.py), but no email tells it what it just did.
            newly.discard(actor)
        rows += [
            _row(game, player, "turn", game.seq)
            for player in players
            if player.seat in newly and player.turn_emails
            and (idle or player.seat == actor or not unanswered(session, game, player))
        ]
        ended = set(before) - set(after)
        told = {
            seat
            for team in team_seats or ()
            if team & ended
            for seat in team - ended - set(after)  # whose turn it is gets the turn email instead
        }
        rows += [
            _row(game, player, "partner", game.seq)
            for player in players
            if player.seat in told and player.turn_emails
        ]
    session.add_all(rows)
    return rows
