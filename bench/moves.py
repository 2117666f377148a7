"""Move-path benchmark over real HTTP: the Procfile's web server serving the app as the Procfile does.

    .venv/bin/python bench/moves.py [--games 3] [--rounds 15] [--moves 336] [--backend sqlite|postgres]
                                    [--server procfile|gthread|sync|granian]

For each backend (SQLite with the embedded `sqla+sqlite:` broker; PostgreSQL with the Redis broker) on a
throwaway instance:

1. Latency, one web server process: p50/p95 of `GET /healthz` (the do-nothing baseline), the form move
   `POST /p/<token>/move`, the page GET it redirects to, the JSON API move `POST /api/play/<token>`,
   the emailed link's confirm `POST /m/<move token>` and a JSON client's whole loop per move (the POST,
   and a GET of the position after it where the POST's answer lacks it: servers before issue #27), in
   Riftforce games grown to about 50 and 500 events; each beside its ratio to /healthz.  Targets of the issue "A lean write path": a move POST
   within 2x /healthz on SQLite, within 4 ms on PostgreSQL.
2. Throughput, two web server processes: moves/s (`POST /api/play/<token>`, one move each) with 1, 4 and
   16 concurrent clients, each a thread with its own connection and its own games.  Target: 500 moves/s
   on 2 cores.
3. The RSS of each web server process (the main one and its workers) after those moves (1,008 by default).

The client (this process) knows every legal move without asking the server: it plays each game along
locally with the engine and the server's own RNG per position (service/play/batch.py `rng`), so the
only requests are the measured ones.  No Celery worker runs: the outbox rows a move queues stay queued,
while the kick to the broker after each commit happens as in production (with Redis; the embedded
broker gets none: service/config.py).

`--server` picks the web server (`server_command`): the Procfile's line by default (granian, 4 threads
a process), or to compare, gunicorn's gthread worker (4 threads, the Procfile's before issue #27) or its
sync worker, or granian with the bench's own options.  Each keeps a client's connection open but the
sync worker, which closes it after each response: the client then reconnects, so those figures include
a loopback TCP connect per request.  The CPU per request is the server processes' (every thread, the
kernel's work on their behalf included), which on a shared machine varies less than the wall-clock.
The machine is shared: the load average is printed before and after; repeat a run and take medians.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import os
import random
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any
from urllib.parse import urlencode, urlsplit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import sqlalchemy as sa
from pgdb import drop, postgres_url  # bench/pgdb.py
from sqlmodel import Session

import engine
from service import create_app, links
from service.migrate import upgrade
from service.play import new_game
from service.store import get_engine, make_engine, read_session
from service.store.deal import rng as position_rng
from service.store.models import Event, Game, Player, Snapshot
from tests.procfile import procfile_line

REDIS = os.environ.get("RIFTPOST_TEST_REDIS", "redis://127.0.0.1:6379") + "/13"
SECRET = "bench-moves-secret"
CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')
RULES = engine.get("riftforce")
KINDS = [
    ("healthz", "GET /healthz"),
    ("form", "POST /p/<t>/move (form)"),
    ("page", "GET /p/<t> (after 303)"),
    ("api", "POST /api/play/<t> (JSON)"),
    ("confirm", "POST /m/<move token>"),
    ("loop", "client loop (JSON, per turn)"),
]


# ---- the games, played along locally ----------------------------------------------------------------


def patient(moves: list[dict], rng: random.Random) -> dict:
    """Long games: end plays at once, prefer discarding and checking (Riftforce games played at random
    end after 300-450 events)."""
    for move in moves:
        if move["type"] in ("done", "end_play"):
            return move
    quiet = [m for m in moves if m["type"] in ("activate", "check")]
    if quiet and rng.random() < 0.7:
        return rng.choice(quiet)
    return rng.choice(moves)


@dataclass
class Mirror:
    """A game as the server holds it: the same setup from the seed, each move played with the RNG of
    its position, so the events (and the seq) match the server's."""

    game_id: int
    seed: int
    tokens: dict[int, str]  # seat -> page token
    player_ids: dict[int, tuple[int, str | None]]  # seat -> (player id, row key)
    state: Any = None
    seq: int = 0
    choice: random.Random = field(default_factory=random.Random)

    def __post_init__(self) -> None:
        setup = RULES.start(players=2, options={}, seed=self.seed)
        self.state = engine.replay(RULES, setup)
        self.seq = len(setup)
        self.choice = random.Random(self.seed)

    @property
    def over(self) -> bool:
        return RULES.result(self.state) is not None or not RULES.to_act(self.state)

    def next_move(self) -> tuple[int, dict]:
        seat = RULES.to_act(self.state)[0]
        return seat, patient(RULES.legal_moves(self.state, seat), self.choice)

    def play(self, seat: int, move: dict) -> None:
        for event in RULES.play(self.state, seat, move, position_rng(self.seed, self.seq)):
            self.state = RULES.evolve(self.state, event)
            self.seq += 1


