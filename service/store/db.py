"""Database engines and sessions.

SQLite needs care to behave like a real server under the web + worker processes:
- WAL journal and a busy timeout, so readers never block and writers wait instead of failing;
- write transactions start with BEGIN IMMEDIATE (see `write_session`): a deferred transaction that
  reads and then writes can fail with SQLITE_BUSY without waiting when another writer got there
  first, while an immediate one takes the write lock up front and simply queues.
"""

from __future__ import annotations

import select
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, cast

import sqlalchemy as sa
from sqlalchemy import event
from sqlalchemy.pool import PoolProxiedConnection
from sqlmodel import Session

from service import config, running
from service.store import jsondecode, jsonencode
from service.store.prepared import begin_with_first_statement, execute_text


def make_engine(url: str, *, sqlite_synchronous: str = "NORMAL") -> sa.Engine:
    """The engine for DATABASE_URL; `sqlite_synchronous` is SQLITE_SYNCHRONOUS (service/config.py).

    Its JSON columns read through `jsondecode.loads` (the values json.loads gives, in about half the
    time; on PostgreSQL SQLAlchemy hands it to psycopg's JSON loader) and written by `jsonencode.dumps`
    (msgspec's compact text, the values json.dumps writes, in a quarter of its time)."""
    if url.startswith("sqlite"):
        return _sqlite_engine(url, config.sqlite_synchronous(sqlite_synchronous))
    return _server_engine(url)


def _sqlite_engine(url: str, synchronous: str) -> sa.Engine:
    engine = sa.create_engine(url, connect_args={"timeout": 30, "check_same_thread": False},
                              json_deserializer=jsondecode.loads, json_serializer=jsonencode.dumps)

    @event.listens_for(engine, "connect")
    def _sqlite_connect(dbapi_connection: Any, _record: Any) -> None:
        # Let SQLAlchemy's "begin" event issue BEGIN itself (pysqlite's implicit BEGIN
        # cannot be IMMEDIATE).
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        # NORMAL under WAL syncs at checkpoints, not at each commit: a power cut or OS crash may
        # lose the last commits (never corrupt the file); FULL syncs every commit (README).
        cursor.execute(f"PRAGMA synchronous={synchronous}")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA busy_timeout=30000")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _sqlite_begin(conn: sa.Connection) -> None:
        options = conn.get_execution_options()
        if options.get("riftpost_single"):
            return  # `single_reads`: each statement its own transaction
        # On the DB-API connection: through exec_driver_sql it cost a SQLAlchemy execution (~60 µs of
        # Python) in every transaction, more than the BEGIN itself.
        execute_text(conn, "BEGIN IMMEDIATE" if options.get("riftpost_write") else "BEGIN")

    return engine


def _server_engine(url: str) -> sa.Engine:
    """PostgreSQL: a pool of connections, no round trip added to a checkout.

    - psycopg 3 prepares a statement on the server once the connection has run it PREPARE_THRESHOLD
      times; the move path runs the same few statements on every request, so they are parsed and
      planned once per pooled connection.  `bench/moves.py --settings-only`: a move-shaped transaction
      costs the server ~0.55 ms of CPU prepared, ~0.9 ms unprepared (None); 0 is no faster than 5 once
      warm, and preparing costs a round trip of its own (psycopg sends the PREPARE first), which 0
      would pay for every statement run only once.  Hence psycopg's 5, chosen rather than inherited.
    - Instead of pool_pre_ping (a `SELECT 1` before every transaction), a checkout pings only a
      connection whose socket has something to read while idle (`_maybe_closed`): the server ended
      it (a restart, pg_terminate_backend); a dead one is replaced before the request uses it.  A
      connection lost in the middle of a transaction fails that request, and SQLAlchemy then
      invalidates every pooled connection older than it (a loss met by the move path's statements on
      the DB-API cursor, service/store/prepared.py, invalidates only its own: the others are found by
      this checkout's check when the server closed them).  pool_recycle retires connections before
      a firewall's or server's idle timeout can cut them silently.
    """
    connect_args: dict[str, Any] = {}
    if sa.make_url(url).get_driver_name() == "psycopg":
        connect_args["prepare_threshold"] = PREPARE_THRESHOLD
    engine = sa.create_engine(url, pool_size=10, max_overflow=20, pool_recycle=1800, connect_args=connect_args,
                              json_deserializer=jsondecode.loads, json_serializer=jsonencode.dumps)

    @event.listens_for(engine, "checkout")
    def _checkout(dbapi_connection: Any, _record: Any, _proxy: Any) -> None:
        if not _maybe_closed(dbapi_connection):
            return
        try:
            engine.dialect.do_ping(dbapi_connection)  # pool_pre_ping's own ping, only when in doubt
        except Exception as exc:  # any failure: this connection is no good
            # the pool drops this connection and checks out a fresh one (PoolEvents.checkout)
            raise sa.exc.DisconnectionError("the server closed this pooled connection") from exc

    return engine


PREPARE_THRESHOLD = 5


