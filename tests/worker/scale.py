"""The scale drill (issue #25): the production layout on one machine, played by outside bot clients.

Several web processes (the Procfile's `web`: granian), several Celery workers and two beats
at once against one PostgreSQL database and one Redis database, mailing a recording SMTP sink; games
of every game and mode, each seat a person with a personal API token, played to the end by client
threads over the JSON play API (`GET /api/me/games/<id>`, `POST /api/me/games/<id>/moves`), each
choosing at random (seeded) among the decisions the answer lists.  Then the checks:

- every move recorded exactly once: each acknowledged POST's events are the seat's own, and every
  event of kind "move" lies in exactly one acknowledged POST (no gap, no duplicate, nothing unasked);
- every email sent exactly once: each outbox row sent as its own email reached the sink exactly once
  (its Message-ID once, one recipient), and the sink got nothing that is not such a row;
- no timeout applied twice: each run of a seat's timeout events is matched to one deadline the drill
  let pass, one run per deadline;
- every game replays from event 0 to its state row (`game_states`), and every game finished.

Time: a game's clock counts in hours (1 to 720); the drill does not wait for them.  A late seat's
client lets its deadline pass by moving it to now in the drill's own throwaway database (what the
clock does after hours), then sleeps a little and, now and then, posts its move anyway, racing the
beat's sweep (every `sweep_seconds`), which must apply the timeout once or not at all.  No setting of
the service makes a deadline shorter than an hour.

`bench/scale.py` runs it at full size by hand; tests/worker/test_scale_drill.py runs a small one.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from email import message_from_bytes, policy
from pathlib import Path
from typing import Any

import sqlalchemy as sa

from tests.procfile import procfile_web

ROOT = Path(__file__).resolve().parents[2]
SECRET = "scale-drill-secret"
BASE_URL = "http://scale.example.org"

# (label, game, players, options): every game and mode.  Random play makes Riftwalker and the
# larger Beyond the Rift parties long (700-1,800 decisions against 50-200 for Riftforce), so the mix
# holds the shorter ones more often; every entry comes once in the first len(MIX) games.
MIX: list[tuple[str, str, int, dict[str, Any]]] = [
    ("riftforce duel", "riftforce", 2, {}),
    ("riftforce solo", "riftforce", 1, {"mode": "solo"}),
    ("beyond-the-rift 1 hero", "beyond-the-rift", 1, {"scenario": "tutorial"}),
    ("riftforce team 3p (draft)", "riftforce", 3, {"mode": "team"}),
    ("riftwalker 2p", "riftwalker", 2, {}),
    ("riftforce team 4p (draft)", "riftforce", 4, {"mode": "team"}),
    ("beyond-the-rift 2 heroes", "beyond-the-rift", 2, {"scenario": "tutorial"}),
    ("riftwalker 3p", "riftwalker", 3, {}),
    ("beyond-the-rift 3 heroes", "beyond-the-rift", 3, {"scenario": "old-friends-1"}),
    ("riftwalker 4p", "riftwalker", 4, {}),
    ("beyond-the-rift 4 heroes", "beyond-the-rift", 4, {"scenario": "tutorial"}),
    ("riftforce duel", "riftforce", 2, {}),
    ("riftforce solo", "riftforce", 1, {"mode": "solo"}),
    ("beyond-the-rift 1 hero", "beyond-the-rift", 1, {"scenario": "tutorial"}),
    ("riftforce duel", "riftforce", 2, {}),
    ("riftforce team 4p (draft)", "riftforce", 4, {"mode": "team"}),
]


@dataclass
class Layout:
    games: int = 200
    webs: int = 3
    workers: int = 3
    beats: int = 2
    clients: int = 12  # client threads; each plays every seat of its share of the games
    late: float = 0.02  # the chance that a seat, on its turn, sleeps past its deadline
    race: float = 0.5  # the chance that a late seat posts its move anyway after sleeping
    sweep_seconds: float = 1.0  # beat's deadline sweep (RIFTPOST_SWEEP_SECONDS)
    dispatch_seconds: float = 2.0  # beat's outbox scan
    deadline_hours: int = 72
    people: int = 0  # 0: about one person per game (each plays in several games)
    only: tuple[str, ...] = ()  # labels of MIX to play (default: all of it, in turn)
    seed: int = 1
    play_timeout: float = 3 * 3600.0
    settle_timeout: float = 180.0
    quiet: bool = False


# ---- the recording SMTP sink ----------------------------------------------------------------------------


@dataclass
class Delivery:
    message_id: str
    rcpt: tuple[str, ...]
    subject: str


class RecordingSink:
    """A real SMTP server (aiosmtpd) that records every message it accepts: Message-ID, recipients."""

    def __init__(self) -> None:
        from aiosmtpd.controller import Controller

        self.port = _free_port()
        self.lock = threading.Lock()
        self.deliveries: list[Delivery] = []
        self.controller = Controller(self, hostname="127.0.0.1", port=self.port)
        self.controller.start()

    @property
    def url(self) -> str:
        return f"smtp://127.0.0.1:{self.port}"

    async def handle_DATA(self, server, session, envelope):
        message = message_from_bytes(envelope.original_content or envelope.content, policy=policy.default)
        with self.lock:
            self.deliveries.append(Delivery(str(message.get("Message-ID", "")).strip().strip("<>"),
                                            tuple(envelope.rcpt_tos), str(message.get("Subject", ""))))
        return "250 OK"

    def stop(self) -> None:
        self.controller.stop()


# ---- the processes --------------------------------------------------------------------------------------


class Stack:
    """The Procfile's processes, several of each, on one database and one broker."""

    def __init__(self, layout: Layout, database_url: str, broker_url: str, smtp_url: str, tmp: Path) -> None:
        self.tmp = tmp
        self.processes: list[tuple[str, subprocess.Popen[bytes], Path]] = []
        self.ports: list[int] = []
        base = dict(os.environ, DATABASE_URL=database_url, CELERY_BROKER_URL=broker_url, SMTP_URL=smtp_url,
                    SECRET_KEY=SECRET, BASE_URL=BASE_URL, PYTHONUNBUFFERED="1",
                    PYTHONPATH=f"{ROOT}{os.pathsep}{os.environ.get('PYTHONPATH', '')}",
                    RIFTPOST_SWEEP_SECONDS=str(layout.sweep_seconds),
                    RIFTPOST_DISPATCH_SECONDS=str(layout.dispatch_seconds),
                    RATELIMIT_STORAGE_URL=broker_url, INBOUND_SMTP_PORT="0")
        base.pop("WEB_CONCURRENCY", None)
        try:
            for i in range(layout.webs):
                port = _free_port()
                self._start(f"web{i + 1}", base, procfile_web(port))
                self.ports.append(port)
            for i in range(layout.workers):
                self._start(f"worker{i + 1}", base, [sys.executable, "-m", "celery", "-A", "worker", "worker",
                                                     "--pool=solo", "--loglevel=INFO", "-n", f"scale{i + 1}@%h"])
            for i in range(layout.beats):
                self._start(f"beat{i + 1}", base, [sys.executable, "-m", "celery", "-A", "worker", "beat",
                                                   "--loglevel=INFO"])
            self._wait_ready()
        except BaseException:
            self.stop()
            raise

    def _start(self, name: str, base: dict[str, str], argv: list[str]) -> None:
        instance = self.tmp / name  # each process its own instance directory, as on its own machine
        instance.mkdir(parents=True, exist_ok=True)
        log = self.tmp / f"{name}.log"
        with open(log, "wb") as out:
            process = subprocess.Popen(argv, cwd=ROOT, env=dict(base, RIFTPOST_INSTANCE=str(instance)),
                                       stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
        self.processes.append((name, process, log))

    def _wait_ready(self) -> None:
        deadline = time.monotonic() + 90
        for name, process, log in self.processes:
            while True:
                if process.poll() is not None:
                    raise RuntimeError(f"{name} exited at start:\n{self.tail(log)}")
                if time.monotonic() > deadline:
                    raise RuntimeError(f"{name} did not start:\n{self.tail(log)}")
                text = log.read_text(errors="replace")
                if name.startswith("web"):
                    port = self.ports[int(name[3:]) - 1]
                    with contextlib.suppress(OSError, http.client.HTTPException):
                        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
                        connection.request("GET", "/healthz")
                        if connection.getresponse().status == 200:
                            connection.close()
                            break
                elif (name.startswith("worker") and " ready." in text) or (
                        name.startswith("beat") and ("beat: Starting" in text or "another beat" in text.lower())):
                    break
                time.sleep(0.2)

    @staticmethod
    def tail(log: Path, lines: int = 30) -> str:
        return "\n".join(log.read_text(errors="replace").splitlines()[-lines:])

    def alive(self) -> list[str]:
        """The processes that died (none should)."""
        return [name for name, process, _ in self.processes if process.poll() is not None]

    def log_text(self, prefix: str) -> str:
        return "\n".join(log.read_text(errors="replace") for name, _, log in self.processes if name.startswith(prefix))

    def stop(self) -> None:
        for _, process, _ in self.processes:
            if process.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(process.pid, signal.SIGTERM)
        for _, process, _ in self.processes:
            try:
                process.wait(20)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(process.pid, signal.SIGKILL)
                process.wait(5)


# ---- the games and their people -------------------------------------------------------------------------


@dataclass
class DrillGame:
    game_id: int
    label: str
    seats: dict[int, str]  # seat -> the bearer token of the person who holds it


def make_games(app: Any, layout: Layout) -> list[DrillGame]:
    """`layout.games` games of MIX in turn, seats drawn from a pool of people (distinct in a game), each
    person with one personal API token; every game timed (`deadline_hours`), policy auto or skip."""
    from service.people import tokens
    from service.play import new_game
    from tests.consent import preconsent

    rng = random.Random(layout.seed)
    people = [f"p{n}@scale.example.org" for n in range(max(4, layout.people or layout.games))]
    bearer: dict[str, str] = {}
    made = []
    mix = [entry for entry in MIX if not layout.only or entry[0] in layout.only]
    mix = [entry for n, entry in enumerate(mix) if entry not in mix[:n]] if layout.only else mix
    with app.app_context():
        for index in range(layout.games):
            label, name, count, options = mix[index % len(mix)]
            seated = rng.sample(people, count)
            preconsent(*seated)  # they played together before: no invitations, every email from the start
            for address in seated:
                if address not in bearer:
                    bearer[address] = tokens.create(address, "scale drill bot", datetime.now(UTC))
            game_id = new_game(name, [(f"P{people.index(a)}", a) for a in seated], dict(options),
                               seed=layout.seed * 100_000 + index, deadline_hours=layout.deadline_hours,
                               policy="skip" if index % 3 == 2 else "auto")
            made.append(DrillGame(game_id, label, {seat: bearer[a] for seat, a in enumerate(seated)}))
    return made


# ---- the clients ----------------------------------------------------------------------------------------


class Http:
    """Kept-alive connections to each web process; requests go round the processes (a load balancer)."""

    def __init__(self, ports: list[int]) -> None:
        self.ports = ports
        self.connections = {port: http.client.HTTPConnection("127.0.0.1", port, timeout=120) for port in ports}
        self.turn = 0

    def request(self, method: str, path: str, token: str, body: Any = None) -> tuple[int, Any, float]:
        port = self.ports[self.turn % len(self.ports)]
        self.turn += 1
        headers = {"Authorization": f"Bearer {token}"}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        connection = self.connections[port]
        for attempt in (1, 2):
            started = time.perf_counter()
            try:
                connection.request(method, path, data, headers)
                response = connection.getresponse()
                raw = response.read()
                break
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                connection.close()  # a kept-alive connection the server closed: a new one (only before sending)
                if attempt == 2:
                    raise
        elapsed = time.perf_counter() - started
        if response.will_close:
            connection.close()
        try:
            answer = json.loads(raw) if raw else None
        except ValueError:
            answer = raw[:300]
        return response.status, answer, elapsed


@dataclass
class Posted:
    game_id: int
    seat: int
    before: int
    after: int


@dataclass
class Expiry:
    game_id: int
    seat: int
    seq: int


@dataclass
class Tally:
    """What the clients saw, merged from every thread."""

    posted: list[Posted] = field(default_factory=list)
    latencies: list[float] = field(default_factory=list)  # successful move POSTs, seconds
    gets: int = 0
    stale: int = 0  # 409: the game moved on (a timeout won the race)
    expiries: list[Expiry] = field(default_factory=list)
    raced: int = 0  # late moves posted after letting the deadline pass
    errors: list[str] = field(default_factory=list)


class Client(threading.Thread):
    """An outside bot client playing every seat of its games: asks the seats the game waits on, picks
    one of the decisions listed (seeded random), posts it; now and then lets a deadline pass."""

    def __init__(self, index: int, games: list[DrillGame], ports: list[int], layout: Layout,
                 expire: Any, stop: threading.Event) -> None:
        super().__init__(name=f"scale-client-{index}", daemon=True)
        self.games = games
        self.http = Http(ports[index % len(ports):] + ports[:index % len(ports)])
        self.layout = layout
        self.rng = random.Random(layout.seed * 1000 + index)
        self.expire = expire
        self.stop_event = stop
        self.tally = Tally()
        self.done: set[int] = set()

    def run(self) -> None:
        waiting: dict[int, list[int]] = {g.game_id: [] for g in self.games}  # the seats to ask; [] = unknown
        asleep: dict[int, tuple[float, int, dict[str, Any]]] = {}  # game -> (until, seat, what it saw): a late seat
        try:
            while len(self.done) < len(self.games) and not self.stop_event.is_set():
                progressed = False
                for game in self.games:
                    if game.game_id in self.done:
                        continue
                    if game.game_id in asleep:
                        until, seat, seen = asleep[game.game_id]
                        if time.monotonic() < until:
                            continue
                        del asleep[game.game_id]
                        self.wake(game, seat, seen, waiting)
                        progressed = True
                        continue
                    progressed |= self.step(game, waiting, asleep)
                if not progressed:
                    time.sleep(0.05)
        except Exception as exc:  # noqa: BLE001 - said in the report
            self.tally.errors.append(f"{self.name}: {exc.__class__.__name__}: {exc}")

    def look(self, game: DrillGame, seat: int) -> dict[str, Any]:
        status, answer, _ = self.http.request("GET", f"/api/me/games/{game.game_id}", game.seats[seat])
        self.tally.gets += 1
        if status != 200:
            raise RuntimeError(f"GET game {game.game_id} seat {seat}: {status} {answer}")
        return answer

    def step(self, game: DrillGame, waiting: dict[int, list[int]],
             asleep: dict[int, tuple[float, int, dict[str, Any]]]) -> bool:
        seats = waiting[game.game_id] or [min(game.seats)]
        seat = seats[0]
        answer = self.look(game, seat)
        if answer["status"] != "active":
            self.done.add(game.game_id)
            return True
        if not answer["your_turn"] or not answer["decisions"]:
            to_act = [s for s in answer["to_act"] if s in game.seats]
            waiting[game.game_id] = to_act if to_act and to_act != [seat] else []
            return False  # the engine or the sweep moves: ask again later
        late = self.rng.random() < self.layout.late and (answer.get("deadline") or {}).get("due")
        if late and self.expire(game.game_id, seat):
            self.tally.expiries.append(Expiry(game.game_id, seat, answer["seq"]))
            sleep = self.rng.uniform(0.2, 3 * self.layout.sweep_seconds)
            asleep[game.game_id] = (time.monotonic() + sleep, seat, answer)
            return True
        self.post(game, seat, answer, waiting)
        return True

    def wake(self, game: DrillGame, seat: int, seen: dict[str, Any], waiting: dict[int, list[int]]) -> None:
        """A late seat back: sometimes posts its move anyway, half the time blind from the position it
        saw before sleeping (racing the sweep), half the time after asking whether it still may."""
        waiting[game.game_id] = []
        if self.rng.random() >= self.layout.race:
            return
        answer = seen if self.rng.random() < 0.5 else self.look(game, seat)
        if answer["seq"] == seen["seq"] and answer["your_turn"] and answer["decisions"]:
            self.tally.raced += 1
            self.post(game, seat, answer, waiting)

    def post(self, game: DrillGame, seat: int, answer: dict[str, Any], waiting: dict[int, list[int]]) -> None:
        move = self.rng.choice(answer["decisions"])["move"]
        body = {"seq": answer["seq"], "moves": [move]}
        status, reply, elapsed = self.http.request("POST", f"/api/me/games/{game.game_id}/moves", game.seats[seat], body)
        if status == 200:
            self.tally.posted.append(Posted(game.game_id, seat, answer["seq"], reply["seq"]))
            self.tally.latencies.append(elapsed)
            to_act = [s for s in reply["to_act"] if s in game.seats]
            waiting[game.game_id] = to_act
            if reply["status"] != "active":
                self.done.add(game.game_id)
        elif status == 409:
            self.tally.stale += 1
            waiting[game.game_id] = []
        else:
            raise RuntimeError(f"POST game {game.game_id} seat {seat} at {answer['seq']}: {status} {reply}")


# ---- the checks -----------------------------------------------------------------------------------------


@dataclass
class Report:
    figures: dict[str, Any] = field(default_factory=dict)
    failures: list[str] = field(default_factory=list)

    def fail(self, what: str, examples: list[Any]) -> None:
        if examples:
            self.failures.append(f"{what}: {len(examples)} (e.g. {examples[:5]})")

    def print(self) -> None:
        for key, value in self.figures.items():
            print(f"  {key:<34} {value}")
        print("checks: " + ("all passed" if not self.failures else f"{len(self.failures)} FAILED"))
        for failure in self.failures:
            print(f"  FAILED {failure}")


def check_moves(conn: sa.Connection, posted: list[Posted], report: Report) -> None:
    """Every acknowledged move is the seat's own events; every event of kind "move" lies in exactly one
    acknowledged POST; every game's events are 1..seq without a gap."""
    events: dict[int, dict[int, tuple[str, int | None]]] = defaultdict(dict)
    for game_id, seq, kind, actor in conn.execute(sa.text("SELECT game_id, seq, kind, actor FROM events")):
        events[game_id][seq] = (kind, actor)
    covered: Counter[tuple[int, int]] = Counter()
    wrong = []
    for post in posted:
        for seq in range(post.before + 1, post.after + 1):
            covered[post.game_id, seq] += 1
        first = events[post.game_id].get(post.before + 1)
        if post.after <= post.before or first != ("move", post.seat):
            wrong.append((post.game_id, post.seat, post.before, post.after, first))
    report.fail("acknowledged moves not recorded as the seat's move", wrong)
    report.fail("events recorded by two acknowledged moves", [k for k, n in covered.items() if n > 1])
    report.fail("move events no acknowledged POST made (recorded twice, or unasked)",
                [(g, s) for g, seqs in events.items() for s, (kind, _) in seqs.items()
                 if kind == "move" and covered[g, s] == 0])
    games = dict(conn.execute(sa.text("SELECT id, seq FROM games")).all())
    report.fail("games whose events are not 1..seq", [g for g, seq in games.items() if sorted(events[g]) != list(range(1, seq + 1))])


def check_timeouts(conn: sa.Connection, expiries: list[Expiry], report: Report) -> int:
    """Runs of a seat's timeout events (consecutive among the seat's own events): each must follow a
    deadline the drill let pass in that game after the seat's run before, so no deadline times a seat
    out twice.  Any seat's passed deadline counts: a seat that joins a decision window others are in
    (Beyond the Rift's heroes, acting at once) gets no later deadline than theirs (service/clocks/
    seats.py `_window_due`), so one deadline let pass can time several seats out.  The number of runs."""
    own: dict[tuple[int, int], list[tuple[int, str]]] = defaultdict(list)
    for game_id, seq, kind, actor in conn.execute(
            sa.text("SELECT game_id, seq, kind, actor FROM events WHERE actor IS NOT NULL ORDER BY game_id, seq")):
        own[game_id, actor].append((seq, kind))
    passed: dict[int, list[int]] = defaultdict(list)
    mine: dict[tuple[int, int], list[int]] = defaultdict(list)
    for expiry in expiries:
        passed[expiry.game_id].append(expiry.seq)
        mine[expiry.game_id, expiry.seat].append(expiry.seq)
    runs_total = 0
    windows = 0  # runs only another seat's passed deadline explains
    unmatched = []
    for (game_id, seat), seq_kinds in own.items():
        runs: list[tuple[int, int]] = []
        previous = None
        for seq, kind in seq_kinds:
            if kind == "timeout":
                if runs and runs[-1][1] == previous:
                    runs[-1] = (runs[-1][0], seq)
                else:
                    runs.append((seq, seq))
            previous = seq
        runs_total += len(runs)
        last_end = 0
        for start, end in runs:
            if not any(last_end <= s < start for s in passed.get(game_id, [])):
                unmatched.append((game_id, seat, start, end))
            elif not any(last_end <= s < start for s in mine.get((game_id, seat), [])):
                windows += 1
            last_end = end
    report.fail("timeouts applied with no deadline passed, or twice for one", unmatched)
    report.figures["timed-out turns by a shared window"] = windows
    return runs_total


def check_emails(conn: sa.Connection, deliveries: list[Delivery], report: Report) -> dict[str, int]:
    """Each outbox row marked sent arrived exactly once: alone under its own Message-ID, or inside the
    digest its row `sent_in` leads (a sweep's timed_out emails to one address: service/mail/digest.py,
    Message-ID riftpost.timeouts.o<lead id>-<lead key>)."""
    by_id: Counter[str] = Counter(d.message_id for d in deliveries)
    rows = conn.execute(sa.text(
        "SELECT id, message_id, status, sent_in, row_key FROM outbox WHERE channel = 'email'")).all()
    keys = {row.id: row.row_key for row in rows}
    expected: dict[str, list[int]] = defaultdict(list)  # Message-ID -> the rows it carries
    for row in rows:
        if row.status != "sent":
            continue
        if row.sent_in is None:
            expected[row.message_id.strip("<>")].append(row.id)
    digests = {row.sent_in for row in rows if row.status == "sent" and row.sent_in is not None}
    for lead in digests:
        carried = [row.id for row in rows if row.sent_in == lead]
        lead_mid = next(row.message_id.strip("<>") for row in rows if row.id == lead)
        if lead_mid in expected and lead_mid not in by_id:  # the lead went in the digest, not alone
            del expected[lead_mid]
        expected[f"riftpost.timeouts.o{lead}-{keys[lead]}@"].extend([lead, *carried])
    def arrived(mid: str) -> int:
        if mid.endswith("@"):
            return sum(n for m, n in by_id.items() if m.startswith(mid))
        return by_id[mid]
    report.fail("emails delivered more than once (one Message-ID)", [m for m, n in by_id.items() if n > 1])
    report.fail("emails to more than one recipient", [d.message_id for d in deliveries if len(d.rcpt) != 1])
    report.fail("outbox rows marked sent that never arrived", [(mid, ids) for mid, ids in expected.items() if not arrived(mid)])
    known = set(expected)
    report.fail("emails that are no outbox row sent",
                [m for m in by_id if m not in known and not any(m.startswith(k) for k in known if k.endswith("@"))])
    report.fail("outbox rows not settled", [(r.id, r.status) for r in rows if r.status in ("pending", "sending", "held")])
    report.fail("outbox rows failed", [(r.id, r.status) for r in rows if r.status in ("failed", "undeliverable")])
    statuses = Counter(r.status for r in rows)
    return {"rows": len(rows), "emails expected": len(expected), "digests": len(digests),
            "skipped": statuses["skipped"]}


def check_replays(session: Any, report: Report) -> int:
    """Each game's engine events replayed from event 0 (service/store/log.py `replay_from_start`: the
    snapshots not used) equal its state row, which is the state after its last engine event (the
    end's "game_finished" event is the service's, kind "system")."""
    from service.store.log import replay_from_start
    from service.store.models import Game, GameState

    mismatched, behind, checked = [], [], 0
    last_engine = dict(session.execute(sa.text(
        "SELECT game_id, max(seq) FROM events WHERE kind <> 'system' GROUP BY game_id")).all())
    for game in session.execute(sa.select(Game)).scalars():
        row = session.get(GameState, game.id)
        if row is None or row.seq != last_engine.get(game.id):
            behind.append((game.id, None if row is None else row.seq, last_engine.get(game.id)))
            continue
        replayed = json.loads(json.dumps(replay_from_start(session, game)))
        if json.dumps(replayed, sort_keys=True) != json.dumps(row.state, sort_keys=True):
            mismatched.append(game.id)
        checked += 1
    report.fail("games whose state row is missing or not at their last engine event", behind)
    report.fail("games whose replay from event 0 differs from their state row", mismatched)
    return checked


def _percentile(samples: list[float], fraction: float) -> float:
    if not samples:
        return float("nan")
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, max(0, round(fraction * len(ordered)) - 1))] * 1000


