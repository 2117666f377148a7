"""A throwaway PostgreSQL database for a benchmark (the one the tests use, RIFTPOST_TEST_POSTGRES, is
the admin connection): `postgres_url()` makes one, `drop(url)` removes it."""

from __future__ import annotations

import os
import uuid

import sqlalchemy as sa

POSTGRES_ADMIN = os.environ.get("RIFTPOST_TEST_POSTGRES", "postgresql+psycopg://postgres@127.0.0.1:5432/test")


def postgres_url() -> str | None:
    """A fresh empty database's URL; None (said) when PostgreSQL does not answer."""
    name = f"riftpost_bench_{uuid.uuid4().hex[:8]}"
    try:
        admin = sa.create_engine(POSTGRES_ADMIN, isolation_level="AUTOCOMMIT")
        with admin.connect() as connection:
            connection.exec_driver_sql(f'CREATE DATABASE "{name}"')
        admin.dispose()
    except Exception as exc:  # noqa: BLE001
        print(f"PostgreSQL not reachable ({exc.__class__.__name__}); skipped")
        return None
    return POSTGRES_ADMIN.rsplit("/", 1)[0] + f"/{name}"


def drop(url: str) -> None:
    admin = sa.create_engine(POSTGRES_ADMIN, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.exec_driver_sql(f'DROP DATABASE IF EXISTS "{url.rsplit("/", 1)[1]}" WITH (FORCE)')
    admin.dispose()