def _maybe_closed(dbapi_connection: Any) -> bool:
    """Whether an idle pooled connection may have been ended by the server: it then sent its last
    words and closed the socket, so there is something to read, while a live idle connection has
    nothing (no LISTEN here, so nothing arrives unasked).  One poll(2), no round trip."""
    if getattr(dbapi_connection, "closed", False):
        return True
    try:
        fileno = dbapi_connection.fileno()
    except Exception:  # noqa: BLE001 - no socket to look at: let the ping decide
        return True
    poller = select.poll()
    poller.register(fileno, select.POLLIN)
    return bool(poller.poll(0))


@contextmanager
def read_session(engine: sa.Engine, *, keep_rows: bool = False) -> Iterator[Session]:
    """A session for reads.  `keep_rows`: the rows its `get(Model, key)` found stay in its identity map,
    and the keys it found no row for are remembered, till its transaction ends (or it flushes): the
    identity map holds rows weakly, so a row read by key, used and dropped was read again by the next
    `get`.  An email's reads ask for the person's settings and the game's clock twice each (two of its
    ~15 statements; service/mail/outbox.py)."""
    with (_KeepsRows if keep_rows else Session)(engine, expire_on_commit=False) as session:
        yield session


class _KeepsRows(Session):
    """A session whose plain `get(Model, key)` keeps what it found (a row, or that there is none) for the
    rest of its transaction."""

    def get(self, entity: Any, ident: Any, *args: Any, **kwargs: Any) -> Any:
        if args or kwargs or not isinstance(ident, (str, int, tuple)):  # (a tuple: a composite key)
            return super().get(entity, ident, *args, **kwargs)
        kept: dict[tuple[Any, Any], Any] = self.info.setdefault("riftpost_kept", {})
        key = (entity, ident)
        if key in kept:  # a row: the identity map's (no statement); none: still none
            return None if kept[key] is None else super().get(entity, ident)
        found = kept[key] = super().get(entity, ident)
        return found


def known(session: Session, entity: Any, ident: str | int | tuple[Any, ...], row: Any) -> None:
    """Tell a `keep_rows` session what a statement of its own found for `get(entity, ident)` (the row,
    or None: there is none), so that `get` answers without a statement of its own; nothing in another
    session.  Kept only while its transaction lasts, as `get`'s own findings."""
    if isinstance(session, _KeepsRows):
        session.info.setdefault("riftpost_kept", {})[(entity, ident)] = row


@event.listens_for(_KeepsRows, "after_transaction_end")
@event.listens_for(_KeepsRows, "after_flush")
def _forget_kept(session: Session, *_: Any) -> None:
    session.info.pop("riftpost_kept", None)


def writer(engine: sa.Engine) -> sa.Engine:
    """The engine marked for writing (see _sqlite_begin), made once per engine and kept on it: making
    one per transaction cost more than some moves' SQL.  (On the engine, not in a module-level
    mapping: the marked engine refers to its parent, so a mapping would keep every engine alive.)"""
    found: sa.Engine | None = getattr(engine, "_riftpost_writer", None)
    if found is None:
        found = engine.execution_options(riftpost_write=True)
        engine._riftpost_writer = found  # type: ignore[attr-defined]
    return found


def single_reads(engine: sa.Engine) -> sa.Engine:
    """The engine in autocommit mode, for a route that reads one row and nothing else (the player a
    link names): no BEGIN and ROLLBACK around it, which on PostgreSQL are two round trips of three."""
    found: sa.Engine | None = getattr(engine, "_riftpost_single", None)
    if found is None:
        # Not SQLAlchemy's AUTOCOMMIT on SQLite: resetting it on check-in gives the connection
        # pysqlite's implicit transactions back, which write transactions must not have.
        found = (engine.execution_options(riftpost_single=True) if engine.dialect.name == "sqlite"
                 else engine.execution_options(isolation_level="AUTOCOMMIT"))
        engine._riftpost_single = found  # type: ignore[attr-defined]
    return found


@dataclass(slots=True)
class Unbound:
    """A pooled DB-API connection outside any transaction, with its dialect: what the move path's
    statements (service/store/prepared.py) run on for a one-row read, without a SQLAlchemy connection."""

    dialect: sa.Dialect
    connection: PoolProxiedConnection

    def invalidate(self, exception: BaseException | None = None) -> None:
        self.connection.invalidate(exception)


@contextmanager
def unbound(engine: sa.Engine) -> Iterator[Unbound]:
    """A pooled connection in autocommit mode for a read of one statement (the player a link names,
    read on every request of a page or a move), or a write of one (an outbox row's claim and outcome,
    service/mail/outbox.py): as `single_reads`, no BEGIN and no ROLLBACK or COMMIT, and none of a
    SQLAlchemy connection's Python around it either (its begin, its rollback, their events).
    SQLite's connections are in autocommit already (isolation_level None, see `_sqlite_engine`); a
    psycopg one is put in it for the read and back before it returns to the pool."""
    held = _held(engine)
    raw = engine.raw_connection() if held is None else held.connection
    try:
        driver = raw.driver_connection
        switch = engine.dialect.name != "sqlite" and not driver.autocommit  # type: ignore[union-attr]
        if switch:
            driver.autocommit = True  # type: ignore[union-attr]
        try:
            yield Unbound(engine.dialect, raw)
        finally:
            if switch and raw.is_valid:
                driver.autocommit = False  # type: ignore[union-attr]
    finally:
        if held is None:
            raw.close()