def make_games(app, count: int, first_seed: int) -> list[Mirror]:
    """`count` new two-player Riftforce games (each player a fresh address: invitations are limited per
    address and day)."""
    games = []
    with app.app_context():
        for seed in range(first_seed, first_seed + count):
            game_id = new_game("riftforce", [("A", f"a{seed}@bench.example.org"), ("B", f"b{seed}@bench.example.org")],
                               seed=seed)
            with read_session(get_engine()) as session:
                ids = {p.seat: (p.id, p.row_key)
                       for p in session.exec(sa.select(Player).where(Player.game_id == game_id)).scalars()}
            games.append(Mirror(game_id, seed, {seat: links.player_token(*named) for seat, named in ids.items()}, ids))
    return games


# ---- HTTP ----------------------------------------------------------------------------------------------


class Client:
    """One browser-like client: a connection kept open while the server allows it, and its cookies."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        self.cookies: dict[str, str] = {}

    def request(self, method: str, path: str, body: bytes | None = None,
                headers: dict[str, str] | None = None) -> tuple[int, http.client.HTTPResponse, bytes, float]:
        headers = dict(headers or {})
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        for attempt in (1, 2):
            started = time.perf_counter()
            try:
                self.connection.request(method, path, body, headers)
                response = self.connection.getresponse()
                data = response.read()
                break
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                # the server closed a kept-alive connection between two requests: open a new one
                self.connection.close()
                if attempt == 2:
                    raise
        elapsed = time.perf_counter() - started
        if response.will_close:
            self.connection.close()  # the next request opens a new connection
        for header in response.headers.get_all("Set-Cookie") or []:
            for name, morsel in SimpleCookie(header).items():
                self.cookies[name] = morsel.value
        return response.status, response, data, elapsed

    def close(self) -> None:
        self.connection.close()


class Seat:
    """A player's browser: their client, page path and CSRF token (from their page)."""

    def __init__(self, port: int, token: str) -> None:
        self.client = Client(port)
        self.path = f"/p/{token}"
        self.token = token
        status, _, data, _ = self.client.request("GET", self.path)
        assert status == 200, (status, data[:300])
        self.csrf = CSRF.search(data.decode()).group(1)

    def form(self, path: str, fields: dict[str, str]) -> tuple[int, http.client.HTTPResponse, bytes, float]:
        body = urlencode({"csrf_token": self.csrf, **fields}).encode()
        return self.client.request("POST", path, body, {"Content-Type": "application/x-www-form-urlencoded"})


def api_move(client: Client, game: Mirror, seat: int, move: dict, meter: Meter | None = None) -> float:
    body = json.dumps({"seq": game.seq, "moves": [move]}).encode()
    if meter is not None:
        meter.start("api")
    status, _, data, elapsed = client.request("POST", f"/api/play/{game.tokens[seat]}", body,
                                              {"Content-Type": "application/json"})
    assert status == 200, (status, data[:300])
    game.play(seat, move)
    answer = json.loads(data)
    assert answer["seq"] == game.seq, f"the local game diverged from the server's: {answer['seq']} != {game.seq}"
    return elapsed


