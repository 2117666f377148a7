"""Starting and stopping the real worker process for tests."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from tests.conftest import SECRET

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
            [sys.executable, "-m", "tests.worker.run_worker"], cwd=ROOT, env=env,
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

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)


def wait_until(predicate, timeout: float = 30.0, interval: float = 0.05):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    raise AssertionError("timed out waiting")