class _Held:
    """What `one_connection` holds: its engine, and the connection once something asked for it."""

    __slots__ = ("conn", "engine")

    def __init__(self, engine: sa.Engine) -> None:
        self.engine = engine
        self.conn: sa.Connection | None = None


_HELD: ContextVar[_Held | None] = ContextVar("riftpost_held", default=None)


@contextmanager
def one_connection(engine: sa.Engine) -> Iterator[None]:
    """Inside, `unbound(engine)` and `move_session(engine)` (in this thread or task) use one pooled
    connection, checked out once and returned at the end: a JSON move's read of its link's player and
    its write transaction were two checkouts, each with its return's reset and, on PostgreSQL, its
    idle check (issue #27).  Each still runs as it would on a connection of its own: the read outside
    any transaction, the move in a transaction of its own (BEGIN IMMEDIATE on SQLite).  Whatever finds
    the connection in a transaction (nothing does on the move path) checks out one of its own.

    The connection is checked out when first asked for, not on entering: a request refused before it
    reads anything (a forged link, a bad body) takes none from the pool."""
    if _HELD.get() is not None:
        yield
        return
    held = _Held(engine)
    token = _HELD.set(held)
    try:
        yield
    finally:
        _HELD.reset(token)
        if held.conn is not None:
            held.conn.close()


def _held(engine: sa.Engine) -> sa.Connection | None:
    """The connection `one_connection` holds for `engine` (checked out now if not yet), if it is
    outside any transaction and still usable (a lost connection, invalidated, is left to its caller's
    error: whatever comes next checks out its own)."""
    held = _HELD.get()
    if held is None or held.engine is not engine:
        return None
    if held.conn is None:
        held.conn = writer(engine).connect()  # (marked for writing: its transaction is the move's)
    conn = held.conn
    if conn.closed or conn.invalidated or not conn.connection.is_valid or conn.in_transaction():
        return None
    return conn


@contextmanager
def write_session(engine: sa.Engine) -> Iterator[Session]:
    """A session whose transaction is committed on success and rolled back on any exception."""
    with Session(writer(engine), expire_on_commit=False) as session, session.begin():
        yield session


class _OnDemand:
    """What `move_session` yields: a write transaction's SQLAlchemy connection, with an ORM Session over
    it made only when something asks for more than `connection()` (a clock's rows, a stale state's
    rebuild, `unanswered`'s reads).  The move path's statements run on the connection
    (service/store/current.py), and most moves need nothing else: the Session's own begin, flush and
    commit around them cost more than the move's SQL on SQLite (issue #27)."""

    __slots__ = ("_conn", "_session")

    def __init__(self, conn: sa.Connection) -> None:
        self._conn = conn
        self._session: Session | None = None

    def connection(self, *args: Any, **kwargs: Any) -> sa.Connection:
        if args or kwargs:
            return self.session.connection(*args, **kwargs)
        return self._conn

    @property
    def session(self) -> Session:
        if self._session is None:
            # Joins the connection's transaction: its flushes go into it, and it never commits it
            # ("rollback_only": a rollback of the Session rolls the whole transaction back, as it would
            # a write_session's).
            self._session = Session(bind=self._conn, expire_on_commit=False, join_transaction_mode="rollback_only")
        return self._session

    def __getattr__(self, name: str) -> Any:
        return getattr(self.session, name)

    def _finish(self) -> None:
        if self._session is not None:
            self._session.flush()  # what it holds goes in before the commit, as a write_session's commit does

    def _close(self) -> None:
        if self._session is not None:
            self._session.close()


@contextmanager
def move_session(engine: sa.Engine) -> Iterator[Session]:
    """A write transaction as `write_session` makes it (BEGIN IMMEDIATE on SQLite; committed on
    success, rolled back on any exception), for the move path: a Session in every way its callers use
    one, but one that opens the ORM's only when asked for more than its connection (`_OnDemand`).
    On PostgreSQL its BEGIN goes with its first statement, the game's read (`begin_with_first_statement`)."""
    held = _held(engine)
    conn = writer(engine).connect() if held is None else held
    try:
        with begin_with_first_statement(conn), conn.begin():
            writing = _OnDemand(conn)
            try:
                yield cast(Session, writing)
                writing._finish()
            finally:
                writing._close()
    finally:
        if held is None:
            conn.close()


def get_engine() -> sa.Engine:
    """The database engine of the current Flask app (see service.create_app)."""
    return cast(sa.Engine, running.extensions()["riftpost.db"])
