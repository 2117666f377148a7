"""Bounces end to end: the signed return path on every email, a bounce read and recorded, the policy
(hard at once, soft over days), the mark stopping every email, and the ways in (the embedded sink's
SMTP port, `flask bounce` on stdin, `flask bounce-server`), on SQLite and on PostgreSQL."""

from __future__ import annotations

import shutil
import smtplib
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path

import pytest
import sqlalchemy as sa

from service import config
from service.mail import bounces, outbox
from service.play import new_game
from service.store import get_engine, read_session, write_session
from service.store.models import Bounce, Outbox, Person, utcnow
from tests import services
from tests.conftest import SECRET, app_on, make_app
from tests.consent import preconsent
from tests.service import bounce_samples as samples
from tests.service import toygame
from tests.service.helpers import outbox_rows, play_one
from tests.smtp import Sink

PLAYERS = [("Ann", "ann@example.org"), ("Bo", "bo@example.org")]
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def backend_app(backend_url, tmp_path):
    with app_on(tmp_path, backend_url, MAIL_FROM="riftpost@riftpost.test", MAIL_DOMAIN="riftpost.test",
                   BOUNCE_ADDRESS="bounces@riftpost.test") as app:
        preconsent("ann@example.org", "bo@example.org", "cy@example.org")  # these tests are about bounces
        yield app


def bo_rows(game_id: int) -> list[Outbox]:
    return [row for row in outbox_rows(game_id) if row.player_id == bo_id(game_id)]


def bo_id(game_id: int) -> int:
    return next(row.player_id for row in outbox_rows(game_id) if row.kind == "invite")  # Ann starts: Bo is invited


def person(email: str) -> Person | None:
    with read_session(get_engine()) as session:
        return session.get(Person, email)


def recorded() -> list[Bounce]:
    with read_session(get_engine()) as session:
        return list(session.execute(sa.select(Bounce).order_by(Bounce.id)).scalars())


def sent_game(app, sink) -> tuple[int, Outbox]:
    """A game whose emails went out through the sink; Bo's invitation row."""
    app.config["SMTP_URL"] = sink.url
    game_id = new_game(toygame.NAME, PLAYERS, {"target": 30}, seed=5)
    for row in outbox_rows(game_id):
        assert outbox.deliver(row.id) == "sent"
    return game_id, bo_rows(game_id)[0]


# ---- the return path ------------------------------------------------------------------------------------


def test_every_email_leaves_with_its_own_signed_return_path(backend_app, sink):
    game_id, invite = sent_game(backend_app, sink)
    messages = sink.wait_for(2)
    paths = {m["To"]: m["Return-Path"] for m in messages}
    expected = f"<{bounces.return_path(invite.id, invite.row_key)}>"
    assert paths["Bo <bo@example.org>"] == expected
    assert expected.startswith(f"<bounces+{invite.id}-") and expected.endswith("@riftpost.test>")
    assert len(set(paths.values())) == 2  # one per email
    assert all(m["From"] == "Riftpost <riftpost@riftpost.test>" for m in messages)  # the From is untouched
    assert expected.startswith(f"<bounces+{invite.id}-{invite.row_key}-")  # the row's id and key
    assert bounces.row_named(expected) == bounces.Named(invite.id, invite.row_key)


KEY, OTHER_KEY = "0123456789abcdef", "fedcba9876543210"


@pytest.mark.parametrize("key", [KEY, None], ids=["keyed", "made before keys"])
def test_the_signature_holds_only_under_our_keys(app, key):
    app.config["BOUNCE_ADDRESS"] = "bounces@riftpost.test"
    address = bounces.return_path(42, key)
    assert bounces.row_named(address) == bounces.Named(42, key)
    local, domain = address.split("@")
    assert bounces.row_named(f"{local.upper()}@{domain.upper()}") == bounces.Named(42, key)  # some MTAs fold case
    assert bounces.row_named(address.replace("+42-", "+43-")) is None  # another row, same signature
    assert bounces.row_named(local[:-1] + ("0" if local[-1] != "0" else "1") + "@" + domain) is None
    assert bounces.row_named("bounces+42@riftpost.test") is None
    assert bounces.row_named("ann@example.org") is None
    app.config.update(SECRET_KEY="a-new-key", SECRET_KEY_FALLBACKS=[SECRET])
    assert bounces.row_named(address) == bounces.Named(42, key)  # a bounce of an email signed before a key rotation
    app.config["SECRET_KEY_FALLBACKS"] = []
    assert bounces.row_named(address) is None


