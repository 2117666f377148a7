"""Beat's way into the embedded broker: kombu's SQLAlchemy transport ("sqla+sqlite:///...") with
Python's sqlite3 instead of SQLAlchemy, for publishing only.

kombu's transport needs SQLAlchemy's ORM (its tables are declarative models): ~15 MB of beat's memory
for what beat does with it, an INSERT per scheduled task (bench/memory.py).  This channel writes the
same rows into the same tables as kombu's (kombu/transport/sqlalchemy/models.py: a queue row by name, a
message row with the JSON of the message, visible, version 1, no timestamp until taken), so the workers'
kombu transport takes them as its own (tests/worker/test_lean_processes.py).  The journal is the
one worker/app.py gives kombu's (WAL, synchronous NORMAL); the busy timeout is the same 5 s as
SQLAlchemy's sqlite driver (`connect_args` `timeout` among the transport options).  It never takes a
message: only beat uses it (worker/beat.py `main`).
"""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from kombu.transport import virtual

# The tables as kombu's models create them (SQLAlchemy's DDL for SQLite, `IF NOT EXISTS` added): a beat
# started before any worker on a new instance creates them, and kombu's create_all then finds them.
SCHEMA = """
CREATE TABLE IF NOT EXISTS {queue} (
	id INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
	name VARCHAR(200),
	UNIQUE (name)
);
CREATE TABLE IF NOT EXISTS {message} (
	id INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
	visible BOOLEAN,
	timestamp DATETIME,
	payload TEXT NOT NULL,
	version SMALLINT NOT NULL,
	queue_id INTEGER,
	CONSTRAINT "FK_{message}_queue" FOREIGN KEY(queue_id) REFERENCES {queue} (id)
);
CREATE INDEX IF NOT EXISTS ix_{message}_visible ON {message} (visible);
CREATE INDEX IF NOT EXISTS ix_{message}_timestamp_id ON {message} (timestamp, id);
CREATE INDEX IF NOT EXISTS ix_{message}_timestamp ON {message} (timestamp);
"""


def database_path(url: str) -> str:
    """The file of a `sqlite:///...` URL (SQLAlchemy's form: `sqlite:////absolute`, `sqlite:///relative`)."""
    scheme, _, rest = url.partition("://")
    if scheme not in ("sqlite", "sqlite+pysqlite") or not rest.startswith("/") or "?" in rest or len(rest) < 2:
        raise ValueError(f"not a SQLite file URL: {url!r}")
    return rest[1:]


class Channel(virtual.Channel):
    _db: sqlite3.Connection | None = None

    def __init__(self, connection: Any, **kwargs: Any) -> None:
        options = connection.client.transport_options
        # kombu's option names, with its defaults
        self.queue_table = options.get("queue_tablename", "kombu_queue")
        self.message_table = options.get("message_tablename", "kombu_message")
        # kombu hands its options to create_engine: a busy timeout would come as the driver's argument
        self.timeout = float(options.get("connect_args", {}).get("timeout", 5.0))
        self._queue_ids: dict[str, int] = {}
        super().__init__(connection, **kwargs)

    @property
    def db(self) -> sqlite3.Connection:
        if self._db is None:
            db = sqlite3.connect(database_path(self.connection.client.hostname), timeout=self.timeout,
                                 isolation_level=None)  # autocommit: each statement its own transaction
            try:
                db.execute("PRAGMA journal_mode=WAL")
                db.execute("PRAGMA synchronous=NORMAL")
                db.executescript(SCHEMA.format(queue=self.queue_table, message=self.message_table))
            except BaseException:
                db.close()
                raise
            self._db = db
        return self._db

    def _queue_id(self, queue: str) -> int:
        found = self._queue_ids.get(queue)
        if found is None:
            self.db.execute(f"INSERT OR IGNORE INTO {self.queue_table} (name) VALUES (?)", (queue,))
            found = self.db.execute(f"SELECT id FROM {self.queue_table} WHERE name = ?", (queue,)).fetchone()[0]
            self._queue_ids[queue] = found
        return found

    def _new_queue(self, queue: str, **kwargs: Any) -> None:
        self._queue_id(queue)

    def _put(self, queue: str, message: dict[str, Any], **kwargs: Any) -> None:
        self.db.execute(f"INSERT INTO {self.message_table} (visible, timestamp, payload, version, queue_id) "
                        "VALUES (1, NULL, ?, 1, ?)", (json.dumps(message), self._queue_id(queue)))

    def _get(self, queue: str, timeout: float | None = None) -> Any:
        raise NotImplementedError("beat's SQLite channel only publishes: workers use kombu's transport")

    def _purge(self, queue: str) -> int:
        raise NotImplementedError("beat's SQLite channel only publishes: workers use kombu's transport")

    def close(self) -> None:
        try:
            super().close()
        finally:
            if self._db is not None:
                self._db.close()
                self._db = None


class Transport(virtual.Transport):
    Channel = Channel
    can_parse_url = True  # the URL is the database's, read by the channel
    default_port = 0  # type: ignore[assignment]  # kombu's: None; its SQLAlchemy transport's: 0
    driver_type = "sql"
    driver_name = "sqlite3"
    # A locked database is what a lost connection is to other brokers: kombu retries the publish, then
    # beat drops this connection and the next tick opens another (worker/beat.py).
    connection_errors = (sqlite3.OperationalError,)

    def driver_version(self) -> str:
        return sqlite3.sqlite_version


def lean(broker_url: str) -> tuple[str, str | None]:
    """(broker_url, broker_transport) for beat: this transport for the embedded SQLite broker, else the
    URL as it is with kombu's transport for it."""
    if broker_url.startswith("sqla+sqlite:"):
        url = broker_url.removeprefix("sqla+")
        try:
            database_path(url)
        except ValueError:  # an in-memory database or URL options: kombu's own transport
            return broker_url, None
        return url, f"{__name__}:Transport"
    return broker_url, None
