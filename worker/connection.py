"""The broker connections of the Celery app (`amqp_cls` in worker/app.py): kombu's, but a connection
that is thrown away keeps what its channels need to reach the broker.

When the connection to Redis is lost, Celery has kombu "collect" it: close its channels under a short
socket timeout, then detach the transport (`transport.client = None`).  A channel the collect left
open (its close raised part-way: Redis was already gone) is closed again later, and a task that was
running when the connection went is acknowledged later on its old channel; both ask the detached
transport for Redis's address, and kombu 5.7 raises AttributeError ('NoneType' object has no
attribute 'hostname').  Celery lets it through, and the worker stopped, with status 0, as if asked to
(the Redis drills in tests/worker/test_beat.py, under load; under honcho one stopped process stops
the whole service).

Here the detached transport keeps its client (only kombu's reference from the connection to the
transport is dropped, which is what makes the next use build a new one), so such a channel reaches
Redis as before: while Redis is down it fails with a connection error, which kombu and Celery ignore
or log, and once Redis is back the late acknowledgement goes through, as it should, instead of the
message being given again after the visibility timeout.  A late close that reaches Redis puts the
messages the channel took and did not acknowledge back on the queue, where another worker may take
one whose task still runs here: safe because every task is idempotent (a send claims its outbox row
under a lease; a bot's move names the position it expects; a game's end is recorded once), which any
new task must keep true.  tests/worker/test_connection.py.
"""

from __future__ import annotations

import kombu
from celery.app.amqp import AMQP as CeleryAMQP


class Connection(kombu.Connection):  # type: ignore[misc]  # kombu ships no type hints
    def _do_close_transport(self) -> None:
        self._transport = None


class AMQP(CeleryAMQP):  # type: ignore[misc]  # Celery ships no type hints
    Connection = Connection
    BrokerConnection = Connection
