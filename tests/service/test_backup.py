"""Backups (service/backup.py, `flask backup`, `flask restore`, the backup before db-upgrade) and the
restore drill: back up, play on, restore, and every restored game replays and plays."""

from __future__ import annotations

import html
import json
import re
import shutil
import sqlite3
import subprocess
import threading
from datetime import UTC, datetime

import pytest
import sqlalchemy as sa
from sqlmodel import select

import engine
from service import backup, store
from service.mail import bounces, outbox
from service.migrate import heads, upgrade
from service.play import handle, new_game
from service.store import get_engine, make_engine, read_session
from service.store.models import Bounce, Event, Game, Invitation, Outbox, Person
from tests import tokens
from tests.conftest import make_app
from tests.consent import preconsent
from tests.service import bounce_samples as samples
from tests.service import toygame
from tests.service.helpers import current, play_one, play_to_end

PLAYERS = [("Ann", "ann@example.org"), ("Bob", "bob@example.org")]


def every_game(db: sa.Engine) -> dict[int, tuple[int, str, list[int]]]:
    """Check each game of a database the way a restored one must hold: its state from the snapshots
    equals its replay from event 0, its read model agrees with that state, and its seq is its last
    event's.  (seq, status, to_act) of each game."""
    found = {}
    with read_session(db) as session:
        for game in session.exec(select(Game).order_by(Game.id)):
            live, _ = store.load_state(session, game)
            assert store.replay_from_start(session, game) == live, game.id
            rules = engine.get(game.name)
            result = rules.result(live)
            assert game.status == ("active" if result is None else "finished"), game.id
            assert game.to_act == rules.to_act(live) and game.result == result, game.id
            last = session.execute(sa.select(sa.func.max(Event.seq)).where(Event.game_id == game.id)).scalar()
            assert game.seq == last, game.id
            found[game.id] = (game.seq, game.status, game.to_act)
    return found


def games_in(path) -> dict[int, tuple[int, str, list[int]]]:
    db = make_engine(f"sqlite:///{path}")
    try:
        return every_game(db)
    finally:
        db.dispose()


def backup_files(directory) -> list:
    return sorted(p.name for p in directory.glob("*.sqlite"))


def test_a_backup_is_a_whole_dated_standalone_copy_and_the_newest_n_are_kept(app, tmp_path):
    game_id = new_game(toygame.NAME, PLAYERS, seed=1)
    play_one(game_id)
    url, folder = app.config["DATABASE_URL"], tmp_path / "backups"
    made = [backup.backup(url, folder, keep=2, now=datetime(2026, 11, day, 1, 30, tzinfo=UTC)) for day in (24, 25, 26)]
    assert [m.path.name for m in made] == ["app-2026-11-24T013000Z.sqlite", "app-2026-11-25T013000Z.sqlite",
                                           "app-2026-11-26T013000Z.sqlite"]
    assert made[2].removed == [made[0].path]  # the oldest beyond the last two
    assert backup_files(folder) == [made[1].path.name, made[2].path.name]
    assert made[2].size == made[2].path.stat().st_size > 0
    # The same second twice does not overwrite the first.
    again = backup.backup(url, folder, keep=2, now=datetime(2026, 11, 26, 1, 30, tzinfo=UTC))
    assert again.path.name == "app-2026-11-26T013000Z-2.sqlite"
    assert again.removed == [made[1].path]  # it counts as the newest: the 25th's goes
    # A file of its own: no -wal or -shm beside it, nothing half written left over.
    assert sorted(p.name for p in folder.iterdir()) == backup_files(folder)
    copy = sqlite3.connect(again.path)
    assert copy.execute("PRAGMA journal_mode").fetchone() == ("delete",)
    assert copy.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    copy.close()
    assert games_in(again.path) == every_game(get_engine())


