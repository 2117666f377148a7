"""Finished games a person hides from their "my games" page (and shows again): per person, per game.

Only a finished game the person played may be hidden; the refusal's words are the same whether the
game does not exist, is another person's or still runs, so the form tells nobody which games exist.
No function here reads the clock: `now` is an argument."""

from __future__ import annotations

from datetime import datetime

import sqlalchemy as sa
from sqlmodel import col

from service.errors import NotFound
from service.lang import N_
from service.store import write_session
from service.store.db import get_engine
from service.store.inboxes import key as inbox_key
from service.store.models import Game, HiddenGame, Player

NOT_YOURS = N_("There is no game of yours with that number.")


def hide(email: str, game_id: int, now: datetime) -> None:
    me = inbox_key(email)
    with write_session(get_engine()) as session:
        mine = session.execute(sa.select(col(Game.id)).join(Player, col(Player.game_id) == col(Game.id)).where(
            col(Game.id) == game_id, col(Game.status) == "finished", col(Player.address_key) == me,
            col(Player.consent).in_(("", "asked"))).limit(1)).first()
        if mine is None:
            raise NotFound(f"{NOT_YOURS} Only a finished game can be hidden.", "No such game")
        # Two presses at once both insert: the second does nothing (the dialect's own insert, as in
        # service/store/rows.py person_for_update).
        if session.get_bind().dialect.name == "postgresql":
            from sqlalchemy.dialects.postgresql import insert
        else:
            from sqlalchemy.dialects.sqlite import insert  # type: ignore[assignment]
        session.execute(insert(HiddenGame).values(email=me, game_id=game_id, hidden_at=now)
                        .on_conflict_do_nothing(index_elements=["email", "game_id"]))


def unhide(email: str, game_id: int) -> None:
    """Show the game again (nothing to do for a game that was not hidden)."""
    with write_session(get_engine()) as session:
        session.execute(sa.delete(HiddenGame).where(col(HiddenGame.email) == inbox_key(email),
                                                    col(HiddenGame.game_id) == game_id))
