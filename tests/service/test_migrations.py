"""The Alembic migrations are the schema: they must match the SQLModel tables exactly."""

from __future__ import annotations

import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlmodel import SQLModel

import service.models  # noqa: F401
from service.migrate import upgrade
from tests import services


def differences(url: str) -> list:
    engine = sa.create_engine(url)
    try:
        with engine.connect() as connection:
            context = MigrationContext.configure(connection, opts={"compare_type": True})
            return compare_metadata(context, SQLModel.metadata)
    finally:
        engine.dispose()


def test_sqlite_migrations_match_the_models(tmp_path):
    url = f"sqlite:///{tmp_path / 'fresh.sqlite'}"
    upgrade(url)
    upgrade(url)  # a second upgrade is a no-op
    assert differences(url) == []


@pytest.mark.postgres
def test_postgres_migrations_match_the_models():
    url = services.postgres_database()
    try:
        upgrade(url)
        assert differences(url) == []
    finally:
        services.drop_postgres(url)


def test_flask_db_upgrade_command_creates_the_schema(tmp_path):
    from tests.conftest import make_app

    url = f"sqlite:///{tmp_path / 'cli.sqlite'}"
    app = make_app(tmp_path, url)
    result = app.test_cli_runner().invoke(args=["db-upgrade"])
    assert result.exit_code == 0, result.output
    assert "events" in sa.inspect(sa.create_engine(url)).get_table_names()