def test_flask_backup_prints_the_file_its_size_and_what_it_keeps(app, tmp_path):
    new_game(toygame.NAME, PLAYERS, seed=1)
    app.config["BACKUP_KEEP"] = 1
    runner = app.test_cli_runner()
    first = runner.invoke(args=["backup", "--to", str(tmp_path / "b")])
    assert first.exit_code == 0, first.output
    assert first.output.startswith(f"backup written: {tmp_path / 'b'}/app-") and " KB in " in first.output
    assert "the last 1 are kept" in first.output
    (tmp_path / "b" / backup_files(tmp_path / "b")[0]).rename(tmp_path / "b" / "app-2020-01-01T000000Z.sqlite")
    second = runner.invoke(args=["backup", "--to", str(tmp_path / "b")])
    assert "removed 1 older" in second.output and len(backup_files(tmp_path / "b")) == 1
    # Without --to: BACKUP_DIR (instance/backups by default).
    assert runner.invoke(args=["backup"]).exit_code == 0
    assert len(backup_files(tmp_path / "backups")) == 1


def test_postgresql_is_refused_with_the_way_to_back_it_up(tmp_path):
    app = make_app(tmp_path, "postgresql+psycopg://nobody@127.0.0.1:1/none")
    for args in (["backup"], ["restore", str(tmp_path / "x.sqlite")]):
        result = app.test_cli_runner().invoke(args=args)
        assert result.exit_code != 0
        assert "PostgreSQL" in result.output and 'README.md, "Backups"' in result.output
    assert not (tmp_path / "backups").exists()


def test_db_upgrade_backs_up_a_database_with_tables_before_a_migration(tmp_path):
    """Not a fresh empty database, not one already at the latest schema: a database a migration is
    about to change, kept as it was (here at the revision before the last)."""
    path = tmp_path / "app.sqlite"
    app = make_app(tmp_path, f"sqlite:///{path}")
    runner = app.test_cli_runner()
    fresh = runner.invoke(args=["db-upgrade"])
    assert fresh.exit_code == 0 and "backed up" not in fresh.output and not (tmp_path / "backups").exists()
    again = runner.invoke(args=["db-upgrade"])
    assert "backed up" not in again.output and not (tmp_path / "backups").exists()

    older = tmp_path / "older.sqlite"
    upgrade(f"sqlite:///{older}", "0005")
    app = make_app(tmp_path, f"sqlite:///{older}")
    result = app.test_cli_runner().invoke(args=["db-upgrade"])
    assert result.exit_code == 0, result.output
    assert result.output.startswith(f"backed up before upgrading: {tmp_path / 'backups'}/older-")
    (kept,) = (tmp_path / "backups").glob("older-*.sqlite")
    assert backup.schema_revision(kept) == "0005" and {backup.schema_revision(older)} == heads()
    app.extensions["riftpost.db"].dispose()


def test_restore_drill_back_up_play_on_restore_and_the_games_replay_and_play(app, tmp_path):
    """Games under way, a backup, more moves (one game to its end, one started after the backup),
    then `flask restore`: the database is the backup's again, every game replays from event 0 to its
    stored state, and the games take new moves."""
    toy = new_game(toygame.NAME, PLAYERS, {"target": 12}, seed=3)
    riftforce = new_game("riftforce", PLAYERS, seed=5)
    for _ in range(6):
        play_one(toy)
        play_one(riftforce)
    runner = app.test_cli_runner()
    made = runner.invoke(args=["backup"])
    assert made.exit_code == 0, made.output
    (file,) = (tmp_path / "backups").glob("app-*.sqlite")
    at_backup = every_game(get_engine())
    assert {status for _, status, _ in at_backup.values()} == {"active"}

    play_to_end(toy)  # finished after the backup
    for _ in range(4):
        play_one(riftforce)
    later = new_game(toygame.NAME, PLAYERS, seed=9)
    before_restore = every_game(get_engine())
    assert before_restore[toy][1] == "finished" and later in before_restore

    app.config["BACKUP_KEEP"] = 1  # the file to restore is the oldest backup: it must not go first
    restored = runner.invoke(args=["restore", str(file)])
    assert restored.exit_code == 0, restored.output
    assert restored.output.startswith(f"the database as it was: {tmp_path / 'backups'}/app-")
    assert "no older one removed" in restored.output
    assert "db-upgrade" in restored.output
    # The running app's own connections see the restored database: the games as they were.
    assert every_game(get_engine()) == at_backup
    # What was there before the restore was kept first, whole.
    (undo,) = [p for p in (tmp_path / "backups").glob("app-*.sqlite") if p != file]
    assert games_in(undo) == before_restore
    verified = runner.invoke(args=["verify"])
    assert verified.exit_code == 0 and verified.output.startswith("2 games verified"), verified.output
    # The restored games play on: the game that had finished is under way again, and takes a move.
    assert runner.invoke(args=["db-upgrade"]).exit_code == 0
    for game_id in (toy, riftforce):
        game, state = current(game_id)
        seat = game.to_act[0]
        handle(game_id, seat, engine.get(game.name).legal_moves(state, seat)[0], game.seq)
    play_to_end(toy)
    finished = every_game(get_engine())
    assert finished[toy][1] == "finished" and finished[riftforce][0] > at_backup[riftforce][0]
    assert new_game(toygame.NAME, PLAYERS, seed=9) == later  # the id is free again: it never happened


