"""The signed-in start page ("my games", service/web/home.py) over real HTTP: the Procfile's web
server serving the app as the Procfile does, one process, a person with 50 games of every game and mode
(Riftforce duel, team and solo, Riftwalker, Beyond the Rift; timed and untimed; a fifth finished).

Prints p50/p95 of `GET /healthz` (the do-nothing baseline) and of `GET /` signed in, alternated, with
the ratio of the p50s (the issue's target: within 3x /healthz), and the same for `GET /api/me/games`
(the same target).

    .venv/bin/python bench/home.py [--games 50] [--samples 300] [--backend sqlite|postgres]
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from moves import REDIS, Client, Server, instance_for, percentile  # bench/moves.py: the same web server and client
from pgdb import drop, postgres_url  # bench/pgdb.py

from service.play import new_game
from tests.consent import preconsent
from tests.people.home_helpers import finish, session_cookie

ANN = ("Ann", "ann@example.org")
OTHERS = [("Bo", "bo@example.org"), ("Cy", "cy@example.org"), ("Di", "di@example.org")]
KINDS = [
    ("riftforce", 2, {}), ("riftforce", 4, {"mode": "team"}), ("riftforce", 1, {"mode": "solo"}),
    ("riftwalker", 3, {}), ("beyond-the-rift", 2, {"scenario": "tutorial", "heroes": ["brannoc", "isolde"]}),
]


def load(app, games: int) -> None:
    with app.app_context():
        preconsent(ANN[1], *(email for _, email in OTHERS))
        for number in range(games):
            name, players, options = KINDS[number % len(KINDS)]
            seats = [ANN, *OTHERS[:players - 1]]
            if number % 2:  # Ann is not always the first player
                seats = seats[1:] + seats[:1]
            game_id = new_game(name, seats, options, seed=number, deadline_hours=72 if number % 3 else None)
            if number % 5 == 4:
                finish(game_id, {"winners": [0], "scores": {str(seat): 10 - seat for seat in range(players)}})


def measure(label: str, url: str, broker: str, games: int, samples: int) -> None:
    instance = instance_for(label, url, broker)
    load(instance.app, games)
    with instance.app.app_context():
        cookie = session_cookie(instance.app, ANN[1])
    server = Server(instance, 1)
    try:
        client = Client(server.port)
        client.cookies["session"] = cookie
        status, _, body, _ = client.request("GET", "/")
        assert status == 200 and b"Your games" in body, body[:300]
        times: dict[str, list[float]] = {"GET /healthz": [], "GET / (signed in)": [], "GET /api/me/games": []}
        for _ in range(20):  # warm
            client.request("GET", "/")
        for _ in range(samples):
            for what, path in (("GET /healthz", "/healthz"), ("GET / (signed in)", "/"),
                               ("GET /api/me/games", "/api/me/games")):
                status, _, _, elapsed = client.request("GET", path)
                assert status == 200, (path, status)
                times[what].append(elapsed)
        client.close()
    finally:
        server.stop()
    base = percentile(times["GET /healthz"], .5)
    print(f"{label}: {games} games of one person, {samples} samples each, the Procfile's web, 1 process")
    print(f"  {'request':<22}{'p50 ms':>8}{'p95 ms':>8}{'x healthz':>11}")
    for what, found in times.items():
        p50 = percentile(found, .5)
        print(f"  {what:<22}{p50:>8.2f}{percentile(found, .95):>8.2f}{p50 / base:>10.1f}x")
    print("  target: GET / and GET /api/me/games within 3x /healthz (p50)")


def main() -> None:
    parser = argparse.ArgumentParser(description="Riftpost's signed-in start page over real HTTP")
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--samples", type=int, default=300)
    parser.add_argument("--backend", choices=("sqlite", "postgres"), action="append",
                        help="only this backend (repeatable; default both)")
    args = parser.parse_args()
    backends = args.backend or ["sqlite", "postgres"]
    if "sqlite" in backends:
        folder = Path(os.environ.get("TMPDIR", "/tmp"))
        path = folder / f"riftpost-bench-home-{os.getpid()}.sqlite"
        try:
            measure("SQLite", f"sqlite:///{path}", f"sqla+sqlite:///{path}.broker", args.games, args.samples)
        finally:
            for leftover in folder.glob(f"{path.name}*"):
                leftover.unlink()
    if "postgres" in backends:
        url = postgres_url()
        if url is not None:
            try:
                measure("PostgreSQL", url, REDIS, args.games, args.samples)
            finally:
                drop(url)


if __name__ == "__main__":
    main()
