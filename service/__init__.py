"""Riftpost's service: the Flask app (pages, JSON API), the event store, signed links, the outbox.

    flask --app service db-upgrade
    flask --app service new-game GAME ann@example.org bob@example.org
    granian --interface wsgi --factory service:create_web_app    (the Procfile's web, with its settings)

The layers, each importing only those below it (pyproject.toml's import-linter contract checks it):
web and cli -> play -> clocks -> mail -> views -> games -> store -> engine; service/app.py puts them
together.  `service.play.handle` is the one move path.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from _typeshed.wsgi import WSGIApplication
    from flask import Flask


def create_app(overrides: dict[str, Any] | None = None) -> Flask:
    """The app (service/app.py).  Imported here, not at the top: `import service.store` (a worker, a
    test, a migration) must not load the web layer with it."""
    from service.app import create_app as make

    return make(overrides)


def create_web_app() -> WSGIApplication:
    """The app as the Procfile's web server serves it: behind the access log, which leaves out the
    links' tokens (service/accesslog.py).  The server's own access log stays off.

    What is loaded now (the app, the engines: the first `engine.get` imports every built-in game) stays
    for the process's life: frozen out of the collector's sight, as the worker's (worker/app.py
    `warm_up`), so that a full collection walks only what the requests made, not the ~90 MB of the app
    (bench/moves.py: ~75 ms each, a few times per thousand moves)."""
    import gc

    import engine
    from service.accesslog import AccessLog

    app = AccessLog(create_app())
    engine.names()
    gc.collect()
    gc.freeze()
    return app
