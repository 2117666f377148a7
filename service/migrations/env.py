"""Alembic environment: the schema is SQLModel.metadata (service/store/models.py); the URL comes from
the caller (service/migrate.py) or, for the alembic command line, from DATABASE_URL."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine
from sqlmodel import SQLModel

import service.store.models  # noqa: F401 - registers the tables on SQLModel.metadata
from service.config import from_env

config = context.config
target_metadata = SQLModel.metadata


def _url() -> str:
    url = config.get_main_option("sqlalchemy.url")
    if url:
        return url
    return from_env()["DATABASE_URL"]


def run_offline() -> None:
    context.configure(url=_url(), target_metadata=target_metadata, render_as_batch=True,
                      literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()


def run_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        context.configure(connection=connection, target_metadata=target_metadata, render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()
        return
    engine = create_engine(_url())
    with engine.connect() as connection:
        # SQLite: ALTERs run as "batch" copies of the table (render_as_batch).
        context.configure(connection=connection, target_metadata=target_metadata, render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()
    engine.dispose()


if context.is_offline_mode():
    run_offline()
else:
    run_online()
