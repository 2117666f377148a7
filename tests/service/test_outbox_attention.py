"""The outbox's one retry policy on both stores, and what it shows the operator: `flask outbox` lists
the failed and stuck emails and `flask outbox requeue` sends them again."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest

from service.mail import outbox
from service.play import new_game
from service.store.models import as_utc, utcnow
from tests.conftest import app_on
from tests.consent import preconsent
from tests.service import toygame
from tests.service.helpers import outbox_rows, row_of, set_row
from tests.smtp import RefusingSink

PLAYERS = [("Ann", "ann@example.org"), ("Bob", "bob@example.org"), ("Cy", "cy@example.org")]
DOWN = "smtp://127.0.0.1:1"  # nothing listens there: the SMTP server is down


@pytest.fixture
def backend_app(backend_url, tmp_path):
    with app_on(tmp_path, backend_url) as app:
        preconsent(*(email for _, email in PLAYERS))  # these tests are about retries, not invitations
        yield app


@pytest.fixture
def refusing(tmp_path):
    server = RefusingSink(tmp_path / "refusing", refused={"bob@example.org"})
    yield server
    server.stop()


def cli(app, *args):
    return app.test_cli_runner().invoke(args=["outbox", *args])


def test_claim_takes_a_row_only_when_due_or_past_its_lease(backend_app):
    game_id = new_game(toygame.NAME, PLAYERS, seed=1)
    row = outbox_rows(game_id)[0]
    backend_app.config["SMTP_URL"] = DOWN
    assert outbox.deliver(row.id) == "retrying"
    assert outbox.claim(row.id) is None and row.id not in outbox.due()
    set_row(row.id, next_attempt_at=utcnow() - timedelta(seconds=1))
    assert row.id in outbox.due()
    assert outbox.claim(row.id) == 2
    assert outbox.claim(row.id) is None  # sending, within its lease
    set_row(row.id, claimed_at=utcnow() - timedelta(seconds=61))
    assert outbox.due() == [r.id for r in outbox_rows(game_id)]
    assert outbox.claim(row.id) == 3


def test_retries_go_on_past_the_old_eight_attempts_until_the_horizon(backend_app):
    backend_app.config["SMTP_URL"] = DOWN
    game_id = new_game(toygame.NAME, PLAYERS, seed=1)
    row_id = outbox_rows(game_id)[0].id
    for attempt in range(1, 11):
        assert outbox.deliver(row_id) == "retrying", attempt
        set_row(row_id, next_attempt_at=utcnow() - timedelta(seconds=1))
    set_row(row_id, created_at=utcnow() - timedelta(hours=72, seconds=1))
    assert outbox.deliver(row_id) == "failed"
    assert row_of(row_id).attempts == 11


def test_flask_outbox_lists_failed_stuck_and_long_retrying_emails(backend_app, refusing):
    app = backend_app
    assert cli(app).output == "no failed or stuck emails\n"
    app.config["SMTP_URL"] = refusing.url
    game_id = new_game(toygame.NAME, PLAYERS, seed=1)
    rows = {row.player_id: row for row in outbox_rows(game_id)}
    ann, bob, cy = rows[1], rows[2], rows[3]
    assert outbox.deliver(bob.id) == "failed"  # a real 550 for an unknown mailbox: no retry
    app.config["SMTP_URL"] = DOWN
    assert outbox.deliver(cy.id) == "retrying"
    set_row(cy.id, created_at=utcnow() - timedelta(hours=3))  # retrying for three hours
    assert outbox.claim(ann.id) == 1  # a worker took it and died: sending past the lease
    set_row(ann.id, claimed_at=utcnow() - timedelta(minutes=2), created_at=utcnow() - timedelta(minutes=2))

    result = cli(app)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "3 emails to look at (failed 1, retrying 1, stuck sending 1):"
    assert lines[1].split() == ["id", "game", "kind", "to", "attempts", "age", "state"]
    # Oldest first; each row's last error under it.
    assert lines[2].split() == [f"#{cy.id}", f"#{game_id}", "invite", "cy@example.org", "1", "3h", "0m", "retrying"]
    assert lines[3].startswith("    last error: ConnectionRefusedError")
    assert lines[4].split() == [f"#{ann.id}", f"#{game_id}", "turn", "ann@example.org", "1", "2m", "stuck", "sending"]
    assert lines[5].split()[:4] == [f"#{bob.id}", f"#{game_id}", "invite", "bob@example.org"]
    assert lines[5].split()[-1] == "failed"
    assert lines[6].startswith("    last error: SMTPRecipientsRefused") and "550" in lines[6]
    assert lines[-1].startswith("send them again: flask --app service outbox requeue")

    # A pending row nobody picked up long after it was due: the beat scan is not running.
    set_row(cy.id, next_attempt_at=utcnow() - timedelta(minutes=6))
    assert re.search(rf"#{cy.id} .* stuck pending$", cli(app).output, re.M)


def test_flask_outbox_requeue_sends_failed_emails_again_with_a_fresh_policy(backend_app, refusing, sink):
    app = backend_app
    app.config["SMTP_URL"] = refusing.url
    game_id = new_game(toygame.NAME, PLAYERS, seed=1)
    bob = [row for row in outbox_rows(game_id) if row.player_id == 2][0]
    assert outbox.deliver(bob.id) == "failed"
    set_row(bob.id, created_at=utcnow() - timedelta(hours=100))  # long past the horizon, too

    result = cli(app, "requeue", "--failed")
    assert result.exit_code == 0, result.output
    assert result.output == f"re-queued 1 email: #{bob.id}\n"
    row = row_of(bob.id)
    assert (row.status, row.attempts, row.last_error) == ("pending", 0, None)
    assert as_utc(row.next_attempt_at) <= utcnow() and row.requeued_at is not None
    assert bob.id in outbox.due()
    # The horizon runs from the re-queue: a transient failure now is retried, not given up.
    app.config["SMTP_URL"] = DOWN
    assert outbox.deliver(bob.id) == "retrying"
    set_row(bob.id, next_attempt_at=utcnow())
    app.config["SMTP_URL"] = sink.url  # the address was fixed meanwhile
    assert outbox.deliver(bob.id) == "sent"
    assert [m["To"] for m in sink.wait_for(1)] == ["Bob <bob@example.org>"]
    assert cli(app).output == "no failed or stuck emails\n"


def test_flask_outbox_requeue_by_id_says_which_ids_it_could_not_requeue(backend_app, sink):
    app = backend_app
    app.config["SMTP_URL"] = sink.url
    game_id = new_game(toygame.NAME, PLAYERS, seed=1)
    sent, sending, pending = outbox_rows(game_id)
    assert outbox.deliver(sent.id) == "sent"
    assert outbox.claim(sending.id) == 1
    result = cli(app, "requeue", str(sent.id), str(sending.id), str(pending.id), "9999")
    assert result.exit_code == 1
    assert f"re-queued 1 email: #{pending.id}" in result.output
    assert f"#{sent.id} not re-queued: it is sent: nothing to send again" in result.output
    assert f"#{sending.id} not re-queued: being sent right now" in result.output
    assert "#9999 not re-queued: no such email" in result.output
    assert row_of(sent.id).status == "sent" and row_of(sending.id).status == "sending"

    nothing = cli(app, "requeue")
    assert nothing.exit_code == 2 and "name the emails to send again" in nothing.output
    assert cli(app, "requeue", "seven").exit_code == 2  # not an id: click's usage error


def test_an_undeliverable_email_can_be_requeued_once_the_address_works_again(backend_app, sink):
    """A row not sent because its address bounced: once the operator knows the address works again,
    `flask outbox requeue ID` sends it (it was refused as "nothing to send again")."""
    app = backend_app
    app.config["SMTP_URL"] = sink.url
    game_id = new_game(toygame.NAME, PLAYERS, seed=1)
    row = outbox_rows(game_id)[0]
    set_row(row.id, status="undeliverable", last_error="not sent: the address bounced (5.1.1)")
    result = cli(app, "requeue", str(row.id))
    assert result.exit_code == 0 and f"re-queued 1 email: #{row.id}" in result.output
    assert outbox.deliver(row.id) == "sent" and row_of(row.id).status == "sent"


def test_a_row_whose_worker_died_past_the_horizon_fails_instead_of_looping(backend_app):
    """A message that kills every worker sending it never reaches the failure path of `deliver`; the
    scan fails it once its lease and its horizon have both run out, so it is shown, not retried forever."""
    game_id = new_game(toygame.NAME, PLAYERS, seed=1)
    dying, young = outbox_rows(game_id)[:2]
    for row in (dying, young):
        assert outbox.claim(row.id) == 1
        set_row(row.id, claimed_at=utcnow() - timedelta(minutes=2))
    set_row(dying.id, created_at=utcnow() - timedelta(hours=73))
    assert outbox.due() == [young.id, outbox_rows(game_id)[2].id]
    row = row_of(dying.id)
    assert row.status == "failed" and outbox.plain_words(row.last_error) == "sending it failed on our side"
    assert row_of(young.id).status == "sending"  # within its horizon: claimed again by the next delivery