LINK = re.compile(r"http://riftpost\.test(/[pmui]/[^\s\"<>]+)")


def _sent(sink, since: int) -> list:
    """The emails the sink received after its first `since`."""
    return sink.messages()[since:]


def _paths(messages) -> set[str]:
    """The player, move, unsubscribe and invitation links of these emails (paths, entities undone)."""
    found = set()
    for message in messages:
        for part in message.walk():
            if part.get_content_maintype() == "text":
                found |= {html.unescape(path) for path in LINK.findall(part.get_content())}
    return found


def _rows(game_id: int):
    with read_session(get_engine()) as session:
        return (store.players_of(session, game_id),
                list(session.exec(select(Invitation).where(Invitation.game_id == game_id).order_by(Invitation.id))),
                list(session.exec(select(Outbox).where(Outbox.game_id == game_id).order_by(Outbox.id))))


def _game_with_an_invitation(app, names: list[tuple[str, str]], sink) -> int:
    """A game whose seat 1 is a new address (an invitation), every email that may go sent through SMTP."""
    game_id = new_game(toygame.NAME, names, {"target": 30}, seed=3)
    for row in _rows(game_id)[2]:
        if row.status == "pending":
            assert outbox.deliver(row.id) == "sent"
    return game_id


def test_restore_drill_the_links_return_paths_and_message_ids_of_a_rolled_back_game_reach_nobody(app, client, sink,
                                                                                                tmp_path):
    """Back up, make game A (a seat invited, its emails sent), restore, make game B: B's rows get A's
    ids (the counters went back), and yet every link of A (page, move, unsubscribe, history, account,
    JSON API, invitation page, accept, decline) is refused, a bounce to A's return paths marks nothing,
    and no Message-ID of B is one of A's."""
    app.config.update(SMTP_URL=sink.url, BOUNCE_ADDRESS="bounces@riftpost.test")
    preconsent("ann@example.org", "cy@example.org")  # seat 0 of each game played before: one invitation each
    runner = app.test_cli_runner()
    assert runner.invoke(args=["backup"]).exit_code == 0
    (file,) = (tmp_path / "backups").glob("app-*.sqlite")

    game_a = _game_with_an_invitation(app, [("Ann", "ann@example.org"), ("Bob", "bob@example.org")], sink)
    a_mail = _sent(sink, 0)
    players_a, (invitation_a,), outbox_a = _rows(game_a)
    game, state = current(game_a)
    seat = game.to_act[0]
    move = toygame.GAME.legal_moves(state, seat)[0]
    # Every link of A: those its emails carry, and those its pages and emails would carry for each seat.
    a_paths = _paths(a_mail) | {f"/p/{tokens.page(p)}{tail}" for p in players_a for tail in ("", "/history", "/account")}
    a_paths |= {f"/u/{tokens.unsubscribe(p)}" for p in players_a}
    a_paths |= {f"/m/{tokens.move(players_a[seat], game.seq, move)}"}
    assert any(p.startswith("/i/") for p in a_paths) and any(p.startswith("/p/") for p in _paths(a_mail))
    a_api = [tokens.page(p) for p in players_a]
    a_return_paths = {str(m["Return-Path"]).strip("<>") for m in a_mail}
    a_ids = {str(m["Message-ID"]) for m in a_mail} | {row.message_id for row in outbox_a}

    restored = runner.invoke(args=["restore", str(file)])
    assert restored.exit_code == 0, restored.output
    game_b = _game_with_an_invitation(app, [("Cy", "cy@example.org"), ("Dee", "dee@example.org")], sink)
    b_mail = _sent(sink, len(a_mail))
    players_b, (invitation_b,), outbox_b = _rows(game_b)
    # What made the old links dangerous: B's rows have A's ids.
    assert game_b == game_a and [p.id for p in players_b] == [p.id for p in players_a]
    assert invitation_b.id == invitation_a.id
    assert {row.id for row in outbox_b} & {row.id for row in outbox_a} == {row.id for row in outbox_a}
    b_before = current(game_b)[0].seq

    for path in sorted(a_paths):
        answer = client.get(path)
        assert answer.status_code == 404, (path, answer.status_code)
        page = answer.get_data(as_text=True)
        assert "Cy" not in page and "Dee" not in page and "d***@" not in page and "c***@" not in page, path
    # The POSTs: the one-click ones need no CSRF token, and the others are let through without one
    # (their pages were refused, so there was none to get): only the link's row can stop them.
    app.config["WTF_CSRF_ENABLED"] = False
    posts = {p.partition("?")[0] for p in a_paths if p.startswith(("/m/", "/u/"))}
    posts |= {f"{p.partition('?')[0]}/{answer}" for p in a_paths if p.startswith("/i/") for answer in ("accept", "decline")}
    posts |= {f"/p/{tokens.page(p)}/{action}" for p in players_a for action in ("move", "notifications", "fresh-link")}
    for path in sorted(posts):
        answer = client.post(path, data={"List-Unsubscribe": "One-Click", "seq": str(b_before),
                                          "move": json.dumps(move), "scope": "game"})
        assert answer.status_code == 404, (path, answer.status_code)
    for token in a_api:
        assert client.get(f"/api/play/{token}").status_code == 403
        assert client.post(f"/api/play/{token}", json={"seq": b_before, "moves": [move]}).status_code == 403
    # Nothing of B changed: its invitation unanswered, its seats' emails on, its game where it was.
    players_after, (invitation_after,), _ = _rows(game_b)
    assert invitation_after.status == "asked" and all(p.turn_emails for p in players_after)
    assert current(game_b)[0].seq == b_before

    for rcpt in sorted(a_return_paths):
        assert bounces.receive(samples.postfix(rcpt, rcpt="dee@example.org"), rcpt).startswith("ignored"), rcpt
    with read_session(get_engine()) as session:
        assert session.exec(select(Bounce)).all() == []
        assert all(session.get(Person, who) is None or session.get(Person, who).bounced_at is None
                   for who in ("cy@example.org", "dee@example.org"))

    b_ids = {str(m["Message-ID"]) for m in b_mail} | {row.message_id for row in outbox_b}
    assert b_mail and not b_ids & a_ids

    # B's own links, return paths and rows work as ever.
    b_paths = _paths(b_mail)
    assert all(client.get(path).status_code == 200 for path in b_paths), b_paths
    assert client.get(f"/api/play/{tokens.page(players_b[0])}").status_code == 200
    rcpt = str(next(m for m in b_mail if m["To"] == "dee@example.org")["Return-Path"]).strip("<>")
    assert "undeliverable" in bounces.receive(samples.postfix(rcpt, rcpt="dee@example.org"), rcpt)