def test_the_signature_covers_the_rows_key(app):
    """A key swapped for another, or dropped (the shape of a return path from before keys), breaks
    the signature: nobody turns the return path of one row into one of another key."""
    app.config["BOUNCE_ADDRESS"] = "bounces@riftpost.test"
    address = bounces.return_path(42, KEY)
    assert address.startswith(f"bounces+42-{KEY}-")
    assert bounces.row_named(address.replace(KEY, OTHER_KEY)) is None
    assert bounces.row_named(address.replace(f"-{KEY}", "")) is None
    assert bounces.row_named(bounces.return_path(42, None)) == bounces.Named(42, None)


def test_bounce_address_off_keeps_the_from_as_envelope_sender(app, sink):
    app.config.update(SMTP_URL=sink.url, BOUNCE_ADDRESS=config.bounce_address("off", "x"))
    game_id = new_game(toygame.NAME, PLAYERS, seed=5)
    outbox.deliver(outbox_rows(game_id)[0].id)
    assert sink.wait_for(1)[0]["Return-Path"] == f"<{app.config['MAIL_FROM']}>"
    assert config.bounce_address(None, "riftpost.test") == "bounces@riftpost.test"
    assert config.bounce_address("returns", "riftpost.test") == "returns@riftpost.test"


# ---- reading and the policy ------------------------------------------------------------------------------


def test_a_hard_bounce_marks_the_address_and_the_next_email_is_not_sent(backend_app, sink):
    game_id, invite = sent_game(backend_app, sink)
    outcome = bounces.receive(samples.postfix(bounces.return_path(invite.id, invite.row_key)), bounces.return_path(invite.id, invite.row_key))
    assert "hard bounce 5.1.1" in outcome and "undeliverable" in outcome
    [bounce] = recorded()
    assert (bounce.email, bounce.outbox_id, bounce.kind, bounce.status) == ("bo@example.org", invite.id, "hard", "5.1.1")
    assert "User unknown" in bounce.diagnostic
    bo = person("bo@example.org")
    assert bo.bounced_at is not None and bo.bounce_status == "5.1.1"
    assert person("ann@example.org") is None or person("ann@example.org").bounced_at is None

    before = len(sink.messages())
    play_one(game_id)
    play_one(game_id)  # Ann ends her turn: Bo's turn email
    [turn] = [row for row in bo_rows(game_id) if row.kind == "turn"]
    assert outbox.deliver(turn.id) == "undeliverable"
    row = [r for r in bo_rows(game_id) if r.id == turn.id][0]
    assert row.status == "undeliverable" and "bounced (5.1.1)" in row.last_error and row.sent_at is None
    assert turn.id not in outbox.due()  # and never retried
    time.sleep(0.3)
    assert len(sink.messages()) == before


def test_a_forged_or_foreign_return_path_changes_nothing(backend_app, sink):
    _, invite = sent_game(backend_app, sink)
    good = bounces.return_path(invite.id, invite.row_key)
    forged = good.replace(good.split("-")[-1].split("@")[0], "0" * bounces.SIG_LENGTH)
    other_row = f"bounces+{invite.id + 1}-{good.split('-')[-1]}"  # a signature moved to another row
    for rcpt in (forged, other_row, "bounces@riftpost.test", "bo@example.org"):
        assert bounces.receive(samples.postfix(rcpt), rcpt).startswith("ignored: no return path")
    with backend_app.app_context():
        backend_app.config["SECRET_KEY"] = "someone-elses-key"
        foreign = bounces.return_path(invite.id, invite.row_key)
        backend_app.config["SECRET_KEY"] = SECRET
    assert bounces.receive(samples.postfix(foreign), foreign).startswith("ignored")
    assert recorded() == [] and person("bo@example.org").bounced_at is None


