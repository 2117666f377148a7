"""The lobby's storage on both backends (service/play/lobby.py): an open game dealt but not playable, a
join held then confirmed, the start on the last seat, expiry once."""

from __future__ import annotations

from datetime import timedelta

import pytest
import sqlalchemy as sa

from service.play import handle, lobby
from service.play.batch import GameOver
from service.store import get_engine, read_session
from service.store.models import Game, Joining, Outbox, utcnow
from tests.conftest import app_on


def _status(game_id: int) -> str:
    with read_session(get_engine()) as session:
        return session.get(Game, game_id).status


def _seq(game_id: int) -> int:
    with read_session(get_engine()) as session:
        return session.get(Game, game_id).seq


def test_open_join_confirm_start_and_expire_on_both_backends(tmp_path, backend_url):
    with app_on(tmp_path, backend_url):
        opened = lobby.open_game("riftwalker", "", {}, 3, ("Ann", "ann@example.org"), listed=True)
        with pytest.raises(GameOver):  # dealt, but nobody plays before every seat is taken
            handle(opened.game_id, 0, {"type": "pass"}, _seq(opened.game_id))
        lobby.ask_to_join(opened.id, opened.key, "Bo", "bo@example.org")
        lobby.ask_to_join(opened.id, opened.key, "Bo", "BO@example.org")  # the same inbox: no second email
        with read_session(get_engine()) as session:
            (joining,) = session.execute(sa.select(Joining)).scalars().all()
            assert session.execute(sa.select(sa.func.count()).select_from(Outbox)).scalar_one() == 1
        lobby.confirm(joining.id, joining.nonce)
        assert _status(opened.game_id) == "open"
        lobby.join_signed_in(opened.id, opened.key, "Cy", "cy@example.org")
        assert _status(opened.game_id) == "active"
        assert lobby.expire(utcnow() + timedelta(days=30)) == 0  # a started game never expires
        other = lobby.open_game("riftwalker", "", {}, 4, ("Ann", "ann@example.org"), listed=False)
        assert lobby.expire(utcnow() + timedelta(days=8)) == 1
        assert lobby.expire(utcnow() + timedelta(days=9)) == 0
        assert _status(other.game_id) == "expired"


def test_bot_seats_from_the_start_and_a_cancel_on_both_backends(tmp_path, backend_url):
    from service.errors import Forbidden, Gone
    from service.store.models import Player

    with app_on(tmp_path, backend_url):
        opened = lobby.open_game("riftwalker", "", {}, 3, ("Ann", "ann@example.org"), listed=True,
                                 bots={1: "strong"})
        with read_session(get_engine()) as session:
            assert lobby.seats_left(session, opened, utcnow()) == 1
        lobby.join_signed_in(opened.id, opened.key, "Bo", "bo@example.org")
        assert _status(opened.game_id) == "active"
        with read_session(get_engine()) as session:
            seats = session.execute(sa.select(Player.seat, Player.consent).where(Player.game_id == opened.game_id)
                                    .order_by(Player.seat)).all()
        assert [tuple(s) for s in seats] == [(0, ""), (1, "bot:strong"), (2, "")]
        other = lobby.open_game("riftwalker", "", {}, 4, ("Ann", "ann@example.org"), listed=True, bots={3: "easy"})
        lobby.join_signed_in(other.id, other.key, "Cy", "cy@example.org")
        with pytest.raises(Forbidden):
            lobby.cancel(other.id, other.key, "cy@example.org")
        lobby.cancel(other.id, other.key, "Ann@Example.org")
        assert _status(other.game_id) == "cancelled"
        with pytest.raises(Gone):
            lobby.join_signed_in(other.id, other.key, "Di", "di@example.org")
        with read_session(get_engine()) as session:
            told = session.execute(sa.select(Outbox.player_id).where(Outbox.kind == "lobby_cancelled")).scalars().all()
            cy = session.execute(sa.select(Player.id).where(Player.game_id == other.game_id,
                                                            Player.email == "cy@example.org")).scalar_one()
        assert told == [cy]
        assert lobby.expire(utcnow() + timedelta(days=8)) == 0
