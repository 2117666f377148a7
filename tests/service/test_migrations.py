"""The Alembic migrations are the schema: they must match the SQLModel tables exactly."""

from __future__ import annotations

from datetime import UTC

import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlmodel import SQLModel

import service.store.models  # noqa: F401
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


def test_0005_drops_only_the_snapshots_of_beyond_the_rift_rules_1_games_which_then_play_on(tmp_path):
    """A Beyond the Rift game set up under rules version 1 (its log made by that engine) with a stored
    snapshot of the old shape: after the upgrade its snapshot is gone, the others stay, and the game's
    player page and moves work (the state is replayed from event 1, upgraded by the engine)."""
    import json
    from datetime import datetime
    from pathlib import Path

    import engine
    from service import links
    from service.play import handle
    from tests.conftest import make_app

    log = json.loads((Path(__file__).parents[1] / "engine" / "beyond_the_rift" / "upgrade"
                      / "rules-1-old-friends-1-2-heroes.json").read_text())
    events = log["events"]
    rules = engine.get("beyond-the-rift")
    now = datetime(2026, 11, 1, tzinfo=UTC)
    url = f"sqlite:///{tmp_path / 'old.sqlite'}"
    upgrade(url, "0004")
    db = sa.create_engine(url)
    meta = sa.MetaData()
    meta.reflect(db)
    games, players, event_rows, snapshots = (meta.tables[t] for t in ("games", "players", "events", "snapshots"))
    with db.begin() as connection:
        for game_id, name, version in ((1, "beyond-the-rift", "1"), (2, "beyond-the-rift", "2"), (3, "riftforce", "1")):
            connection.execute(games.insert().values(
                id=game_id, name=name, rules_version=version, options={"scenario": "old-friends-1"}, seed=log["seed"],
                seq=len(events) if game_id == 1 else 1, status="active", to_act=rules.to_act(engine.replay(rules, events)),
                result=None, created_at=now, updated_at=now))
            connection.execute(snapshots.insert().values(game_id=game_id, seq=1, state=events[0]["state"], created_at=now))
        for seat, name in enumerate(("Ann", "Bob")):
            connection.execute(players.insert().values(game_id=1, seat=seat, name=name, email=f"{name.lower()}@example.org",
                                                       turn_emails=True))
        connection.execute(event_rows.insert(), [
            {"game_id": 1, "seq": seq, "type": ev["type"], "payload": ev, "actor": None, "kind": "move", "created_at": now}
            for seq, ev in enumerate(events, 1)])
    db.dispose()

    upgrade(url, "0005")
    db = sa.create_engine(url)
    with db.connect() as connection:
        assert sorted(connection.execute(sa.text("SELECT game_id FROM snapshots")).scalars()) == [2, 3]
    db.dispose()
    upgrade(url)  # 0006: snapshots now name the engine version that made them; the old ones go
    db = sa.create_engine(url)
    with db.connect() as connection:
        assert list(connection.execute(sa.text("SELECT game_id FROM snapshots")).scalars()) == []
    db.dispose()
    app = make_app(tmp_path, url)
    with app.app_context():
        page = app.test_client().get(f"/p/{links.player_token(1)}")
        assert page.status_code == 200 and "Beyond the Rift" in page.get_data(as_text=True)
        seat = rules.to_act(engine.replay(rules, events))[0]
        outcome = handle(1, seat, {"type": "done"}, len(events))
        assert outcome.seq > len(events)
    app.extensions["riftpost.db"].dispose()


def test_0010e_counts_the_zones_people_chose_and_leaves_the_utc_default_unchosen(tmp_path):
    """A stored zone other than UTC was someone's choice; a stored UTC is the default almost always, so
    the page may take the person's browser's zone (issue #22, item 4).  Every row survives."""
    url = f"sqlite:///{tmp_path / 'zones.sqlite'}"
    upgrade(url, "0009")
    db = sa.create_engine(url)
    with db.begin() as connection:
        for email, zone in (("ann@example.org", "Europe/Paris"), ("bob@example.org", "UTC")):
            connection.execute(sa.text(
                "INSERT INTO people (email, time_zone, allowance_year, allowance_used_seconds) "
                "VALUES (:email, :zone, 2026, 60)"), {"email": email, "zone": zone})
    db.dispose()
    upgrade(url)
    db = sa.create_engine(url)
    with db.connect() as connection:
        found = connection.execute(sa.text(
            "SELECT email, time_zone, time_zone_set_at IS NOT NULL, allowance_used_seconds FROM people ORDER BY email")).all()
    db.dispose()
    assert [tuple(row) for row in found] == [("ann@example.org", "Europe/Paris", 1, 60), ("bob@example.org", "UTC", 0, 60)]
