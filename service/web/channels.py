"""Channels besides email, for the signed-in person (service/web/auth.py), and the feeds they open.

Pages (a session; forms with the CSRF token):
- GET  /settings/channels                       webhooks, the feed URLs
- POST /settings/channels/webhooks              add one: url, shape (generic | discord | slack)
- POST /settings/channels/webhooks/<id>/test    send a test message now, and say what came back
- POST /settings/channels/webhooks/<id>/remove
- POST /settings/channels/feeds                 action: on | rotate (new URLs, the old ones end) | off

Their JSON twins (POSTs are `application/json`; a personal API token, or the session with the page's
CSRF token in X-CSRFToken, as service/web/auth.py require_api_email says for every /api/me change):
- GET    /api/me/channels                       {"webhooks": [...], "feeds": {"calendar", "atom"} | null}
- POST   /api/me/channels                       {"url", "shape"} -> 201 the webhook (its secret included)
- DELETE /api/me/channels/<id>                  -> 204
- POST   /api/me/channels/<id>/test             -> {"result": words}
- POST   /api/me/channels/feeds                 {"action": "on" | "rotate" | "off"} -> the feeds

The feeds (no session: the secret in the path is the key; a response never sets or refreshes a cookie):
- GET /feeds/<secret>/deadlines.ics, GET /feeds/<secret>/turns.atom   404 for any secret that is not
  a current one
"""

from __future__ import annotations

from typing import Any