def test_a_valid_token_for_no_row_here_is_ignored(backend_app):
    rcpt = bounces.return_path(999_999, KEY)
    assert bounces.receive(samples.postfix(rcpt), rcpt) == "ignored: outbox 999999 is not in this database"
    assert recorded() == []


def test_a_bounce_naming_the_id_of_another_email_marks_nothing(backend_app, sink):
    """A restore hands the id of a rolled-back email to a new one: a late bounce of the old email names
    that id with the old row's key, and marks nothing (the same signed path with the row's own key does)."""
    _, invite = sent_game(backend_app, sink)
    rolled_back = bounces.return_path(invite.id, OTHER_KEY)
    assert bounces.receive(samples.postfix(rolled_back), rolled_back) == (
        f"ignored: outbox {invite.id} is another email than the one this bounce is about")
    assert recorded() == [] and person("bo@example.org").bounced_at is None
    own = bounces.return_path(invite.id, invite.row_key)
    assert "undeliverable" in bounces.receive(samples.postfix(own), own)


def test_an_email_from_before_keys_keeps_its_return_path(backend_app, sink):
    """A row made before migration 0010b (its key NULL) is sent with the return path of its id alone,
    and a bounce to that path is its bounce; its id with some key is not that row."""
    backend_app.config["SMTP_URL"] = sink.url
    game_id = new_game(toygame.NAME, PLAYERS, {"target": 30}, seed=5)
    with write_session(get_engine()) as session:  # as the migration leaves the rows it found
        session.execute(sa.update(Outbox).where(Outbox.game_id == game_id).values(row_key=None))
    for row in outbox_rows(game_id):
        assert outbox.deliver(row.id) == "sent"
    invite = bo_rows(game_id)[0]
    old = bounces.return_path(invite.id, None)
    assert {m["To"]: m["Return-Path"] for m in sink.wait_for(2)}["Bo <bo@example.org>"] == f"<{old}>"
    assert old.startswith(f"bounces+{invite.id}-") and old.count("-") == 1
    keyed = bounces.return_path(invite.id, KEY)
    assert bounces.receive(samples.postfix(keyed), keyed).startswith(f"ignored: outbox {invite.id} is another email")
    assert "undeliverable" in bounces.receive(samples.postfix(old), old)


@pytest.mark.parametrize("raw", [b"\x00\xff" * 300, b"", samples.success("x"), samples.out_of_office("x")])
def test_garbage_and_non_failures_to_a_valid_return_path_are_ignored(backend_app, sink, raw):
    _, invite = sent_game(backend_app, sink)
    assert bounces.receive(raw, bounces.return_path(invite.id, invite.row_key)).startswith("ignored")
    assert recorded() == [] and person("bo@example.org").bounced_at is None


def test_the_return_path_is_found_in_the_delivered_headers_without_an_envelope_recipient(backend_app, sink):
    _, invite = sent_game(backend_app, sink)
    assert "hard bounce" in bounces.receive(samples.gmail(bounces.return_path(invite.id, invite.row_key)))
    assert person("bo@example.org").bounced_at is not None


def test_a_delay_is_recorded_and_changes_nothing(backend_app, sink):
    _, invite = sent_game(backend_app, sink)
    rcpt = bounces.return_path(invite.id, invite.row_key)
    assert "delayed bounce 4.4.1" in bounces.receive(samples.delayed(rcpt), rcpt)
    assert [b.kind for b in recorded()] == ["delayed"]
    assert person("bo@example.org") is None or person("bo@example.org").bounced_at is None


def soft(rcpt: str) -> bytes:
    return samples.postfix(rcpt, status="4.4.7", diagnostic="smtp; 451 4.4.7 Message expired")


def three_emails_to_bo(game_id: int) -> list[Outbox]:
    for _ in range(40):
        if len(bo_rows(game_id)) >= 3:
            return bo_rows(game_id)[:3]
        play_one(game_id)
    raise AssertionError("Bo got fewer than three emails")


