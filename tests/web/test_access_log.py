"""gunicorn's access log, as the Procfile runs the web, holds the paths of requests but never the token
of a player's link (service/accesslog.py)."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import time
import urllib.error
import urllib.request

from service import links
from service.accesslog import redact
from service.play import new_game
from tests import tokens as player_tokens
from tests.conftest import SECRET, make_app
from tests.services import free_port
from tests.worker.processes import ROOT


def _procfile_web(port: int) -> list[str]:
    line = next(line for line in (ROOT / "Procfile").read_text().splitlines() if line.startswith("web:"))
    words = shlex.split(line.removeprefix("web:").replace("${PORT:-5000}", str(port)))
    assert words[0] == "gunicorn"
    return [sys.executable, "-m", "gunicorn", *words[1:]]


def _get(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=20) as answer:
            return answer.status
    except urllib.error.HTTPError as error:
        return error.code


def test_the_procfiles_web_logs_each_request_without_the_links_tokens(tmp_path, migrated_sqlite):
    db = tmp_path / "app.sqlite"
    shutil.copy(migrated_sqlite, db)
    port = free_port()
    app = make_app(tmp_path, f"sqlite:///{db}", BASE_URL=f"http://127.0.0.1:{port}")
    with app.app_context():
        # A real game: the toy game is registered only in this test process, not in gunicorn's.
        game_id = new_game("riftforce", [("Ann", "ann@example.org"), ("Bo", "bo@example.org")], seed=3)
        ann, bo = (player_tokens.player(seat_id) for seat_id in (1, 2))
        tokens = {
            "/p/": player_tokens.page(ann), "/m/": player_tokens.move(ann, 3, {"type": "pass"}),
            "/u/": player_tokens.unsubscribe(ann), "/never/": links.never_email_token("ann@example.org"),
            "/i/": links.invitation_token(1, "0123456789abcdef"), "/a/": links.account_token("ann@example.org", int(time.time())),
            "/api/play/": player_tokens.page(bo),
        }
    app.extensions["riftpost.db"].dispose()
    env = {**os.environ, "RIFTPOST_INSTANCE": str(tmp_path), "DATABASE_URL": f"sqlite:///{db}", "SECRET_KEY": SECRET,
           "BASE_URL": f"http://127.0.0.1:{port}", "RIFTPOST_OUTBOX_KICK": "off", "PYTHONPATH": str(ROOT)}
    log = tmp_path / "web.log"
    with open(log, "wb") as out:
        web = subprocess.Popen(_procfile_web(port), cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while True:
            try:
                if _get(f"{base}/healthz") == 200:
                    break
            except OSError:
                pass
            assert web.poll() is None and time.monotonic() < deadline, log.read_text()
            time.sleep(0.2)
        urls = [f"{base}{prefix}{token}" for prefix, token in tokens.items()]
        urls += [f"{base}/p/{tokens['/p/']}/history?at=2", f"{base}/p/{tokens['/p/']}?step=check",
                 f"{base}/games/{game_id}"]
        statuses = [_get(url) for url in urls]
        assert statuses[0] == 200 and statuses[-1] == 200, statuses  # real answers, not only errors
    finally:
        web.terminate()
        web.wait(30)
    written = log.read_text()
    for token in tokens.values():
        assert token not in written, token
        assert token.split(".")[0] not in written  # not even a part of one
    assert '"GET /p/<token> HTTP/1.1" 200' in written, written
    assert '"GET /p/<token>/history?at=2 HTTP/1.1"' in written and '"GET /api/play/<token> HTTP/1.1"' in written
    assert f'"GET /games/{game_id} HTTP/1.1" 200' in written  # other paths stay as they were


def test_redact_keeps_the_route_and_drops_only_the_token():
    assert redact("POST /p/eyJ.abc-_/move HTTP/1.1") == "POST /p/<token>/move HTTP/1.1"
    assert redact("http://riftpost.example/m/abc.def?seq=3") == "http://riftpost.example/m/<token>?seq=3"
    assert redact("/never/x1") == "/never/<token>" and redact("/api/play/x1/preview") == "/api/play/<token>/preview"
    assert redact("/games/12/history?at=3&by=turn") == "/games/12/history?at=3&by=turn"
    assert redact("/dev/mail/?t=abc&token=def") == "/dev/mail/?t=<token>&token=<token>"
