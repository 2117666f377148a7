"""Memory of the running service: RSS and PSS of web, worker and beat after N moves.

    .venv/bin/python bench/memory.py [--moves 1000] [--emails 1000] [--repeat 1] [--worker "python -m worker ..."]

Starts the `web`, `worker` and `beat` lines of the Procfile (read from it, so a change there is what
is measured) on a throwaway instance directory (SQLite database, the embedded SQLite broker), with a
local SMTP sink in this process; creates games here (Riftforce duels and team games, Riftwalker, Beyond
the Rift: every engine the service serves), plays `--moves` moves through HTTP with the JSON play API
(`POST /api/play/<token>`, whose answer has the decisions after it; `GET /api/play/<token>` when the
turn passed to another seat), waits until the worker has sent every email, and prints per process RSS
and PSS (/proc/PID/smaps_rollup; PSS splits each shared page between the processes that map it, so the
PSS of the web server's main process and workers adds up to what the web really costs) and the totals of web
(master + workers), worker and beat.  `--worker COMMAND` runs that instead of the Procfile's worker line
(`--worker "python -m worker --pool=solo"`: one worker process).
After the moves, new games are started (each emails its seats) until the outbox holds `--emails` emails
to send, so the worker has sent at least that many when it is measured.
Targets: RSS of web + worker <= 120 MB after 1,000 moves and beat <= 40 MB (issue #27, "The move at the
floor"; beat is `python -m worker.beat`, worker/beat.py); each worker process's RSS <= 90 MB after
1,000 emails (issue #26).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import sqlalchemy as sa

from service import create_app, links
from service.mailsink import start as start_sink
from service.migrate import upgrade
from service.people.identity import person
from service.play import new_game
from service.store import get_engine, read_session, write_session
from service.store.models import Outbox, Player, utcnow

SECRET = "bench-memory-secret"
GAMES = [
    ("riftforce", 2, {}),
    ("riftwalker", 3, {}),
    ("riftforce", 4, {"mode": "team"}),
    ("beyond-the-rift", 2, {"scenario": "tutorial", "heroes": ["brannoc", "isolde"]}),
]
NAMES = ["Ana", "Bo", "Cy", "Di"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def procfile() -> dict[str, str]:
    lines = (ROOT / "Procfile").read_text().splitlines()
    return dict(line.split(":", 1) for line in lines if ":" in line and not line.startswith("#"))


def memory(pid: int) -> tuple[int, int]:
    """(RSS, PSS) in kB of one process."""
    found = {}
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
        key, _, rest = line.partition(":")
        if key in ("Rss", "Pss"):
            found[key] = int(rest.split()[0])
    return found["Rss"], found["Pss"]


def children(pid: int) -> list[int]:
    try:
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    except FileNotFoundError:
        return []
    return [int(c) for c in text.split()]


def tree(pid: int) -> list[int]:
    found = [pid]
    for child in children(pid):
        found += tree(child)
    return found


def command(pid: int) -> str:
    raw = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace").strip()
    return re.sub(r"\S*/\.venv/bin/", "", raw)[:60]


def http(method: str, url: str, body: dict | None = None) -> tuple[int, dict]:
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, method=method,
                                     headers={"Content-Type": "application/json"} if data else {})
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read() or b"{}")


def wait_for(url: str, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=5):
                return
        except OSError:
            time.sleep(0.2)
    raise SystemExit(f"{url} did not answer in {seconds} s")


def address(seat: int) -> str:
    return f"{NAMES[seat].lower()}@bench.example.org"


def consent() -> None:
    """The players accepted Riftpost's emails before (as people who played before): their turn emails
    go out instead of waiting behind an invitation."""
    with write_session(get_engine()) as session:
        for seat in range(len(NAMES)):
            who = person(session, address(seat), lock=True)
            who.consented_at = utcnow()
            session.add(who)


def start_game(number: int) -> dict[int, str]:
    """A new game (the bench's own app, in its app context); the page token of each seat."""
    name, players, options = GAMES[number % len(GAMES)]
    addresses = [(NAMES[s], address(s)) for s in range(players)]
    game_id = new_game(name, addresses, options, seed=number)
    with read_session(get_engine()) as session:
        seats = session.execute(sa.select(Player.seat, Player.id, Player.row_key).where(Player.game_id == game_id)).all()
    return {seat: links.player_token(player_id, key) for seat, player_id, key in seats}


def play(app, base: str, moves: int, rng: random.Random) -> float:
    """`moves` moves through the JSON play API, a new game whenever one ends; seconds taken."""
    started = time.perf_counter()
    made, number, tokens = 0, 0, {}
    last: dict | None = None  # the last POST's answer: the position after it, as its seat's GET answers it
    with app.app_context():
        consent()
    while made < moves:
        if not tokens:
            with app.app_context():
                tokens = start_game(number)
            number += 1
            last = None
        position = last
        if position is None:
            status, position = http("GET", f"{base}/api/play/{tokens[0]}")
            assert status == 200, position
        if position["status"] != "active" or not position["to_act"]:
            tokens = {}
            continue
        seat = position["to_act"][0]
        mine = position if position["seat"] == seat else None  # a seat whose turn goes on asks nothing more
        if mine is None:
            status, mine = http("GET", f"{base}/api/play/{tokens[seat]}")
            assert status == 200, mine
        move = rng.choice(mine["decisions"])["move"]
        status, last = http("POST", f"{base}/api/play/{tokens[seat]}", {"seq": mine["seq"], "moves": [move]})
        assert status == 200, last
        made += 1
    return time.perf_counter() - started


def emails_queued(app) -> int:
    """The emails the worker has sent or is to send (not those held or skipped)."""
    with app.app_context(), read_session(get_engine()) as session:
        return session.execute(sa.select(sa.func.count()).select_from(Outbox).where(
            Outbox.status.in_(("pending", "sending", "sent")))).scalar_one()


def top_up(app, emails: int, first: int) -> int:
    """New games (numbered from `first`: seeds the moves' games did not use) until `emails` emails are
    queued; how many games that took."""
    from tests.consent import preconsent

    with app.app_context():
        # As people who played together before: no invitation waits for an answer, and the day's
        # limit on invitations to new addresses does not stop the games.
        preconsent(*(address(seat) for seat in range(len(NAMES))))
    games = 0
    while emails_queued(app) < emails:
        with app.app_context():
            start_game(first + games)
        games += 1
    return games


def wait_sent(app, seconds: float = 600) -> int:
    deadline = time.monotonic() + seconds
    with app.app_context():
        while time.monotonic() < deadline:
            with read_session(get_engine()) as session:
                left, total = session.execute(sa.select(
                    sa.func.count().filter(Outbox.status.in_(("pending", "sending"))),
                    sa.func.count().filter(Outbox.status == "sent"))).one()
            if not left:
                return total
            time.sleep(0.5)
    raise SystemExit(f"the worker did not send every email in {seconds} s")


def measure(processes: dict[str, subprocess.Popen]) -> dict[str, tuple[int, int, int]]:
    """Per role, (RSS, PSS) summed over the process tree and the largest process's RSS; prints each
    process."""
    totals = {}
    for role, proc in processes.items():
        rss_sum = pss_sum = rss_max = 0
        for pid in tree(proc.pid):
            cmd = command(pid)
            if cmd.startswith(("/bin/sh", "sh ")):
                continue  # the shell that runs the Procfile line (exec'd away when it can)
            rss, pss = memory(pid)
            rss_sum, pss_sum, rss_max = rss_sum + rss, pss_sum + pss, max(rss_max, rss)
            print(f"  {role:<7} {pid:>7}  RSS {rss / 1024:6.1f} MB  PSS {pss / 1024:6.1f} MB  {cmd}")
        totals[role] = (rss_sum, pss_sum, rss_max)
    return totals


def run_once(moves: int, seed: int, emails: int = 0,
             worker: str | None = None) -> dict[str, dict[str, tuple[int, int, int]]]:
    tmp = Path(tempfile.mkdtemp(prefix="riftpost-bench-memory-"))
    url = f"sqlite:///{tmp / 'app.sqlite'}"
    upgrade(url)
    smtp_port, web_port = free_port(), free_port()
    sink = start_sink(tmp / "mail", "127.0.0.1", smtp_port)
    base = f"http://127.0.0.1:{web_port}"
    env = dict(os.environ, RIFTPOST_INSTANCE=str(tmp), SMTP_URL=f"smtp://127.0.0.1:{smtp_port}",
               SECRET_KEY=SECRET, BASE_URL=base, PORT=str(web_port),
               PATH=f"{Path(sys.executable).parent}:{os.environ['PATH']}",
               PYTHONPATH=str(ROOT))  # this checkout's code, whatever the venv's editable install names
    for key in ("DATABASE_URL", "CELERY_BROKER_URL"):
        env.pop(key, None)  # the embedded defaults under the instance directory
    lines = procfile()
    if worker:
        lines["worker"] = worker
    processes = {
        role: subprocess.Popen(["sh", "-c", f"exec {lines[role].strip()}"], cwd=ROOT, env=env,
                               stdout=subprocess.DEVNULL, stderr=open(tmp / f"{role}.log", "w"),  # noqa: SIM115 - the log outlives this call
                               start_new_session=True)
        for role in ("web", "worker", "beat")
    }
    app = create_app({"INSTANCE_PATH": str(tmp), "SECRET_KEY": SECRET, "BASE_URL": base,
                      "SMTP_URL": f"smtp://127.0.0.1:{smtp_port}"})
    results = {}
    try:
        wait_for(f"{base}/healthz")
        time.sleep(5)  # the worker and beat finish starting
        print("after start:")
        results["start"] = measure(processes)
        took = play(app, base, moves, random.Random(seed))
        games = top_up(app, emails, first=100_000)
        sent = wait_sent(app)
        time.sleep(2)
        more = f" ({games} new games to reach {emails})" if games else ""
        print(f"after {moves} moves ({took:.0f} s) and {sent} emails sent{more}:")
        results["moves"] = measure(processes)
    finally:
        for proc in processes.values():
            os.killpg(proc.pid, signal.SIGTERM)
        for proc in processes.values():
            try:
                proc.wait(20)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
        sink.stop()
        app.extensions["riftpost.db"].dispose()
        shutil.rmtree(tmp, ignore_errors=True)
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=1000)
    parser.add_argument("--emails", type=int, default=1000, help="at least this many emails sent (new games "
                        "are started after the moves until there are)")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--worker", metavar="COMMAND", help="the worker's command (default: the Procfile's line)")
    args = parser.parse_args()
    runs = []
    for n in range(args.repeat):
        print(f"run {n + 1}:")
        runs.append(run_once(args.moves, seed=n, emails=args.emails, worker=args.worker))
    print(f"\nmedian of {len(runs)} run(s), MB (RSS / PSS):")
    for phase in ("start", "moves"):
        cells = []
        for role in ("web", "worker", "beat"):
            rss = statistics.median(r[phase][role][0] for r in runs) / 1024
            pss = statistics.median(r[phase][role][1] for r in runs) / 1024
            cells.append(f"{role} {rss:5.1f} / {pss:5.1f}")
        both = [statistics.median(r[phase]["web"][i] + r[phase]["worker"][i] for r in runs) / 1024 for i in (0, 1)]
        label = "after start" if phase == "start" else f"after {args.moves} moves, {args.emails} emails"
        print(f"  {label:<30} " + "   ".join(cells) + f"   web+worker {both[0]:5.1f} / {both[1]:5.1f}")
    after = {role: statistics.median(r["moves"][role][0] for r in runs) / 1024 for role in ("web", "worker", "beat")}
    # #26's 90 MB is a worker process's (the solo worker's, or each process of the Procfile's pool).
    largest = statistics.median(r["moves"]["worker"][2] for r in runs) / 1024
    targets = [("web+worker", after["web"] + after["worker"], 120), ("beat", after["beat"], 40),
               ("the largest worker process", largest, 90)]
    print("targets (RSS after the moves and emails): " + ", ".join(
        f"{name} {value:.1f} MB {'<=' if value <= limit else '>'} {limit}" for name, value, limit in targets))


if __name__ == "__main__":
    main()