def test_soft_failures_stop_the_mail_only_for_several_emails_over_days(backend_app, sink):
    game_id, invite = sent_game(backend_app, sink)
    rows = three_emails_to_bo(game_id)
    start = utcnow()
    paths = [bounces.return_path(row.id, row.row_key) for row in rows]
    # The same email failing three times is one email failing.
    for hours in (0, 30, 50):
        bounces.receive(soft(paths[0]), paths[0], now=start + timedelta(hours=hours))
    assert person("bo@example.org").bounced_at is None
    # Three emails failing, but over two days and a bit: not yet.
    bounces.receive(soft(paths[1]), paths[1], now=start + timedelta(hours=51))
    bounces.receive(soft(paths[2]), paths[2], now=start + timedelta(hours=52))
    assert person("bo@example.org").bounced_at is None
    # Still failing three days after the first failure: now it stops.
    outcome = bounces.receive(soft(paths[2]), paths[2], now=start + timedelta(days=3, hours=1))
    assert "undeliverable" in outcome
    assert person("bo@example.org").bounce_status == "4.4.7"


def test_soft_failures_long_ago_do_not_count(backend_app, sink):
    game_id, _ = sent_game(backend_app, sink)
    rows = three_emails_to_bo(game_id)
    start = utcnow()
    for row, days in zip(rows, (0, 20, 21)):  # the first is out of the window when the third comes
        bounces.receive(soft(bounces.return_path(row.id, row.row_key)), bounces.return_path(row.id, row.row_key), now=start + timedelta(days=days))
    assert person("bo@example.org").bounced_at is None


def test_trying_again_clears_the_mark_and_an_old_bounce_cannot_undo_it(backend_app, sink):
    game_id, invite = sent_game(backend_app, sink)
    rcpt = bounces.return_path(invite.id, invite.row_key)
    bounces.receive(samples.postfix(rcpt), rcpt)
    assert bounces.clear("bo@example.org") is True
    assert person("bo@example.org").bounced_at is None
    # The same old bounce arrives again (an MTA retried it): the email was sent before the request.
    assert "undeliverable" not in bounces.receive(samples.postfix(rcpt), rcpt)
    assert person("bo@example.org").bounced_at is None
    # The next email is sent, and bounces: marked again.
    play_one(game_id)
    play_one(game_id)
    [turn] = [row for row in bo_rows(game_id) if row.kind == "turn"]
    assert outbox.deliver(turn.id) == "sent"
    later = bounces.return_path(turn.id, turn.row_key)
    assert "undeliverable" in bounces.receive(samples.exim_plain(later), later)


def test_a_marked_address_gets_no_email_in_any_of_its_games(backend_app, sink):
    _, invite = sent_game(backend_app, sink)
    rcpt = bounces.return_path(invite.id, invite.row_key)
    bounces.receive(samples.qmail(rcpt), rcpt)
    other = new_game(toygame.NAME, [("Cy", "cy@example.org"), ("Bo", "bo@example.org")], seed=8)
    results = {row.player_id: outbox.deliver(row.id) for row in outbox_rows(other)}
    assert sorted(results.values()) == ["sent", "undeliverable"]


# ---- ways in: the embedded sink's SMTP port, the command line, the SMTP listener -----------------------


def test_a_bounce_sent_to_the_embedded_sink_is_read_and_kept_for_the_operator(backend_app, tmp_path):
    app = backend_app
    sink = Sink(tmp_path / "embedded", bounces=bounces.Receiver(lambda: app))
    try:
        game_id, invite = sent_game(app, sink)
        rcpt = bounces.return_path(invite.id, invite.row_key)
        with smtplib.SMTP("127.0.0.1", sink.port, timeout=10) as client:
            client.sendmail("", [rcpt], samples.exim_report(rcpt))  # a bounce's envelope sender is empty
        deadline = time.monotonic() + 10
        while person("bo@example.org") is None or person("bo@example.org").bounced_at is None:
            assert time.monotonic() < deadline, "the sink did not record the bounce"
            time.sleep(0.05)
        kept = sink.wait_for(3)[-1]
        assert kept["Subject"] == "Mail delivery failed: returning message to sender" and kept["Return-Path"] == "<>"
        play_one(game_id)
        play_one(game_id)
        [turn] = [row for row in bo_rows(game_id) if row.kind == "turn"]
        assert outbox.deliver(turn.id) == "undeliverable"
    finally:
        sink.stop()


