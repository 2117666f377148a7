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
        page = app.test_client().get(f"/p/{links.player_token(1, None)}")  # made before keys: none
        assert page.status_code == 200 and "Beyond the Rift" in page.get_data(as_text=True)
        seat = rules.to_act(engine.replay(rules, events))[0]
        outcome = handle(1, seat, {"type": "done"}, len(events))
        assert outcome.seq > len(events)
    app.extensions["riftpost.db"].dispose()


@pytest.mark.parametrize("backend", ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def test_0010a_makes_each_games_seed_its_secret_so_its_log_its_draws_and_its_message_ids_stay(tmp_path, backend):
    """Games made before secrets: their secret is the seed's text and their commitment its SHA-256, so
    `flask verify --game` replays their log from it, their next move draws what the seed drew and
    their Message-IDs stay (threads under way go on).  A downgrade gives the seed back."""
    import hashlib
    import random
    from datetime import datetime

    from alembic import command

    import engine
    from service import store
    from service.mail.threads import thread_key
    from service.migrate import alembic_config
    from service.play import handle
    from service.store import deal, get_engine, read_session
    from tests.conftest import make_app
    from tests.service import toygame

    url = f"sqlite:///{tmp_path / 'old.sqlite'}" if backend == "sqlite" else services.postgres_database()
    try:
        upgrade(url, "0009")
        rules = engine.get(toygame.NAME)
        seeds = {1: 2**47 + 12345, 2: 7}
        now = datetime(2026, 11, 1, 12, 30, 5, tzinfo=UTC)
        db = sa.create_engine(url)
        meta = sa.MetaData()
        meta.reflect(db)
        games, players, events = (meta.tables[t] for t in ("games", "players", "events"))
        with db.begin() as connection:
            for game_id, seed in seeds.items():
                setup = rules.start(2, {}, seed=seed)
                connection.execute(games.insert().values(
                    id=game_id, name=toygame.NAME, rules_version="1", options={}, seed=seed, seq=len(setup),
                    status="active", to_act=[0], result=None, created_at=now, updated_at=now, history_public=True))
                for seat in (0, 1):
                    connection.execute(players.insert().values(game_id=game_id, seat=seat, name=f"P{seat}",
                                                               email=f"p{seat}.{game_id}@example.org", turn_emails=True))
                connection.execute(events.insert(), [
                    {"game_id": game_id, "seq": seq, "type": event["type"], "payload": event, "actor": None,
                     "kind": "setup", "created_at": now} for seq, event in enumerate(setup, 1)])
        db.dispose()

        upgrade(url)
        db = sa.create_engine(url)
        with db.connect() as connection:
            rows = connection.execute(sa.text("SELECT id, secret, commitment FROM games ORDER BY id")).all()
        db.dispose()
        assert [(row.id, row.secret, row.commitment) for row in rows] == [
            (game_id, str(seed), hashlib.sha256(str(seed).encode()).hexdigest()) for game_id, seed in seeds.items()]

        app = make_app(tmp_path, url)
        with app.app_context():
            runner = app.test_cli_runner()
            for game_id, seed in seeds.items():
                with read_session(get_engine()) as session:
                    game = store.get_game(session, game_id)
                    state, _ = store.load_state(session, game)
                # The key the seed always gave (service/mail/threads.py before secrets).
                assert thread_key(game) == hashlib.sha256(f"{game_id}:{seed}:20261101123005".encode()).hexdigest()[:12]
                assert deal.shown(game).commitment is None  # a 48-bit seed's hash would be a guessing oracle
                result = runner.invoke(args=["verify", "--game", str(game_id)])
                assert result.exit_code == 0 and "the deal checks out" in result.output, result.output
                move = rules.legal_moves(state, 0)[0]
                outcome = handle(game_id, 0, move, game.seq)
                assert outcome.events == rules.play(state, 0, move, random.Random(f"{seed}:{game.seq}"))
        app.extensions["riftpost.db"].dispose()

        command.downgrade(alembic_config(url), "0009")
        db = sa.create_engine(url)
        with db.connect() as connection:
            assert connection.execute(sa.text("SELECT id, seed FROM games ORDER BY id")).all() == list(seeds.items())
        db.dispose()
    finally:
        if backend == "postgres":
            services.drop_postgres(url)


def test_0010b_rows_made_before_keys_keep_their_links_and_return_paths_and_new_rows_get_keys(tmp_path):
    """Migration 0010b on a database with games under way: every row survives, keyless (NULL), and the
    links and return paths already sent for it (without a key) still work; rows made after it get a
    key, and only links with it work for them."""
    from alembic import command
    from sqlmodel import select

    from service import links
    from service.mail import bounces
    from service.migrate import alembic_config, current, heads
    from service.play import new_game
    from service.store import get_engine, read_session
    from service.store.models import Invitation, Outbox, Player
    from tests.conftest import make_app
    from tests.consent import preconsent
    from tests.service import bounce_samples as samples
    from tests.service import toygame

    tables = ("players", "invitations", "outbox")
    url = f"sqlite:///{tmp_path / 'keys.sqlite'}"
    upgrade(url)
    app = make_app(tmp_path, url, BOUNCE_ADDRESS="bounces@riftpost.test")
    with app.app_context():  # a game under way, its rows then taken back to 0009: as they were before keys
        preconsent("ann@example.org")
        old_game = new_game(toygame.NAME, [("Ann", "ann@example.org"), ("Bob", "bob@example.org")], seed=3)
    app.extensions["riftpost.db"].dispose()
    command.downgrade(alembic_config(url), "0009")
    db = sa.create_engine(url)
    with db.connect() as connection:
        assert all("row_key" not in {c["name"] for c in sa.inspect(connection).get_columns(table)} for table in tables)
        before = {table: connection.execute(sa.text(f"SELECT count(*) FROM {table}")).scalar() for table in tables}
    db.dispose()

    upgrade(url)
    assert current(url) == heads()
    app = make_app(tmp_path, url, BOUNCE_ADDRESS="bounces@riftpost.test")
    with app.app_context():
        client = app.test_client()
        with read_session(get_engine()) as session:
            found = {model.__tablename__: list(session.exec(select(model))) for model in (Player, Invitation, Outbox)}
        assert {table: len(found[table]) for table in tables} == before
        assert {row.row_key for table in tables for row in found[table]} == {None}
        ann = next(p for p in found["players"] if p.game_id == old_game and p.seat == 0)
        (invitation,) = found["invitations"]
        assert client.get(f"/p/{links.player_token(ann.id, None)}").status_code == 200
        assert client.get(f"/i/{links.invitation_token(invitation.id, None)}").status_code == 200
        rcpt = bounces.return_path(found["outbox"][0].id, None)
        assert "bounce 5.1.1 of outbox" in bounces.receive(samples.postfix(rcpt), rcpt)

        new = new_game(toygame.NAME, [("Ann", "ann@example.org"), ("Cy", "cy@example.org")], seed=4)
        with read_session(get_engine()) as session:
            cy = session.exec(select(Player).where(Player.game_id == new, Player.seat == 1)).one()
            new_invitation = session.exec(select(Invitation).where(Invitation.game_id == new)).one()
        assert cy.row_key and new_invitation.row_key
        assert client.get(f"/p/{links.player_token(cy.id, None)}").status_code == 404
        assert client.get(f"/p/{links.player_token(cy.id, cy.row_key)}").status_code == 200
        assert client.get(f"/i/{links.invitation_token(new_invitation.id, None)}").status_code == 404
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


def test_0012a_keys_every_address_merges_spellings_and_keeps_todays_mail_flowing(tmp_path):
    """Migration 0012a: players get their address key; the people rows of one inbox's spellings become
    one (never-email wins, the earliest consent kept); and whoever may be emailed in a game today
    accepts that game's inviter, so no running game stops emailing anyone (issue #21, items 1 and 5)."""
    url = f"sqlite:///{tmp_path / 'inboxes.sqlite'}"
    upgrade(url, "0011")
    db = sa.create_engine(url)
    with db.begin() as c:
        c.execute(sa.text(
            "INSERT INTO games (id, name, rules_version, options, secret, commitment, seq, status, to_act, "
            "history_public, created_at, updated_at) VALUES (1, 'toy-hidden', '1', '{}', '1', 'x', 0, 'active', "
            "'[0]', 1, '2026-01-01 00:00:00', '2026-01-01 00:00:00')"))
        for seat, email, consent in ((0, "Ann@Example.org", ""), (1, "VIC@example.org", ""), (2, "bo@example.org", "asked")):
            c.execute(sa.text(
                "INSERT INTO players (game_id, seat, name, email, turn_emails, link_generation, consent) "
                "VALUES (1, :seat, 'x', :email, 1, 0, :consent)"), {"seat": seat, "email": email, "consent": consent})
        for email, never, consented in (("VIC@example.org", None, "2026-01-05 00:00:00"),
                                        ("vic@example.org", "2026-02-01 00:00:00", "2026-01-02 00:00:00"),
                                        ("Ann@Example.org", None, "2026-01-01 00:00:00")):
            c.execute(sa.text(
                "INSERT INTO people (email, time_zone, allowance_year, allowance_used_seconds, never_email_at, "
                "consented_at) VALUES (:email, 'UTC', 2026, 0, :never, :consented)"),
                {"email": email, "never": never, "consented": consented})
        c.execute(sa.text(
            "INSERT INTO invitations (address, inviter, game_id, player_id, status, created_at) "
            "VALUES ('bo@example.org', 'ann@example.org', 1, 3, 'asked', '2026-01-01 00:00:00')"))
    db.dispose()
    upgrade(url)
    db = sa.create_engine(url)
    with db.connect() as c:
        keys = c.execute(sa.text("SELECT email, address_key FROM players ORDER BY seat")).all()
        people = c.execute(sa.text("SELECT email, never_email_at IS NOT NULL, consented_at FROM people ORDER BY email")).all()
        consents = c.execute(sa.text("SELECT address, inviter FROM consents ORDER BY address")).all()
    db.dispose()
    assert [tuple(row) for row in keys] == [("Ann@Example.org", "ann@example.org"), ("VIC@example.org", "vic@example.org"),
                                            ("bo@example.org", "bo@example.org")]
    assert [(row[0], row[1], str(row[2])[:10]) for row in people] == [
        ("ann@example.org", 0, "2026-01-01"), ("vic@example.org", 1, "2026-01-02")]
    assert [tuple(row) for row in consents] == [("vic@example.org", "ann@example.org")]  # Bo has not accepted
