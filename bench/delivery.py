"""Mail delivery benchmark: emails per second from the outbox through a real Celery worker to SMTP.

    .venv/bin/python bench/delivery.py [--emails 600] [--runs 3] [--broker redis|sqlite|both]
        [--pool prefork|threads|solo] [--concurrency N] [--processes N] [--steady RATE] [--spy FILE]

The worker runs as the Procfile runs it (`python -OO -m worker --pool=prefork --concurrency=2`: two
processes, each sending on an SMTP connection of its own; `--pool threads --concurrency N`: one
process of N threads; `--pool solo`; `--processes N`: N such workers side by side), on the Redis broker
and on the embedded SQLite broker (`sqla+sqlite:`), with SQLite as the database; it delivers to the
local sink (`service.mailsink`, a Maildir, as in the embedded mode) in a process of its own, as the
Procfile's `mail`.  The outbox rows (the emails new Riftforce games queue to two players who played
before: rendering with Jinja and css-inline included) are written first, with the kick off, then all
enqueued at once (a sweep's burst; `--steady RATE`: one every 1/RATE s, and the median time from
enqueue to sent); the clock runs from the enqueue until every row is "sent".  Printed per run:
emails/s; the CPU time per email (steadier than the wall clock on a shared machine) of the worker
(all its processes; of which its first, a prefork pool's parent), of the sink and of Redis; how
many SMTP connections the sink accepted; the worker's proportional memory (PSS: a prefork child's
pages shared with its parent count half); then the medians of the runs.  Target: 200 emails/s for a
burst: on a 2-core machine the worker, the sink and Redis must together spend under 10 ms of CPU per
email, spread over both cores.
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from datetime import datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import sqlalchemy as sa

from service import create_app
from service.migrate import upgrade
from service.play import new_game
from service.store import get_engine, read_session
from service.store.models import Outbox, as_utc, utcnow
from tests.consent import preconsent
from tests.procfile import procfile_python_flags

# RIFTPOST_BENCH_REDIS_DB: another database number, for two benches on one Redis at once.
REDIS = os.environ.get("RIFTPOST_TEST_REDIS", "redis://127.0.0.1:6379") + "/" + os.environ.get("RIFTPOST_BENCH_REDIS_DB", "14")
SECRET = "bench-secret"
PLAYERS = {"A": "a@bench.example.org", "B": "b@bench.example.org"}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def counting_sink(maildir: Path, port: int):
    """The service's own sink, counting the SMTP connections it accepts (aiosmtpd builds one SMTP
    protocol object per connection through `Controller.factory`; the start's own test connection
    is made before the count begins)."""
    from service.mailsink import start

    controller = start(maildir, "127.0.0.1", port)
    made = controller.factory
    lock = threading.Lock()
    controller.connections = 0

    def factory():
        with lock:
            controller.connections += 1
        return made()

    controller.factory = factory
    return controller


def cpu_seconds(pid: int, task: int | None = None) -> float:
    """The user + system CPU time a process (or one thread of it: `task`) has used (Linux /proc): on a
    shared machine, what the worker itself spends per email is steadier than the wall clock."""
    stat = Path(f"/proc/{pid}/task/{task}/stat" if task else f"/proc/{pid}/stat")
    try:
        fields = stat.read_text().rsplit(")", 1)[1].split()
    except OSError:  # gone (a prefork child replaced), or not ours to read
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def tree(pid: int) -> list[int]:
    """A process and its descendants (a prefork worker's children)."""
    found = [pid]
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            children = (task / "children").read_text().split()
        except OSError:
            continue
        for child in children:
            found += tree(int(child))
    return found


def pss_mb(pids: list[int]) -> float:
    """Their proportional memory (Pss, MB): a page a prefork child shares with its parent counts
    half in each, so the sum is what the processes cost the machine together."""
    total = 0
    for pid in pids:
        try:
            rollup = Path(f"/proc/{pid}/smaps_rollup").read_text()
        except OSError:
            continue
        total += int(next(line.split()[1] for line in rollup.splitlines() if line.startswith("Pss:")))
    return total / 1024


def redis_pid() -> int | None:
    """The Redis server's process, to count its CPU per email (None when it is not on this machine)."""
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            if (entry / "comm").read_text().strip() == "redis-server":
                return int(entry.name)
        except OSError:
            continue
    return None


def start_sink(maildir: Path, port: int) -> subprocess.Popen:
    """The sink in a process of its own, as the Procfile runs it (`mail`), so that its CPU per email is
    its own and it takes no GIL from the bench; it prints its connection count when stdin closes."""
    sink = subprocess.Popen([sys.executable, __file__, "--sink", str(maildir), str(port)], cwd=ROOT,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert sink.stdout is not None
    if sink.stdout.readline().strip() != "ready":
        raise SystemExit("the sink did not start")
    return sink


def stop_sink(sink: subprocess.Popen) -> int:
    """Stop the sink; how many SMTP connections it accepted."""
    out, _ = sink.communicate("", timeout=30)
    return int(out.split()[-1])


def serve_sink(maildir: str, port: int) -> None:
    sink = counting_sink(Path(maildir), port)
    print("ready", flush=True)
    sys.stdin.read()  # until the bench closes it
    sink.stop()
    print(sink.connections, flush=True)


def pending_emails(count: int) -> list[int]:
    """At least `count` pending outbox rows (in the current app's database): the emails of new Riftforce
    games between two addresses that played before, so every email of a game goes at once (none is held
    for an invitation's answer, and the day's invitation limit does not stop the games)."""
    preconsent(*PLAYERS.values())
    ids: list[int] = []
    seed = 0
    while len(ids) < count:
        seed += 1
        new_game("riftforce", list(PLAYERS.items()), seed=seed)
        with read_session(get_engine()) as session:
            ids = list(session.exec(sa.select(Outbox.id).where(Outbox.status == "pending")).scalars())
    return ids


def run(label: str, broker: str, emails: int, spy: str | None = None, pool: str = "solo",
        concurrency: int = 1, processes: int = 1, steady: float = 0.0) -> dict[str, float]:
    tmp = Path(tempfile.mkdtemp(prefix="riftpost-bench-delivery-"))
    url = f"sqlite:///{tmp / 'app.sqlite'}"
    upgrade(url)
    port = free_port()
    sink = start_sink(tmp / "mail", port)
    env = dict(os.environ, RIFTPOST_INSTANCE=str(tmp), DATABASE_URL=url, CELERY_BROKER_URL=broker,
               SMTP_URL=f"smtp://127.0.0.1:{port}", SECRET_KEY=SECRET, BASE_URL="http://bench.local")
    workers = [subprocess.Popen(
        [sys.executable, *procfile_python_flags(), "-m", "worker", f"--pool={pool}", f"--concurrency={concurrency}", "--loglevel=WARNING",
         f"--hostname=bench{n}@%h", "--without-heartbeat", "--without-mingle", "--without-gossip"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for n in range(processes)]
    app = create_app({"INSTANCE_PATH": str(tmp), "DATABASE_URL": url, "SECRET_KEY": SECRET,
                      "CELERY_BROKER_URL": broker, "BASE_URL": "http://bench.local", "OUTBOX_KICK": False})
    redis = redis_pid() if broker.startswith("redis") else None
    try:
        with app.app_context():
            ids = pending_emails(emails)
            time.sleep(3 + 2 * processes)  # let the workers finish starting
            from service.mail import outbox

            spying = None
            if spy:  # py-spy's samples of the worker on the CPU: where its time per email goes
                spying = subprocess.Popen([str(Path(sys.executable).parent / "py-spy"), "record", "--pid",
                                           str(workers[0].pid), "--rate", "250", "--format", "raw",
                                           "--subprocesses", "-o", spy],
                                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                time.sleep(1)
            pids = [pid for worker in workers for pid in tree(worker.pid)]
            rss_before = pss_mb(pids)

            def spent() -> tuple[float, float, float, float]:
                return (sum(cpu_seconds(pid) for pid in pids), cpu_seconds(workers[0].pid), cpu_seconds(sink.pid),
                        cpu_seconds(redis) if redis else 0.0)

            started, cpu = time.perf_counter(), spent()
            queued_at: dict[int, datetime] = {}
            if steady:  # one email every 1/steady s, as moves queue them, rather than a sweep's burst
                for n, row_id in enumerate(ids):
                    time.sleep(max(0.0, started + n / steady - time.perf_counter()))
                    queued_at[row_id] = utcnow()
                    outbox.enqueue([row_id])
            else:
                outbox.enqueue(ids)
            while True:
                with read_session(get_engine()) as session:
                    left = session.exec(sa.select(sa.func.count()).select_from(Outbox)
                                        .where(Outbox.status.in_(("pending", "sending")))).scalars().one()
                if not left:
                    break
                if time.perf_counter() - started > 180:
                    raise SystemExit(f"the worker left {left} emails undelivered after 3 minutes")
                time.sleep(0.02)
            elapsed = time.perf_counter() - started
            worker_cpu, main_cpu, sink_cpu, redis_cpu = (after - before for after, before in zip(spent(), cpu, strict=True))
            rss_after = pss_mb(pids)
            if spying is not None:
                spying.send_signal(signal.SIGINT)
                spying.wait(30)
            with read_session(get_engine()) as session:
                # (the enqueued rows only: a row the games queued while the worker started is no part of it)
                sent = session.exec(sa.select(sa.func.count()).select_from(Outbox)
                                    .where(Outbox.status == "sent", Outbox.id.in_(ids))).scalars().one()
                duplicated = session.exec(sa.select(sa.func.count()).select_from(Outbox)
                                          .where(Outbox.id.in_(ids), Outbox.attempts != 1)).scalars().one()
                sent_at = dict(session.exec(sa.select(Outbox.id, Outbox.sent_at).where(Outbox.id.in_(ids))).all())
            if sent != len(ids):
                raise SystemExit(f"only {sent} of {len(ids)} emails were sent")
            latency = statistics.median((as_utc(sent_at[row_id]) - at).total_seconds() * 1000
                                        for row_id, at in queued_at.items()) if steady else 0.0
    finally:
        for worker in workers:
            worker.terminate()
        for worker in workers:
            worker.wait(20)
        connections = stop_sink(sink)
        app.extensions["riftpost.db"].dispose()
        shutil.rmtree(tmp, ignore_errors=True)
    figures = {"rate": len(ids) / elapsed, "worker": worker_cpu / len(ids) * 1000,
               "sink": sink_cpu / len(ids) * 1000, "main": main_cpu / len(ids) * 1000, "redis": redis_cpu / len(ids) * 1000,
               "rss": rss_after, "rss_before": rss_before, "latency": latency}
    print(f"{label:<22} {len(ids)} emails in {elapsed:5.1f} s: {figures['rate']:6.1f} emails/s; CPU ms/email: "
          f"worker {figures['worker']:4.1f} (its first process {figures['main']:4.1f}), sink {figures['sink']:4.1f}, Redis {figures['redis']:4.1f}; "
          f"{connections} SMTP connections; worker PSS {rss_before:5.1f} -> {rss_after:5.1f} MB"
          f"{f'; {duplicated} rows attempted more than once' if duplicated else ''}"
          f"{f'; median {latency:.0f} ms from enqueue to sent' if steady else ''}", flush=True)
    return figures


def main() -> None:
    if sys.argv[1:2] == ["--sink"]:
        return serve_sink(sys.argv[2], int(sys.argv[3]))
    parser = argparse.ArgumentParser(description="Riftpost mail delivery benchmark")
    parser.add_argument("--emails", type=int, default=600)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--broker", choices=("redis", "sqlite", "both"), default="both")
    parser.add_argument("--spy", metavar="FILE", help="record the worker with py-spy (collapsed stacks, on-CPU "
                        "frames included) into FILE while it delivers (needs py-spy: pip install py-spy)")
    parser.add_argument("--pool", choices=("solo", "threads", "prefork"), default="prefork",
                        help="the worker's pool (the Procfile's: prefork)")
    parser.add_argument("--concurrency", type=int, default=2,
                        help="prefork processes (or threads) of a worker (the Procfile's: 2)")
    parser.add_argument("--processes", type=int, default=1, help="worker processes started side by side")
    parser.add_argument("--steady", type=float, default=0.0, metavar="RATE",
                        help="enqueue RATE emails a second (steady traffic) instead of all at once (a burst)")
    args = parser.parse_args()
    print(f"{args.processes} worker(s) --pool={args.pool} --concurrency={args.concurrency}, SQLite database, "
          f"aiosmtpd sink in its own process; load average now {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    brokers = []
    if args.broker in ("redis", "both"):
        brokers.append(("Redis broker", lambda: REDIS))
    if args.broker in ("sqlite", "both"):
        brokers.append(("embedded SQLite broker",
                        lambda: f"sqla+sqlite:///{tempfile.mkdtemp(prefix='riftpost-bench-broker-')}/broker.sqlite"))
    for label, broker in brokers:
        runs = []
        for _ in range(args.runs):
            url = broker()
            runs.append(run(label, url, args.emails, args.spy, args.pool, args.concurrency, args.processes,
                            args.steady))
            if url.startswith("sqla+sqlite:///"):
                shutil.rmtree(Path(url.removeprefix("sqla+sqlite:///")).parent, ignore_errors=True)

        def median(key: str, runs: list[dict[str, float]] = runs) -> float:
            return statistics.median(figures[key] for figures in runs)

        latency = f"; median latency {median('latency'):.0f} ms" if args.steady else ""
        print(f"{label:<22} median {median('rate'):6.1f} emails/s; CPU ms/email: worker {median('worker'):4.1f}, "
              f"sink {median('sink'):4.1f}, Redis {median('redis'):4.1f}; worker PSS {median('rss'):5.1f} MB"
              f"{latency} "
              f"over {len(runs)} runs", flush=True)


if __name__ == "__main__":
    main()