from flask import (
    Blueprint,
    Flask,
    Request,
    Response,
    current_app,
    flash,
    jsonify,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from flask.sessions import SecureCookieSession, SecureCookieSessionInterface, SessionInterface, SessionMixin
from flask.typing import ResponseReturnValue
from flask_babel import gettext
from itsdangerous import URLSafeTimedSerializer
from werkzeug.exceptions import UnsupportedMediaType

from service import paths, store
from service.errors import BadRequest, Invalid, NotFound
from service.lang import N_
from service.people import channels, feeds
from service.store import read_session
from service.store.db import get_engine
from service.store.models import Webhook, utcnow
from service.web.auth import current_email, require_api_email, require_email
from service.web.errors import said
from service.web.limits import client_key, limiter

bp = Blueprint("channels", __name__)
feeds_bp = Blueprint("feeds", __name__)
# "Send a test" makes us POST to a URL the person typed: a few an hour is all a person needs.
TEST_LIMIT = "6 per minute;30 per day"
FEED_CACHE = "private, max-age=300"


def _tester() -> str:
    return current_email() or client_key()


def _feed_urls(feed_id: str | None) -> dict[str, str] | None:
    if feed_id is None:
        return None
    token = channels.feed_token(feed_id)
    base = current_app.config["BASE_URL"]
    return {"calendar": base + url_for("feeds.calendar", token=token),
            "atom": base + url_for("feeds.turns", token=token)}


def _shown(hook: Webhook) -> dict[str, Any]:
    return {"id": hook.id, "url": hook.url, "shape": hook.shape, "secret": hook.secret,
            "created_at": hook.created_at.isoformat()}


def _state(email: str) -> tuple[list[Webhook], dict[str, str] | None]:
    with read_session(get_engine()) as session:
        hooks = channels.webhooks_of(session, email)
        feed_id = channels.feed_id_of(session, email)
    return hooks, _feed_urls(feed_id)


# ---- the page ---------------------------------------------------------------------------------------------


def _page(email: str, status: int = 200, problem: str | None = None, typed: dict[str, str] | None = None
          ) -> ResponseReturnValue:
    hooks, urls = _state(email)
    return render_template("people/channels.html", title=gettext("Channels"), hooks=hooks, feeds=urls,
                           shapes=channels.SHAPE_WORDS, full=len(hooks) >= channels.MAX_WEBHOOKS,
                           most=channels.MAX_WEBHOOKS, problem=problem, typed=typed or {}), status


@bp.get(paths.rule("channels.page"))
def page() -> ResponseReturnValue:
    response = make_response(_page(require_email()))
    response.headers["Cache-Control"] = "private, no-store"  # the secrets and feed URLs are on it
    return response


@bp.post("/settings/channels/webhooks")
def add() -> ResponseReturnValue:
    email = require_email()
    url, shape = request.form.get("url", ""), request.form.get("shape", "")
    try:
        channels.add_webhook(email, url, shape)
    except Invalid as exc:  # the form again, what was typed kept, the problem said above it
        return _page(email, exc.status, said(exc.message), {"url": url, "shape": shape})
    flash(gettext("Webhook added. Send it a test to see that it works."))
    return redirect(url_for("channels.page"), 303)


@bp.post("/settings/channels/webhooks/<int:hook_id>/test")
@limiter.limit(TEST_LIMIT, key_func=_tester)
def test(hook_id: int) -> ResponseReturnValue:
    email = require_email()
    flash(said(channels.test_webhook(email, hook_id, current_app.config["BASE_URL"] + url_for("channels.page"))))
    return redirect(url_for("channels.page"), 303)


@bp.post("/settings/channels/webhooks/<int:hook_id>/remove")
def remove(hook_id: int) -> ResponseReturnValue:
    channels.remove_webhook(require_email(), hook_id, utcnow())
    flash(gettext("Webhook removed: nothing more goes to it."))
    return redirect(url_for("channels.page"), 303)


FEED_ACTIONS = {"on": N_("Your feeds are on: copy their URLs below into your calendar or feed reader."),
                "rotate": N_("Your feeds have new URLs: the old ones no longer work."),
                "off": N_("Your feeds are off: their URLs no longer work.")}


def _feeds(email: str, action: Any) -> None:
    if action not in FEED_ACTIONS:
        raise BadRequest(N_("Choose to turn your feeds on, give them new URLs, or turn them off."))
    if action == "off":
        channels.feeds_off(email)
    else:
        channels.new_feed_id(email, utcnow())


@bp.post("/settings/channels/feeds")
def feeds_action() -> ResponseReturnValue:
    action = request.form.get("action")
    _feeds(require_email(), action)
    flash(gettext(FEED_ACTIONS[str(action)]))
    return redirect(url_for("channels.page"), 303)


# ---- the JSON twins --------------------------------------------------------------------------------------


def _body() -> dict[str, Any]:
    if request.mimetype != "application/json":
        raise UnsupportedMediaType(N_("Send the request as JSON, with Content-Type: application/json."))
    body = request.get_json(silent=True)
    if not isinstance(body, dict):
        raise BadRequest(N_("The body must be a JSON object."))
    return body


def _api_state(email: str) -> dict[str, Any]:
    hooks, urls = _state(email)
    return {"webhooks": [_shown(hook) for hook in hooks], "feeds": urls}


@bp.get("/api/me/channels")
def api_list() -> ResponseReturnValue:
    response = jsonify(_api_state(require_api_email()))
    response.headers["Cache-Control"] = "private, no-store"
    return response


@bp.post("/api/me/channels")
def api_add() -> ResponseReturnValue:
    email = require_api_email()
    body = _body()
    hook = channels.add_webhook(email, str(body.get("url") or ""), str(body.get("shape") or "generic"))
    return jsonify(_shown(hook)), 201


@bp.delete("/api/me/channels/<int:hook_id>")
def api_remove(hook_id: int) -> ResponseReturnValue:
    channels.remove_webhook(require_api_email(), hook_id, utcnow())
    return "", 204


@bp.post("/api/me/channels/<int:hook_id>/test")
@limiter.limit(TEST_LIMIT, key_func=_tester)
def api_test(hook_id: int) -> ResponseReturnValue:
    email = require_api_email()
    return jsonify(result=channels.test_webhook(email, hook_id, current_app.config["BASE_URL"] + url_for("channels.page")))


@bp.post("/api/me/channels/feeds")
def api_feeds() -> ResponseReturnValue:
    email = require_api_email()
    _feeds(email, _body().get("action"))
    return jsonify(_api_state(email)["feeds"])


API_VIEWS = (api_add, api_remove, api_test, api_feeds)


# ---- the feeds ---------------------------------------------------------------------------------------------


FEEDS = "/feeds/"


class NoSessionOnFeeds(SessionInterface):
    """The app's session interface, but a feed request gets a null session: its cookie is not read, and
    its answer never carries (nor refreshes) a session cookie, which a calendar service or a shared
    cache would then hold.  Everything else is the wrapped interface's."""

    def __init__(self, inner: SessionInterface):
        self.inner = inner

    def __getattr__(self, name: str) -> Any:  # the wrapped interface's settings and helpers
        return getattr(self.inner, name)

    def open_session(self, app: Flask, request: Request) -> SessionMixin | None:
        if request.path.startswith(FEEDS):
            return self.make_null_session(app)
        return self.inner.open_session(app, request)

    def save_session(self, app: Flask, session: SessionMixin, response: Response) -> None:
        self.inner.save_session(app, session, response)


class KeptSigning(SecureCookieSessionInterface):
    """Flask's cookie sessions, with the cookie's signing serializer made once per secret key and
    fallbacks rather than on every request (making one signs an empty session to see what it writes:
    ~20 µs of each request, a JSON move's too, issue #27), and a request without a cookie gets its new
    session without the cookies parsed.  The signature and its check are Flask's and itsdangerous's,
    unchanged; another key (a rotation, another app) gets a serializer of its own."""

    _kept: tuple[tuple[Any, ...], URLSafeTimedSerializer | None] | None = None

    def get_signing_serializer(self, app: Flask) -> URLSafeTimedSerializer | None:
        keys = (app.secret_key, tuple(app.config["SECRET_KEY_FALLBACKS"] or ()))
        kept = self._kept
        if kept is None or kept[0] != keys:
            kept = self._kept = (keys, super().get_signing_serializer(app))
        return kept[1]

    def open_session(self, app: Flask, request: Request) -> SecureCookieSession | None:
        # No Cookie header at all (a program, a health check): Flask's new empty session, without
        # parsing the request's headers for the cookies (~8 µs).
        if "HTTP_COOKIE" not in request.environ:
            return None if self.get_signing_serializer(app) is None else self.session_class()
        return super().open_session(app, request)


def register(app: Flask) -> None:
    inner = app.session_interface
    if type(inner) is SecureCookieSessionInterface:  # (Flask's own, as the app leaves it)
        inner = KeptSigning()
    app.session_interface = NoSessionOnFeeds(inner)


def _owner(token: str) -> str:
    with read_session(get_engine()) as session:
        email = channels.feed_owner(session, token)
    if email is None:
        raise NotFound(N_("There is no feed at this address: its URL may have been replaced on the settings page."),
                       N_("No such feed"))
    return email


def _feed(body: bytes, mimetype: str) -> ResponseReturnValue:
    response = make_response(body)
    response.headers["Content-Type"] = f"{mimetype}; charset=utf-8"
    response.headers["Cache-Control"] = FEED_CACHE
    response.headers["X-Robots-Tag"] = "noindex"
    return response


@feeds_bp.get("/feeds/<token>/deadlines.ics")
def calendar(token: str) -> ResponseReturnValue:
    email = _owner(token)
    self_url = current_app.config["BASE_URL"] + url_for("feeds.calendar", token=token)
    with read_session(get_engine()) as session:
        body = feeds.calendar(session, email, self_url, utcnow())
    return _feed(body, "text/calendar")


@feeds_bp.get("/feeds/<token>/turns.atom")
def turns(token: str) -> ResponseReturnValue:
    email = _owner(token)
    self_url = current_app.config["BASE_URL"] + url_for("feeds.turns", token=token)
    with read_session(get_engine()) as session:
        zone = store.person_of(session, email).time_zone
        body = feeds.turns(session, email, self_url, zone, utcnow())
    return _feed(body, "application/atom+xml")