def test_restore_refuses_what_is_not_a_riftpost_backup(app, tmp_path, migrated_sqlite):
    runner = app.test_cli_runner()
    new_game(toygame.NAME, PLAYERS, seed=1)
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"not a database at all" * 100)
    other = tmp_path / "other.sqlite"
    sqlite3.connect(other).execute("CREATE TABLE t (x)").connection.close()
    newer = tmp_path / "newer.sqlite"
    shutil.copy(migrated_sqlite, newer)
    with sqlite3.connect(newer) as connection:
        connection.execute("UPDATE alembic_version SET version_num = '0099_future'")
    connection.close()
    for file, why in [(tmp_path / "missing.sqlite", "there is no file"), (junk, "is not a SQLite database"),
                      (other, "not a Riftpost database"), (newer, "does not know")]:
        result = runner.invoke(args=["restore", str(file)])
        assert result.exit_code != 0 and why in result.output, (file, result.output)
    assert len(every_game(get_engine())) == 1  # nothing was put back
    assert not (tmp_path / "backups").exists()  # nor backed up for a restore that was refused


def test_a_backup_taken_while_moves_are_written_is_consistent(app, tmp_path):
    """The backup API reads the database in one transaction: a copy taken while another thread plays
    has every game whole (events, snapshots and read model of the same moment)."""
    games = [new_game(toygame.NAME, PLAYERS, {"target": 60}, seed=seed) for seed in range(3)]
    stop = threading.Event()
    played = []
    failures: list[BaseException] = []

    def play() -> None:
        try:
            with app.app_context():
                while not stop.is_set():
                    active = [game_id for game_id in games if current(game_id)[0].status == "active"]
                    if not active:
                        return
                    for game_id in active:
                        play_one(game_id, pick=lambda moves: moves[-1])
                        played.append(game_id)
        except BaseException as exc:  # noqa: BLE001 - handed to the test's thread
            failures.append(exc)

    writer = threading.Thread(target=play)
    writer.start()
    copies = []
    try:
        for _ in range(4):
            count = len(played)
            while len(played) < count + 3 and writer.is_alive():  # moves between two backups
                threading.Event().wait(0.01)
            copies.append(backup.backup(app.config["DATABASE_URL"], tmp_path / "b", keep=10))
    finally:
        stop.set()
        writer.join()
    assert not failures, failures
    seqs = [games_in(copy.path) for copy in copies]
    assert all(set(found) == set(games) for found in seqs)
    # The copies were taken while the game went on: each later one is further along.
    totals = [sum(seq for seq, _, _ in found.values()) for found in seqs]
    assert totals == sorted(totals) and totals[0] < totals[-1]


