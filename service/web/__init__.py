"""The web layer: blueprints for the pages and the JSON API, and the mapping of errors to HTTP."""

from __future__ import annotations

from flask import Flask, Response, request
from flask_wtf.csrf import CSRFProtect

from service.web import api, campaign, clock, devmail, errors, games, health, history, invitations, play
from service.web.limits import limiter

csrf = CSRFProtect()


def register(app: Flask) -> None:
    csrf.init_app(app)
    csrf.exempt(play.unsubscribe)  # RFC 8058: the mail provider POSTs without cookies; the token is the proof
    csrf.exempt(invitations.decline)  # the invitation's List-Unsubscribe: the same one-click POST
    limiter.init_app(app)
    for blueprint in (games.bp, play.bp, api.bp, clock.bp, history.bp, campaign.bp, health.bp, invitations.bp):
        app.register_blueprint(blueprint)
    # The dev mailbox exists only in embedded mode: with SMTP_URL set, mail leaves the machine
    # and the route is not even registered.
    if app.config["DEV_MAILBOX"]:
        app.register_blueprint(devmail.bp)
    errors.register(app)

    @app.after_request
    def security_headers(response: Response) -> Response:
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", "same-origin")  # links carry bearer tokens
        response.headers.setdefault("X-Frame-Options", "DENY")
        # Pages opened by a player's own links: keep them private.
        if request.blueprint == "play" or request.endpoint in PRIVATE:
            response.headers.setdefault("Cache-Control", "private, no-store")
        return response


# The history's endpoints reached only through a player's signed link.
PRIVATE = {"history.player", "history.player_record", "history.set_public", "invitations.page",
           "invitations.accept", "invitations.decline"}
