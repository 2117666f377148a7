"""Bot games of every game and mode played to the end by the real worker on Redis: each decision a
`riftpost.bot_move` task, through the one move path, kicked after each move; no email to a bot."""

from __future__ import annotations

import pytest
from sqlmodel import col, select

from service.play import new_game
from service.store.models import Game, Outbox, Player
from tests.worker.processes import wait_until

pytestmark = pytest.mark.redis

SETUPS = [
    ("riftforce", 2, {}), ("riftforce", 4, {"mode": "team"}), ("riftforce", 1, {"mode": "solo"}),
    ("riftwalker", 2, {}), ("riftwalker", 3, {}), ("beyond-the-rift", 1, {}), ("beyond-the-rift", 2, {}),
]



def test_bot_games_of_every_game_and_mode_end_through_the_worker(redis_stack, sink):
    from service.store import read_session
    from service.store.db import get_engine

    ids = []
    for name, players, options in SETUPS:
        # easy bots: random legal moves, so the games are quick; the search itself is the engine tests'.
        ids.append(new_game(name, [("", "bot:easy")] * players, options, seed=11))

    def finished():
        with read_session(get_engine()) as session:
            return all(session.get(Game, i).status == "finished" for i in ids)

    wait_until(finished, timeout=240, interval=0.5)
    with read_session(get_engine()) as session:
        for game_id in ids:
            game = session.get(Game, game_id)
            assert game.result is not None and game.seq > 10
            seats = session.exec(select(Player).where(Player.game_id == game_id)).all()
            assert {p.name for p in seats} == {"Bot (easy)"} and {p.email for p in seats} == {""}
        assert session.exec(select(Outbox).where(col(Outbox.game_id).in_(ids))).all() == []  # never an email
    assert sink.messages() == []
    assert any("riftpost.bot_move" in line for line in redis_stack[1].log)
