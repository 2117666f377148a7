"""The Flask app: configuration from the environment, the database engine, the web layer and the
command line.  The composition root: the one module that puts the layers together."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from flask import Flask
from werkzeug.middleware.proxy_fix import ProxyFix

from engine.kit import plural
from service import cli, config, web
from service.store import make_engine
from service.web import play_api, talk

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
    # "{{ hours|plural('hour') }}": a count and its noun, agreed ("1 hour", "48 hours").
    app.jinja_env.filters["plural"] = plural
    app.config.setdefault("WTF_CSRF_TIME_LIMIT", None)  # a page may stay open for days
    app.config.setdefault("MAX_CONTENT_LENGTH", 256 * 1024)
    # Rate limits count per client address: behind PROXY_HOPS trusted proxies it is the one they saw
    # (X-Forwarded-For, read only that many hops deep); without proxies the header is ignored, since
    # any client could write it.
    app.config.setdefault("RATELIMIT_IN_MEMORY_FALLBACK_ENABLED", True)
    if app.config.get("PROXY_HOPS"):
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=int(app.config["PROXY_HOPS"]))  # type: ignore[method-assign]
    app.extensions["riftpost.db"] = make_engine(app.config["DATABASE_URL"],
                                               sqlite_synchronous=app.config["SQLITE_SYNCHRONOUS"])
    web.register(app)
    app.register_blueprint(play_api.bp)
    web.csrf.exempt(play_api.bp)  # the signed token in the path is the proof; no cookie, so no CSRF
    talk.register(app)
    for view in (talk.read_json, talk.write_json):  # the same: the signed token is the proof
        web.csrf.exempt(view)
    cli.register(app)
    return app
