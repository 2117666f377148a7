"""History benchmark: the time to show a game as it was after a random number of events.

Games are played through the service (`service.handle`, so snapshots are written as in
production: at every change of the seats to act and at least every SNAPSHOT_EVERY events) on a
fresh SQLite database, then for random N:

- view:  `store.load_state(session, game, N)` (the nearest snapshot at or before N, then the
         events after it) + `rules.view(state, seat)` for a random seat or a spectator, in a fresh
         read session.  Target: under 1 ms in the 2,000-event game.
- again: the same through the history views' per-process cache of position states
         (`history.state_at`, a copy of a state looked at lately): a second look at a position.
- spacing: the view for other SNAPSHOT_EVERY values: the game's snapshots are rewritten as the
         move path would have written them (at every change of the seats to act, at the end, and
         when SNAPSHOT_EVERY events have passed since the last one; the decisions' boundaries are
         those recorded while growing the game), with their count and stored bytes beside.
- page:  the whole public history page `GET /games/<id>/history?at=N` through the Flask stack
         (board, sentences of the turn, score chart and turn list; the per-game timeline and
         score series are cached per position of the game, as in a running server); and the
         first look after a move, when those per-game caches are rebuilt (samples / 20 looks).

Games: a Riftforce duel stopped at 100 events, a 4-player Riftwalker game played at random to
2,000 events (Riftforce games end after 300-450 events; a Riftwalker game that ends sooner is
replaced by the next seed's) and a Beyond the Rift game (its states are the largest).

    .venv/bin/python bench/history.py [--samples 200] [--seed 1] [--spacings 5,10,25,50,100]
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

import sqlalchemy as sa

import engine
from service import create_app, store
from service.migrate import upgrade
from service.play import handle, new_game
from service.play.moves import _snapshot_due
from service.store import get_engine, read_session, write_session
from service.store.models import Snapshot
from service.views import history

PLAYERS = [("Ann", "ann@example.org"), ("Bob", "bob@example.org"), ("Cy", "cy@example.org"),
           ("Di", "di@example.org")]


# Per game: (seq before, seq after, seats to act before, after, finished) of every decision.
DECISIONS: dict[int, list[tuple[int, int, list[int], list[int], bool]]] = {}


def grow(name: str, players: int, events: int, seed: int, options: dict | None = None) -> int:
    """A game played with random legal moves until it has at least `events` events."""
    rules = engine.get(name)
    game_id = new_game(name, PLAYERS[:players], options or {}, seed=seed)
    choose = random.Random(seed)
    decisions = DECISIONS.setdefault(game_id, [])
    while True:
        with read_session(get_engine()) as session:
            game = store.get_game(session, game_id)
            if game.seq >= events or game.status != "active":
                return game_id
            state, _ = store.load_state(session, game)
        seat = game.to_act[0]
        outcome = handle(game_id, seat, choose.choice(rules.legal_moves(state, seat)), game.seq)
        decisions.append((game.seq, outcome.seq, list(game.to_act), list(outcome.to_act), outcome.result is not None))


def resnapshot(game_id: int, every: int) -> tuple[int, int]:
    """Rewrite the game's snapshots as the move path would have written them with SNAPSHOT_EVERY =
    `every` (the one made at the game's creation kept); (their number, their stored bytes)."""
    with read_session(get_engine()) as session:
        game = store.get_game(session, game_id)
        payloads = store.log._engine_payloads(session, game, 0, game.seq)
        first = session.execute(sa.select(sa.func.min(Snapshot.seq)).where(Snapshot.game_id == game_id)).scalar_one()
    rules = engine.get(game.name)
    states = [None]
    for payload in payloads:  # no system events in these games: position i is payloads[:i]
        states.append(rules.evolve(rules.copy_state(states[-1]) if states[-1] is not None else None, payload))
    rows, last = [], first
    for _, seq, before, after, finished in DECISIONS[game_id]:
        if finished or _snapshot_due(last, seq, before, after, every):
            rows.append({"game_id": game_id, "seq": seq, "state": states[seq], "rules_version": rules.rules_version})
            last = seq
    with write_session(get_engine()) as session:
        session.execute(sa.delete(Snapshot).where(Snapshot.game_id == game_id, Snapshot.seq > first))
        if rows:
            session.execute(sa.insert(Snapshot), rows)
        count, size = session.execute(
            sa.select(sa.func.count(), sa.func.sum(sa.func.length(sa.cast(Snapshot.state, sa.Text))))
            .where(Snapshot.game_id == game_id)).one()
    return count, size


def percentiles(samples: list[float]) -> str:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
    return (f"median {statistics.median(ordered) * 1000:6.2f} ms   p95 {p95 * 1000:6.2f} ms   "
            f"max {ordered[-1] * 1000:6.2f} ms")


def views(game_id: int, samples: int, rng: random.Random, cached: bool = False) -> tuple[list[float], list[int]]:
    """Times of `samples` views at random positions (after the setup, which no one ever saw) and the
    events replayed after the snapshot for each; `cached`: each position looked at a second time,
    through the history views' cache (only the second look is timed)."""
    with read_session(get_engine()) as session:
        game = store.get_game(session, game_id)
        seats = list(range(_players(session, game_id)))
        first = history.shown_seq(session, game, 1)
    rules = engine.get(game.name)
    viewers = [None, *seats]
    times, distances = [], []
    for _ in range(samples):
        at = rng.randint(first, game.seq)
        viewer = rng.choice(viewers)
        if cached:
            with read_session(get_engine()) as session:
                history.state_at(session, game, at)
        started = time.perf_counter()
        with read_session(get_engine()) as session:
            if cached:
                state, base = history.state_at(session, game, at), at
            else:
                state, base = store.load_state(session, game, at)
            rules.view(state, viewer)
        times.append(time.perf_counter() - started)
        distances.append(at - base)
    return times, distances


def measure(app, game_id: int, samples: int, rng: random.Random, spacings: list[int]) -> None:
    with read_session(get_engine()) as session:
        game = store.get_game(session, game_id)
    every = app.config["SNAPSHOT_EVERY"]
    print(f"{game.name} game {game_id}: {game.seq} events")
    for spacing in spacings:
        count, size = resnapshot(game_id, spacing)
        times, distances = views(game_id, samples, rng)
        print(f"  view, SNAPSHOT_EVERY={spacing:<3} {percentiles(times)}   (replayed after the snapshot: "
              f"mean {statistics.mean(distances):4.1f}, max {max(distances):3}; {count} snapshots, {size / 1024:6.0f} KiB)")
    resnapshot(game_id, every)  # as the service writes them
    times, distances = views(game_id, samples, rng)
    print(f"  view at random N  {percentiles(times)}   (SNAPSHOT_EVERY={every}; replayed after the snapshot: "
          f"mean {statistics.mean(distances):.1f}, max {max(distances)})")
    times, _ = views(game_id, samples, rng, cached=True)
    print(f"  view, looked at again (the views' state cache)  {percentiles(times)}")
    client = app.test_client()
    pages = []
    client.get(f"/games/{game_id}/history?at=1")  # templates compiled, caches warm
    for _ in range(samples):
        at = rng.randint(1, game.seq)
        started = time.perf_counter()
        answer = client.get(f"/games/{game_id}/history?at={at}")
        pages.append(time.perf_counter() - started)
        assert answer.status_code == 200, answer.status_code
    print(f"  history page      {percentiles(pages)}")
    cold = []
    for _ in range(max(1, samples // 20)):  # the first look after a move: the per-game caches are empty
        history._CACHE.clear()
        history._STATES.clear()
        at = rng.randint(1, game.seq)
        started = time.perf_counter()
        assert client.get(f"/games/{game_id}/history?at={at}").status_code == 200
        cold.append(time.perf_counter() - started)
    print(f"  history page, first look after a move (timeline, scores and states rebuilt)  {percentiles(cold)}")


def _players(session, game_id: int) -> int:
    return len(store.players_of(session, game_id))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--samples", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--spacings", default="5,10,25,50,100",
                        help="SNAPSHOT_EVERY values to compare (empty: none)")
    args = parser.parse_args()
    spacings = [int(part) for part in args.spacings.split(",") if part.strip()]
    folder = Path(tempfile.mkdtemp(prefix="riftpost-bench-history-"))
    url = f"sqlite:///{folder / 'bench.sqlite'}"
    upgrade(url)
    app = create_app({"INSTANCE_PATH": str(folder), "DATABASE_URL": url, "SECRET_KEY": "bench",
                      "OUTBOX_KICK": False, "MAILDIR": str(folder / "mail")})
    rng = random.Random(args.seed)
    with app.app_context():
        print(f"SQLite, SNAPSHOT_EVERY={app.config['SNAPSHOT_EVERY']}, {args.samples} samples each; target: view under 1 ms")
        short = grow("riftforce", 2, 100, args.seed)
        for attempt in range(20):  # random games may end early: take the first that lasts
            long = grow("riftwalker", 4, 2000, args.seed + attempt)
            with read_session(get_engine()) as session:
                if store.get_game(session, long).seq >= 2000:
                    break
        beyond = grow("beyond-the-rift", 2, 2000, args.seed, {"scenario": "old-friends-1"})
        for game_id in (short, long, beyond):
            measure(app, game_id, args.samples, rng, spacings)


if __name__ == "__main__":
    main()
