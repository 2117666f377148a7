"""Drills with a real worker (and its embedded beat) and real SMTP servers: no email is lost when the
SMTP server is down for minutes, or when the worker is SIGKILLed in the middle of a send.

Each drill prints its figures (emails queued, lost, duplicated; attempts; how long until delivered),
which `-s` shows; the assertions are what must hold.
"""

from __future__ import annotations

import collections
import contextlib
import os
import shutil
import signal
import time
from datetime import timedelta

import pytest

from service.play import new_game
from service.store.models import as_utc
from tests import services
from tests.conftest import make_app
from tests.consent import preconsent
from tests.service import toygame
from tests.service.helpers import outbox_rows, play_one
from tests.smtp import StallingSink
from tests.worker.processes import WorkerProcess, wait_until

PLAYERS = [("Ann", "ann@example.org"), ("Bob", "bob@example.org"), ("Cy", "cy@example.org")]
OLD_MAX_ATTEMPTS = 8  # what the old policy spent in about two minutes before giving up


def start(tmp_path, migrated_sqlite, smtp_url: str, broker: str, **knobs: float):
    """The test's app and a worker on one SQLite database and `broker`; `knobs` are the outbox's
    RIFTPOST_ settings (seconds) for the worker."""
    db = tmp_path / "app.sqlite"
    if not db.exists():
        shutil.copy(migrated_sqlite, db)
    env = {f"RIFTPOST_{name.upper()}": str(value) for name, value in knobs.items()}
    app = make_app(tmp_path, f"sqlite:///{db}", CELERY_BROKER_URL=broker, SMTP_URL=smtp_url, OUTBOX_KICK=True,
                   OUTBOX_LEASE_SECONDS=knobs.get("outbox_lease", 60.0))
    worker = WorkerProcess(instance=tmp_path, database_url=f"sqlite:///{db}", broker_url=broker, smtp_url=smtp_url,
                           base_url=app.config["BASE_URL"], dispatch_seconds=0.5, extra_env=env)
    return app, worker


def settled(rows) -> bool:
    return all(row.status in ("sent", "failed", "skipped") for row in rows)


@pytest.fixture
def broker(tmp_path):
    """Redis, the broker at scale: the embedded SQLite broker hands out a few messages a second, too
    few for the scaled-down drill's attempts of 35 emails every couple of seconds."""
    return services.redis_database()


@pytest.mark.slow
@pytest.mark.drill
@pytest.mark.redis
@pytest.mark.parametrize("outage, base, cap", [
    # The old policy's eight attempts ran out in about two minutes; with the schedule scaled down
    # (0.5 s doubling, capped at 2 s) a 30 s outage costs each email more than eight attempts.  The
    # issue's 240 s outage under the default schedule is proved without waiting four minutes by
    # tests/service/test_outbox_mail.py (test_the_default_schedule_outlasts_a_240_second_outage...).
    pytest.param(30, 0.5, 2, id="30s-scaled"),
])
def test_an_smtp_outage_loses_no_email(tmp_path, migrated_sqlite, sink, broker, outage, base, cap):
    app, worker = start(tmp_path, migrated_sqlite, sink.url, broker, outbox_retry_base=base, outbox_retry_cap=cap)
    try:
        with app.app_context():
            sink.stop()  # the outage begins
            down_at = time.monotonic()
            preconsent(*[email for _, email in PLAYERS])  # the game's own emails, not invitations
            games = []
            for seed in range(10):  # 30 emails: invitations and first turns ...
                games.append(new_game(toygame.NAME, PLAYERS, {"target": 30}, seed=seed))
            for game_id in games[:5]:  # ... and moves that queue turn emails during the outage
                play_one(game_id)
                play_one(game_id)
            queued = outbox_rows()
            time.sleep(max(0.0, outage - (time.monotonic() - down_at)))
            attempts_in_outage = max(row.attempts for row in outbox_rows())
            sink.start()  # the outage ends
            up_at = time.monotonic()
            # A few retry intervals after the server is back every email must be out; the figures are
            # taken even when some are not (the old policy left rows failed, or hours from a retry).
            with contextlib.suppress(AssertionError):
                wait_until(lambda: settled(outbox_rows()), timeout=cap * 3 + 60, interval=0.5)
            took = time.monotonic() - up_at
            rows = outbox_rows()
            time.sleep(1)  # the sink's last deliveries
            received = collections.Counter(m["Message-ID"] for m in sink.messages())
    finally:
        worker.stop()
    lost = [row.id for row in rows if row.status != "sent"]
    duplicated = sum(count - 1 for count in received.values())
    print(f"\noutage drill {outage}s: {len(queued)} emails queued, {len(lost)} lost "
          f"({collections.Counter(row.status for row in rows if row.status != 'sent')}), {duplicated} duplicated, "
          f"at most {attempts_in_outage} attempts each during the outage, "
          f"{len(received)} delivered within {took:.0f}s after the server came back")
    assert len(queued) == 35
    assert lost == []
    assert set(received) == {row.message_id for row in rows} and duplicated == 0
    # The outage outlasted what the old policy could spend: only retries past it delivered these.
    assert attempts_in_outage > OLD_MAX_ATTEMPTS or outage >= 240


