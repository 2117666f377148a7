"""The worker's consumer (worker/consumer.py) against kombu's failure to close a lost Redis connection."""

from __future__ import annotations

import kombu
import pytest

from tests.worker.processes import RedisServer
from worker.consumer import closing_anyway


def lost_connection_left_half_closed() -> kombu.Connection:
    """A kombu connection to a Redis that is gone, in the state in which the worker stopped: its
    channel holds a message it took and has not acknowledged, is still open, and the connection's
    transport is detached (kombu's `collect`, Celery's first step with a lost connection, does that
    whether or not the channel's close went through)."""
    server = RedisServer()
    server.start()
    try:
        connection = kombu.Connection(server.url)
        channel = connection.default_channel
        queue = kombu.Queue("sends", kombu.Exchange("sends"), routing_key="sends", channel=channel)
        queue.declare()
        kombu.Producer(channel).publish({"outbox": [1]}, exchange="sends", routing_key="sends")
        taken: list[kombu.Message] = []
        kombu.Consumer(channel, [queue], callbacks=[lambda _body, message: taken.append(message)]).consume()
        connection.drain_events(timeout=5)
        assert len(taken) == 1 and not taken[0].acknowledged
    finally:
        server.stop()
    connection._do_close_transport()
    return connection


@pytest.mark.redis
def test_kombu_fails_to_close_a_lost_connection_whose_channel_the_collect_left_open():
    """Why worker/consumer.py exists: if this stops failing, kombu fixed it and the guard can go."""
    connection = lost_connection_left_half_closed()
    with pytest.raises(AttributeError, match="hostname"):
        connection.close()


@pytest.mark.redis
def test_the_consumer_drops_a_lost_connection_that_kombu_fails_to_close(caplog):
    connection = lost_connection_left_half_closed()
    closing_anyway(connection.close)()
    assert "dropped anyway" in caplog.text


def test_the_worker_runs_this_consumer():
    from celery.utils.imports import symbol_by_name

    from worker import celery
    from worker.consumer import Consumer

    assert symbol_by_name(celery.conf.worker_consumer) is Consumer
    assert celery.conf.broker_connection_max_retries is None  # and it tries to reconnect for ever