def client_loop(client: Client, game: Mirror, seat: int, move: dict, meter: Meter) -> float:
    """What a client of the JSON API does per move to go on: POST the move, then know its position
    (view, decisions) after it.  A server whose POST answers the position (issue #27) needs no more;
    one that answers only the new seq is asked again (GET /api/play/<t>): the loop's time and the
    server's CPU are both requests' together."""
    token = game.tokens[seat]
    meter.start("loop")
    status, _, data, elapsed = client.request("POST", f"/api/play/{token}",
                                              json.dumps({"seq": game.seq, "moves": [move]}).encode(),
                                              {"Content-Type": "application/json"})
    assert status == 200, (status, data[:300])
    answer = json.loads(data)
    if "view" not in answer or "decisions" not in answer:
        status, _, data, more = client.request("GET", f"/api/play/{token}", headers={"Accept": "application/json"})
        assert status == 200, (status, data[:300])
        answer, elapsed = json.loads(data), elapsed + more
    game.play(seat, move)
    assert answer["seq"] == game.seq, f"the local game diverged from the server's: {answer['seq']} != {game.seq}"
    return elapsed


def grow(port: int, game: Mirror, events: int) -> bool:
    """Play the game on over the API (untimed) until it has `events` events; False if it ended first."""
    client = Client(port)
    try:
        while game.seq < events:
            if game.over:
                return False
            api_move(client, game, *game.next_move())
        return not game.over
    finally:
        client.close()


# ---- the server -----------------------------------------------------------------------------------------


@dataclass
class Instance:
    label: str
    url: str
    broker: str
    tmp: Path
    env: dict[str, str]
    app: Any
    seeds: int = 1

    def games(self, count: int) -> list[Mirror]:
        made = make_games(self.app, count, self.seeds)
        self.seeds += count
        return made


# The web servers the bench can run (`--server`), each serving the app behind its access log
# (`service:create_web_app`): "procfile" is the Procfile's own `web` line (WEB_CONCURRENCY gives the
# processes); the others are there to compare: gunicorn's threaded worker with 4 threads as the
# Procfile ran it until issue #27, its one-request-at-a-time sync worker, and granian as the Procfile
# runs it but for the processes.
SERVERS = ("procfile", "gthread", "sync", "granian")


def server_command(server: str, port: int, workers: int) -> tuple[list[str], dict[str, str]]:
    """(argv, extra environment) of `server` listening on 127.0.0.1:`port` with `workers` processes."""
    if server == "procfile":
        return (["sh", "-c", "exec " + procfile_line("web")],
                {"PORT": str(port), "WEB_CONCURRENCY": str(workers),
                 "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"})
    if server in ("gthread", "sync"):  # gunicorn is a dev dependency, for this comparison
        return ([sys.executable, "-m", "gunicorn", "--bind", f"127.0.0.1:{port}", "--workers", str(workers),
                 "--worker-class", server, "--threads", "4", "service:create_web_app()"], {})
    if server == "granian":
        return ([sys.executable, "-m", "granian", "--interface", "wsgi", "--factory", "--host", "127.0.0.1",
                 "--port", str(port), "--workers", str(workers), "--blocking-threads", "4", "--no-ws",
                 "service:create_web_app"], {})
    raise SystemExit(f"unknown server {server!r}: one of {', '.join(SERVERS)}")


class Server:
    """A web server serving the app (the Procfile's by default, its access log included), on a port of
    its own."""

    def __init__(self, instance: Instance, workers: int, server: str = "procfile") -> None:
        self.port = free_port()
        self.name = server
        self.log = open(instance.tmp / f"{server}-{self.port}.log", "wb")  # noqa: SIM115
        argv, env = server_command(server, self.port, workers)
        self.process = subprocess.Popen(argv, cwd=ROOT, env={**instance.env, **env}, stdout=self.log,
                                        stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 60
        while True:
            try:
                probe = Client(self.port)
                if probe.request("GET", "/healthz")[0] == 200:
                    probe.close()
                    break
            except OSError:
                pass
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"{server} did not start; see {self.log.name}")
            time.sleep(0.1)
        while len(self.workers()) < workers:  # each worker imports the app itself
            time.sleep(0.1)
        warm = Client(self.port)
        for _ in range(20 * workers):  # first requests of a fresh worker are slower (imports, pools)
            warm.request("GET", "/healthz")
        warm.close()

    def workers(self) -> list[int]:
        """The processes that serve requests: the master's children."""
        return self.children()

    def children(self) -> list[int]:
        path = Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children")
        return [int(pid) for pid in path.read_text().split()]

    def rss(self) -> list[tuple[str, float]]:
        """(process, MiB) of the master and each worker."""
        out = [("master", rss_mib(self.process.pid))]
        out += [(f"worker {pid}", rss_mib(pid)) for pid in self.children()]
        return out

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(30)
        self.log.close()


