"""Database engines and sessions.

SQLite needs care to behave like a real server under the web + worker processes:
- WAL journal and a busy timeout, so readers never block and writers wait instead of failing;
- write transactions start with BEGIN IMMEDIATE (see `write_session`): a deferred transaction that
  reads and then writes can fail with SQLITE_BUSY without waiting when another writer got there
  first, while an immediate one takes the write lock up front and simply queues.
"""

from __future__ import annotations

import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, cast

import sqlalchemy as sa
from flask import current_app
from sqlalchemy import event
from sqlmodel import Session


def make_engine(url: str) -> sa.Engine:
    if url.startswith("sqlite"):
        engine = sa.create_engine(url, connect_args={"timeout": 30, "check_same_thread": False})

        @event.listens_for(engine, "connect")
        def _sqlite_connect(dbapi_connection: Any, _record: Any) -> None:
            # Let SQLAlchemy's "begin" event issue BEGIN itself (pysqlite's implicit BEGIN
            # cannot be IMMEDIATE).
            dbapi_connection.isolation_level = None
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute("PRAGMA busy_timeout=30000")
            cursor.close()

        @event.listens_for(engine, "begin")
        def _sqlite_begin(conn: sa.Connection) -> None:
            options = conn.get_execution_options()
            if options.get("riftpost_single"):
                return  # `single_reads`: each statement its own transaction
            conn.exec_driver_sql("BEGIN IMMEDIATE" if options.get("riftpost_write") else "BEGIN")

        return engine
    return sa.create_engine(url, pool_pre_ping=True, pool_size=10, max_overflow=20)


@contextmanager
def read_session(engine: sa.Engine) -> Iterator[Session]:
    with Session(engine, expire_on_commit=False) as session:
        yield session


# engine -> the same engine marked for writing (see _sqlite_begin), made once: making one per
# transaction cost more than some moves' SQL.
_WRITERS: weakref.WeakKeyDictionary[sa.Engine, sa.Engine] = weakref.WeakKeyDictionary()


def writer(engine: sa.Engine) -> sa.Engine:
    found = _WRITERS.get(engine)
    if found is None:
        found = _WRITERS[engine] = engine.execution_options(riftpost_write=True)
    return found


_READERS: weakref.WeakKeyDictionary[sa.Engine, sa.Engine] = weakref.WeakKeyDictionary()


def single_reads(engine: sa.Engine) -> sa.Engine:
    """The engine in autocommit mode, for a route that reads one row and nothing else (the player a
    link names): no BEGIN and ROLLBACK around it, which on PostgreSQL are two round trips of three."""
    found = _READERS.get(engine)
    if found is None:
        # Not SQLAlchemy's AUTOCOMMIT on SQLite: resetting it on check-in gives the connection
        # pysqlite's implicit transactions back, which write transactions must not have.
        found = _READERS[engine] = (engine.execution_options(riftpost_single=True) if engine.dialect.name == "sqlite"
                                    else engine.execution_options(isolation_level="AUTOCOMMIT"))
    return found


@contextmanager
def write_session(engine: sa.Engine) -> Iterator[Session]:
    """A session whose transaction is committed on success and rolled back on any exception."""
    with Session(writer(engine), expire_on_commit=False) as session, session.begin():
        yield session


def get_engine() -> sa.Engine:
    """The database engine of the current Flask app (see service.create_app)."""
    return cast(sa.Engine, current_app.extensions["riftpost.db"])