def test_the_embedded_sink_ignores_a_forged_bounce_and_keeps_it(backend_app, tmp_path):
    app = backend_app
    sink = Sink(tmp_path / "embedded", bounces=bounces.Receiver(lambda: app))
    try:
        _, invite = sent_game(app, sink)
        forged = f"bounces+{invite.id}-{'0' * bounces.SIG_LENGTH}@riftpost.test"
        with smtplib.SMTP("127.0.0.1", sink.port, timeout=10) as client:
            client.sendmail("", [forged], samples.postfix(forged))
        sink.wait_for(3)
        time.sleep(0.3)
        assert recorded() == [] and person("bo@example.org").bounced_at is None
    finally:
        sink.stop()


def test_flask_bounce_reads_one_bounce_on_stdin(backend_app, sink, tmp_path):
    _, invite = sent_game(backend_app, sink)
    rcpt = bounces.return_path(invite.id, invite.row_key)
    runner = backend_app.test_cli_runner()
    result = runner.invoke(args=["bounce", "--rcpt", rcpt], input=samples.postfix(rcpt))
    assert result.exit_code == 0, result.output
    assert "hard bounce 5.1.1" in result.output
    assert person("bo@example.org").bounced_at is not None
    forged = runner.invoke(args=["bounce"], input=b"garbage\x00\xff")
    assert forged.exit_code == 0 and forged.output.startswith("ignored")


def test_flask_bounce_as_an_mta_pipe_runs_it(tmp_path, migrated_sqlite):
    """The command as a Postfix pipe alias runs it: a process of its own, the recipient in
    $ORIGINAL_RECIPIENT; and with the database gone, exit 75 so the MTA tries again."""
    import os

    db = tmp_path / "app.sqlite"
    shutil.copy(migrated_sqlite, db)
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{db}", "SECRET_KEY": SECRET, "MAIL_FROM": "rp@riftpost.test",
           "RIFTPOST_INSTANCE": str(tmp_path), "PYTHONPATH": str(ROOT)}
    app = make_app(tmp_path, f"sqlite:///{db}", MAIL_FROM="rp@riftpost.test", MAIL_DOMAIN="riftpost.test",
                   BOUNCE_ADDRESS="bounces@riftpost.test")
    with app.app_context():
        new_game(toygame.NAME, PLAYERS, seed=5)
        row = outbox_rows()[0]
        rcpt = bounces.return_path(row.id, row.row_key)
    command = [sys.executable, "-m", "flask", "--app", "service", "bounce"]
    done = subprocess.run(command, input=samples.postfix(rcpt), env={**env, "ORIGINAL_RECIPIENT": rcpt},
                          capture_output=True, cwd=tmp_path, timeout=60)
    assert done.returncode == 0, done.stderr.decode()
    assert b"hard bounce 5.1.1" in done.stdout
    with app.app_context():
        assert len(recorded()) == 1
    app.extensions["riftpost.db"].dispose()
    gone = subprocess.run(command, input=samples.postfix(rcpt), capture_output=True, cwd=tmp_path, timeout=60,
                          env={**env, "ORIGINAL_RECIPIENT": rcpt, "DATABASE_URL": f"sqlite:///{tmp_path}/no/such.sqlite"})
    assert gone.returncode == 75, gone.stderr.decode()


