"""Every error the web answers with, in one place: the service's own (service/errors.py) by their
status, an unknown game, a form without its CSRF token, HTTP errors, and a bug (a 500 that shows nothing
of its internals).  Pages get an HTML page, `/api/` gets JSON."""

from __future__ import annotations

import logging
from typing import Any

from flask import Flask, jsonify, make_response, render_template, request
from flask.typing import ResponseReturnValue
from flask_limiter.errors import RateLimitExceeded
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException

import engine
from service.errors import IllegalMoveAt, RiftpostError, StaleState, TooMany
from service.web.limits import retry_after

log = logging.getLogger(__name__)


def error_page(status: int, title: str, message: str, **extra: Any) -> ResponseReturnValue:
    """The error as a page, or under `/api/` as JSON: `error` (the title), `message`, `status` and the
    `extra` fields (a stale position's current `seq`, an illegal move's `index`, `reason`, `code`)."""
    if request.path.startswith("/api/"):
        return jsonify(error=title, message=message, status=status, **extra), status
    return render_template("error.html", status=status, title=title, message=message), status


def too_many(title: str, message: str, wait: int) -> ResponseReturnValue:
    """A 429 page (JSON under /api/) with Retry-After: the seconds until it may be tried again."""
    response = make_response(error_page(429, title, message, retry_after=wait))
    response.headers["Retry-After"] = str(wait)
    return response


def _duration(seconds: int) -> str:
    if seconds < 90:
        return f"{seconds} second{'s' if seconds != 1 else ''}"
    minutes = round(seconds / 60)
    if minutes < 90:
        return f"{minutes} minutes"
    return f"about {round(minutes / 60)} hours"


def register(app: Flask) -> None:
    @app.errorhandler(RiftpostError)
    def riftpost_error(exc: RiftpostError) -> ResponseReturnValue:
        extra: dict[str, Any] = {}
        if isinstance(exc, StaleState):
            extra["code"] = "stale"
            if exc.current_seq is not None:
                extra["seq"] = exc.current_seq
        if isinstance(exc, TooMany):
            return too_many(exc.title, exc.message, exc.retry_after)
        return error_page(exc.status, exc.title, exc.message, **extra)

    @app.errorhandler(RateLimitExceeded)
    def rate_limited(exc: RateLimitExceeded) -> ResponseReturnValue:
        wait = retry_after()
        return too_many("Too many requests from your address",
                        f"This address has made too many of these requests ({exc.description}). "
                        f"Please try again in {_duration(wait)}.", wait)

    @app.errorhandler(engine.IllegalMove)
    def illegal_move(exc: engine.IllegalMove) -> ResponseReturnValue:  # pages answer their own; this is the net
        extra: dict[str, Any] = {"code": exc.code, "reason": exc.reason}
        if isinstance(exc, IllegalMoveAt):
            extra["index"] = exc.index
        return error_page(422, "That move is not allowed", exc.reason, **extra)

    @app.errorhandler(engine.UnknownGame)
    def unknown_game(exc: engine.UnknownGame) -> ResponseReturnValue:
        return error_page(404, "No such game", str(exc))

    @app.errorhandler(CSRFError)
    def csrf_error(exc: CSRFError) -> ResponseReturnValue:
        return error_page(
            400,
            "The form could not be accepted",
            "The form was too old or did not come from this site. Reload the page and try again. "
            f"({exc.description})",
        )

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException) -> ResponseReturnValue:
        return error_page(exc.code or 500, exc.name, exc.description or "")

    @app.errorhandler(Exception)
    def unexpected(exc: Exception) -> ResponseReturnValue:  # a bug: log it, show nothing of its internals
        log.exception("unhandled error on %s %s", request.method, request.path)
        return error_page(500, "Something went wrong", "The error was logged; please try again later.")
