"""The database settings of service/store/db.py `make_engine`: SQLite's SQLITE_SYNCHRONOUS, and the
PostgreSQL pool (prepared statements; a connection the server ended is replaced at checkout without
a ping per request)."""

from __future__ import annotations

import time

import pytest
import sqlalchemy as sa

from tests import services
from tests.conftest import app_on, make_app


def synchronous_of(app) -> int:
    with app.extensions["riftpost.db"].connect() as connection:
        return connection.exec_driver_sql("PRAGMA synchronous").scalar_one()


@pytest.mark.parametrize(("value", "level"), [(None, 1), ("NORMAL", 1), ("FULL", 2), (" full ", 2)])
def test_sqlite_synchronous_reaches_the_connection(tmp_path, migrated_sqlite, monkeypatch, value, level):
    if value is None:
        monkeypatch.delenv("SQLITE_SYNCHRONOUS", raising=False)
    else:
        monkeypatch.setenv("SQLITE_SYNCHRONOUS", value)
    with app_on(tmp_path, f"sqlite:///{tmp_path / 'app.sqlite'}") as app:
        assert synchronous_of(app) == level  # PRAGMA synchronous: 1 NORMAL, 2 FULL
        with app.extensions["riftpost.db"].connect() as connection:
            assert connection.exec_driver_sql("PRAGMA journal_mode").scalar_one() == "wal"


@pytest.mark.parametrize("value", ["OFF", "0", "EXTRA", "yes"])
def test_any_other_sqlite_synchronous_is_refused_at_start(tmp_path, monkeypatch, value):
    monkeypatch.setenv("SQLITE_SYNCHRONOUS", value)
    with pytest.raises(ValueError, match="SQLITE_SYNCHRONOUS must be NORMAL or FULL"):
        make_app(tmp_path, f"sqlite:///{tmp_path / 'app.sqlite'}")


def test_an_override_is_checked_too(tmp_path):
    with pytest.raises(ValueError, match="SQLITE_SYNCHRONOUS must be NORMAL or FULL"):
        make_app(tmp_path, f"sqlite:///{tmp_path / 'app.sqlite'}", SQLITE_SYNCHRONOUS="OFF")


# ---- PostgreSQL ---------------------------------------------------------------------------------------


@pytest.fixture
def postgres_url():
    url = services.postgres_database()
    yield url
    services.drop_postgres(url)


def backends_of(admin: sa.Engine, database: str) -> set[int]:
    with admin.connect() as connection:
        return set(connection.execute(
            sa.text("SELECT pid FROM pg_stat_activity WHERE datname = :db AND pid <> pg_backend_pid()"),
            {"db": database}).scalars())


def kill_backends(database: str) -> None:
    """pg_terminate_backend every connection to `database`, and wait until they are gone (the backends
    exit after the call returns), as after a restart of the server."""
    admin = sa.create_engine(services.POSTGRES_ADMIN_URL, isolation_level="AUTOCOMMIT")
    try:
        pids = backends_of(admin, database)
        assert pids, "the app holds no pooled connection to kill"
        with admin.connect() as connection:
            for pid in pids:
                connection.execute(sa.text("SELECT pg_terminate_backend(:pid)"), {"pid": pid})
        deadline = time.monotonic() + 10
        while backends_of(admin, database) & pids:
            assert time.monotonic() < deadline, "the backends did not exit"
            time.sleep(0.02)
    finally:
        admin.dispose()


@pytest.mark.postgres
def test_requests_after_the_server_ended_pooled_connections_succeed(tmp_path, postgres_url):
    """No pool_pre_ping (a SELECT 1 per checkout), yet a connection the server ended while it sat in
    the pool is found dead at checkout and replaced: the next requests succeed, none fails."""
    database = postgres_url.rsplit("/", 1)[1]
    with app_on(tmp_path, postgres_url) as app:
        engine = app.extensions["riftpost.db"]
        assert not engine.pool._pre_ping  # the point: no round trip added to each checkout
        client = app.test_client()
        # three connections in the pool: the requests after the kill meet each dead one in turn
        held = [engine.connect() for _ in range(3)]
        for connection in held:
            connection.exec_driver_sql("SELECT 1")
            connection.close()
        assert client.get("/healthz").status_code == 200
        kill_backends(database)
        for _ in range(4):
            assert client.get("/healthz").status_code == 200
        assert client.get("/").status_code == 200


@pytest.mark.postgres
def test_postgres_statements_are_prepared_on_the_server(tmp_path, postgres_url):
    """psycopg's prepare_threshold reaches the pooled connections: a statement the move path repeats is
    planned once per connection (pg_prepared_statements lists it)."""
    from service.store.db import PREPARE_THRESHOLD

    with app_on(tmp_path, postgres_url) as app, app.extensions["riftpost.db"].connect() as connection:
        assert connection.connection.dbapi_connection.prepare_threshold == PREPARE_THRESHOLD
        for _ in range(PREPARE_THRESHOLD + 1):
            connection.execute(sa.text("SELECT count(*) FROM pg_class WHERE oid = :oid"), {"oid": 1})
        prepared = connection.exec_driver_sql("SELECT statement FROM pg_prepared_statements").scalars().all()
        assert any("FROM pg_class WHERE oid" in statement for statement in prepared), prepared