def test_the_bounce_listener_takes_only_valid_return_paths(backend_app, sink):
    from aiosmtpd.controller import Controller

    _, invite = sent_game(backend_app, sink)
    port = services.free_port()
    controller = Controller(bounces.Listener(bounces.Receiver(lambda: backend_app)), hostname="127.0.0.1", port=port)
    controller.start()
    try:
        rcpt = bounces.return_path(invite.id, invite.row_key)
        with smtplib.SMTP("127.0.0.1", port, timeout=10) as client:
            refused = client.sendmail("", ["bo@example.org", rcpt], samples.gmail(rcpt))
            assert list(refused) == ["bo@example.org"]  # not a relay: only our return paths
            with pytest.raises(smtplib.SMTPRecipientsRefused):
                client.sendmail("", [f"bounces+{invite.id}-{'0' * bounces.SIG_LENGTH}@riftpost.test"], b"Subject: x\r\n\r\nx")
        assert person("bo@example.org").bounced_at is not None
        assert [b.outbox_id for b in recorded()] == [invite.id]
    finally:
        controller.stop()


def test_the_listener_asks_to_try_again_when_the_database_fails(backend_app, sink):
    from aiosmtpd.controller import Controller

    _, invite = sent_game(backend_app, sink)
    with write_session(get_engine()) as session:
        session.execute(sa.text("DROP TABLE bounces"))
    port = services.free_port()
    controller = Controller(bounces.Listener(bounces.Receiver(lambda: backend_app)), hostname="127.0.0.1", port=port)
    controller.start()
    try:
        rcpt = bounces.return_path(invite.id, invite.row_key)
        with smtplib.SMTP("127.0.0.1", port, timeout=10) as client:
            with pytest.raises(smtplib.SMTPDataError) as refused:
                client.sendmail("", [rcpt], samples.postfix(rcpt))
        assert refused.value.smtp_code == 451
    finally:
        controller.stop()


def _listening(port: int) -> bool:
    import socket

    with socket.socket() as sock:
        sock.settimeout(0.2)
        return sock.connect_ex(("127.0.0.1", port)) == 0


