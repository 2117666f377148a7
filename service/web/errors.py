"""Every error the web answers with, in one place: the service's own (service/errors.py) by their
status, an unknown game, a form without its CSRF token, HTTP errors, and a bug (a 500 that shows nothing
of its internals).  Pages get an HTML page, `/api/` gets JSON.

Said in the reader's language (issue #26): a page's title and message, and under `/api/` the JSON's
`message` and `title`; the JSON's `error` stays the English title, a stable text a program may compare.
A message marked for the catalogs where it is raised (`service.lang.N_`) is translated here; one made
with its numbers in it was translated where it was made (gettext with placeholders), or, from a layer
that does not know the reader, stays English (docs/i18n.md says which)."""

from __future__ import annotations

import logging
from typing import Any

from flask import Flask, jsonify, make_response, render_template, request
from flask.typing import ResponseReturnValue
from flask_babel import get_translations, gettext, ngettext
from flask_limiter.errors import RateLimitExceeded
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException

import engine
from service.accesslog import redact
from service.errors import GameNotFound, IllegalMoveAt, RiftpostError, StaleState, TooMany
from service.lang import N_, Words
from service.web.limits import retry_after

log = logging.getLogger(__name__)


def error_page(status: int, title: str, message: str, **extra: Any) -> ResponseReturnValue:
    """The error as a page, or under `/api/` as JSON: `error` (the title), `message`, `status` and the
    `extra` fields (a stale position's current `seq`, an illegal move's `index`, `reason`, `code`)."""
    shown_title, shown = said(title), said(message)
    if request.path.startswith("/api/"):
        return jsonify(error=title, title=shown_title, message=shown, status=status, **extra), status
    return render_template("error.html", status=status, title=shown_title, message=shown), status


def said(text: str) -> str:
    """`text` in the reader's language when the catalogs have it (never gettext(""): the catalog's header);
    a message made below the request with its numbers apart (`service.lang.Words`) by its id and params."""
    if isinstance(text, Words):
        return text.said_in(get_translations())
    return gettext(text) if text else text


# HTTP's own errors (werkzeug's), in our words: their titles and their usual explanations.
HTTP_WORDS = {
    400: (N_("Bad request"), N_("The request could not be understood. Check the link or the form and try again.")),
    401: (N_("Please sign in"), N_("Sign in to see this page: we email you a link.")),
    403: (N_("Not allowed"), N_("You may not open this page.")),
    404: (N_("Page not found"), N_("There is no page at this address. Check the link, or start from the start page.")),
    405: (N_("Not allowed this way"), N_("This address does not answer that kind of request.")),
    410: (N_("No longer here"), N_("What was at this address is gone for good.")),
    413: (N_("Too large"), N_("What was sent is too large.")),
    415: (N_("Not a kind we read"), N_("Send the request as JSON, with Content-Type: application/json.")),
    429: (N_("Too many requests"), N_("Too many requests: please wait a little and try again.")),
    500: (N_("Something went wrong"), N_("The error was logged; please try again later.")),
}


def too_many(title: str, message: str, wait: int) -> ResponseReturnValue:
    """A 429 page (JSON under /api/) with Retry-After: the seconds until it may be tried again."""
    response = make_response(error_page(429, title, message, retry_after=wait))
    response.headers["Retry-After"] = str(wait)
    return response


def _duration(seconds: int) -> str:
    if seconds < 90:
        return ngettext("%(num)d second", "%(num)d seconds", seconds)
    minutes = round(seconds / 60)
    if minutes < 90:
        return ngettext("%(num)d minute", "%(num)d minutes", minutes)
    return ngettext("about %(num)d hour", "about %(num)d hours", round(minutes / 60))


def register(app: Flask) -> None:
    # "{{ adapter.summary|said }}", "{{ mode.title|said }}": an adapter's message (marked `N_`, or a
    # `lang.Words` such as a mode's player count) in the page's language (issue #26).
    app.jinja_env.filters["said"] = said

    @app.errorhandler(RiftpostError)
    def riftpost_error(exc: RiftpostError) -> ResponseReturnValue:
        extra: dict[str, Any] = {}
        if isinstance(exc, StaleState):
            extra["code"] = "stale"
            if exc.current_seq is not None:
                extra["seq"] = exc.current_seq
        if isinstance(exc, TooMany):
            return too_many(exc.title, exc.message, exc.retry_after)
        if isinstance(exc, GameNotFound):  # (its message carries the number: worded here)
            return error_page(exc.status, exc.title, gettext("There is no game %(game)s.", game=exc.game_id))
        return error_page(exc.status, exc.title, exc.message, **extra)

    @app.errorhandler(RateLimitExceeded)
    def rate_limited(exc: RateLimitExceeded) -> ResponseReturnValue:
        wait = retry_after()
        return too_many(N_("Too many requests from your address"),
                        gettext("This address has made too many of these requests (%(limit)s). "
                                "Please try again in %(wait)s.", limit=exc.description, wait=_duration(wait)), wait)

    @app.errorhandler(engine.IllegalMove)
    def illegal_move(exc: engine.IllegalMove) -> ResponseReturnValue:  # pages answer their own; this is the net
        extra: dict[str, Any] = {"code": exc.code, "reason": exc.reason}
        if isinstance(exc, IllegalMoveAt):
            extra["index"] = exc.index
        return error_page(422, N_("That move is not allowed"), exc.reason, **extra)

    @app.errorhandler(engine.UnknownGame)
    def unknown_game(exc: engine.UnknownGame) -> ResponseReturnValue:
        return error_page(404, N_("No such game"), str(exc))

    @app.errorhandler(CSRFError)
    def csrf_error(exc: CSRFError) -> ResponseReturnValue:
        return error_page(
            400,
            N_("The form could not be accepted"),
            gettext("The form was too old or did not come from this site. Reload the page and try again. "
                    "(%(why)s)", why=exc.description),
        )

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException) -> ResponseReturnValue:
        status = exc.code or 500
        title, usual = HTTP_WORDS.get(status, (exc.name, exc.description or ""))
        # Werkzeug's own explanation is replaced by ours; one the code gave (abort(404, "...")) is kept.
        own = exc.description and exc.description != type(exc).description
        return error_page(status, title if status in HTTP_WORDS else exc.name,
                          (exc.description or usual) if own else usual)

    @app.errorhandler(Exception)
    def unexpected(exc: Exception) -> ResponseReturnValue:  # a bug: log it, show nothing of its internals
        log.exception("unhandled error on %s %s", request.method, redact(request.path))  # a link is its token
        return error_page(500, HTTP_WORDS[500][0], HTTP_WORDS[500][1])
