"""Which emails a change of the game causes: outbox rows written inside the move's transaction.

- invite:     every player, when the game is created.
- turn:       a seat that is newly among the seats to act (not follow-up decisions of a seat that
              was already acting), unless that player turned turn emails off for this game.
- game_over:  every player, when the engine reports a result.
"""

from __future__ import annotations

import hashlib
from typing import Iterable

from flask import current_app
from sqlmodel import Session, select

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


def on_change(
    session: Session,
    game: Game,
    players: list[Player],
    before: Iterable[int],
    after: Iterable[int],
    finished: bool,
) -> list[Outbox]:
    rows = []
    if finished:
        rows += [_row(game, player, "game_over", game.seq) for player in players]
    else:
        newly = set(after) - set(before)
        rows += [
            _row(game, player, "turn", game.seq)
            for player in players
            if player.seat in newly and player.turn_emails
        ]
    session.add_all(rows)
    return rows