def _libpq(url: str) -> str:
    """DATABASE_URL as pg_dump and pg_restore take it (no SQLAlchemy driver name)."""
    return url.replace("postgresql+psycopg://", "postgresql://", 1)


def _pg_tools_match_the_server(url: str) -> None:
    """pg_dump refuses a server newer than itself: the drill runs where the README's commands would."""
    if not (shutil.which("pg_dump") and shutil.which("pg_restore")):
        pytest.skip("pg_dump and pg_restore are not installed")
    tools = subprocess.run(["pg_dump", "--version"], capture_output=True, text=True, check=True).stdout
    db = sa.create_engine(url)
    with db.connect() as connection:
        server = connection.exec_driver_sql("SHOW server_version").scalar()
    db.dispose()
    if tools.split()[2].split(".")[0] != str(server).split(".")[0]:
        pytest.skip(f"pg_dump is {tools.strip()}, the server {server}")


@pytest.mark.postgres
def test_postgresql_restore_drill_with_the_readmes_pg_dump_and_pg_restore(tmp_path):
    """README "Backups": `pg_dump -Fc`, play on, `pg_restore --clean` with the services stopped."""
    from tests import services

    url = services.postgres_database()
    try:
        _pg_tools_match_the_server(url)
        upgrade(url)
        app = make_app(tmp_path, url)
        dump = tmp_path / "riftpost.dump"
        with app.app_context():
            toy = new_game(toygame.NAME, PLAYERS, {"target": 12}, seed=3)
            riftforce = new_game("riftforce", PLAYERS, seed=5)
            for _ in range(5):
                play_one(toy)
                play_one(riftforce)
            subprocess.run(["pg_dump", "-Fc", "--no-owner", "-f", str(dump), _libpq(url)], check=True)
            at_backup = every_game(get_engine())
            play_to_end(toy)
            play_one(riftforce)
            new_game(toygame.NAME, PLAYERS, seed=9)
            assert every_game(get_engine()) != at_backup
            get_engine().dispose()  # the services stopped
            subprocess.run(["pg_restore", "--clean", "--if-exists", "--no-owner", "--single-transaction",
                            "-d", _libpq(url), str(dump)], check=True, capture_output=True)
            assert every_game(get_engine()) == at_backup
            game, state = current(toy)
            handle(toy, game.to_act[0], toygame.GAME.legal_moves(state, game.to_act[0])[0], game.seq)
            assert new_game(toygame.NAME, PLAYERS, seed=9) == max(at_backup) + 1  # sequences restored too
        app.extensions["riftpost.db"].dispose()
    finally:
        services.drop_postgres(url)


