"""Fixtures shared by the worker tests."""

from __future__ import annotations

import shutil

import pytest

from tests import services
from tests.conftest import make_app
from tests.worker.processes import WorkerProcess


@pytest.fixture
def redis_stack(tmp_path, migrated_sqlite, sink):
    """The test's app (its context entered) and a real worker, both on one SQLite database and a Redis
    broker of their own, kicked after each move, mailing the test's SMTP sink: (app, worker)."""
    broker = services.redis_database()
    db = tmp_path / "app.sqlite"
    shutil.copy(migrated_sqlite, db)
    app = make_app(tmp_path, f"sqlite:///{db}", CELERY_BROKER_URL=broker, SMTP_URL=sink.url, OUTBOX_KICK=True)
    worker = WorkerProcess(instance=tmp_path, database_url=f"sqlite:///{db}", broker_url=broker,
                           smtp_url=sink.url, base_url=app.config["BASE_URL"], dispatch_seconds=1.0)
    with app.app_context():
        yield app, worker
    worker.stop()
