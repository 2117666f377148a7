"""Running the Alembic migrations that ship inside this package (service/migrations)."""

from __future__ import annotations

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import create_engine


def alembic_config(url: str) -> Config:
    config = Config()
    # A package resource, so an installed riftpost finds its migrations wherever it lives.
    config.set_main_option("script_location", "service:migrations")
    config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return config


def upgrade(url: str, revision: str = "heads") -> None:
    # "heads", not "head": migrations written side by side may branch from one parent until a
    # merge revision joins them; an upgrade must apply every branch.
    command.upgrade(alembic_config(url), revision)


def revisions() -> set[str]:
    """Every schema revision this code's migrations know."""
    return {script.revision for script in ScriptDirectory.from_config(alembic_config("sqlite://")).walk_revisions()}


def heads() -> set[str]:
    """The revisions an upgrade brings a database to."""
    return set(ScriptDirectory.from_config(alembic_config("sqlite://")).get_heads())


def current(url: str) -> set[str]:
    """The revisions the database at `url` is at; empty for a database without our schema."""
    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            return set(MigrationContext.configure(connection).get_current_heads())
    finally:
        engine.dispose()
