"""Bot games of every game and mode played to the end by the real worker on Redis: each decision a
`riftpost.bot_move` task, through the one move path, kicked after each move; no email to a bot."""

from __future__ import annotations

import shutil

import pytest
from sqlmodel import col, select

from service.play import new_game
from service.store.models import Game, Outbox, Player
from tests import services
from tests.conftest import make_app
from tests.worker.processes import WorkerProcess, wait_until

pytestmark = pytest.mark.redis

SETUPS = [
    ("riftforce", 2, {}), ("riftforce", 4, {"mode": "team"}), ("riftforce", 1, {"mode": "solo"}),
    ("riftwalker", 2, {}), ("riftwalker", 3, {}), ("beyond-the-rift", 1, {}), ("beyond-the-rift", 2, {}),
]


@pytest.fixture
def running(tmp_path, migrated_sqlite, sink):
    broker = services.redis_database()
    db = tmp_path / "app.sqlite"
    shutil.copy(migrated_sqlite, db)
    app = make_app(tmp_path, f"sqlite:///{db}", CELERY_BROKER_URL=broker, SMTP_URL=sink.url, OUTBOX_KICK=True)
    worker = WorkerProcess(instance=tmp_path, database_url=f"sqlite:///{db}", broker_url=broker,
                           smtp_url=sink.url, base_url=app.config["BASE_URL"], dispatch_seconds=1.0)
    with app.app_context():
        yield app, worker
    worker.stop()


def test_bot_games_of_every_game_and_mode_end_through_the_worker(running, sink):
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
    assert any("riftpost.bot_move" in line for line in running[1].log)
