"""Reply-by-email benchmark: how long from a reply arriving at the embedded mail sink's inbound port
until its move is in the game's log.

    .venv/bin/python bench/inbound.py [--replies 50]

The sink runs as the Procfile runs it (`python -m service.mailsink`, its inbound port on), on a SQLite
database, in a process of its own; the bench makes `--replies` two-player Riftforce games (their first
emails queued, not sent: the sink's mail is not what is measured), then sends each game's seat to act a
reply with its first legal move ("pick fire") to its signed reply address over SMTP, one after the other, and polls the database
until the game's seq moved.  Printed: p50, p90 and max of "sent -> played" and of the SMTP transaction
alone (the door reads each message while the client waits for its 250), and the first reply apart (it
builds the sink's app).  Target: p50 under 2 s.
"""

from __future__ import annotations

import argparse
import os
import shutil
import smtplib
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from email.message import EmailMessage
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import sqlalchemy as sa

import engine
from service import create_app, store
from service.mail import reply_to
from service.migrate import upgrade
from service.play import new_game
from service.store import get_engine, read_session
from service.store.models import Game, Player
from tests.consent import preconsent

SECRET = "bench-secret"
DOMAIN = "in.bench.example.org"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_port(port: int, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.05)
    raise SystemExit(f"nothing listens on {port}")


def seq_of(game_id: int) -> int:
    with read_session(get_engine()) as session:
        return int(session.execute(sa.select(Game.seq).where(Game.id == game_id)).scalar_one())


def pct(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--replies", type=int, default=50)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="riftpost-bench-inbound-"))
    database = f"sqlite:///{work / 'app.sqlite'}"
    upgrade(database)
    smtp_port, inbound_port = free_port(), free_port()
    env = {**os.environ, "DATABASE_URL": database, "SECRET_KEY": SECRET, "RIFTPOST_INSTANCE": str(work),
           "MAIL_FROM": "riftpost@bench.example.org", "INBOUND_DOMAIN": DOMAIN, "RIFTPOST_OUTBOX_KICK": "0",
           "SMTP_URL": f"smtp://127.0.0.1:{smtp_port}", "PYTHONPATH": str(ROOT)}
    sink = subprocess.Popen([sys.executable, "-m", "service.mailsink", "--port", str(smtp_port),
                             "--inbound-port", str(inbound_port), "--maildir", str(work / "mail")],
                            env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_port(inbound_port)
        app = create_app({"INSTANCE_PATH": str(work), "DATABASE_URL": database, "SECRET_KEY": SECRET,
                          "MAIL_FROM": "riftpost@bench.example.org", "INBOUND_DOMAIN": DOMAIN, "OUTBOX_KICK": False})
        with app.app_context():
            preconsent("a@bench.example.org", "b@bench.example.org")
            targets = []
            for index in range(args.replies):
                game_id = new_game("riftforce", [("A", "a@bench.example.org"), ("B", "b@bench.example.org")],
                                   seed=index + 1)
                with read_session(get_engine()) as session:
                    game = session.get(Game, game_id)
                    seat = game.to_act[0]
                    player = session.execute(sa.select(Player).where(Player.game_id == game_id,
                                                                     Player.seat == seat)).scalar_one()
                    state, _ = store.load_state(session, game)
                    rules = engine.get(game.name)
                    move = rules.move_text(state, seat, rules.legal_moves(state, seat)[0])
                    targets.append((game_id, game.seq, reply_to.address(player, game.seq), move))
            played, smtp_times = [], []
            for game_id, seq, address, move in targets:
                message = EmailMessage()
                message["From"], message["To"], message["Subject"] = "b@bench.example.org", address, "Re: your turn"
                message.set_content(f"{move}\n\nOn Sun, 29 Nov 2026 Riftpost wrote:\n> Your turn.\n")
                started = time.perf_counter()
                with smtplib.SMTP("127.0.0.1", inbound_port, timeout=60) as client:
                    client.send_message(message, from_addr="b@bench.example.org", to_addrs=[address])
                smtp_times.append(time.perf_counter() - started)
                while seq_of(game_id) == seq:
                    if time.perf_counter() - started > 30:
                        raise SystemExit(f"game {game_id}: the reply was not played in 30 s")
                    time.sleep(0.005)
                played.append(time.perf_counter() - started)
        first, rest = played[0], played[1:] or played
        print(f"{len(played)} replies through the embedded sink's inbound port (SQLite)")
        print(f"first reply (the sink builds its app): {first * 1000:.0f} ms")
        print(f"sent -> played: p50 {statistics.median(rest) * 1000:.0f} ms, p90 {pct(rest, 0.9) * 1000:.0f} ms, "
              f"max {max(rest) * 1000:.0f} ms")
        print(f"SMTP transaction: p50 {statistics.median(smtp_times[1:] or smtp_times) * 1000:.0f} ms")
        print("target: p50 under 2000 ms:", "met" if statistics.median(rest) < 2 else "NOT met")
    finally:
        sink.terminate()
        sink.wait(10)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
