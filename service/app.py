"""The Flask app: configuration from the environment, the database engine, the web layer and the
command line.  The composition root: the one module that puts the layers together."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from flask import Flask

from service import cli, config, web
from service.store import make_engine
from service.web import play_api

# The product owner fixed the top-level templates/ folder; service/templates links to it in a
# checkout, and a wheel carries the files themselves there (pyproject.toml's package data).
TEMPLATES = Path(__file__).resolve().parent / "templates"


def create_app(overrides: dict[str, Any] | None = None) -> Flask:
    """The app, configured from the environment (service/config.py), then from `overrides`."""
    settings = config.from_env(
        Path(overrides["INSTANCE_PATH"]) if overrides and "INSTANCE_PATH" in overrides else None
    )
    settings.update(overrides or {})
    app = Flask(
        "service",
        template_folder=str(TEMPLATES),
        instance_path=settings["INSTANCE_PATH"],
        instance_relative_config=True,
    )
    app.config.update(settings)
    app.config.setdefault("WTF_CSRF_TIME_LIMIT", None)  # a page may stay open for days
    app.config.setdefault("MAX_CONTENT_LENGTH", 256 * 1024)
    app.extensions["riftpost.db"] = make_engine(app.config["DATABASE_URL"])
    web.register(app)
    app.register_blueprint(play_api.bp)
    web.csrf.exempt(play_api.bp)  # the signed token in the path is the proof; no cookie, so no CSRF
    cli.register(app)
    return app
