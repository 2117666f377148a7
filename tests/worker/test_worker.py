"""The real Celery worker (with embedded beat) on the real Redis and on the embedded SQLite broker."""

from __future__ import annotations

import base64
import json
import shutil
import time

import pytest

from service.play import new_game
from tests import services
from tests.conftest import make_app
from tests.consent import preconsent
from tests.service import toygame
from tests.service.helpers import outbox_rows
from tests.worker.processes import WorkerProcess, wait_until

PLAYERS = [("Ann", "ann@example.org"), ("Bob", "bob@example.org"), ("Cy", "cy@example.org")]


def broker_for(kind: str, tmp_path) -> str:
    if kind == "redis":
        return services.redis_database()
    return f"sqla+sqlite:///{tmp_path / 'broker.sqlite'}"


@pytest.fixture(params=[pytest.param("redis", marks=pytest.mark.redis), "embedded"])
def running(request, tmp_path, migrated_sqlite, sink):
    broker = broker_for(request.param, tmp_path)
    db = tmp_path / "app.sqlite"
    shutil.copy(migrated_sqlite, db)
    app = make_app(tmp_path, f"sqlite:///{db}", CELERY_BROKER_URL=broker, SMTP_URL=sink.url,
                   OUTBOX_KICK=True)
    worker = WorkerProcess(instance=tmp_path, database_url=f"sqlite:///{db}", broker_url=broker,
                           smtp_url=sink.url, base_url=app.config["BASE_URL"], dispatch_seconds=1.0)
    with app.app_context():
        yield app, worker
    worker.stop()


def test_kicked_rows_are_sent_by_the_worker(running, sink):
    app, worker = running
    preconsent(*[email for _, email in PLAYERS])  # the game's own emails
    game_id = new_game(toygame.NAME, PLAYERS, seed=1)
    messages = sink.wait_for(3, timeout=30)
    # Bob's and Cy's invitations, and Ann's first turn email (her invitation: she starts).
    assert {m["Subject"] for m in messages} == {f"Toy #{game_id}: Ann, Bob and Cy"}
    assert sorted(m["X-Riftpost-Kind"] for m in messages) == ["invite", "invite", "turn"]
    wait_until(lambda: all(row.status == "sent" for row in outbox_rows(game_id)))
    assert len(sink.messages()) == 3  # and nothing twice, though the beat scan ran meanwhile
    if app.config["CELERY_BROKER_URL"].startswith("sqla+"):
        from worker import tasks

        # kombu's SQLAlchemy transport only hides consumed messages; the beat task deletes them.
        assert tasks.purge_broker.run() >= 1  # (the kick: one task of the three rows)


def test_rows_without_a_kick_are_sent_by_the_beat_scan(running, sink):
    app, worker = running
    app.config["OUTBOX_KICK"] = False  # as if the broker had been down during the request
    preconsent(*[email for _, email in PLAYERS])  # the game's own emails
    game_id = new_game(toygame.NAME, PLAYERS, seed=2)
    sink.wait_for(3, timeout=30)
    wait_until(lambda: all(row.status == "sent" for row in outbox_rows(game_id)))
    assert any("riftpost.dispatch_outbox" in line for line in worker.log)


def test_task_bodies_are_thin_calls_into_the_service(app, sink):
    """The task functions themselves, called directly (no broker): dispatch finds due rows,
    send delivers one, a batch each of its rows, purge is a no-op off the SQLite broker."""
    from unittest import mock

    from worker import tasks

    app.config["SMTP_URL"] = sink.url
    preconsent(*[email for _, email in PLAYERS])  # the game's own emails
    game_id = new_game(toygame.NAME, PLAYERS, seed=6)
    with mock.patch("service.mail.outbox.enqueue") as enqueue:
        assert tasks.dispatch_outbox.run() == 3
    ids = enqueue.call_args.args[0]
    assert ids == [row.id for row in outbox_rows(game_id)]
    assert tasks.send_email.run(ids[0]) == "sent"  # a task queued before batches
    assert tasks.send_email.run(ids[0]) == "not due"
    assert tasks.send_emails.run([ids[1], ids[0], ids[2]]) == {"sent": 2, "not due": 1}
    assert tasks.purge_broker.run() == 0
    assert tasks.send_email.acks_late and tasks.send_email.app.conf.worker_prefetch_multiplier == 1
    assert tasks.send_email.app.conf.task_reject_on_worker_lost


