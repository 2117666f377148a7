"""Backups of a SQLite database, and putting one back.

A backup goes through SQLite's online backup API in a single step: it reads the database inside one
read transaction, so the copy is the database as of one moment even while the web and the worker
write (WAL mode lets them go on meanwhile), and it never copies a half-written page the way copying
the file (and forgetting its -wal file) would.  The copy is written beside its final name and
renamed once it passed an integrity check, so a dated file in the backups folder is always whole.

PostgreSQL is backed up with its own tools (pg_dump -Fc / pg_restore, README "Backups"): they take a
consistent snapshot of a live server, and a dump made by our code would only be a slower copy.
"""

from __future__ import annotations

import os
import re
import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy.engine import make_url

SUFFIX = ".sqlite"
README_SECTION = 'README.md, "Backups"'


class CannotBackUp(Exception):
    """Why a backup or a restore was not made, in words for the operator."""


@dataclass
class Backup:
    path: Path
    size: int
    seconds: float
    removed: list[Path] = field(default_factory=list)


def sqlite_path(url: str) -> Path | None:
    """The file of a SQLite DATABASE_URL; None for any other database."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite":
        return None
    if not parsed.database or parsed.database == ":memory:":
        raise CannotBackUp("an in-memory SQLite database has nothing to back up")
    return Path(parsed.database)


def _connect(path: Path) -> sqlite3.Connection:
    # The running app's own busy timeout: a writer holding its lock makes us wait, not fail.
    return sqlite3.connect(path, timeout=30, isolation_level=None)


def has_tables(url: str) -> bool:
    """Whether the SQLite database exists and has a table: a fresh, empty one needs no backup."""
    path = sqlite_path(url)
    if path is None or not path.exists():
        return False
    connection = _connect(path)
    try:
        return connection.execute("SELECT count(*) FROM sqlite_master WHERE type = 'table'").fetchone()[0] > 0
    finally:
        connection.close()


def _copy(source: Path, target: Path) -> None:
    """`source` into `target` with the backup API, in one step (one consistent read)."""
    src, dst = _connect(source), _connect(target)
    try:
        src.backup(dst)  # pages=-1: everything at once, under one read transaction of the source
    finally:
        dst.close()
        src.close()


def _check(path: Path) -> None:
    connection = _connect(path)
    try:
        found = connection.execute("PRAGMA integrity_check").fetchall()
        if found != [("ok",)]:
            raise CannotBackUp(f"{path} fails SQLite's integrity check: {found[:3]}")
        # A standalone file (no -wal beside it) whoever opens it; the app turns WAL on again.
        connection.execute("PRAGMA journal_mode=DELETE")
    finally:
        connection.close()


def backups(directory: Path, stem: str) -> list[Path]:
    """The backups of the database named `stem` in `directory`, oldest first: by the time in the name,
    then by the count after it (`-2` is a second backup within the same second, so newer)."""
    named = re.compile(re.escape(stem) + r"-(\d{4}-\d\d-\d\dT\d{6}Z)(?:-(\d+))?" + re.escape(SUFFIX))
    found = [(match, path) for path in directory.iterdir() if (match := named.fullmatch(path.name))]
    found.sort(key=lambda pair: (pair[0][1], int(pair[0][2] or 1)))
    return [path for _, path in found]


def backup(url: str, directory: Path, keep: int | None, now: datetime | None = None) -> Backup:
    """A dated copy of the SQLite database in `directory`; the oldest beyond the last `keep` removed
    (None: none removed)."""
    source = sqlite_path(url)
    if source is None:
        raise CannotBackUp(f"flask backup copies SQLite databases; back up PostgreSQL with pg_dump ({README_SECTION})")
    if not source.exists():
        raise CannotBackUp(f"there is no database at {source}")
    if keep is not None and keep < 1:
        raise CannotBackUp("keep at least one backup")
    started = time.monotonic()
    directory.mkdir(parents=True, exist_ok=True)
    stamp = (now or datetime.now(UTC)).astimezone(UTC).strftime("%Y-%m-%dT%H%M%SZ")
    target = directory / f"{source.stem}-{stamp}{SUFFIX}"
    count = 1
    while target.exists():  # two backups within a second (db-upgrade right after a backup)
        count += 1
        target = directory / f"{source.stem}-{stamp}-{count}{SUFFIX}"
    partial = target.with_name(target.name + ".partial")
    try:
        _copy(source, partial)
        _check(partial)
        os.replace(partial, target)
    finally:
        partial.unlink(missing_ok=True)
    made = Backup(target, target.stat().st_size, time.monotonic() - started)
    if keep is not None:
        for old in backups(directory, source.stem)[:-keep]:
            old.unlink()
            made.removed.append(old)
    return made


def schema_revision(path: Path) -> str | None:
    connection = _connect(path)
    try:
        row = connection.execute("SELECT version_num FROM alembic_version").fetchone()
    except sqlite3.DatabaseError:
        return None
    finally:
        connection.close()
    return row[0] if row else None


def restore(url: str, backup_file: Path, known_revisions: set[str], before: Callable[[], object] | None = None) -> None:
    """Put `backup_file` back as the database of `url`, through the backup API (SQLite's locks keep a
    process that still has the database open from reading a half-restored file).  `before` runs once
    the file passed its checks, right before the copy (the command line backs up the database there).

    Refused unless the file is a whole Riftpost database (SQLite's integrity check, a schema
    revision) whose revision this code knows: a backup made by a newer release would run under code
    that does not understand its tables."""
    target = sqlite_path(url)
    if target is None:
        raise CannotBackUp(f"flask restore puts back SQLite backups; restore PostgreSQL with pg_restore ({README_SECTION})")
    if not backup_file.is_file():
        raise CannotBackUp(f"there is no file {backup_file}")
    if backup_file.resolve() == target.resolve():
        raise CannotBackUp(f"{backup_file} is the database itself")
    try:
        connection = _connect(backup_file)
        try:
            found = connection.execute("PRAGMA integrity_check").fetchall()
        finally:
            connection.close()
    except sqlite3.DatabaseError as exc:
        raise CannotBackUp(f"{backup_file} is not a SQLite database ({exc})") from None
    if found != [("ok",)]:
        raise CannotBackUp(f"{backup_file} fails SQLite's integrity check: {found[:3]}")
    revision = schema_revision(backup_file)
    if revision is None:
        raise CannotBackUp(f"{backup_file} is not a Riftpost database (it has no schema revision)")
    if revision not in known_revisions:
        raise CannotBackUp(f"{backup_file} is at schema revision {revision}, which this version of Riftpost "
                           "does not know (a backup of a newer release?)")
    if before is not None:
        before()
    target.parent.mkdir(parents=True, exist_ok=True)
    _copy(backup_file, target)
