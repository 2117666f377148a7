"""The beat scan's room (service/mail/outbox.py `scan_room`) on Redis: an empty queue is a queue with
nothing waiting, not a failure to read it (Redis deletes an emptied list; kombu calls it not found)."""

from __future__ import annotations

import logging

import pytest

from service.mail import outbox
from tests import services
from tests.conftest import make_app


@pytest.mark.redis
def test_an_empty_redis_queue_leaves_the_whole_batch_and_logs_nothing(tmp_path, caplog):
    app = make_app(tmp_path, f"sqlite:///{tmp_path / 'app.sqlite'}", CELERY_BROKER_URL=services.redis_database())
    caplog.set_level(logging.WARNING, logger=outbox.log.name)
    with app.app_context():
        assert outbox.scan_room() == outbox.SCAN_BATCH
        outbox.enqueue(list(range(1, 13)))  # twelve rows: two tasks (of up to SEND_BATCH rows)
        assert outbox.scan_room() == outbox.SCAN_BATCH - 2 * outbox.SEND_BATCH
    assert not [record for record in caplog.records if record.levelno >= logging.WARNING]