# ---- the drill ------------------------------------------------------------------------------------------


def _free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def say(layout: Layout, text: str) -> None:
    if not layout.quiet:
        print(text, flush=True)


def run(layout: Layout, database_url: str, broker_url: str, tmp: Path) -> Report:
    """The drill on a fresh database (`database_url`, empty) and broker (`broker_url`, flushed)."""
    from service import create_app
    from service.migrate import upgrade

    report = Report()
    started = time.monotonic()
    upgrade(database_url)
    sink = RecordingSink()
    app = create_app({"INSTANCE_PATH": str(tmp / "drill"), "DATABASE_URL": database_url, "SECRET_KEY": SECRET,
                      "CELERY_BROKER_URL": broker_url, "SMTP_URL": sink.url, "BASE_URL": BASE_URL,
                      "OUTBOX_KICK": True})
    db = app.extensions["riftpost.db"]
    stack = None
    try:
        stack = Stack(layout, database_url, broker_url, sink.url, tmp)
        say(layout, f"layout: {layout.webs} web, {layout.workers} workers, {layout.beats} beats, PostgreSQL, "
                    f"Redis, SMTP sink; logs in {tmp}")
        games = make_games(app, layout)
        say(layout, f"{len(games)} games made ({Counter(g.label for g in games).most_common()}) "
                    f"in {time.monotonic() - started:.1f} s")

        def expire(game_id: int, seat: int) -> bool:
            """The seat's deadline passes now (the hours of its clock, skipped)."""
            now = datetime.now(UTC) - timedelta(seconds=1)
            with db.begin() as conn:
                return conn.execute(sa.text(
                    "UPDATE deadlines SET due_at = :now, next_at = :now "
                    "WHERE game_id = :game AND seat = :seat AND due_at IS NOT NULL"),
                    {"now": now, "game": game_id, "seat": seat}).rowcount == 1

        stop = threading.Event()
        clients = []
        for index in range(layout.clients):
            share = games[index::layout.clients]
            if share:
                client = Client(index, share, stack.ports, layout, expire, stop)
                clients.append(client)
        play_started = time.monotonic()
        for client in clients:
            client.start()
        last_said = play_started
        while any(c.is_alive() for c in clients):
            time.sleep(0.5)
            now = time.monotonic()
            if now - play_started > layout.play_timeout:
                stop.set()
                report.failures.append(f"the games did not end within {layout.play_timeout:.0f} s")
                break
            if stack.alive():
                stop.set()
                report.failures.append(f"processes died: {stack.alive()}")
                break
            if now - last_said > 30:
                last_said = now
                done = sum(len(c.done) for c in clients)
                moves = sum(len(c.tally.posted) for c in clients)
                say(layout, f"  {now - play_started:6.0f} s: {done}/{len(games)} games over, {moves} moves, "
                            f"{moves / (now - play_started):.1f} moves/s")
        for client in clients:
            client.join(30)
        play_seconds = time.monotonic() - play_started
        tally = Tally()
        for client in clients:
            tally.posted += client.tally.posted
            tally.latencies += client.tally.latencies
            tally.gets += client.tally.gets
            tally.stale += client.tally.stale
            tally.expiries += client.tally.expiries
            tally.raced += client.tally.raced
            tally.errors += client.tally.errors
        report.fail("client errors", tally.errors)

        # Settle: every end recorded and every email out (game_over emails follow the end's task).
        settle_by = time.monotonic() + layout.settle_timeout
        with db.connect() as conn:
            while time.monotonic() < settle_by:
                busy = conn.execute(sa.text(
                    "SELECT (SELECT count(*) FROM outbox WHERE status IN ('pending', 'sending', 'held')"
                    " AND channel = 'email') + (SELECT count(*) FROM game_clocks WHERE end_due_at IS NOT NULL)"
                )).scalar_one()
                conn.rollback()
                if busy == 0:
                    break
                time.sleep(1)
        time.sleep(2 * layout.dispatch_seconds)  # a send claimed twice would arrive meanwhile

        with db.connect() as conn:
            statuses = Counter(dict(conn.execute(sa.text("SELECT status, count(*) FROM games GROUP BY status")).all()))
            report.fail("games not finished", conn.execute(sa.text(
                "SELECT id FROM games WHERE status <> 'finished'")).scalars().all())
            check_moves(conn, tally.posted, report)
            runs = check_timeouts(conn, tally.expiries, report)
            with sink.lock:
                deliveries = list(sink.deliveries)
            emails = check_emails(conn, deliveries, report)
            timeout_events = conn.execute(sa.text("SELECT count(*) FROM events WHERE kind = 'timeout'")).scalar_one()
            events = conn.execute(sa.text("SELECT count(*) FROM events")).scalar_one()
        from sqlmodel import Session

        with Session(db) as session:
            replayed = check_replays(session, report)
        beats = stack.log_text("beat")
        report.fail("processes that died", stack.alive())
        moves = len(tally.posted)
        report.figures.update({
            "games (finished)": f"{len(games)} ({statuses['finished']})",
            "move POSTs acknowledged": moves,
            "moves/s (acknowledged POSTs)": f"{moves / play_seconds:.1f}",
            "move POST latency p50 / p95": f"{_percentile(tally.latencies, 0.5):.1f} ms / "
                                           f"{_percentile(tally.latencies, 0.95):.1f} ms",
            "GETs": tally.gets,
            "409 stale (a timeout won)": tally.stale,
            "deadlines let pass / raced": f"{len(tally.expiries)} / {tally.raced}",
            "timeouts applied (turns, events)": f"{runs}, {timeout_events}",
            "events": events,
            "emails delivered": len(deliveries),
            "outbox rows": ", ".join(f"{k} {v}" for k, v in emails.items()),
            "games replayed from event 0": replayed,
            "beats that waited on the lock": sum(1 for line in beats.splitlines() if "another beat" in line.lower()),
            "play time": f"{play_seconds:.0f} s",
            "elapsed": f"{time.monotonic() - started:.0f} s",
            "failures": len(report.failures),
        })
        return report
    finally:
        if stack is not None:
            stack.stop()
        sink.stop()
        db.dispose()
