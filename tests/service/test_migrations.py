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


def test_the_cli_works_from_any_directory_as_installed(tmp_path):
    """`flask --app service ...` as an operator runs it: the migrations and templates ship with
    the package, whatever the working directory."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    flask = Path(sys.executable).with_name("flask")
    env = dict(os.environ, DATABASE_URL=f"sqlite:///{tmp_path / 'ops.sqlite'}", RIFTPOST_INSTANCE=str(tmp_path),
               CELERY_BROKER_URL="memory://", SECRET_KEY="x")
    upgrade_run = subprocess.run([flask, "--app", "service", "db-upgrade"], cwd=tmp_path, env=env,
                                 capture_output=True, text=True, timeout=120)
    assert upgrade_run.returncode == 0, upgrade_run.stderr
    created = subprocess.run([flask, "--app", "service", "new-game", "riftforce", "ann@example.org",
                              "Bob=bob@example.org", "--seed", "3"], cwd=tmp_path, env=env,
                             capture_output=True, text=True, timeout=120)
    assert created.returncode == 0, created.stderr
    assert created.stdout.strip() == "1"


def test_the_migrations_have_one_head():
    """Branches written side by side must be joined by a merge revision before they land, so the
    schema has one well-defined latest version."""
    from alembic.script import ScriptDirectory

    from service.migrate import alembic_config

    assert len(ScriptDirectory.from_config(alembic_config("sqlite://")).get_heads()) == 1