@pytest.mark.postgres
def test_db_upgrade_on_postgresql_reminds_of_pg_dump_when_a_migration_is_due(tmp_path):
    from tests import services

    url = services.postgres_database()
    try:
        runner = make_app(tmp_path, url).test_cli_runner()
        fresh = runner.invoke(args=["db-upgrade"])
        assert fresh.exit_code == 0 and "pg_dump" not in fresh.output  # nothing to lose yet
        services.drop_postgres(url)
        url = services.postgres_database()
        upgrade(url, "0005")
        older = make_app(tmp_path, url)
        result = older.test_cli_runner().invoke(args=["db-upgrade"])
        assert result.exit_code == 0, result.output
        assert result.output.startswith('not backed up here: take a pg_dump before upgrading (README.md, "Backups")')
        assert not (tmp_path / "backups").exists()
        older.extensions["riftpost.db"].dispose()
    finally:
        services.drop_postgres(url)


def test_flask_verify_names_each_game_whose_records_disagree(app):
    """What `flask verify` (run after a restore) would find in a damaged database: a snapshot that is
    not the replay of its events, a current-state row that is not either, a read model that is not what
    the engine says."""
    from service.store import write_session
    from service.store.models import GameState, Snapshot

    games = [new_game(toygame.NAME, PLAYERS, {"target": 30}, seed=seed) for seed in (1, 2, 3)]
    for game_id in games:
        for _ in range(3):
            play_one(game_id)
    runner = app.test_cli_runner()
    assert runner.invoke(args=["verify"]).output == "3 games verified: each replays from event 1 to its stored state\n"
    with write_session(get_engine()) as session:
        snapshot = session.exec(select(Snapshot).where(Snapshot.game_id == games[0]).order_by(Snapshot.seq.desc())).first()
        snapshot.state = {**snapshot.state, "scores": [99, 99]}
        session.add(snapshot)
        session.execute(sa.update(Game).where(Game.id == games[2]).values(to_act=[5], status="finished"))
        kept = session.get(GameState, games[1])
        kept.state = {**kept.state, "scores": [98, 98]}
        session.add(kept)
    result = runner.invoke(args=["verify"])
    assert result.exit_code == 1
    assert f"game {games[0]}: the replay from event 1 differs from the state its snapshots give" in result.output
    assert f"game {games[2]}: its status is 'finished' but the engine says active" in result.output
    assert f"game {games[2]}: the seats to act are [5]" in result.output
    assert f"game {games[1]}: the replay from event 1 differs from its current-state row" in result.output
    assert f"game {games[0]}: the replay from event 1 differs from its current-state row" not in result.output
    assert "4 problems in 3 games" in result.output
