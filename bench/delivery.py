"""Mail delivery benchmark: emails per second from the outbox through a real Celery worker to SMTP.

    .venv/bin/python bench/delivery.py [--emails 600] [--runs 3] [--broker redis|sqlite|both]

The worker runs as the Procfile runs it (`python -m worker --pool=solo`; `--pool threads --concurrency
N`: one process of N threads, each sending on an SMTP connection of its own), on the Redis broker
and on the embedded SQLite broker (`sqla+sqlite:`), with SQLite as the database; it delivers to a local
aiosmtpd sink (`service.mailsink.start`, a Maildir, as in the embedded mode).  The outbox rows
(the emails new Riftforce games queue to two players who played before: rendering with Jinja and css-inline
included) are written first, with the kick off, then all enqueued at once; the clock runs from the
enqueue until every row is "sent".  Printed per run: emails/s, the worker's CPU time per email (steadier
than the wall clock on a shared machine) and how many SMTP connections the sink accepted; then the
medians of the runs.  Target: 200 emails/s.
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
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import sqlalchemy as sa

from service import create_app
from service.migrate import upgrade
from service.play import new_game
from service.store import get_engine, read_session
from service.store.models import Outbox
from tests.consent import preconsent

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


def cpu_seconds(pid: int) -> float:
    """The user + system CPU time a process has used (Linux /proc): on a shared machine, what the
    worker itself spends per email is steadier than the wall clock."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def run(label: str, broker: str, emails: int, spy: str | None = None, pool: str = "solo",
        concurrency: int = 1) -> tuple[float, float, int]:
    tmp = Path(tempfile.mkdtemp(prefix="riftpost-bench-delivery-"))
    url = f"sqlite:///{tmp / 'app.sqlite'}"
    upgrade(url)
    port = free_port()
    sink = counting_sink(tmp / "mail", port)
    env = dict(os.environ, RIFTPOST_INSTANCE=str(tmp), DATABASE_URL=url, CELERY_BROKER_URL=broker,
               SMTP_URL=f"smtp://127.0.0.1:{port}", SECRET_KEY=SECRET, BASE_URL="http://bench.local")
    worker = subprocess.Popen(
        [sys.executable, "-m", "worker", f"--pool={pool}", f"--concurrency={concurrency}", "--loglevel=WARNING",
         "--without-heartbeat", "--without-mingle", "--without-gossip"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    app = create_app({"INSTANCE_PATH": str(tmp), "DATABASE_URL": url, "SECRET_KEY": SECRET,
                      "CELERY_BROKER_URL": broker, "BASE_URL": "http://bench.local", "OUTBOX_KICK": False})
    try:
        with app.app_context():
            # Addresses that played before: every email of a game goes at once (none is held for an
            # invitation's answer, and the day's invitation limit does not stop the games).
            preconsent(*PLAYERS.values())
            ids: list[int] = []
            seed = 0
            while len(ids) < emails:
                seed += 1
                new_game("riftforce", list(PLAYERS.items()), seed=seed)
                with read_session(get_engine()) as session:
                    ids = list(session.exec(sa.select(Outbox.id).where(Outbox.status == "pending")).scalars())
            time.sleep(3)  # let the worker finish starting
            from service.mail import outbox

            spying = None
            if spy:  # py-spy's samples of the worker on the CPU: where its time per email goes
                spying = subprocess.Popen([str(Path(sys.executable).parent / "py-spy"), "record", "--pid",
                                           str(worker.pid), "--rate", "250", "--format", "raw",
                                           "-o", spy], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                time.sleep(1)
            started, cpu = time.perf_counter(), cpu_seconds(worker.pid)
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
            cpu = cpu_seconds(worker.pid) - cpu
            if spying is not None:
                spying.send_signal(signal.SIGINT)
                spying.wait(30)
            with read_session(get_engine()) as session:
                # (the enqueued rows only: a row the games queued while the worker started is no part of it)
                sent = session.exec(sa.select(sa.func.count()).select_from(Outbox)
                                    .where(Outbox.status == "sent", Outbox.id.in_(ids))).scalars().one()
            if sent != len(ids):
                raise SystemExit(f"only {sent} of {len(ids)} emails were sent")
        rate, per_email = len(ids) / elapsed, cpu / len(ids) * 1000
        print(f"{label:<24} {len(ids)} emails in {elapsed:5.1f} s: {rate:6.1f} emails/s, worker CPU "
              f"{per_email:5.1f} ms/email, {sink.connections} SMTP connections", flush=True)
        return rate, per_email, sink.connections
    finally:
        worker.terminate()
        worker.wait(20)
        sink.stop()
        app.extensions["riftpost.db"].dispose()
        shutil.rmtree(tmp, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description="Riftpost mail delivery benchmark")
    parser.add_argument("--emails", type=int, default=600)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--broker", choices=("redis", "sqlite", "both"), default="both")
    parser.add_argument("--spy", metavar="FILE", help="record the worker with py-spy (collapsed stacks, on-CPU "
                        "frames included) into FILE while it delivers (needs py-spy: pip install py-spy)")
    parser.add_argument("--pool", choices=("solo", "threads"), default="solo", help="the worker's pool (the "
                        "Procfile's: solo)")
    parser.add_argument("--concurrency", type=int, default=1, help="threads of a --pool threads worker")
    args = parser.parse_args()
    print(f"one worker (--pool={args.pool}, concurrency {args.concurrency}), SQLite database, aiosmtpd sink; "
          f"load average now "
          f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    brokers = []
    if args.broker in ("redis", "both"):
        brokers.append(("Redis broker", lambda: REDIS))
    if args.broker in ("sqlite", "both"):
        brokers.append(("embedded SQLite broker",
                        lambda: f"sqla+sqlite:///{tempfile.mkdtemp(prefix='riftpost-bench-broker-')}/broker.sqlite"))
    for label, broker in brokers:
        rates, cpus = [], []
        for _ in range(args.runs):
            url = broker()
            rate, per_email, _ = run(label, url, args.emails, args.spy, args.pool, args.concurrency)
            rates.append(rate)
            cpus.append(per_email)
            if url.startswith("sqla+sqlite:///"):
                shutil.rmtree(Path(url.removeprefix("sqla+sqlite:///")).parent, ignore_errors=True)
        print(f"{label:<24} median {statistics.median(rates):6.1f} emails/s, worker CPU "
              f"{statistics.median(cpus):5.1f} ms/email over {len(rates)} runs", flush=True)


if __name__ == "__main__":
    main()
