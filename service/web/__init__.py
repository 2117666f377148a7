"""The web layer: blueprints and the error pages that turn every bad input into a clear 4xx."""

from __future__ import annotations

import logging

from flask import Flask, jsonify, render_template, request
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException

import engine
from service.links import LinkError
from service.store import GameNotFound

log = logging.getLogger(__name__)


def error_page(status: int, title: str, message: str):
    if request.path.startswith("/api/"):
        return jsonify(error=title, message=message, status=status), status
    return render_template("error.html", status=status, title=title, message=message), status


def register(app: Flask) -> None:
    from service.web import api, games, play

    app.register_blueprint(games.bp)
    app.register_blueprint(play.bp)
    app.register_blueprint(api.bp)
    from service.web import clock

    app.register_blueprint(clock.bp)  # time zone and vacation (deadlines)
    app.jinja_env.globals["deadline_panel"] = clock.panel
    from service.web import history

    app.register_blueprint(history.bp)
    from service.web import campaign

    app.register_blueprint(campaign.bp)  # Beyond the Rift campaign follow-ups (issue 8)
    # The dev mailbox exists only in embedded mode: with SMTP_URL set, mail leaves the machine
    # and the route is not even registered.
    if app.config["DEV_MAILBOX"]:
        from service.web import devmail

        app.register_blueprint(devmail.bp)

    @app.after_request
    def security_headers(response):
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", "same-origin")  # links carry bearer tokens
        response.headers.setdefault("X-Frame-Options", "DENY")
        if request.blueprint == "play":  # pages opened by a player's own links: keep them private
            response.headers.setdefault("Cache-Control", "private, no-store")
        return response

    @app.errorhandler(LinkError)
    def link_error(exc: LinkError):
        return error_page(exc.status, "This link cannot be used", exc.message)

    @app.errorhandler(GameNotFound)
    def game_not_found(exc: GameNotFound):
        return error_page(404, "No such game", str(exc))

    @app.errorhandler(engine.UnknownGame)
    def unknown_game(exc: engine.UnknownGame):
        return error_page(404, "No such game", str(exc))

    @app.errorhandler(CSRFError)
    def csrf_error(exc: CSRFError):
        return error_page(
            400,
            "The form could not be accepted",
            "The form was too old or did not come from this site. Reload the page and try again. "
            f"({exc.description})",
        )

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException):
        return error_page(exc.code or 500, exc.name, exc.description or "")

    @app.errorhandler(Exception)
    def unexpected(exc: Exception):  # a bug: log it, and show nothing of its internals
        log.exception("unhandled error on %s %s", request.method, request.path)
        return error_page(500, "Something went wrong", "The error was logged; please try again later.")