def cpu_seconds(pids: list[int]) -> float:
    """CPU time of these processes so far, every thread (the kick to the broker runs in one of its
    own), from /proc's schedstat (nanoseconds; /proc/<pid>/stat counts in 10 ms ticks)."""
    total = 0
    for pid in pids:
        for task in Path(f"/proc/{pid}/task").iterdir():
            with contextlib.suppress(FileNotFoundError, ProcessLookupError):  # a thread that just ended
                total += int((task / "schedstat").read_text().split()[0])
    return total / 1e9


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


# ---- the measurements -----------------------------------------------------------------------------------


def percentile(samples: list[float], fraction: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, max(0, round(fraction * len(ordered)) - 1))] * 1000


class Meter:
    """The wall-clock time of each request, and the server's CPU time for it: from just before it to
    just before the next request (the server is otherwise idle), so what a request leaves to a
    background thread (the kick to the broker) counts too.  CPU time hardly depends on the load of a
    shared machine, which the wall-clock does."""

    def __init__(self, pids: list[int]) -> None:
        self.pids = pids
        self.wall: dict[str, list[float]] = {kind: [] for kind, _ in KINDS}
        self.cpu: dict[str, list[float]] = {kind: [] for kind, _ in KINDS}
        self._open: str | None = None
        self._mark = 0.0

    def start(self, kind: str) -> str:
        self.finish()
        self._open, self._mark = kind, cpu_seconds(self.pids)
        return kind

    def finish(self) -> None:
        if self._open is not None:
            self.cpu[self._open].append(cpu_seconds(self.pids) - self._mark)
            self._open = None


def latency(instance: Instance, server: Server, size: int, games: int, rounds: int) -> Meter:
    """Each kind of request in `games` games grown to `size` events; each round is a form move (and
    the page it redirects to), an API move and a confirmed move link."""
    meter = Meter([server.process.pid, *server.children()])
    grown: list[Mirror] = []
    while len(grown) < games:
        grown += [game for game in instance.games(games - len(grown)) if grow(server.port, game, size)]
    for game in grown:
        seats = {seat: Seat(server.port, token) for seat, token in game.tokens.items()}
        for _ in range(rounds):
            meter.start("healthz")
            meter.wall["healthz"].append(seats[0].client.request("GET", "/healthz")[3])
            if game.over:
                break
            seat, move = game.next_move()
            meter.start("form")
            status, response, data, elapsed = seats[seat].form(
                f"{seats[seat].path}/move", {"seq": str(game.seq), "move": json.dumps(move)})
            assert status == 303, (status, data[:300])
            meter.wall["form"].append(elapsed)
            game.play(seat, move)
            meter.wall["page"].append(follow(seats[seat], response, meter))
            if game.over:
                break
            seat, move = game.next_move()
            meter.wall["api"].append(api_move(seats[seat].client, game, seat, move, meter))
            if game.over:
                break
            seat, move = game.next_move()
            with instance.app.app_context():
                token = links.move_token(*game.player_ids[seat], game.seq, move)
            meter.start("confirm")
            status, response, data, elapsed = seats[seat].form(f"/m/{token}", {})
            assert status == 303, (status, data[:300])
            meter.wall["confirm"].append(elapsed)
            game.play(seat, move)
            meter.wall["page"].append(follow(seats[seat], response, meter))  # it shows (and so clears) the flash
            if game.over:
                break
            seat, move = game.next_move()
            meter.wall["loop"].append(client_loop(seats[seat].client, game, seat, move, meter))
        time.sleep(0.05)  # the last request's background work
        meter.finish()
        for browser in seats.values():
            browser.client.close()
    return meter


