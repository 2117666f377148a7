"""The app the code runs in: its settings (`config()`) and its shared objects (`extensions()`: the
database engine, the Celery client), for the layers below the web.

Two kinds of app answer: the web's and the command line's Flask app, in its app context (Flask's
`current_app`), and the worker's `Host`, which is only those two dicts: the worker sends mail, sweeps
deadlines and plays bots without building the Flask app (no web layer, no request context: issue #26).
The service's code asks this module, never `flask.current_app`, so it runs the same in both.

A pushed Host comes first: a task run inside a test's Flask app context sees the worker's app.  Flask is
looked up only if something already imported it (the worker never does).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, Protocol


class App(Protocol):
    """What the service asks of an app: a Flask app has both."""

    config: Any  # a Mapping[str, Any]; Flask's Config is a dict
    extensions: dict[str, Any]


class Host:
    """An app without Flask: the settings (service/config.py's `from_env`) and the shared objects."""

    def __init__(self, config: Mapping[str, Any], extensions: dict[str, Any] | None = None) -> None:
        self.config = config
        self.extensions = extensions if extensions is not None else {}

    @contextmanager
    def app_context(self) -> Iterator[Host]:
        """Make this the running app for the block (like Flask's app context): a task runs inside one."""
        token = _pushed.set(self)
        try:
            yield self
        finally:
            _pushed.reset(token)


_pushed: ContextVar[Host | None] = ContextVar("riftpost.host", default=None)


def current() -> App:
    """The running app: the innermost pushed Host, else Flask's app in an app context."""
    host = _pushed.get()
    if host is not None:
        return host
    flask = sys.modules.get("flask")
    if flask is not None and flask.has_app_context():
        return flask.current_app._get_current_object()  # type: ignore[no-any-return]
    raise RuntimeError("no app is running: push a Flask app context or a service.running.Host "
                       "(worker/app.py makes the worker's)")


def config() -> Mapping[str, Any]:
    """The running app's settings (the keys of service/config.py's `from_env`)."""
    return current().config  # type: ignore[no-any-return]


def extensions() -> dict[str, Any]:
    """The running app's shared objects: "riftpost.db" (the engine), "riftpost.celery" (the client)."""
    return current().extensions
