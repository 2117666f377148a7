"""Telling the worker about new work right after a commit: an optimisation only (beat's scans find the
work anyway), so it runs off the request's path and failures are logged and ignored."""

from __future__ import annotations

import logging
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

from service import running

if TYPE_CHECKING:
    from celery import Celery

log = logging.getLogger(__name__)

_kicker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="riftpost-kick")
_making = threading.Lock()


def celery_client() -> Celery:
    """The Celery app to enqueue with: the worker's own, or a publish-only client for the web."""
    app = running.extensions().get("riftpost.celery")
    if app is not None:
        return app
    with _making:  # the web's threads: one client per app
        app = running.extensions().get("riftpost.celery")
        if app is not None:
            return app
        # Imported at the first publish: a web on the embedded broker publishes only for bots (publish
        # below), and Celery's app is ~6 MB of the web's memory (bench/memory.py).
        from celery import Celery

        app = Celery("riftpost-web", set_as_current=False)
        app.conf.update(
            broker_url=running.config()["CELERY_BROKER_URL"],
            # A kick must never hang a web request: try once, quickly; the beat scan catches up.
            task_publish_retry=False,
            broker_connection_timeout=2,
            broker_connection_retry=False,
            broker_connection_retry_on_startup=False,
        )
        running.extensions()["riftpost.celery"] = app
        return app


def publish(task: str, calls: list[list[Any]], always: bool = False) -> None:
    """After a commit: enqueue `task` once per argument list in `calls`, in the background (publishing
    to the embedded SQLite broker costs a synced commit, so only with OUTBOX_KICK on, or `always`)."""
    if not calls or not (always or running.config()["OUTBOX_KICK"]):
        return
    _kicker.submit(_publish, celery_client(), task, [list(args) for args in calls])


def _publish(app: Celery, task: str, calls: list[list[Any]]) -> None:
    try:
        for args in calls:
            app.send_task(task, args=args)
    except Exception:
        log.warning("could not enqueue %s %s; the beat scan will do it", task, calls, exc_info=True)
