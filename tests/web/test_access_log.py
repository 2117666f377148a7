"""The web's access log, as the Procfile runs the web, holds the paths of requests but never the token
of a player's link (service/accesslog.py)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import time
import urllib.error
import urllib.request

import pytest

from service import links
from service.accesslog import redact
from service.play import new_game
from tests import tokens as player_tokens
from tests.conftest import SECRET, make_app
from tests.procfile import ROOT, procfile_web
from tests.services import free_port


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
        # A real game: the toy game is registered only in this test process, not in the web server's.
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
        web = subprocess.Popen(procfile_web(port), cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
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


def test_every_route_with_a_token_or_key_in_its_path_is_logged_without_it(app):
    """Each route whose path carries a link's token (a seat, a feed of all of a person's seats, a lobby
    confirmation) or an unlisted key (an open game's, a dev mail's): the log keeps the route, never the
    value, also with the slashes doubled."""
    secret = "SECRETabc123"
    checked = 0
    for rule in app.url_map.iter_rules():
        if not {"token", "key"} & set(rule.arguments):
            continue
        path = rule.rule
        for name, converter in (("token", ""), ("key", ""), ("game", "riftforce")):
            path = path.replace(f"<{name}>", converter or secret)
        path = re.sub(r"<int:\w+>", "7", path)
        for sent in (path, path.replace("/", "//")):
            assert secret not in redact(sent), (rule.rule, redact(sent))
        checked += 1
    assert checked >= 40  # (the player pages, the feeds, the lobby, the API, the dev mail...)


def _logged(app, environ: dict) -> tuple[str, list[bytes], str]:
    """(the log line, the body handed to the server, the status) of one request through AccessLog."""
    from service.accesslog import AccessLog

    read, write = os.pipe()
    answered: list[str] = []
    try:
        body = AccessLog(app, write)({"REQUEST_METHOD": "GET", "SERVER_PROTOCOL": "HTTP/1.1",
                                      "REMOTE_ADDR": "192.0.2.7", "QUERY_STRING": "", **environ},
                                     lambda status, headers, exc_info=None: answered.append(status))
        line = os.read(read, 65536).decode()
    finally:
        os.close(read)
        os.close(write)
    return line, body, answered[0] if answered else ""


def _answer(status: str = "200 OK", body: list[bytes] | None = None, length: bool = True):
    def app(environ, start_response):
        chunks = [b"ok\n"] if body is None else body
        start_response(status, [("Content-Type", "text/plain")]
                       + ([("Content-Length", str(sum(map(len, chunks))))] if length else []))
        return iter(chunks)
    return app


def test_the_line_has_no_token_in_the_path_the_referer_or_the_user_agent():
    """Issue #16: a link's token never reaches the log, wherever the request carries it; the rest of
    the line is the combined log format."""
    token = "eyJwIjoxLCJrIjoiYWFmNTQ1ZTg1N2U2YzFlZSJ9.awxt3g.qmOceMNaFlGuY5LQfRabPrksZFA"
    line, _, _ = _logged(_answer(), {"REQUEST_METHOD": "POST", "PATH_INFO": f"/p/{token}/move",
                                     "QUERY_STRING": "t=abc&seq=3", "HTTP_REFERER": f"https://riftpost.example/m/{token}",
                                     "HTTP_USER_AGENT": "bot rpt_0123456789abcdef"})
    assert token not in line and token.split(".")[0] not in line and "abc" not in line and "0123456789" not in line
    assert line.startswith("192.0.2.7 - - [") and line.endswith("\n") and line.count("\n") == 1
    assert ('"POST /p/<token>/move?t=<token>&seq=3 HTTP/1.1" 200 3 "https://riftpost.example/m/<token>" '
            '"bot rpt_<token>"') in line, line


def test_a_decoded_path_cannot_forge_a_line():
    """The server hands the path percent-decoded: "%0A" is a newline, "%22" a quote.  The line escapes
    them, so one request is one line with its fields where they belong."""
    line, _, _ = _logged(_answer("404 NOT FOUND"), {"PATH_INFO": '/x\n127.0.0.1 - - [01/Jan/2026] "GET / HTTP/1.1" 200 1'})
    assert line.count("\n") == 1 and '"GET /x\\n127.0.0.1 - - [01/Jan/2026] \\"GET / HTTP/1.1\\" 200 1 HTTP/1.1" 404' in line


def test_a_whole_body_goes_to_the_server_in_one_piece_and_a_stream_as_it_comes():
    """A body of known length is handed over as one bytes object (granian sends it from Rust at once);
    one without a length (a stream) stays the app's iterator."""
    _, whole, _ = _logged(_answer(body=[b"a", b"b", b"c"]), {"PATH_INFO": "/"})
    assert whole == [b"abc"]
    _, stream, status = _logged(_answer(body=[b"a", b"b"], length=False), {"PATH_INFO": "/"})
    assert not isinstance(stream, list) and list(stream) == [b"a", b"b"] and status == "200 OK"


def test_an_app_that_raises_is_logged_as_500():
    def broken(environ, start_response):
        raise RuntimeError("boom")

    from service.accesslog import AccessLog

    read, write = os.pipe()
    try:
        with pytest.raises(RuntimeError):
            AccessLog(broken, write)({"REQUEST_METHOD": "GET", "PATH_INFO": "/p/secret-token"}, lambda *a: None)
        line = os.read(read, 65536).decode()
    finally:
        os.close(read)
        os.close(write)
    assert '"GET /p/<token> -" 500 -' in line and "secret" not in line


def test_a_line_stays_one_atomic_write_however_long_the_request():
    """Below PIPE_BUF (4,096 bytes) a write to the log's pipe is atomic: lines of several threads never mix."""
    long = '"\u00e9\n' * 5000
    line, _, _ = _logged(_answer(), {"PATH_INFO": "/" + long, "QUERY_STRING": long, "HTTP_REFERER": long,
                                     "HTTP_USER_AGENT": long, "REQUEST_METHOD": "X" * 5000})
    assert len(line.encode()) < 4096 and line.count("\n") == 1, len(line.encode())
