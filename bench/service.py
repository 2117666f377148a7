"""Service benchmark: the move POST (the mail worker's: bench/delivery.py).

    .venv/bin/python bench/service.py [--games 5] [--moves 30] [--no-postgres]

1. Latency of the move POST (`POST /p/<token>/move`, the whole web stack: signed link, CSRF,
   `service.handle`, snapshot, outbox rows and the kick to the broker) in Riftforce games grown
   to about 50 and 500 events, on SQLite (embedded broker) and PostgreSQL (Redis broker).
   Target: p95 under 30 ms per move on SQLite at 500 events.

Riftforce games last 300-400 events when played at random; the games here are grown with a
patient policy (discarding and checking rather than fighting) so that 500 events are reachable.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import sqlalchemy as sa

import engine
from service import create_app, links, store
from service.migrate import upgrade
from service.play import new_game
from service.store import get_engine, read_session
from service.store.models import Player

POSTGRES_ADMIN = os.environ.get("RIFTPOST_TEST_POSTGRES", "postgresql+psycopg://postgres@127.0.0.1:5432/test")
REDIS = os.environ.get("RIFTPOST_TEST_REDIS", "redis://127.0.0.1:6379") + "/14"
SECRET = "bench-secret"
CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')


def patient(moves: list[dict], rng: random.Random) -> dict:
    """Long games: end plays and activations at once, prefer discarding and checking."""
    for move in moves:
        if move["type"] in ("done", "end_play"):
            return move
    quiet = [m for m in moves if m["type"] in ("activate", "check")]
    if quiet and rng.random() < 0.7:
        return rng.choice(quiet)
    return rng.choice(moves)


def app_for(tmp: Path, url: str, broker: str):
    return create_app({
        "INSTANCE_PATH": str(tmp), "DATABASE_URL": url, "SECRET_KEY": SECRET, "CELERY_BROKER_URL": broker,
        "BASE_URL": "http://bench.local", "OUTBOX_KICK": True,
    })


def current(game_id: int):
    with read_session(get_engine()) as session:
        game = store.get_game(session, game_id)
        return game, store.load_state(session, game)[0]


def grow(game_id: int, events: int, rng: random.Random) -> bool:
    """Play the game on (without the web) until it has `events` events; False if it ended first."""
    from service.play import handle

    rules = engine.get("riftforce")
    while True:
        game, state = current(game_id)
        if game.status != "active":
            return False
        if game.seq >= events:
            return True
        seat = game.to_act[0]
        handle(game_id, seat, patient(rules.legal_moves(state, seat), rng), game.seq)


def time_moves(app, size: int, games: int, moves: int) -> tuple[list[float], list[float]]:
    """Wall-clock and CPU (this thread's) seconds of each move POST."""
    rules = engine.get("riftforce")
    samples: list[float] = []
    cpu: list[float] = []
    made = 0
    seed = 0
    while made < games:
        seed += 1
        rng = random.Random(seed)
        # Requests must run outside this app context: Flask reuses an active one for a request,
        # and its `g` would then carry one client's CSRF token into the other's request.
        with app.app_context():
            game_id = new_game("riftforce", [("A", "a@bench.example.org"), ("B", "b@bench.example.org")], seed=seed)
            if not grow(game_id, size, rng):
                continue
            with read_session(get_engine()) as session:
                seats = {p.seat: p.id for p in session.exec(sa.select(Player).where(Player.game_id == game_id)).scalars()}
            urls = {seat: f"/p/{links.player_token(player_id)}" for seat, player_id in seats.items()}
        made += 1
        clients, tokens = {}, {}
        for seat, url in urls.items():
            client = app.test_client()
            page = client.get(url)
            tokens[seat] = (url, CSRF.search(page.get_data(as_text=True)).group(1))
            clients[seat] = client
        for _ in range(moves):
            with app.app_context():
                game, state = current(game_id)
            if game.status != "active":
                break
            seat = game.to_act[0]
            move = patient(rules.legal_moves(state, seat), rng)
            url, token = tokens[seat]
            form = {"csrf_token": token, "seq": str(game.seq), "move": json.dumps(move)}
            started, started_cpu = time.perf_counter(), time.thread_time()
            response = clients[seat].post(f"{url}/move", data=form)
            samples.append(time.perf_counter() - started)
            cpu.append(time.thread_time() - started_cpu)
            assert response.status_code == 303, response.get_data(as_text=True)[:500]
            clients[seat].get(url)  # as the browser does after the redirect (and it shows the flash)
    return samples, cpu


def percentile(samples: list[float], fraction: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, max(0, round(fraction * len(ordered)) - 1))] * 1000


def report_moves(label: str, size: int, timings: tuple[list[float], list[float]]) -> None:
    samples, cpu = timings
    rate = len(samples) / sum(samples)
    print(f"{label:<20} ~{size:>3} events {len(samples):>4} moves {rate:6.1f} moves/s  "
          f"p50 {percentile(samples, .5):5.1f} ms  p95 {percentile(samples, .95):5.1f} ms  "
          f"(CPU p50 {percentile(cpu, .5):5.1f} ms, p95 {percentile(cpu, .95):5.1f} ms)")


def bench_moves(label: str, url: str, broker: str, games: int, moves: int) -> None:
    tmp = Path(tempfile.mkdtemp(prefix="riftpost-bench-"))
    try:
        upgrade(url)
        app = app_for(tmp, url, broker)
        for size in (50, 500):
            report_moves(label, size, time_moves(app, size, games, moves))
        app.extensions["riftpost.db"].dispose()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def postgres_url() -> str | None:
    name = f"riftpost_bench_{uuid.uuid4().hex[:8]}"
    try:
        admin = sa.create_engine(POSTGRES_ADMIN, isolation_level="AUTOCOMMIT")
        with admin.connect() as connection:
            connection.exec_driver_sql(f'CREATE DATABASE "{name}"')
        admin.dispose()
    except Exception as exc:  # noqa: BLE001
        print(f"PostgreSQL not reachable ({exc.__class__.__name__}); skipped")
        return None
    return POSTGRES_ADMIN.rsplit("/", 1)[0] + f"/{name}"


def drop(url: str) -> None:
    admin = sa.create_engine(POSTGRES_ADMIN, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.exec_driver_sql(f'DROP DATABASE IF EXISTS "{url.rsplit("/", 1)[1]}" WITH (FORCE)')
    admin.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(description="Riftpost service benchmark")
    parser.add_argument("--games", type=int, default=5, help="games per size")
    parser.add_argument("--moves", type=int, default=30, help="timed moves per game")
    parser.add_argument("--no-postgres", action="store_true")
    args = parser.parse_args()

    print("move POST latency (Flask test client, whole web stack; the kick to the broker runs after")
    print("the response in a background thread).  CPU = this thread's CPU time: wall-clock minus")
    print("waiting, which tells a busy machine from a slow path.")
    load = os.getloadavg()[0]
    print(f"load average now {load:.1f} on {os.cpu_count()} CPUs")
    tmp = Path(tempfile.mkdtemp(prefix="riftpost-bench-db-"))
    bench_moves("SQLite + embedded", f"sqlite:///{tmp / 'bench.sqlite'}",
                f"sqla+sqlite:///{tmp / 'broker.sqlite'}", args.games, args.moves)
    shutil.rmtree(tmp, ignore_errors=True)
    if not args.no_postgres:
        url = postgres_url()
        if url:
            try:
                bench_moves("PostgreSQL + Redis", url, REDIS, args.games, args.moves)
            finally:
                drop(url)


if __name__ == "__main__":
    main()
