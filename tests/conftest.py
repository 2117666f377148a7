"""Fixtures shared by the service, web, worker and e2e tests."""

from __future__ import annotations

import os
import shutil
import tempfile
from contextlib import contextmanager

import pytest

# Anything that builds an app from the environment alone (importing `worker`, the CLI) must never
# write into the checkout's instance/ folder during tests.
os.environ.setdefault("RIFTPOST_INSTANCE", tempfile.mkdtemp(prefix="riftpost-tests-"))

from tests.service import toygame  # noqa: F401 - registers the test-only game

SECRET = "test-secret-key"


@pytest.fixture(scope="session")
def migrated_sqlite(tmp_path_factory):
    """An empty SQLite database at the latest migration, made once and copied per test."""
    from service.migrate import upgrade

    path = tmp_path_factory.mktemp("schema") / "template.sqlite"
    upgrade(f"sqlite:///{path}")
    return path


def make_app(tmp_path, database_url=None, **overrides):
    from service import create_app

    settings = {
        "INSTANCE_PATH": str(tmp_path),
        "DATABASE_URL": database_url,
        "SECRET_KEY": SECRET,
        "BASE_URL": "http://riftpost.test",
        "OUTBOX_KICK": False,
        "MAILDIR": str(tmp_path / "mail"),
        "TESTING": True,
    }
    settings.update(overrides)
    return create_app(settings)


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def backend_url(request, tmp_path, migrated_sqlite):
    """A fresh database at the latest migration on each backend: a copy of the SQLite template, or a
    PostgreSQL database of its own (dropped afterwards)."""
    if request.param == "sqlite":
        path = tmp_path / "app.sqlite"
        shutil.copy(migrated_sqlite, path)
        return f"sqlite:///{path}"
    from service.migrate import upgrade
    from tests import services

    url = services.postgres_database()
    request.addfinalizer(lambda: services.drop_postgres(url))
    upgrade(url)
    return url


@contextmanager
def app_on(tmp_path, database_url, **overrides):
    """The app on `database_url`, its context pushed; its engine disposed afterwards."""
    app = make_app(tmp_path, database_url, **overrides)
    with app.app_context():
        yield app
    app.extensions["riftpost.db"].dispose()


@pytest.fixture
def backend_app(backend_url, tmp_path):
    """The app on each backend's fresh database (`backend_url`), its context pushed.  A module that needs
    other settings (or rows made first) defines its own."""
    with app_on(tmp_path, backend_url) as app:
        yield app


@pytest.fixture
def app(tmp_path, migrated_sqlite):
    path = tmp_path / "app.sqlite"
    shutil.copy(migrated_sqlite, path)
    app = make_app(tmp_path, f"sqlite:///{path}")
    with app.app_context():
        yield app
    app.extensions["riftpost.db"].dispose()


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def sink(tmp_path):
    from tests.smtp import Sink

    server = Sink(tmp_path / "sink")
    yield server
    server.stop()


@pytest.fixture(scope="session")
def browser_type_launch_args():
    """pytest-playwright's launch settings for every browser test: Debian's Chromium, offline."""
    from tests.services import CHROMIUM_ARGS, chromium

    return {"executable_path": chromium(), "args": CHROMIUM_ARGS}


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    """Every browser test runs as on a device set to UTC, whatever the machine's zone: the pages take
    the device's zone (service/static/timezone.js).  A test about zones sets its own."""
    return {**browser_context_args, "timezone_id": "UTC"}


@pytest.fixture
def live(tmp_path, migrated_sqlite):
    """The app served over real HTTP on a free loopback port (for the browser tests)."""
    import threading

    from werkzeug.serving import make_server

    from tests.services import free_port

    db = tmp_path / "app.sqlite"
    shutil.copy(migrated_sqlite, db)
    port = free_port()
    app = make_app(tmp_path, f"sqlite:///{db}", BASE_URL=f"http://127.0.0.1:{port}", TESTING=False)
    server = make_server("127.0.0.1", port, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield app
    server.shutdown()


@pytest.fixture
def everyone_played_before(monkeypatch):
    """For tests about pages, not invitations: every address counts as one that played here before
    (as migration 0007_consent counts the addresses of earlier games), so a game emails its players
    from its first move.  Consent itself is tested in tests/service/test_consent.py and the e2e games."""
    from service.play import consent

    monkeypatch.setattr(consent, "consented", lambda session, address, inviter: True)
    monkeypatch.setattr(consent, "verified", lambda session, inviter: True)
