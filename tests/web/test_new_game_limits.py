"""The per-client limit of the public form (service/web/limits.py): counted before the game is made,
atomically, so simultaneous posts cannot all pass; IPv4 per address, IPv6 per /64."""

from __future__ import annotations

import http.cookiejar
import shutil
import threading
import urllib.error
import urllib.parse
import urllib.request

import pytest
import sqlalchemy as sa
from flask import request

from service.store import read_session
from service.store.db import get_engine
from service.store.models import Game
from tests.conftest import make_app
from tests.service import toygame
from tests.web.pages import START_FORM, csrf_token, text

SIMULTANEOUS = 40


def _games() -> int:
    with read_session(get_engine()) as session:
        return session.execute(sa.select(sa.func.count()).select_from(Game)).scalar_one()


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):  # the 303 itself is the answer counted
        return None


def _simultaneous_posts(base: str, count: int) -> list[int]:
    """`count` form posts from one client (one session, one CSRF token) released at once; their codes."""
    cookies = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(cookies), _NoRedirect)
    with opener.open(f"{base}/games/new/riftforce", timeout=30) as page:
        token = csrf_token(page.read().decode())
    start = threading.Barrier(count)
    codes: list[int] = []

    def post(n: int) -> None:
        body = urllib.parse.urlencode({"csrf_token": token, "game": toygame.NAME, "seed": "3", "name0": "Ann",
                                       "email0": f"a{n}@example.org", "email1": f"b{n}@example.org"}).encode()
        start.wait()
        try:
            with opener.open(f"{base}/games/new", data=body, timeout=120) as answer:
                codes.append(answer.status)
        except urllib.error.HTTPError as error:
            codes.append(error.code)

    threads = [threading.Thread(target=post, args=(n,)) for n in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(180)
    assert len(codes) == count
    return codes


def test_forty_simultaneous_posts_over_http_start_no_more_games_than_the_limit(live):
    """The drill of the report: 40 form posts at once from one client, through a real threaded HTTP
    server; the default limit is 5 a minute, and 5 games start, not 8."""
    per_minute = int(live.config["RATELIMIT_NEW_GAMES"].split(";")[0].split()[0])
    codes = _simultaneous_posts(live.config["BASE_URL"], SIMULTANEOUS)
    assert sorted(set(codes)) == [303, 429], codes
    with live.app_context():
        assert _games() == codes.count(303) == per_minute


@pytest.mark.redis
def test_the_counting_is_atomic_with_the_counters_in_redis(tmp_path, migrated_sqlite):
    """Several web processes share their counters in Redis: the same drill against that storage."""
    from werkzeug.serving import make_server

    from tests import services
    from tests.services import free_port

    db = tmp_path / "app.sqlite"
    shutil.copy(migrated_sqlite, db)
    port = free_port()
    app = make_app(tmp_path, f"sqlite:///{db}", BASE_URL=f"http://127.0.0.1:{port}", TESTING=False,
                   RATELIMIT_STORAGE_URI=services.redis_database(), RATELIMIT_NEW_GAMES="3 per minute",
                   INVITATIONS_PER_ADDRESS_PER_DAY=1000)
    server = make_server("127.0.0.1", port, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        codes = _simultaneous_posts(app.config["BASE_URL"], 20)
    finally:
        server.shutdown()
    assert codes.count(303) == 3 and codes.count(429) == 17, codes
    with app.app_context():
        assert _games() == 3
    app.extensions["riftpost.db"].dispose()


def _limited(tmp_path, migrated_sqlite, name: str = "app"):
    db = tmp_path / f"{name}.sqlite"
    shutil.copy(migrated_sqlite, db)
    return make_app(tmp_path, f"sqlite:///{db}", RATELIMIT_NEW_GAMES="2 per minute",
                    INVITATIONS_PER_ADDRESS_PER_DAY=1000)


def _post(client, remote: str, n: int, **fields) -> int:
    data = {"csrf_token": csrf_token(text(client.get(START_FORM))), "game": toygame.NAME, "seed": "3",
            "email0": f"a{n}@example.org", "email1": f"b{n}@example.org", **fields}
    return client.post("/games/new", data=data, environ_base={"REMOTE_ADDR": remote}).status_code


def test_an_ipv6_client_counts_by_its_64_and_an_ipv4_client_by_its_address(tmp_path, migrated_sqlite):
    app = _limited(tmp_path, migrated_sqlite)
    with app.app_context():
        client = app.test_client()
        # Any address of one /64 is the same client: a host picks among 2^64 of them at will.
        same_64 = ["2001:db8:1:2::1", "2001:db8:1:2:ffff:ffff:ffff:fffe", "2001:db8:1:2:abcd::7"]
        assert [_post(client, remote, n) for n, remote in enumerate(same_64)] == [303, 303, 429]
        # The next /64 over is another client; so is every IPv4 address.
        assert _post(client, "2001:db8:1:3::1", 10) == 303
        assert [_post(client, "192.0.2.1", n) for n in range(20, 23)] == [303, 303, 429]
        assert _post(client, "192.0.2.2", 30) == 303
        # An IPv4 address written as IPv6 (a dual-stack socket) is that IPv4 address.
        assert _post(client, "::ffff:192.0.2.1", 40) == 429
    app.extensions["riftpost.db"].dispose()


def test_a_post_that_starts_no_game_gives_its_place_back(tmp_path, migrated_sqlite):
    """Counted before the game is made, but only games started use the limit: a form sent back with
    a mistake, or a game the service refuses, leaves the client's places as they were."""
    app = _limited(tmp_path, migrated_sqlite)
    with app.app_context():
        client = app.test_client()
        for n in range(6):
            assert _post(client, "198.51.100.4", n, email1="") == 422  # a mistake: one player only
        assert _post(client, "198.51.100.4", 7, options="target=99") == 422  # refused by the game
        assert [_post(client, "198.51.100.4", n) for n in range(10, 13)] == [303, 303, 429]
        assert _games() == 2
    app.extensions["riftpost.db"].dispose()


def test_only_the_routes_with_limits_pay_for_them(tmp_path, migrated_sqlite, monkeypatch):
    """The limits are decorators on their views (service/web/limits.py init_app): a request to a route
    without one never enters Flask-Limiter's check (the before-request check that resolved every
    route's limits is off), while a limited route is still counted and refused past its limit."""
    from flask_limiter import Limiter

    checks: list[str] = []
    original = Limiter._check_request_limit

    def counted(self, *args, **kwargs):
        checks.append(request.path)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(Limiter, "_check_request_limit", counted)
    app = _limited(tmp_path, migrated_sqlite)
    with app.app_context():
        client = app.test_client()
        assert client.get("/healthz").status_code == 200 and client.get(START_FORM).status_code == 200
        assert checks == []
        assert [_post(client, "192.0.2.9", n) for n in range(3)] == [303, 303, 429]
        assert checks == ["/games/new"] * 3
    app.extensions["riftpost.db"].dispose()


def test_a_limit_for_every_route_keeps_the_check_before_each_request(tmp_path, migrated_sqlite):
    """Should the configuration name a limit for every route (RATELIMIT_DEFAULT), the before-request
    check that counts it stays: an undecorated route is limited too; and only in that app."""
    db = tmp_path / "app.sqlite"
    shutil.copy(migrated_sqlite, db)
    app = make_app(tmp_path, f"sqlite:///{db}", RATELIMIT_DEFAULT="2 per minute")
    with app.app_context():
        client = app.test_client()
        assert [client.get("/healthz").status_code for _ in range(3)] == [200, 200, 429]
    app.extensions["riftpost.db"].dispose()
    # Flask-Limiter's one limiter object would have kept that limit for every later app of the process.
    db2 = tmp_path / "next" / "app.sqlite"
    db2.parent.mkdir()
    shutil.copy(migrated_sqlite, db2)
    later = make_app(db2.parent, f"sqlite:///{db2}")
    with later.app_context():
        again = later.test_client()
        # (a view whose own limits are for POST only is where Flask-Limiter counted the defaults)
        assert [again.get("/signin").status_code for _ in range(3)] == [200, 200, 200]
    later.extensions["riftpost.db"].dispose()


def test_rate_limits_switched_off_serve_every_request_unlimited(tmp_path, migrated_sqlite):
    """Flask-Limiter's own switch (RATELIMIT_ENABLED off, as a load test may set it) adds none of its
    hooks: the app still starts (the before-request check it would have removed is not there) and
    counts nothing; and the next app of the process, configured without the switch, limits again."""
    db = tmp_path / "app.sqlite"
    shutil.copy(migrated_sqlite, db)
    app = make_app(tmp_path, f"sqlite:///{db}", RATELIMIT_ENABLED=False, RATELIMIT_NEW_GAMES="2 per minute")
    with app.app_context():
        client = app.test_client()
        assert [_post(client, "192.0.2.9", n) for n in range(4)] == [303] * 4
    app.extensions["riftpost.db"].dispose()
    # Flask-Limiter's one limiter object would have kept the switch for every later app of the process.
    db2 = tmp_path / "next" / "app.sqlite"
    db2.parent.mkdir()
    shutil.copy(migrated_sqlite, db2)
    later = make_app(db2.parent, f"sqlite:///{db2}", RATELIMIT_NEW_GAMES="2 per minute")
    with later.app_context():
        again = later.test_client()
        assert [_post(again, "192.0.2.9", n) for n in range(3)] == [303, 303, 429]
    later.extensions["riftpost.db"].dispose()