def test_deliveries_travel_in_batches_and_a_batch_out_of_time_enqueues_what_it_did_not_start(app, sink, monkeypatch):
    """outbox.SEND_BATCH rows a task (Celery's cost per task paid once per batch), kicks as the scan's
    enqueues; outbox.BATCH_SECONDS: a batch starts no delivery after it, so each one started keeps its
    send budget under the task's time limit, and the rows not started go back to the queue, still pending."""
    from unittest import mock

    from service.mail import outbox

    app.config["SMTP_URL"] = sink.url
    preconsent(*[email for _, email in PLAYERS])
    game_ids = [new_game(toygame.NAME, PLAYERS, seed=seed) for seed in range(6, 10)]
    ids = [row.id for game_id in game_ids for row in outbox_rows(game_id)]
    assert outbox.batches(ids) == [ids[:10], ids[10:]] and outbox.SEND_BATCH == 10
    with mock.patch("service.mail.queue.publish") as publish:
        outbox.kick(ids)
    publish.assert_called_once_with(outbox.SEND_BATCH_TASK, [[ids[:10]], [ids[10:]]])
    monkeypatch.setattr(outbox, "BATCH_SECONDS", 0.0)
    with mock.patch("service.mail.outbox.enqueue") as enqueue:
        assert outbox.deliver_batch(ids[:3]) == {"sent": 1, "enqueued again": 2}
    enqueue.assert_called_once_with(ids[1:3])
    assert [row.status for row in outbox_rows(game_ids[0])] == ["sent", "pending", "pending"]
    # No send of a batch runs past the send budget from the batch's start (the same margin under the
    # task's time limit as a one-row task's): a send with no time left is not made, and is retried.
    sent = len(sink.messages())
    assert outbox.deliver(ids[3], until=time.monotonic() - 1) == "retrying"
    assert len(sink.messages()) == sent and outbox_rows(game_ids[1])[0].status == "pending"
    real, untils = outbox.deliver, []
    monkeypatch.setattr(outbox, "deliver", lambda row_id, until=None: untils.append(until) or real(row_id, until))
    started = time.monotonic()
    with mock.patch("service.mail.outbox.enqueue"):
        assert outbox.deliver_batch(ids[4:6]) == {"sent": 1, "enqueued again": 1}
    budget = outbox.policy().send_budget
    assert len(untils) == 1 and started + budget <= untils[0] <= time.monotonic() + budget


@pytest.mark.parametrize("kick", [False, True])
def test_without_kicks_the_outbox_scan_records_the_end_of_a_finished_game(app, kick):
    """With the embedded broker the final move kicks nothing, so the game_over emails would wait for
    the minute sweep: the outbox scan (every 2 s there) records the end first.  With kicks (Redis) the
    end task is kicked and the scan leaves ends to it and to the sweep."""
    from unittest import mock

    from service import store
    from service.store import get_engine, read_session
    from tests.service.helpers import current, play_one
    from worker import tasks

    app.config["OUTBOX_KICK"] = kick
    preconsent(*[email for _, email in PLAYERS])
    game_id = new_game(toygame.NAME, PLAYERS, {"target": 2}, seed=1)
    with mock.patch("service.mail.queue._publish"):  # the kicks, if any, go nowhere here
        while current(game_id)[0].status == "active":
            play_one(game_id)
    with mock.patch("service.mail.outbox.enqueue"):
        tasks.dispatch_outbox.run()
    with read_session(get_engine()) as session:
        recorded = store.end_event(session, game_id) is not None
    assert recorded is not kick
    if not kick:
        assert [row.kind for row in outbox_rows(game_id)].count("game_over") == len(PLAYERS)


def test_the_worker_log_leaves_out_outbox_scans_that_found_nothing():
    """With the embedded broker the outbox scan runs every 2 s: a scan that found nothing leaves no
    worker lines; one that enqueued emails, other tasks and warnings are logged as before."""
    import logging

    from worker.app import _QuietScan

    def shown(logger: str, message: str, level: int = logging.INFO) -> bool:
        return _QuietScan().filter(logging.LogRecord(logger, level, __file__, 1, message, None, None))

    assert not shown("celery.worker.strategy", "Task riftpost.dispatch_outbox[1f] received")
    assert not shown("celery.app.trace", "Task riftpost.dispatch_outbox[1f] succeeded in 0.003s: 0")
    assert shown("celery.app.trace", "Task riftpost.dispatch_outbox[1f] succeeded in 0.004s: 3")
    assert shown("celery.worker.strategy", "Task riftpost.send_email[2a] received")
    assert shown("celery.app.trace", "Task riftpost.send_email[2a] succeeded in 0.01s: 'sent'")
    assert shown("celery.app.trace", "Task riftpost.dispatch_outbox[1f] raised: OperationalError",
                 logging.ERROR)


