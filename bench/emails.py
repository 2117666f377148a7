"""Emails per player in whole games played with seeded random moves through `handle`.

    .venv/bin/python bench/emails.py [--seeds 1,2,3]

Plays, on a throwaway SQLite database, a 4-player Riftforce team game, a 3-player Riftwalker game, a
Riftforce duel and a 2-hero Beyond the Rift game to the end (every decision a random legal move of the
first seat the game waits on, the RNG seeded), records the end as the worker does, and prints per
player the outbox rows by kind, next to the number of times it became that player's turn (a change
of whose turn it is that includes them: the bound of "at most one email per player per change of
whose turn it is", plus the invitation and the game-over email).
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import sqlalchemy as sa

import engine
from service import create_app, store
from service.migrate import upgrade
from service.play import handle, new_game
from service.play.ending import record_end
from service.store import get_engine, read_session
from service.store.models import Outbox, Player, utcnow

NAMES = ["Ana", "Bo", "Cy", "Di"]

GAMES = {
    "riftforce team, 4 players": ("riftforce", 4, {"mode": "team"}),
    "riftwalker, 3 players": ("riftwalker", 3, {}),
    "riftforce duel": ("riftforce", 2, {}),
    "beyond the rift, 2 heroes": ("beyond-the-rift", 2, {"scenario": "tutorial", "heroes": ["brannoc", "isolde"]}),
}


def play(name: str, players: int, options: dict, seed: int, limit: int = 20000) -> tuple[int, Counter[int]]:
    """A whole game with random moves; its id and, per seat, how many changes of whose turn it is
    concerned it (a turn of its own began, or it was newly asked to decide)."""
    rng = random.Random(seed)
    rules = engine.get(name)
    game_id = new_game(name, [(NAMES[s], f"{NAMES[s].lower()}@bench.example.org") for s in range(players)],
                       options, seed=seed)
    changes: Counter[int] = Counter()
    number, waiting = None, set()
    for _ in range(limit):
        with read_session(get_engine()) as session:
            game = store.get_game(session, game_id)
            state, _ = store.load_state(session, game)
        turn = rules.turn(state)
        began = set(turn.seats) if turn.number != number else set()
        for seat in began | (set(game.to_act) - waiting):
            changes[seat] += 1
        number, waiting = turn.number, set(game.to_act)
        if game.status != "active":
            break
        seat = game.to_act[0]
        handle(game_id, seat, rng.choice(rules.legal_moves(state, seat)), game.seq)
    else:
        raise RuntimeError(f"{name} seed {seed} did not end")
    record_end(game_id, utcnow())
    return game_id, changes


def counts(game_id: int) -> dict[int, Counter[str]]:
    """Outbox rows per seat and kind."""
    with read_session(get_engine()) as session:
        found = session.execute(
            sa.select(Player.seat, Outbox.kind).join(Player, Player.id == Outbox.player_id)
            .where(Outbox.game_id == game_id)
        ).all()
    out: dict[int, Counter[str]] = {}
    for seat, kind in found:
        out.setdefault(seat, Counter())[kind] += 1
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", default="1,2,3")
    args = parser.parse_args()
    seeds = [int(s) for s in args.seeds.split(",")]
    tmp = Path(tempfile.mkdtemp(prefix="riftpost-bench-emails-"))
    url = f"sqlite:///{tmp / 'app.sqlite'}"
    upgrade(url)
    app = create_app({"INSTANCE_PATH": str(tmp), "DATABASE_URL": url, "SECRET_KEY": "bench",
                      "BASE_URL": "http://bench.local", "OUTBOX_KICK": False})
    with app.app_context():
        for title, (name, players, options) in GAMES.items():
            for seed in seeds:
                game_id, turns = play(name, players, options, seed)
                with read_session(get_engine()) as session:
                    seq = store.get_game(session, game_id).seq
                print(f"{title}, seed {seed} ({seq} events):")
                for seat, kinds in sorted(counts(game_id).items()):
                    detail = ", ".join(f"{kind} {n}" for kind, n in sorted(kinds.items()))
                    print(f"  {NAMES[seat]}: {sum(kinds.values())} emails ({detail}); "
                          f"its turn began or it was newly asked {turns[seat]} times")


if __name__ == "__main__":
    main()
