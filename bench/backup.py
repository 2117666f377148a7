"""Backup benchmark: the size of a SQLite database of N games and the time `flask backup` takes
(the online backup API plus the integrity check of the copy), then a restore of it.

    .venv/bin/python bench/backup.py [--games 50] [--events 120]

Games are Riftforce duels played with random legal moves through the service (`service.handle`,
so events, snapshots, turn starts, clocks and outbox rows are written as in production) to about
`--events` events each (a game that ends sooner stays finished), on a fresh SQLite database.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import sqlalchemy as sa

import engine
from service import backup, create_app, store
from service.migrate import revisions, upgrade
from service.play import handle, new_game
from service.store import get_engine, read_session
from service.store.models import Event

PLAYERS = [("Ann", "ann@example.org"), ("Bob", "bob@example.org")]


def grow(events: int, seed: int) -> None:
    rules = engine.get("riftforce")
    game_id = new_game("riftforce", PLAYERS, {}, seed=seed)
    choose = random.Random(seed)
    while True:
        with read_session(get_engine()) as session:
            game = store.get_game(session, game_id)
            if game.seq >= events or game.status != "active":
                return
            state, _ = store.load_state(session, game)
        seat = game.to_act[0]
        handle(game_id, seat, choose.choice(rules.legal_moves(state, seat)), game.seq)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--events", type=int, default=120)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "app.sqlite"
        url = f"sqlite:///{path}"
        upgrade(url)
        app = create_app({"INSTANCE_PATH": folder, "DATABASE_URL": url, "SECRET_KEY": "bench",
                          "OUTBOX_KICK": False, "MAILDIR": f"{folder}/mail"})
        started = time.monotonic()
        with app.app_context():
            for seed in range(args.games):
                grow(args.events, seed)
            with read_session(get_engine()) as session:
                count = session.execute(sa.select(sa.func.count()).select_from(Event)).scalar()
        print(f"{args.games} games, {count} events, played in {time.monotonic() - started:.0f} s")
        print(f"database: {path.stat().st_size / 2**20:.1f} MB (+ {Path(f'{path}-wal').stat().st_size / 2**20:.1f} MB WAL)")
        made = backup.backup(url, Path(folder) / "backups", keep=3)
        print(f"backup: {made.size / 2**20:.1f} MB in {made.seconds:.2f} s (copy and integrity check)")
        started = time.monotonic()
        backup.restore(url, made.path, revisions())
        print(f"restore: {time.monotonic() - started:.2f} s")
        app.extensions["riftpost.db"].dispose()


if __name__ == "__main__":
    main()
