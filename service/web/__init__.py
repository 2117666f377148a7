"""The web layer: blueprints for the pages and the JSON API, and the mapping of errors to HTTP."""

from __future__ import annotations

from flask import Flask
from flask_wtf.csrf import CSRFProtect

from service.web import (
    account,
    api,
    auth,
    campaign,
    channels,
    clock,
    devmail,
    errors,
    form_token,
    games,
    headers,
    health,
    history,
    home,
    invitations,
    jinja_lookup,
    language,
    leaderboard,
    limits,
    lobby,
    me_api,
    notify,
    play,
    rematch,
    rules,
    settings,
    signin,
    static_urls,
)

csrf = CSRFProtect()


def register(app: Flask) -> None:
    csrf.init_app(app)
    form_token.install(app)
    csrf.exempt(play.unsubscribe)  # RFC 8058: the mail provider POSTs without cookies; the token is the proof
    csrf.exempt(account.one_click)  # the same, for the List-Unsubscribe header's "never email me"
    csrf.exempt(invitations.decline)  # the invitation's List-Unsubscribe: the same one-click POST
    # A bot posts JSON with its bearer token, no form: auth.require_api_email checks the CSRF header
    # itself when a session cookie is the proof instead.
    csrf.exempt(me_api.bp)
    for view in channels.API_VIEWS:  # JSON only: see service/web/channels.py
        csrf.exempt(view)
    csrf.exempt(notify.seen)  # the page's visit beacon: the signed link in the path is the proof
    csrf.exempt(notify.notifications_json_change)  # JSON: auth.require_api_email checks the CSRF header
    csrf.exempt(language.api_choose)  # JSON: auth.require_api_email checks the CSRF header
    limits.init_app(app)
    auth.register(app)
    language.register(app)
    jinja_lookup.install(app)
    static_urls.install(app)
    channels.register(app)
    for blueprint in (games.bp, play.bp, api.bp, clock.bp, history.bp, campaign.bp, account.bp, health.bp,
                      invitations.bp, rules.bp, signin.bp, settings.bp, me_api.bp, channels.bp, channels.feeds_bp,
                      home.bp, notify.bp, leaderboard.bp, lobby.bp, rematch.bp):
        app.register_blueprint(blueprint)
    # The dev mailbox exists only in embedded mode: with SMTP_URL set, mail leaves the machine
    # and the route is not even registered.
    if app.config["DEV_MAILBOX"]:
        app.register_blueprint(devmail.bp)
    errors.register(app)
    headers.register(app)
