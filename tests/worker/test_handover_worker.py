"""A seat the remaining players handed to a bot (service/play/handover.py) is then played by the real
worker on Redis: the handover kicks the bot task, and so does every move that makes it the seat's turn."""

from __future__ import annotations

import time

import pytest
import sqlalchemy as sa

import engine
from service.play import bots, handle, handover
from service.store import get_engine, read_session
from service.store.models import Event, Game, utcnow
from tests.consent import preconsent
from tests.deadlines.test_seat_handover import ANN, BOB, CY, Table

pytestmark = pytest.mark.redis



def test_a_seat_handed_to_a_bot_is_played_by_the_worker(redis_stack):
    preconsent(ANN[1], BOB[1], CY[1])
    # Deadlines from now on the real clock (the table plays ahead of it): the worker's beat sweeps
    # nothing, so every move of the seat after the handover is the bot task's.
    table = Table([ANN, BOB, CY], dropped=1, t0=utcnow())
    table.until_timeouts(2)
    seats = table.seats()
    now = utcnow()
    handover.vote(seats[0].id, seats[0].link_generation, 1, "bot", "", "", now)
    assert "a bot" in handover.vote(seats[2].id, seats[2].link_generation, 1, "bot", "", "", now)
    game, _ = table.state()
    after = game.seq
    assert bots.level_of(table.seats()[1]) == "normal"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        with read_session(get_engine()) as session:
            kinds = session.execute(sa.select(Event.kind).where(
                Event.game_id == table.game_id, Event.actor == 1, Event.seq > after)).scalars().all()
            game = session.get(Game, table.game_id)
        if kinds:
            break
        if game.to_act and game.to_act[0] != 1:  # the people play their turns; the bot's is the worker's
            _, state = table.state()
            seat = game.to_act[0]
            move = bots.choose(engine.get("riftwalker"), state, seat, game.secret, game.seq, "easy")
            handle(table.game_id, seat, move, game.seq)
        else:
            time.sleep(0.3)
    assert kinds and set(kinds) == {"move"}  # played by the bot task, not by the sweep
    assert any("riftpost.bot_move" in line for line in redis_stack[1].log)