def queued_args(client, index: int) -> list:
    """The arguments of the task at `index` of Redis's default queue (kombu's message: a base64 JSON body)."""
    message = json.loads(client.lindex("celery", index))
    return json.loads(base64.b64decode(message["body"]))[0]


@pytest.mark.redis
def test_the_beat_scan_adds_no_deliveries_while_a_batch_already_waits_in_the_queue(tmp_path, migrated_sqlite):
    """The scale drill's finding (docs/scale.md): while the workers were behind, every scan enqueued the
    500 oldest pending rows again, though their kicks were still queued; the queue grew to 10,000
    tasks for 3,300 emails.  With a batch waiting the scan adds nothing; with room, only what fits.  The
    queue holds tasks of up to SEND_BATCH rows: its room is SCAN_BATCH rows' worth of tasks."""
    import redis

    from service.mail import outbox, queue
    from worker import tasks

    tasks_room = outbox.SCAN_BATCH // outbox.SEND_BATCH  # 50 tasks of 10 rows
    broker = services.redis_database()
    db = tmp_path / "app.sqlite"
    shutil.copy(migrated_sqlite, db)
    app = make_app(tmp_path, f"sqlite:///{db}", CELERY_BROKER_URL=broker, OUTBOX_KICK=False)
    client = redis.Redis.from_url(broker)
    with app.app_context():
        preconsent(*[email for _, email in PLAYERS])
        # Twelve pending rows, nobody kicked: more than one task's worth.
        game_ids = [new_game(toygame.NAME, PLAYERS, seed=seed) for seed in range(3, 7)]
        rows = [row.id for game_id in game_ids for row in outbox_rows(game_id)]
        assert len(rows) == 12 > outbox.SEND_BATCH
        assert tasks.dispatch_outbox.run() == 12  # an empty queue: the scan enqueues them all,
        assert client.llen("celery") == 2  # in two tasks
        app_ = queue.celery_client()
        for row_id in range(tasks_room - 3):  # a backlog: the workers are behind
            app_.send_task(outbox.SEND_TASK, args=[10_000 + row_id])
        assert client.llen("celery") == tasks_room - 1
        assert tasks.dispatch_outbox.run() == outbox.SEND_BATCH  # room for one task: the oldest rows
        assert queued_args(client, 0) == [rows[:outbox.SEND_BATCH]]  # (kombu pushes on the left)
        app_.send_task(outbox.SEND_TASK, args=[99_999])
        assert tasks.dispatch_outbox.run() == 0  # a batch waits: nothing more
        assert client.llen("celery") == tasks_room + 1
        client.delete("celery")
        assert tasks.dispatch_outbox.run() == 12  # drained (or its tasks lost): every due row again
        assert all(row.status == "pending" for game_id in game_ids for row in outbox_rows(game_id))
    client.close()


ARENAS = """
import ctypes, ctypes.util, sys, threading
from worker import signals
if sys.argv[1] == "one":
    assert signals.one_arena()

def allocate():  # blocks above pymalloc's 512 bytes come from glibc's malloc, in the thread's arena
    kept = [bytearray(4096) for _ in range(2000)]
    del kept

threads = [threading.Thread(target=allocate) for _ in range(6)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
ctypes.CDLL(ctypes.util.find_library("c")).malloc_stats()  # one "Arena N:" block each, to stderr
"""


def test_the_worker_allocates_from_one_malloc_arena_whatever_its_threads():
    """worker/signals.py `one_arena` (the worker calls it as it starts, before a threads pool's threads):
    glibc gives each allocating thread an arena of its own, whose freed memory stays there; with the
    setting, threads share the one.  Counted in glibc's own report (malloc_stats)."""
    import subprocess
    import sys

    def arenas(mode: str) -> int:
        done = subprocess.run([sys.executable, "-c", ARENAS, mode], capture_output=True, text=True, check=True)
        return done.stderr.count("Arena ")

    assert arenas("many") > 1
    assert arenas("one") == 1
