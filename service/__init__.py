"""Riftpost's service: the Flask app (pages, JSON API), the event store, signed links, the outbox.

    flask --app service db-upgrade
    flask --app service new-game riftforce ann@example.org bob@example.org
    gunicorn 'service:create_app()'

`handle` is the one move path (see service/moves.py).
"""

from __future__ import annotations

from pathlib import Path

from flask import Flask
from flask_wtf.csrf import CSRFProtect

from service import config as config_module
from service.db import make_engine
from service.moves import handle, new_game
from service.store import GameNotFound, StaleState

__all__ = ["create_app", "handle", "new_game", "GameNotFound", "StaleState", "csrf"]

# The product owner fixed the top-level templates/ folder; it sits beside this package in a
# checkout and in an editable install.
TEMPLATES = Path(__file__).resolve().parent.parent / "templates"

csrf = CSRFProtect()


def create_app(overrides: dict | None = None) -> Flask:
    """The app, configured from the environment (service/config.py), then from `overrides`."""
    settings = config_module.from_env(
        Path(overrides["INSTANCE_PATH"]) if overrides and "INSTANCE_PATH" in overrides else None
    )
    settings.update(overrides or {})
    app = Flask(
        __name__,
        template_folder=str(TEMPLATES),
        instance_path=settings["INSTANCE_PATH"],
        instance_relative_config=True,
    )
    app.config.update(settings)
    app.config.setdefault("WTF_CSRF_TIME_LIMIT", None)  # a page may stay open for days
    app.config.setdefault("MAX_CONTENT_LENGTH", 256 * 1024)
    app.extensions["riftpost.db"] = make_engine(app.config["DATABASE_URL"])

    csrf.init_app(app)

    from service.web import register

    register(app)

    from service.cli import register_commands

    register_commands(app)
    return app
