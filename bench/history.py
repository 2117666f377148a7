"""History benchmark: the time to show a game as it was after a random number of events.

    .venv/bin/python bench/history.py [--samples 200] [--seed 1]

Games are played through the service (`service.handle`, so snapshots are written as in
production: at every change of the seats to act and at least every SNAPSHOT_EVERY events) on a
fresh SQLite database, then for random N:

- view:  `store.load_state(session, game, N)` (the nearest snapshot at or before N, then the
         events after it) + `rules.view(state, seat)` for a random seat or a spectator.
         Target: under 20 ms.
- page:  the whole public history page `GET /games/<id>/history?at=N` through the Flask stack
         (board, sentences of the turn, score chart and turn list; the per-game timeline and
         score series are cached per position of the game, as in a running server).

Games: a Riftforce duel stopped at 100 events, and a 4-player Riftwalker game played at random
to 2,000 events (Riftforce games end after 300-450 events; a Riftwalker game that ends sooner is
replaced by the next seed's).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import engine
from service import create_app, store
from service.migrate import upgrade
from service.play import handle, new_game
from service.store import get_engine, read_session

PLAYERS = [("Ann", "ann@example.org"), ("Bob", "bob@example.org"), ("Cy", "cy@example.org"),
           ("Di", "di@example.org")]


def grow(name: str, players: int, events: int, seed: int, options: dict | None = None) -> int:
    """A game played with random legal moves until it has at least `events` events."""
    rules = engine.get(name)
    game_id = new_game(name, PLAYERS[:players], options or {}, seed=seed)
    choose = random.Random(seed)
    while True:
        with read_session(get_engine()) as session:
            game = store.get_game(session, game_id)
            if game.seq >= events or game.status != "active":
                return game_id
            state, _ = store.load_state(session, game)
        seat = game.to_act[0]
        handle(game_id, seat, choose.choice(rules.legal_moves(state, seat)), game.seq)


def percentiles(samples: list[float]) -> str:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
    return (f"median {statistics.median(ordered) * 1000:6.2f} ms   p95 {p95 * 1000:6.2f} ms   "
            f"max {ordered[-1] * 1000:6.2f} ms")


def measure(app, game_id: int, samples: int, rng: random.Random) -> None:
    with read_session(get_engine()) as session:
        game = store.get_game(session, game_id)
        seats = list(range(_players(session, game_id)))
    rules = engine.get(game.name)
    viewers = [None, *seats]
    views, distances = [], []
    for _ in range(samples):
        at = rng.randint(1, game.seq)
        viewer = rng.choice(viewers)
        started = time.perf_counter()
        with read_session(get_engine()) as session:
            state, base = store.load_state(session, game, at)
            rules.view(state, viewer)
        views.append(time.perf_counter() - started)
        distances.append(at - base)
    client = app.test_client()
    pages = []
    client.get(f"/games/{game_id}/history?at=1")  # templates compiled, caches warm
    for _ in range(samples):
        at = rng.randint(1, game.seq)
        started = time.perf_counter()
        answer = client.get(f"/games/{game_id}/history?at={at}")
        pages.append(time.perf_counter() - started)
        assert answer.status_code == 200, answer.status_code
    title = f"{game.name} game {game_id}: {game.seq} events"
    print(f"{title}\n  view at random N  {percentiles(views)}   "
          f"(events replayed after the snapshot: mean {statistics.mean(distances):.1f}, max {max(distances)})")
    print(f"  history page      {percentiles(pages)}")


def _players(session, game_id: int) -> int:
    return len(store.players_of(session, game_id))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--samples", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="riftpost-bench-history-"))
    url = f"sqlite:///{folder / 'bench.sqlite'}"
    upgrade(url)
    app = create_app({"INSTANCE_PATH": str(folder), "DATABASE_URL": url, "SECRET_KEY": "bench",
                      "OUTBOX_KICK": False, "MAILDIR": str(folder / "mail")})
    rng = random.Random(args.seed)
    with app.app_context():
        print(f"SQLite, SNAPSHOT_EVERY={app.config['SNAPSHOT_EVERY']}, {args.samples} samples each; target: view under 20 ms")
        short = grow("riftforce", 2, 100, args.seed)
        for attempt in range(20):  # random games may end early: take the first that lasts
            long = grow("riftwalker", 4, 2000, args.seed + attempt)
            with read_session(get_engine()) as session:
                if store.get_game(session, long).seq >= 2000:
                    break
        for game_id in (short, long):
            measure(app, game_id, args.samples, rng)


if __name__ == "__main__":
    main()
