"""Starting and stopping the real worker process for tests."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from tests import services
from tests.conftest import SECRET
from tests.procfile import procfile_line, procfile_python_flags

ROOT = Path(__file__).resolve().parents[2]


class WorkerProcess:
    def __init__(self, *, instance: Path, database_url: str, broker_url: str, smtp_url: str,
                 base_url: str, dispatch_seconds: float = 2.0, sweep_seconds: float = 60.0,
                 extra_env: dict[str, str] | None = None):
        env = dict(os.environ)
        env.update(
            RIFTPOST_INSTANCE=str(instance), DATABASE_URL=database_url, CELERY_BROKER_URL=broker_url,
            SMTP_URL=smtp_url, BASE_URL=base_url, SECRET_KEY=SECRET,
            RIFTPOST_DISPATCH_SECONDS=str(dispatch_seconds), RIFTPOST_SWEEP_SECONDS=str(sweep_seconds),
            PYTHONUNBUFFERED="1",
        )
        env.update(extra_env or {})
        self.log: list[str] = []
        self.ready = threading.Event()
        self.process = subprocess.Popen(
            [sys.executable, *procfile_python_flags(), "-m", "tests.worker.run_worker"], cwd=ROOT, env=env,
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
            # Its own process group: `kill` takes the embedded beat (a child process) down with it.
            start_new_session=True,
        )
        threading.Thread(target=self._read, daemon=True).start()
        if not self.ready.wait(60):
            self.stop()
            raise AssertionError("the worker did not start:\n" + "".join(self.log[-40:]))

    def _read(self) -> None:
        for line in self.process.stdout:
            self.log.append(line)
            if " ready." in line:
                self.ready.set()

    def kill(self) -> None:
        """SIGKILL the worker and its embedded beat at once, as a lost machine or the OOM killer would:
        no shutdown, no acknowledgement, no "sent" recorded."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(10)

    def sender_on(self, client_port: int) -> int | None:
        """The pid of the worker's process (itself, or a prefork child) holding the TCP connection
        whose own end is 127.0.0.1:`client_port` (what an SMTP server sees as its peer), or None."""
        wanted = set()  # the inode of that socket (Linux /proc/net/tcp: local address, remote, ..., inode)
        for table in ("/proc/net/tcp", "/proc/net/tcp6"):
            with contextlib.suppress(OSError), open(table) as rows:
                for row in list(rows)[1:]:
                    fields = row.split()
                    if int(fields[1].rsplit(":", 1)[1], 16) == client_port:
                        wanted.add(fields[9])
        for pid in descendants(self.process.pid):
            with contextlib.suppress(OSError):
                for fd in os.listdir(f"/proc/{pid}/fd"):
                    with contextlib.suppress(OSError):
                        link = os.readlink(f"/proc/{pid}/fd/{fd}")
                        if link.startswith("socket:[") and link[8:-1] in wanted:
                            return pid
        return None

    def stop(self) -> None:
        # pytest shows a test's output only when it fails: then the worker's last words are there.
        print("--- the worker's log, last 80 lines ---", "".join(self.log[-80:]), sep="\n")
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)


def procfile_concurrency() -> int:
    """The Procfile worker's --concurrency (its pool's processes; 0 when it names none: solo)."""
    words = procfile_line("worker").split()
    return next((int(word.split("=", 1)[1]) for word in words if word.startswith("--concurrency=")), 0)


def descendants(pid: int) -> list[int]:
    """A process and all its descendants (a prefork worker's children, its embedded beat)."""
    found = [pid]
    with contextlib.suppress(OSError):
        for task in os.listdir(f"/proc/{pid}/task"):
            with contextlib.suppress(OSError), open(f"/proc/{pid}/task/{task}/children") as children:
                for child in children.read().split():
                    found += descendants(int(child))
    return found


def wait_until(predicate, timeout: float = 30.0, interval: float = 0.05):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    raise AssertionError("timed out waiting")


class RedisServer:
    """A Redis server of this test's own on a free port, to stop and start again."""

    def __init__(self):
        if not shutil.which("redis-server"):
            services.unavailable("redis-server", "not installed")
        self.port = services.free_port()
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.process = subprocess.Popen(["redis-server", "--port", str(self.port), "--bind", "127.0.0.1",
                                         "--save", "", "--appendonly", "no"], stdout=subprocess.DEVNULL)
        import redis

        def answers() -> bool:
            try:
                return bool(redis.Redis.from_url(self.url, socket_connect_timeout=1).ping())
            except redis.ConnectionError:
                return False

        wait_until(answers, timeout=20, interval=0.1)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(10)
