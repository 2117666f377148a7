"""What the database is sent, counted at the driver: every statement, whether SQLAlchemy ran it or the
move path ran it on the DB-API cursor (service/store/prepared.py), with the BEGIN, COMMIT and ROLLBACK
the driver sends itself.

SQLite: the connection's trace callback (each statement as SQLite runs it).  PostgreSQL: libpq's
protocol trace, read back: a simple Query or an extended-protocol Execute is one statement, and a Query
or a Sync is one round trip (psycopg pipelines an executemany: its rows share one Sync).
"""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import sqlalchemy as sa


@dataclass
class Sent:
    statements: list[str] = field(default_factory=list)  # each statement's first word: SELECT, BEGIN...
    round_trips: int = 0  # PostgreSQL only (SQLite runs in the process)
    texts: list[str] = field(default_factory=list)  # each statement's text (PostgreSQL's: its parameters as $1...)

    def clear(self) -> None:
        self.statements.clear()
        self.texts.clear()
        self.round_trips = 0

    def transactions(self) -> list[list[str]]:
        """The statements between each BEGIN and its COMMIT or ROLLBACK; a statement outside any
        transaction is a list of its own."""
        found: list[list[str]] = []
        inside = False
        for word in self.statements:
            if word == "BEGIN":
                found.append([])
                inside = True
            elif word in ("COMMIT", "ROLLBACK"):
                inside = False
            elif inside:
                found[-1].append(word)
            else:
                found.append([word])
        return found


# (libpq's trace quotes a statement's text without escaping the quotes in it: a Parse's text runs to
# the last quote before its count of parameter types, a Query's to the end of its message; a text's
# line breaks are the trace's too)
_PARSE = re.compile(r'\tParse\t "([^"]*)" "((\w+).*)" \d+', re.DOTALL)
_BIND = re.compile(r'\tBind\t "[^"]*" "([^"]*)"')
_QUERY = re.compile(r'\tQuery\t "((\w+).*)"$', re.DOTALL)


def _messages(lines: Iterable[str]) -> Iterator[str]:
    """The trace's messages: a statement's text goes into it as it is, its line breaks too."""
    message = ""
    for line in lines:
        if line.startswith(("F\t", "B\t")) and message:
            yield message
            message = ""
        message += line
    if message:
        yield message


@contextmanager
def counted(engine: sa.Engine) -> Iterator[Sent]:
    """Count what `engine`'s connections send while inside (the pool is emptied first, so every
    connection used is one this sees from its start)."""
    sent = Sent()
    engine.dispose()
    on_connect, finish = _sqlite_trace(sent) if engine.dialect.name == "sqlite" else _libpq_trace(sent)
    sa.event.listen(engine, "connect", on_connect)
    try:
        yield sent
    finally:
        sa.event.remove(engine, "connect", on_connect)
        engine.dispose()
        finish()


def _sqlite_trace(sent: Sent) -> tuple[Callable[[Any, Any], None], Callable[[], None]]:
    """(what a new connection is given: SQLite's trace callback, what to do once done: nothing)."""
    def trace(text: str) -> None:
        sent.statements.append(text.split(None, 1)[0].upper())
        sent.texts.append(text)

    def on_connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.set_trace_callback(trace)

    return on_connect, lambda: None


def _libpq_trace(sent: Sent) -> tuple[Callable[[Any, Any], None], Callable[[], None]]:
    """(what a new connection is given: libpq's protocol trace into a file, what to do once done: stop
    tracing, read the file into `sent`)."""
    from psycopg import pq

    handle, path = tempfile.mkstemp(prefix="libpq-trace-")
    traced: list[Any] = []

    def on_connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.pgconn.trace(handle)
        dbapi_connection.pgconn.set_trace_flags(pq.Trace.SUPPRESS_TIMESTAMPS | pq.Trace.REGRESS_MODE)
        traced.append(dbapi_connection)

    def read() -> None:
        with open(path) as lines:
            named: dict[str, tuple[str, str]] = {}  # a prepared statement's (first word, text)
            pending = ("", "")
            for message in _messages(lines):
                line = message.rstrip("\n")
                if not line.startswith("F\t"):
                    continue
                if parse := _PARSE.search(line):
                    named[parse.group(1)] = pending = (parse.group(3).upper(), parse.group(2))
                elif bind := _BIND.search(line):
                    pending = named.get(bind.group(1), pending)
                elif "\tExecute\t" in line:
                    sent.statements.append(pending[0])
                    sent.texts.append(pending[1])
                elif query := _QUERY.search(line):
                    sent.statements.append(query.group(2).upper())
                    sent.texts.append(query.group(1))
                    sent.round_trips += 1
                elif "\tSync" in line:
                    sent.round_trips += 1

    def finish() -> None:
        for connection in traced:
            if not connection.closed:
                connection.pgconn.untrace()
        os.close(handle)
        read()
        os.unlink(path)

    return on_connect, finish