@pytest.mark.slow
@pytest.mark.drill
@pytest.mark.redis
# The default lease (60 s) is the same code with a longer wait: tests/service/test_outbox_mail.py
# (test_rows_of_workers_that_died_mid_send_are_claimed_again_after_the_lease) proves it without one.
@pytest.mark.parametrize("lease", [pytest.param(6.0, id="lease-6s")])
@pytest.mark.parametrize("victim", ["worker", "pool-process"])
def test_a_worker_killed_mid_send_loses_nothing_and_duplicates_at_most_once(tmp_path, migrated_sqlite, broker, lease,
                                                                            victim):
    """The SMTP server stalls after DATA (it has the whole message, the worker waits for its reply);
    the worker is SIGKILLed then.  Its row stays "sending" until the lease runs out, then another
    worker sends it again: none lost, at most one duplicate, with the same Message-ID (the stalled
    server here keeps the message it never confirmed: the worst case).

    "pool-process": only the pool's process that sends is killed (the OOM killer's pick, or the
    task's hard time limit): the worker lives on, the broker's message comes back (acks late, rejected
    on a lost process) and is taken at once, finds the row leased ("not due"), and the same worker
    sends the row again once the lease ran out."""
    server = StallingSink(tmp_path / "stall", stalls=1)
    app, worker = start(tmp_path, migrated_sqlite, server.url, broker, outbox_lease=lease)
    second = None
    try:
        with app.app_context():
            preconsent(*[email for _, email in PLAYERS])  # the game's own emails, not invitations
            game_id = new_game(toygame.NAME, PLAYERS, seed=1)
            assert server.stalled.wait(30), "".join(worker.log[-30:])
            stalled_id = server.messages()[0]["Message-ID"]  # kept before the stall: the first one
            stuck = wait_until(lambda: [row for row in outbox_rows(game_id)
                                        if row.status == "sending" and row.message_id == stalled_id])
            # A pool of several processes (or threads) sends the others meanwhile: the kill comes once
            # they are sent (the solo pool leaves them waiting behind the stalled send).
            with contextlib.suppress(AssertionError):
                wait_until(lambda: all(row.status == "sent" for row in outbox_rows(game_id)
                                       if row.message_id != stalled_id), timeout=5)
            stalled_sender = worker.sender_on(server.handler.stalled_peer[1])
            in_one_process = stalled_sender == worker.process.pid
            first_claim = as_utc(stuck[0].claimed_at)
            if victim == "worker":
                worker.kill()
            else:
                pool = os.environ.get("RIFTPOST_TEST_WORKER_POOL") or "prefork"  # (run_worker: the Procfile's)
                if pool != "prefork" or in_one_process:
                    pytest.skip("the worker's pool sends in the worker's own process (not prefork)")
                assert stalled_sender is not None
                os.kill(stalled_sender, signal.SIGKILL)
            server.handler.release.set()
            killed_at = time.monotonic()
            if victim == "worker":
                _, second = start(tmp_path, migrated_sqlite, server.url, broker, outbox_lease=lease)
            wait_until(lambda: settled(outbox_rows(game_id)), timeout=lease + 60, interval=0.25)
            took = time.monotonic() - killed_at
            rows = outbox_rows(game_id)
            received = collections.Counter(m["Message-ID"] for m in server.wait_for(len(rows) + 1, timeout=10))
            survived = worker.process.poll() is None
    finally:
        worker.stop()
        if second is not None:
            second.stop()
        server.stop()
    resent = [row for row in rows if row.id == stuck[0].id][0]
    duplicated = sum(count - 1 for count in received.values())
    print(f"\nkill drill ({victim}), lease {lease:.0f}s: {len(rows)} emails, "
          f"{len([r for r in rows if r.status != 'sent'])} lost, {duplicated} duplicated, the killed send "
          f"re-claimed {(as_utc(resent.claimed_at) - first_claim).total_seconds():.1f}s after its first claim, "
          f"all sent {took:.0f}s after the kill")
    assert [row.status for row in rows] == ["sent"] * 3
    assert set(received) == {row.message_id for row in rows}
    # The one duplicate is the killed send's, with its Message-ID; nothing else twice.
    assert received[resent.message_id] == 2 and duplicated == 1
    # Claimed again only once its lease had run out: no live send was ever duplicated.
    assert as_utc(resent.claimed_at) - first_claim >= timedelta(seconds=lease)
    assert resent.attempts == 2
    if victim == "pool-process":
        assert survived, "".join(worker.log[-30:])  # the worker replaced its process, and sent the row