def follow(seat: Seat, response: http.client.HTTPResponse, meter: Meter) -> float:
    location = urlsplit(response.headers["Location"])
    path = location.path + (f"?{location.query}" if location.query else "")
    meter.start("page")
    status, _, data, elapsed = seat.client.request("GET", path)
    assert status == 200, (status, data[:300])
    return elapsed


def report_latency(by_size: dict[int, Meter]) -> None:
    sizes = sorted(by_size)
    print(f"  {'':<28}" + "".join(f"{f'~{size} events':^40}" for size in sizes))
    print(f"  {'request':<28}" + "".join(f"{'p50 ms':>8}{'p95 ms':>8}{'x healthz':>11}{'CPU p50':>10}   "
                                         for _ in sizes))
    for kind, label in KINDS:
        row = f"  {label:<28}"
        for size in sizes:
            wall, cpu = by_size[size].wall[kind], by_size[size].cpu[kind]
            if not wall:
                row += f"{'-':>8}{'-':>8}{'-':>11}{'-':>10}   "
                continue
            p50 = percentile(wall, .5)
            ratio = p50 / percentile(by_size[size].wall["healthz"], .5)
            row += f"{p50:8.2f}{percentile(wall, .95):8.2f}{ratio:10.1f}x{percentile(cpu, .5):10.2f}   "
        print(row + f"(n={sum(len(by_size[s].wall[kind]) for s in sizes)})")
    print("  (CPU p50: the server's CPU time per request, ms, its background threads included)")


