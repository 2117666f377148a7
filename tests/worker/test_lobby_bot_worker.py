"""A lobby game with a bot seat from its opening (#25 part 3), filled by a stranger's join: the real worker
on Redis plays the bot's turns once the game starts (the start queues the bot's decision when it is to
act; the people's moves queue it after)."""

from __future__ import annotations

import pytest
import sqlalchemy as sa

from service.play import handle, lobby
from service.store import read_session
from service.store.db import get_engine
from service.store.models import Event, Game
from tests.service.helpers import current
from tests.worker.processes import wait_until

pytestmark = pytest.mark.redis
BOT_SEAT = 1


def test_the_worker_plays_a_lobby_games_bot_seat_once_the_game_starts(redis_stack):
    import engine

    opened = lobby.open_game("riftwalker", "", {}, 3, ("Ann", "ann@example.org"), listed=True,
                             bots={BOT_SEAT: "easy"})
    lobby.join_signed_in(opened.id, opened.key, "Bo", "bo@example.org")

    def bot_moves() -> int:
        with read_session(get_engine()) as session:
            return session.execute(sa.select(sa.func.count()).select_from(Event).where(
                Event.game_id == opened.game_id, Event.actor == BOT_SEAT)).scalar_one()

    def people_play_until_the_bot_is_to_act() -> bool:
        if bot_moves() >= 3:
            return True
        game, state = current(opened.game_id)
        people = [seat for seat in game.to_act if seat != BOT_SEAT]
        if people and BOT_SEAT not in game.to_act:
            rules = engine.get(game.name)
            handle(opened.game_id, people[0], rules.legal_moves(state, people[0])[0], game.seq)
        return False

    wait_until(people_play_until_the_bot_is_to_act, timeout=120, interval=0.3)
    with read_session(get_engine()) as session:
        assert session.get(Game, opened.game_id).status in ("active", "finished")
    assert any("riftpost.bot_move" in line for line in redis_stack[1].log)
