"""The Procfile's web restarts gracefully: `kill -HUP` its main process and new processes take over
while the old ones still answer, so no request of a client that keeps asking meanwhile is refused or
lost (the Procfile's --respawn-interval gives the new process time to load the app first)."""

from __future__ import annotations

import http.client
import os
import shutil
import signal
import subprocess
import threading
import time
from pathlib import Path

import pytest

from tests.conftest import SECRET
from tests.procfile import ROOT, procfile_web
from tests.services import free_port


def _workers(pid: int) -> list[str]:
    return Path(f"/proc/{pid}/task/{pid}/children").read_text().split()


def _healthz(port: int) -> int:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
    try:
        connection.request("GET", "/healthz")
        return connection.getresponse().status
    finally:
        connection.close()


@pytest.mark.drill
def test_a_hangup_replaces_the_web_process_without_refusing_a_request(tmp_path, migrated_sqlite):
    db = tmp_path / "app.sqlite"
    shutil.copy(migrated_sqlite, db)
    port = free_port()
    env = {**os.environ, "RIFTPOST_INSTANCE": str(tmp_path), "DATABASE_URL": f"sqlite:///{db}", "SECRET_KEY": SECRET,
           "BASE_URL": f"http://127.0.0.1:{port}", "RIFTPOST_OUTBOX_KICK": "off", "PYTHONPATH": str(ROOT)}
    log = tmp_path / "web.log"
    with open(log, "wb") as out:
        web = subprocess.Popen(procfile_web(port), cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
    answers: list[int | str] = []
    stop = threading.Event()

    def keep_asking() -> None:
        while not stop.is_set():
            try:
                answers.append(_healthz(port))
            except OSError as error:
                answers.append(type(error).__name__)
            time.sleep(0.02)

    asking = threading.Thread(target=keep_asking)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if _healthz(port) == 200:
                    break
            except OSError:
                pass
            assert web.poll() is None and time.monotonic() < deadline, log.read_text()
            time.sleep(0.2)
        before = _workers(web.pid)
        asking.start()
        web.send_signal(signal.SIGHUP)
        deadline = time.monotonic() + 90
        while "Stopped old worker" not in log.read_text():  # granian's own words once the old one is gone
            assert web.poll() is None and time.monotonic() < deadline, log.read_text()
            time.sleep(0.2)
        time.sleep(1)
        stop.set()
        asking.join(30)
        after = _workers(web.pid)
    finally:
        stop.set()
        web.terminate()
        web.wait(60)
    assert len(before) == len(after) == 1 and before != after  # a new process, the same count
    assert answers and set(answers) == {200}, [a for a in answers if a != 200][:5]