def throughput(instance: Instance, server: Server, clients: int, total: int) -> tuple[int, float, list[float], Usage]:
    """(moves, seconds, samples): `clients` threads, each with its own connection and games, play
    `total` moves between them as fast as the server answers."""
    each = total // clients
    # a patient game lasts a few hundred moves; enough games that none runs out
    games = [instance.games(each // 150 + 1) for _ in range(clients)]
    start = threading.Barrier(clients + 1)
    done = [0] * clients
    samples: list[list[float]] = [[] for _ in range(clients)]
    errors: list[BaseException] = []

    def run(index: int) -> None:
        client = Client(server.port)
        try:
            start.wait()
            playing = list(games[index])
            while done[index] < each and playing:
                game = playing[done[index] % len(playing)]
                if game.over:
                    playing.remove(game)
                    continue
                samples[index].append(api_move(client, game, *game.next_move()))
                done[index] += 1
        except BaseException as exc:  # noqa: BLE001 - reported by the main thread
            errors.append(exc)
        finally:
            client.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(clients)]
    for thread in threads:
        thread.start()
    workers = server.workers()
    start.wait()
    began, server_cpu, client_cpu = time.perf_counter(), cpu_seconds(workers), time.process_time()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - began
    time.sleep(0.05)  # the last requests' background work
    usage = Usage(cpu_seconds(workers) - server_cpu, time.process_time() - client_cpu)
    if errors:
        raise errors[0]
    return sum(done), elapsed, [s for per in samples for s in per], usage


@dataclass
class Usage:
    server: float  # CPU seconds of the web server's worker processes
    client: float  # CPU seconds of this process (the clients)


def run_backend(instance: Instance, args: argparse.Namespace) -> None:
    print(f"\n== {instance.label}")
    server = Server(instance, 1, args.server)
    try:
        by_size = {size: latency(instance, server, size, args.games, args.rounds) for size in (50, 500)}
        print(f"latency, {args.server}, 1 process ({args.games} games per size, "
              f"{args.rounds} rounds each; games grown over the API beforehand):")
        report_latency(by_size)
    finally:
        server.stop()

    processes = 2
    server = Server(instance, processes, args.server)
    total = 0
    try:
        print(f"throughput, {args.server}, {processes} processes, POST /api/play/<t> one move each:")
        throughput(instance, server, 2, 40)  # not counted: the workers' first moves (lazy imports, templates)
        for clients in (1, 4, 16):
            moves, seconds, samples, usage = throughput(instance, server, clients, args.moves)
            total += moves
            print(f"  {clients:>2} client{'s' if clients > 1 else ' '} {moves:>5} moves in {seconds:6.2f} s: "
                  f"{moves / seconds:7.1f} moves/s  (p50 {percentile(samples, .5):6.2f} ms, "
                  f"p95 {percentile(samples, .95):6.2f} ms; CPU per move: server {usage.server / moves * 1000:5.2f} ms, "
                  f"clients {usage.client / moves * 1000:5.2f} ms)")
        print(f"RSS after {total} moves (and 40 to warm up; games grown beforehand not counted):")
        for name, mib in server.rss():
            print(f"  {name:<16} {mib:7.1f} MiB")
    finally:
        server.stop()


# ---- the PostgreSQL connection settings alone ------------------------------------------------------


def transaction(engine: sa.Engine, game_id: int, write: bool) -> None:
    """A move's shape without its Python: read the game, its players, its newest snapshot and the
    events after it, then (`write`) write the game row (a no-op update, so a commit that flushes the
    WAL), in one transaction of one checkout."""
    with Session(engine) as session, session.begin():
        game = session.get(Game, game_id, with_for_update=True)
        assert game is not None
        session.exec(sa.select(Player).where(Player.game_id == game_id)).all()
        newest = session.exec(sa.select(Snapshot.seq).where(Snapshot.game_id == game_id)
                              .order_by(Snapshot.seq.desc()).limit(1)).scalar()
        session.exec(sa.select(Event).where(Event.game_id == game_id, Event.seq > (newest or 0) - 10)).all()
        if write:
            session.execute(sa.update(Game).where(Game.id == game_id).values(seq=Game.seq))


def settings_variants(url: str) -> dict[str, Any]:
    """The engines compared: main's before this work, and make_engine with each prepare_threshold."""
    from service.store import db

    variants: dict[str, Any] = {
        "pool_pre_ping, psycopg's default threshold (5)":
            lambda: sa.create_engine(url, pool_pre_ping=True, pool_size=10, max_overflow=20),
    }
    for threshold in (None, 0, 5):
        def build(threshold: int | None = threshold) -> sa.Engine:
            kept, db.PREPARE_THRESHOLD = db.PREPARE_THRESHOLD, threshold
            try:
                return make_engine(url)
            finally:
                db.PREPARE_THRESHOLD = kept
        variants[f"make_engine, prepare_threshold={threshold}"] = build
    return variants


def backend_pids(engine: sa.Engine) -> list[int]:
    """The PostgreSQL server processes of this database (the pooled connections of every engine)."""
    with engine.connect() as connection:
        return list(connection.execute(sa.text(
            "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )).scalars())


def bench_settings(instance: Instance, count: int, repeats: int) -> None:
    """Per move-shaped transaction (`transaction`) with each engine: the wall-clock, this process's CPU
    time and the PostgreSQL server process's CPU time (a ping or a statement parsed and planned
    again costs both; on a loaded machine the wall-clock mostly shows the waits for a CPU at each
    round trip).  The variants interleaved `repeats` times; the medians."""
    game_id = instance.games(1)[0].game_id
    variants = settings_variants(instance.url)
    engines = {name: build() for name, build in variants.items()}
    timings: dict[tuple[str, bool], list[tuple[float, float, float]]] = {
        (name, w): [] for name in engines for w in (False, True)}
    admin = instance.app.extensions["riftpost.db"]
    try:
        for _ in range(repeats):
            for (name, write), samples in timings.items():
                for _ in range(20):  # warm: the pool's connection, its prepared statements
                    transaction(engines[name], game_id, write)
                pids = backend_pids(admin)
                started, client, server = time.perf_counter(), time.process_time(), cpu_seconds(pids)
                for _ in range(count):
                    transaction(engines[name], game_id, write)
                samples.append(((time.perf_counter() - started) / count, (time.process_time() - client) / count,
                                (cpu_seconds(pids) - server) / count))
    finally:
        for engine_ in engines.values():
            engine_.dispose()
    print(f"PostgreSQL connection settings, in this process: one move-shaped transaction on one checkout,"
          f" median of {repeats} x {count}, microseconds (wall / client CPU / server CPU):")
    print(f"  {'engine':<48} {'4 SELECTs':>22} {'4 SELECTs + UPDATE':>22}")
    for name in engines:
        row = f"  {name:<48}"
        for write in (False, True):
            medians = [sorted(sample[i] for sample in timings[name, write])[repeats // 2] * 1e6 for i in range(3)]
            row += " {:>6.0f} / {:>5.0f} / {:>5.0f}".format(*medians)
        print(row)


# ---- instances ------------------------------------------------------------------------------------------


def instance_for(label: str, url: str, broker: str) -> Instance:
    tmp = Path(tempfile.mkdtemp(prefix="riftpost-bench-moves-"))
    upgrade(url)
    env = dict(os.environ, RIFTPOST_INSTANCE=str(tmp), DATABASE_URL=url, CELERY_BROKER_URL=broker,
               SECRET_KEY=SECRET, BASE_URL="http://bench.local")
    app = create_app({"INSTANCE_PATH": str(tmp), "DATABASE_URL": url, "SECRET_KEY": SECRET,
                      "CELERY_BROKER_URL": broker, "BASE_URL": "http://bench.local", "OUTBOX_KICK": False})
    return Instance(label, url, broker, tmp, env, app)


def main() -> None:
    parser = argparse.ArgumentParser(description="Riftpost move path over real HTTP")
    parser.add_argument("--games", type=int, default=3, help="games per size for the latencies")
    parser.add_argument("--rounds", type=int, default=15, help="rounds (3 moves each) per game")
    parser.add_argument("--moves", type=int, default=336, help="moves per throughput level (1, 4, 16 clients)")
    parser.add_argument("--backend", choices=("sqlite", "postgres"), action="append",
                        help="only this backend (repeatable; default both)")
    parser.add_argument("--settings", type=int, default=1000,
                        help="transactions per PostgreSQL engine setting compared (0: skip)")
    parser.add_argument("--settings-only", action="store_true", help="only the PostgreSQL settings compared")
    parser.add_argument("--server", choices=SERVERS, default="procfile",
                        help="the web server: the Procfile's web line (default), gunicorn's gthread or sync worker "
                             "(4 threads) or granian (bench/moves.py server_command)")
    args = parser.parse_args()
    backends = ["postgres"] if args.settings_only else args.backend or ["sqlite", "postgres"]

    print(f"{os.cpu_count()} CPUs, load average {' '.join(f'{x:.2f}' for x in os.getloadavg())} (1, 5, 15 min)")
    extra = {k: v for k, v in os.environ.items() if k in ("SQLITE_SYNCHRONOUS",)}
    if extra:
        print(f"settings: {extra}")
    if "sqlite" in backends:
        tmp = Path(tempfile.mkdtemp(prefix="riftpost-bench-moves-db-"))
        instance = instance_for("SQLite + embedded broker (sqla+sqlite)", f"sqlite:///{tmp / 'app.sqlite'}",
                                f"sqla+sqlite:///{tmp / 'broker.sqlite'}")
        try:
            run_backend(instance, args)
        finally:
            instance.app.extensions["riftpost.db"].dispose()
            shutil.rmtree(instance.tmp, ignore_errors=True)
            shutil.rmtree(tmp, ignore_errors=True)
    if "postgres" in backends:
        url = postgres_url()
        if url:
            instance = instance_for("PostgreSQL + Redis broker", url, REDIS)
            try:
                if not args.settings_only:
                    run_backend(instance, args)
                if args.settings:
                    print()
                    bench_settings(instance, args.settings, 5)
            finally:
                instance.app.extensions["riftpost.db"].dispose()
                shutil.rmtree(instance.tmp, ignore_errors=True)
                drop(url)
    print(f"\nload average {' '.join(f'{x:.2f}' for x in os.getloadavg())} (1, 5, 15 min)")


if __name__ == "__main__":
    main()
