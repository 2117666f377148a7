"""The player page after a form move, in process: what `GET /p/<token>` costs the server's Python.

    .venv/bin/python bench/page.py [--games 3] [--pages 40] [--size 50] [--profile N] [--language en]

Riftforce duels (as bench/moves.py plays them: `patient` moves) are grown through `handle` to about
`--size` events; then each round is a form move `POST /p/<token>/move` through Flask's test client
and the page its 303 names, the page as bench/moves.py's "GET /p/<t> (after 303)": a new position, so
drawn anew (not from the positions kept).  Printed: the CPU time (`time.process_time`, this process
only, so no web server and no HTTP: less than bench/moves.py's server CPU by the request floor) of
each, median and quartiles, and the SELECTs of a page that go through SQLAlchemy (the link's read
and the mail-trouble read run on the DB-API cursor and are not among them: tests/web/test_page_reads.py
counts every statement).  `--profile N`: cProfile over N more pages, the top functions by own and by
cumulative time.  A shared machine: repeat a run and take medians.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import re
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import sqlalchemy as sa
from moves import Mirror, make_games  # bench/moves.py

from service import create_app
from service.migrate import upgrade
from service.play import handle
from service.store import get_engine

CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')
LANGUAGES = {"en": "en", "uk": "uk", "zh_Hant": "zh-TW"}


def grow(game: Mirror, events: int) -> bool:
    while game.seq < events:
        if game.over:
            return False
        seat, move = game.next_move()
        handle(game.game_id, seat, move, game.seq)
        game.play(seat, move)
    return not game.over


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--pages", type=int, default=40, help="form moves and pages per game")
    parser.add_argument("--size", type=int, default=50, help="events in each game before the timed moves")
    parser.add_argument("--profile", type=int, default=0, help="pages profiled after the timed ones")
    parser.add_argument("--language", choices=LANGUAGES, default="en")
    args = parser.parse_args()

    tmp = Path(tempfile.mkdtemp(prefix="riftpost-bench-page-"))
    try:
        url = f"sqlite:///{tmp / 'app.sqlite'}"
        upgrade(url)
        app = create_app({"INSTANCE_PATH": str(tmp), "DATABASE_URL": url, "SECRET_KEY": "bench-page",
                          "BASE_URL": "http://riftpost.test", "OUTBOX_KICK": False, "MAILDIR": str(tmp / "mail")})
        with app.app_context():
            games = []
            seed = 1
            while len(games) < args.games:
                found = make_games(app, 1, seed)[0]
                seed += 1
                if grow(found, args.size):
                    games.append(found)
            client = app.test_client()
            headers = {"Accept-Language": LANGUAGES[args.language]}
            form_cpu: list[float] = []
            page_cpu: list[float] = []
            selects: list[int] = []
            profiler = cProfile.Profile()

            def one(game: Mirror, measure: bool, profile: bool = False) -> bool:
                if game.over:
                    return False
                seat, move = game.next_move()
                path = f"/p/{game.tokens[seat]}"
                if not hasattr(game, "csrf"):
                    game.csrf = CSRF.search(client.get(path).get_data(as_text=True)).group(1)  # type: ignore[attr-defined]
                started = time.process_time()
                answer = client.post(f"{path}/move", data={"csrf_token": game.csrf,  # type: ignore[attr-defined]
                                                           "seq": str(game.seq), "move": json.dumps(move)})
                form = time.process_time() - started
                assert answer.status_code == 303, answer.get_data(as_text=True)[:300]
                game.play(seat, move)
                sent: list[str] = []

                def count(conn, cursor, statement, *rest):
                    sent.append(statement)

                sa.event.listen(get_engine(), "before_cursor_execute", count)
                if profile:
                    profiler.enable()
                started = time.process_time()
                page = client.get(answer.headers["Location"], headers=headers)
                spent = time.process_time() - started
                if profile:
                    profiler.disable()
                sa.event.remove(get_engine(), "before_cursor_execute", count)
                assert page.status_code == 200
                if measure:
                    form_cpu.append(form * 1000)
                    page_cpu.append(spent * 1000)
                    selects.append(sum(1 for s in sent if s.lstrip().upper().startswith("SELECT")))
                return True

            for game in games:  # warm up: templates compiled, catalogs read
                one(game, False)
            for _ in range(args.pages):
                for game in games:
                    one(game, True)
            for _ in range(args.profile):
                for game in games:
                    one(game, False, profile=True)
        app.extensions["riftpost.db"].dispose()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    def quartiles(samples: list[float]) -> str:
        q = statistics.quantiles(samples, n=4)
        return f"median {q[1]:6.2f} ms (quartiles {q[0]:.2f}-{q[2]:.2f}, n={len(samples)})"

    print(f"Riftforce duels of ~{args.size} events, {args.games} games, page in {args.language}; in-process CPU:")
    print(f"  form move POST        {quartiles(form_cpu)}")
    print(f"  the page after it     {quartiles(page_cpu)}")
    print(f"  SELECTs a page: {min(selects)}-{max(selects)}")
    if args.profile:
        stats = pstats.Stats(profiler)
        stats.sort_stats("tottime").print_stats(30)
        stats.sort_stats("cumulative").print_stats(60)


if __name__ == "__main__":
    main()