def test_the_procfiles_sink_process_reads_bounces_with_the_environments_settings(tmp_path, migrated_sqlite):
    """`python -m service.mailsink` as the Procfile runs it: the bounce address and the database come
    from the same environment as the web's and the worker's."""
    import os

    db = tmp_path / "app.sqlite"
    shutil.copy(migrated_sqlite, db)
    port = services.free_port()
    url = f"smtp://127.0.0.1:{port}"
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{db}", "SECRET_KEY": SECRET, "MAIL_FROM": "rp@riftpost.test",
           "SMTP_URL": url, "RIFTPOST_INSTANCE": str(tmp_path), "PYTHONPATH": str(ROOT)}
    env.pop("BOUNCE_ADDRESS", None)
    process = subprocess.Popen([sys.executable, "-m", "service.mailsink", "--port", str(port),
                                "--maildir", str(tmp_path / "mail")], env=env, cwd=tmp_path,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    # The test's own app on the same database and settings: it queues and sends Bo's invitation.
    app = make_app(tmp_path, f"sqlite:///{db}", MAIL_FROM="rp@riftpost.test", MAIL_DOMAIN="riftpost.test",
                   BOUNCE_ADDRESS="bounces@riftpost.test", SMTP_URL=url)
    try:
        with app.app_context():
            preconsent("ann@example.org")  # a confirmed creator: Bo's invitation goes at once
            game_id = new_game(toygame.NAME, PLAYERS, seed=5)
            deadline = time.monotonic() + 30
            while not _listening(port):
                assert process.poll() is None and time.monotonic() < deadline, "the sink never listened"
                time.sleep(0.1)
            invite = bo_rows(game_id)[0]
            assert outbox.deliver(invite.id) == "sent"
            rcpt = bounces.return_path(invite.id, invite.row_key)
            with smtplib.SMTP("127.0.0.1", port, timeout=10) as client:
                client.sendmail("", [rcpt], samples.postfix(rcpt))
            while person("bo@example.org") is None or person("bo@example.org").bounced_at is None:
                assert time.monotonic() < deadline + 30, "the sink process did not record the bounce"
                time.sleep(0.1)
    finally:
        process.terminate()
        output, _ = process.communicate(timeout=10)
        app.extensions["riftpost.db"].dispose()
    assert "hard bounce 5.1.1" in output


def test_flask_bounce_server_listens_where_it_is_told(tmp_path, migrated_sqlite):
    import os

    db = tmp_path / "app.sqlite"
    shutil.copy(migrated_sqlite, db)
    port = services.free_port()
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{db}", "SECRET_KEY": SECRET, "MAIL_FROM": "rp@riftpost.test",
           "BOUNCE_ADDRESS": "returns@riftpost.test", "RIFTPOST_INSTANCE": str(tmp_path), "PYTHONPATH": str(ROOT)}
    app = make_app(tmp_path, f"sqlite:///{db}", MAIL_FROM="rp@riftpost.test", MAIL_DOMAIN="riftpost.test",
                   BOUNCE_ADDRESS="returns@riftpost.test")
    with app.app_context():
        new_game(toygame.NAME, PLAYERS, seed=5)
        first = outbox_rows()[0]
        rcpt = bounces.return_path(first.id, first.row_key)
    assert rcpt.startswith("returns+")
    process = subprocess.Popen([sys.executable, "-m", "flask", "--app", "service", "bounce-server", "--host",
                                "127.0.0.1", "--port", str(port)], env=env, cwd=tmp_path,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        deadline = time.monotonic() + 30
        while not _listening(port):
            assert process.poll() is None and time.monotonic() < deadline, "the listener never listened"
            time.sleep(0.1)
        with smtplib.SMTP("127.0.0.1", port, timeout=10) as client:
            client.sendmail("", [rcpt], samples.qmail(rcpt))
    finally:
        process.terminate()
        output, _ = process.communicate(timeout=10)
    assert "receiving bounces for returns@riftpost.test" in output
    with app.app_context():
        assert [(b.kind, b.status) for b in recorded()] == [("hard", "5.1.1")]
    app.extensions["riftpost.db"].dispose()


def test_the_return_path_is_ascii_and_off_by_default_behind_a_login():
    """An internationalized MAIL_FROM domain goes into Message-IDs and the return path in its IDNA
    form (or every server would need SMTPUTF8); a submission server that logs in refuses envelope
    senders the account does not own, so BOUNCE_ADDRESS unset means off there."""
    assert config.mail_domain("riftpost@bücher.example") == "xn--bcher-kva.example"
    assert config.bounce_address(None, "riftpost.test") == "bounces@riftpost.test"
    assert config.bounce_address(None, "riftpost.test", "smtp://127.0.0.1:25") == "bounces@riftpost.test"
    assert config.bounce_address(None, "riftpost.test", "smtp+starttls://me:pw@smtp.example.com:587") == ""
    assert config.bounce_address("bounces@mine.example", "riftpost.test", "smtps://me:pw@smtp.example.com") \
        == "bounces@mine.example"


def test_a_nul_or_control_character_in_the_diagnostic_is_stripped_and_the_bounce_recorded(backend_app, sink):
    """PostgreSQL refuses a NUL in text: a bounce whose Diagnostic-Code carries one made `flask bounce`
    exit 75 on every retry of the MTA.  The stored words keep their text without the control characters."""
    _, invite = sent_game(backend_app, sink)
    rcpt = bounces.return_path(invite.id, invite.row_key)
    raw = samples.postfix(rcpt, diagnostic="smtp; 550 5.1.1 <bo@example.org>: User\x00 unknown\x07 here\x1b[0m")
    result = backend_app.test_cli_runner().invoke(args=["bounce", "--rcpt", rcpt], input=raw)
    assert result.exit_code == 0, result.output
    assert "hard bounce 5.1.1" in result.output
    (stored,) = recorded()
    assert stored.diagnostic.startswith("550 5.1.1 <bo@example.org>: User")
    assert "unknown" in stored.diagnostic and "here" in stored.diagnostic
    assert not any(ord(ch) < 32 or ord(ch) == 127 for ch in stored.diagnostic), stored.diagnostic
    assert person("bo@example.org").bounced_at is not None
