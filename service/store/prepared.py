"""Statements the move path runs straight on the DB-API connection, compiled once by SQLAlchemy.

A move runs the same few statements on every request, and SQLAlchemy's Core spends ~90 µs of Python on
each execution (its statement cache key, execution context, result object and events), more than the
SQL itself costs SQLite (issue #27).  A `Prepared` statement is compiled by SQLAlchemy once per dialect,
with SQLAlchemy's own parameter and column conversions, then runs on the connection's DB-API cursor:
the SQL text and the values written (JSON text, datetimes, booleans) are the ones SQLAlchemy itself
would send, so every other reader of these tables, through SQLAlchemy, reads them back unchanged; and
the driver's own statement cache (pysqlite's; psycopg's server-side prepare) still applies.

It runs in the caller's transaction (the SQLAlchemy connection's; on PostgreSQL psycopg begins it at the
first statement, as it does for SQLAlchemy's, or, in a move's transaction, that statement carries the
BEGIN itself: `begin_with_first_statement`).  A driver error is raised as SQLAlchemy would raise it
(`sa.exc.IntegrityError` and so on, the connection invalidated on a disconnect), so callers catch the
same exceptions either way.

Unlike `session.execute`, it does not flush the ORM session first: a read given a session holding ORM
objects not yet flushed does not see them.  Its readers (service/store/log.py, journal.py, the
mail's) run in read sessions or after Core writes; a new caller that adds ORM objects and then reads
through them flushes first.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, Protocol

import sqlalchemy as sa
from sqlalchemy.engine import Dialect
from sqlalchemy.pool import PoolProxiedConnection

Processor = Callable[[Any], Any] | None


class Conn(Protocol):
    """What a statement runs on: a SQLAlchemy connection, or a pooled DB-API connection with its dialect
    (service/store/db.py `unbound`)."""

    @property
    def dialect(self) -> Dialect: ...

    @property
    def connection(self) -> PoolProxiedConnection: ...

    def invalidate(self, exception: BaseException | None = None) -> None: ...


@dataclass(frozen=True, slots=True)
class _Compiled:
    sql: str
    names: tuple[str, ...]  # the parameters in the order the driver takes them (qmark) ...
    named: bool  # ... or by name (pyformat: psycopg)
    binds: tuple[tuple[str, Processor], ...]  # the parameters with a conversion
    constants: dict[str, Any]  # the statement's own values (a literal, a LIMIT's count): bound as they are
    # (place, conversion) of each result column that has one; the others are as the driver gives them
    conversions: tuple[tuple[int, Callable[[Any], Any]], ...]


class Prepared:
    """A Core statement, run on the DB-API cursor of a SQLAlchemy connection.  Its parameters are the
    values the caller gives (its `bindparam`s) and the values the statement holds (its literals)."""

    __slots__ = ("_by_dialect", "column_keys", "statement")

    def __init__(self, statement: sa.Executable, column_keys: Sequence[str] | None = None) -> None:
        self.statement = statement
        self.column_keys = list(column_keys) if column_keys is not None else None  # an INSERT's columns
        self._by_dialect: weakref.WeakKeyDictionary[Dialect, _Compiled] = weakref.WeakKeyDictionary()

    def _compiled(self, dialect: Dialect) -> _Compiled:
        found = self._by_dialect.get(dialect)
        if found is None:
            found = self._by_dialect[dialect] = self._compile(dialect)
        return found

    def _compile(self, dialect: Dialect) -> _Compiled:
        # for_executemany: an INSERT without the RETURNING of its new id that SQLAlchemy adds to one
        # row's INSERT on PostgreSQL (nothing here reads it back)
        compiled = self.statement.compile(dialect=dialect, column_keys=self.column_keys,  # type: ignore[attr-defined]
                                          for_executemany=self.column_keys is not None)
        named = compiled.positiontup is None
        names = tuple(compiled.positiontup or compiled.bind_names.values())
        # A value written in the statement (`!= "system"`, `coalesce(..., 0)`, a LIMIT and the OFFSET 0
        # SQLite adds to it) is a parameter of its SQL too, with the value the statement holds.
        constants = {name: bind.value for bind, name in compiled.bind_names.items() if not bind.required}
        # each parameter converted once, however often the statement names it (qmark repeats the name)
        binds = tuple((name, proc) for name in dict.fromkeys(names)
                      if (proc := compiled.binds[name].type.dialect_impl(dialect).bind_processor(dialect)) is not None)
        selected = getattr(self.statement, "selected_columns", ())  # (none: an UPDATE or INSERT)
        processors = [column.type.dialect_impl(dialect).result_processor(dialect, None) for column in selected]
        conversions = tuple((place, proc) for place, proc in enumerate(processors) if proc is not None)
        return _Compiled(compiled.string, names, named, binds, constants, conversions)

    def _params(self, compiled: _Compiled, values: Mapping[str, Any]) -> Any:
        if compiled.constants:
            values = {**compiled.constants, **values}
        if compiled.binds:
            values = dict(values)
            for name, proc in compiled.binds:
                values[name] = proc(values[name])  # type: ignore[misc]
        return values if compiled.named else tuple(values[name] for name in compiled.names)

    def run(self, conn: Conn, values: Mapping[str, Any]) -> Any:
        """Execute with one set of `values`; the DB-API cursor (its rowcount, its rows: see `rows`)."""
        compiled = self._compiled(conn.dialect)
        params = self._params(compiled, values)
        return _executed(conn, compiled.sql, params, many=False)

    def run_many(self, conn: Conn, rows: Iterable[Mapping[str, Any]]) -> None:
        """Execute once for each of `rows` (the driver's executemany: one statement prepared once; one
        round trip on PostgreSQL, whose psycopg pipelines them)."""
        compiled = self._compiled(conn.dialect)
        params = [self._params(compiled, values) for values in rows]
        _executed(conn, compiled.sql, params, many=True).close()

    def rows(self, conn: Conn, values: Mapping[str, Any]) -> list[tuple[Any, ...]]:
        """The result rows, each column converted as SQLAlchemy converts it."""
        compiled = self._compiled(conn.dialect)
        cursor = self.run(conn, values)
        try:
            found = cursor.fetchall()
        except conn.dialect.loaded_dbapi.Error as exc:
            raise _translated(conn, compiled.sql, None, exc) from exc
        finally:
            cursor.close()
        conversions = compiled.conversions
        if not conversions:
            return list(found)
        # Only the columns that have a conversion are touched: a wide row (an email's rows, joined) has
        # a few dates and JSON among many plain values.
        converted = []
        for row in found:
            cells = list(row)
            for place, proc in conversions:
                if cells[place] is not None:
                    cells[place] = proc(cells[place])
            converted.append(tuple(cells))
        return converted


def execute_text(conn: Conn, sql: str) -> None:
    """Run `sql`, without parameters or rows (a BEGIN), on the DB-API connection."""
    try:
        conn.connection.driver_connection.execute(sql)  # type: ignore[union-attr]
    except conn.dialect.loaded_dbapi.Error as exc:
        raise _translated(conn, sql, None, exc) from exc


@contextmanager
def together(conn: Conn) -> Iterator[None]:
    """The statements run inside go to the server in one round trip on PostgreSQL (psycopg's pipeline:
    sent at once, their results read at the end, so a rowcount is known only after this block and an
    error is raised at its end); on SQLite, in the process, one by one as anywhere else (and so on a
    PostgreSQL client library too old for pipelines)."""
    pipeline = getattr(conn.dialect.loaded_dbapi, "Pipeline", None)  # psycopg's; None: SQLite's module
    if pipeline is None or not pipeline.is_supported():  # (psycopg's needs libpq 14 or later)
        yield
        return
    driver: Any = conn.connection.driver_connection
    try:
        with driver.pipeline():
            yield
    except conn.dialect.loaded_dbapi.Error as exc:
        raise _translated(conn, "(pipeline)", None, exc) from exc


class _Pending:
    """A transaction whose BEGIN waits for its first statement (`begin_with_first_statement`)."""

    __slots__ = ("conn", "switched", "waiting")

    def __init__(self, conn: Conn) -> None:
        self.conn = conn
        self.waiting = True  # till the transaction's first statement run here
        self.switched = False  # whether that statement sent the BEGIN (the driver put in autocommit for it)


_PENDING: ContextVar[_Pending | None] = ContextVar("riftpost_pending_begin", default=None)


def begin_with_first_statement(conn: sa.Connection) -> AbstractContextManager[None]:
    """Around a transaction of `conn` (its begin and its commit or rollback): on PostgreSQL the BEGIN goes
    to the server with the transaction's first statement, in one round trip, when that statement is one
    of ours (a `Prepared`'s run or rows).  psycopg sends its own BEGIN as a round trip of its own, in a
    pipeline too; here the driver is put in autocommit (so it sends none) and that statement goes out in
    a pipeline behind an explicit BEGIN.  Anything else that comes first (SQLAlchemy's Core or ORM) finds
    the driver as it was and begins the transaction as always: nothing ever runs outside it.  psycopg
    refuses to leave autocommit inside a transaction, so it is left on the way out, after the commit
    or rollback (a connection that refuses is invalidated: never pooled in autocommit).  SQLite: nothing
    (a shared no-op, not a generator's context: the move's SQLite path pays no more than before)."""
    # psycopg (3)'s alone: its pipeline and transaction status (psycopg2 would take the usual path).
    if conn.dialect.name != "postgresql" or conn.dialect.driver != "psycopg" or _PENDING.get() is not None:
        return _NOTHING
    return _begun_with_first(conn)


_NOTHING = nullcontext()


@contextmanager
def _begun_with_first(conn: sa.Connection) -> Iterator[None]:
    driver: Any = conn.connection.driver_connection
    pending = _Pending(conn)
    token = _PENDING.set(pending)
    try:
        yield
    finally:
        # The driver out of autocommit first: nothing after it may keep the pool from getting it back so.
        try:
            if pending.switched and not driver.closed:
                try:
                    driver.autocommit = False
                except Exception as exc:  # noqa: BLE001 - still in a transaction: the pool must not keep it
                    conn.invalidate(exc)
        finally:
            _PENDING.reset(token)


def _begin_here(conn: Conn, driver: Any) -> bool:
    """Whether the statement about to run on `conn` is to carry its transaction's BEGIN (and, if so, the
    driver is now in autocommit: `begin_with_first_statement` restores it)."""
    pending = _PENDING.get()
    if pending is None or not pending.waiting or pending.conn is not conn:
        return False
    pending.waiting = False
    begin = (not driver.autocommit and driver.pgconn.transaction_status == 0  # IDLE: nothing sent yet
             and driver.isolation_level is None and driver.read_only is None and driver.deferrable is None
             and driver.pgconn.pipeline_status == 0 and conn.dialect.loaded_dbapi.Pipeline.is_supported())
    if begin:
        driver.autocommit = True
        pending.switched = True
    return begin


def _executed(conn: Conn, sql: str, params: Any, *, many: bool) -> Any:
    """A new DB-API cursor that ran `sql` (with `params`, or each of them when `many`); a driver error
    is raised as SQLAlchemy's, its cursor closed."""
    driver: Any = conn.connection.driver_connection
    cursor = driver.cursor()
    try:
        if not many and _begin_here(conn, driver):
            with driver.pipeline():  # the BEGIN and the statement, one round trip
                driver.execute("BEGIN")
                cursor.execute(sql, params)
        elif many:
            cursor.executemany(sql, params)
        else:
            cursor.execute(sql, params)
    except conn.dialect.loaded_dbapi.Error as exc:
        cursor.close()
        raise _translated(conn, sql, params, exc) from exc
    return cursor


def _translated(conn: Conn, sql: str, params: Any, exc: Exception) -> Exception:
    """The driver's error as SQLAlchemy raises it (its `sa.exc` class; a lost connection invalidated,
    so the pool never hands it out again).  Unlike SQLAlchemy, the pool's older connections are not
    retired with it: the checkout's check finds those the server closed (service/store/db.py)."""
    disconnect = conn.dialect.is_disconnect(exc, conn.connection.dbapi_connection, None)  # type: ignore[arg-type]
    if disconnect:
        conn.invalidate(exc)
    return sa.exc.DBAPIError.instance(sql, params, exc, conn.dialect.loaded_dbapi.Error,
                                      connection_invalidated=disconnect, dialect=conn.dialect)
