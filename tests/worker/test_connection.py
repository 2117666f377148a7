"""The worker's broker connections (worker/connection.py) when Redis goes away: the state kombu leaves
a lost connection in no longer stops the worker."""

from __future__ import annotations

import kombu
import pytest
import redis

from tests.worker.processes import RedisServer
from worker.connection import Connection


def taken_then_lost(server: RedisServer, connection: kombu.Connection) -> kombu.Message:
    """A message `connection` took from Redis and has not acknowledged; then Redis goes, and the
    connection is left as Celery's first step with a lost connection (kombu's `collect`) leaves it when
    its channel's close failed part-way: the channel still open, the transport detached."""
    channel = connection.default_channel
    queue = kombu.Queue("sends", kombu.Exchange("sends"), routing_key="sends", channel=channel)
    queue.declare()
    kombu.Producer(channel).publish({"outbox": [1]}, exchange="sends", routing_key="sends")
    taken: list[kombu.Message] = []
    kombu.Consumer(channel, [queue], callbacks=[lambda _body, message: taken.append(message)]).consume()
    connection.drain_events(timeout=5)
    assert len(taken) == 1 and not taken[0].acknowledged
    server.stop()
    connection._do_close_transport()
    return taken[0]


@pytest.fixture
def server():
    server = RedisServer()
    server.start()
    yield server
    server.stop()


@pytest.mark.redis
def test_kombus_own_connection_fails_in_that_state(server):
    """Why worker/connection.py exists: if this stops failing, kombu fixed it and the class can go."""
    connection = kombu.Connection(server.url)
    taken_then_lost(server, connection)
    with pytest.raises(AttributeError, match="hostname"):
        connection.close()


@pytest.mark.redis
def test_a_lost_connection_closes_while_redis_is_down(server):
    connection = Connection(server.url)
    taken_then_lost(server, connection)
    connection.close()  # restoring the taken message fails with a connection error, which kombu ignores


@pytest.mark.redis
def test_a_task_taken_before_redis_went_is_acknowledged_once_it_is_back(server):
    connection = Connection(server.url)
    message = taken_then_lost(server, connection)
    server.start()
    message.ack()
    assert redis.Redis.from_url(server.url).hlen("unacked") == 0  # not given again later
    connection.close()


def test_the_workers_app_makes_these_connections():
    from worker import celery

    assert isinstance(celery.connection_for_write(), Connection)
    assert celery.conf.broker_connection_max_retries is None  # and tries to reconnect for ever
