"""The worker's consumer (`worker_consumer` in worker/app.py): Celery's, but a lost Redis connection
that kombu fails to close does not stop the worker.

When the connection to Redis is lost, Celery first has kombu "collect" it (close its channels under a
short socket timeout, then detach the transport from the connection) and then closes it.  If a channel
was left open by the collect (its close raised part-way: Redis was already gone), the close that
follows closes it again, and the Redis channel, restoring the messages it took but has not
acknowledged, asks the detached transport for Redis's address: AttributeError ('NoneType' object has
no attribute 'hostname', kombu 5.7).  Celery ignores only connection errors there, so the worker
stopped, with status 0, as if asked to (seen in the Redis-outage drill under load; under honcho one
stopped process stops the whole service).

Here that close's AttributeError is logged and the connection dropped: it is being thrown away.  The
messages it held are not lost: Redis keeps each unacknowledged message and gives it again after the
visibility timeout (worker/app.py), and the outbox scan enqueues any email still pending; the tasks
are idempotent (they claim their outbox rows).  tests/worker/test_consumer.py builds kombu's broken
state and the Redis drills in tests/worker/test_beat.py run a real worker through outages.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from celery.worker.consumer import Consumer as CeleryConsumer

log = logging.getLogger(__name__)


def closing_anyway(close: Callable[[], Any]) -> Callable[[], None]:
    """`close`, for a lost connection: kombu's AttributeError from its detached transport logged, not raised."""

    def close_lost() -> None:
        try:
            close()
        except AttributeError:
            log.warning("consumer: closing the lost broker connection failed inside kombu; dropped anyway",
                        exc_info=True)

    return close_lost


class Consumer(CeleryConsumer):  # type: ignore[misc]  # Celery ships no type hints
    def on_connection_error_after_connected(self, exc: Exception) -> None:
        if self.connection is not None:
            # Celery calls `connection.close` (through kombu's ignore_errors) once it has collected it.
            self.connection.close = closing_anyway(self.connection.close)
        super().on_connection_error_after_connected(exc)
