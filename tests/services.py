"""The real PostgreSQL and Redis on loopback: skip a test without them, unless CI demands them
(RIFTPOST_REQUIRE_SERVICES=1), where their absence is a failure, never a skip."""

from __future__ import annotations

import os
import socket
import uuid

import pytest

POSTGRES_ADMIN_URL = os.environ.get("RIFTPOST_TEST_POSTGRES", "postgresql+psycopg://postgres@127.0.0.1:5432/test")
REDIS_URL = os.environ.get("RIFTPOST_TEST_REDIS", "redis://127.0.0.1:6379")


def required() -> bool:
    return os.environ.get("RIFTPOST_REQUIRE_SERVICES") == "1"


def unavailable(what: str, why: object) -> None:
    message = f"{what} is not reachable: {why}"
    if required():
        pytest.fail(message + " (RIFTPOST_REQUIRE_SERVICES=1: the real services must run)")
    pytest.skip(message)


def postgres_database() -> str:
    """A fresh, empty PostgreSQL database for one test; its URL (dropped by `drop_postgres`)."""
    import sqlalchemy as sa

    name = f"riftpost_test_{uuid.uuid4().hex[:12]}"
    try:
        admin = sa.create_engine(POSTGRES_ADMIN_URL, isolation_level="AUTOCOMMIT")
        with admin.connect() as connection:
            connection.exec_driver_sql(f'CREATE DATABASE "{name}"')
        admin.dispose()
    except Exception as exc:  # noqa: BLE001
        unavailable("PostgreSQL", exc)
    return POSTGRES_ADMIN_URL.rsplit("/", 1)[0] + f"/{name}"


def drop_postgres(url: str) -> None:
    import sqlalchemy as sa

    name = url.rsplit("/", 1)[1]
    admin = sa.create_engine(POSTGRES_ADMIN_URL, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    admin.dispose()


def redis_database() -> str:
    """A Redis URL on a database number of its own (per xdist worker), flushed."""
    import redis

    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
    # RIFTPOST_TEST_REDIS_DB_BASE lets two test runs on one machine (two checkouts) keep apart.
    base = int(os.environ.get("RIFTPOST_TEST_REDIS_DB_BASE", "0"))
    index = int(worker[2:] or 0) if worker.startswith("gw") else 0
    number = 1 + (base + index) % 15
    url = f"{REDIS_URL}/{number}"
    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=2)
        client.flushdb()
        client.close()
    except Exception as exc:  # noqa: BLE001
        unavailable("Redis", exc)
    return url


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


CHROMIUM = "/usr/bin/chromium"  # Debian's; Playwright never downloads a browser here
# Flags for a closed network: without the background-networking ones Chromium keeps dialling out.
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]


def chromium() -> str:
    """The Chromium the browser tests drive; skip without it, unless CI demands it."""
    if not os.access(CHROMIUM, os.X_OK):
        unavailable("Debian's Chromium", f"{CHROMIUM} is missing (apt-get install chromium)")
    return CHROMIUM
