"""Notification settings and the delivery log (issue #23 items 4 and 6): the pages
/settings/notifications and /settings/deliveries (signed in), their JSON twins under /api/me/, and the
player page's visit beacon.

- GET /settings/notifications, POST it (CSRF): the mode, digest hour, quiet hours, each game's mode.
- POST /settings/notifications/replies (CSRF): answers to replies by email on or off (service/inbound).
- GET /settings/deliveries: the last 30 days of emails (and other channels' outbox rows) to the person.
- GET /api/me/notifications, POST it (`Content-Type: application/json`; a personal API token, or the
  session with the page's CSRF token in X-CSRFToken: service/web/auth.py require_api_email);
  GET /api/me/deliveries.
- POST /p/<token>/seen: the beacon the player page's script (static/visit.js) sends when the page is
  opened: "until I visit" counts from it.  No CSRF token: the signed player link in the path is the
  proof, as for the play API; a GET never records anything.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, flash, jsonify, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext
from werkzeug.exceptions import UnsupportedMediaType

from service import paths
from service.errors import BadRequest
from service.inbound import settings as reply_settings
from service.lang import N_
from service.mail.notify_policy import GAME_MODES, MODES
from service.people import deliveries, notifications
from service.store.models import utcnow
from service.web import language
from service.web.auth import require_api_email, require_email
from service.web.tokens import load_player

bp = Blueprint("notify", __name__)

HOURS = [(hour, f"{hour:02d}:00") for hour in range(24)]


@bp.after_request
def private(response: Any) -> Any:
    response.headers["Cache-Control"] = "private, no-store"  # one person's settings and mail
    return response


@bp.get(paths.rule("notify.notifications"), endpoint="notifications")  # the digest links it
def notifications_page() -> ResponseReturnValue:
    key = require_email()
    return render_template("people/notifications.html", settings=notifications.read(key), modes=MODES,
                           mode_words=notifications.MODE_WORDS, game_modes=(notifications.DEFAULT, *GAME_MODES, "none"),
                           hours=HOURS, reply_confirmations=reply_settings.confirmations(key))


@bp.post("/settings/notifications/replies")
def replies_change() -> ResponseReturnValue:
    """The answers to replies by email: on or off (templates/people/_reply_confirmations.html)."""
    key = require_email()
    choice = request.form.get("confirmations", "")
    if choice not in ("on", "off"):
        raise BadRequest(N_("Choose whether to get answers to your replies: on or off."), N_("That did not work"))
    reply_settings.set_confirmations(key, choice == "on")
    flash(gettext("Your choice about answers to your replies is saved."))
    return redirect(url_for("notify.notifications") + "#replies", 303)


@bp.post("/settings/notifications")
def notifications_change() -> ResponseReturnValue:
    key = require_email()
    form = request.form
    values: dict[str, Any] = {name: form[name] for name in ("mode", "digest_hour") if name in form}
    if "quiet_start" in form or "quiet_end" in form:
        values["quiet_start"], values["quiet_end"] = form.get("quiet_start", ""), form.get("quiet_end", "")
    values["games"] = {name.removeprefix("game-"): value for name, value in form.items() if name.startswith("game-")}
    notifications.change(key, values)
    flash(gettext("Your notification settings are saved."))
    return redirect(url_for("notify.notifications"), 303)


@bp.get("/settings/deliveries")
def deliveries_page() -> ResponseReturnValue:
    key = require_email()
    return render_template("people/deliveries.html", rows=deliveries.log_of(key, language=language.current()), days=deliveries.DAYS)


@bp.get("/api/me/notifications")
def notifications_json() -> ResponseReturnValue:
    return jsonify(notifications.read(require_api_email()).public())


@bp.post("/api/me/notifications")
def notifications_json_change() -> ResponseReturnValue:
    key = require_api_email()
    if request.mimetype != "application/json":
        raise UnsupportedMediaType(N_("Send the request as JSON, with Content-Type: application/json."))
    body = request.get_json(silent=True)
    if not isinstance(body, dict):
        raise BadRequest(N_('Send a JSON object, e.g. {"mode": "digest", "digest_hour": 7}.'), N_("Not a JSON object"))
    return jsonify(notifications.change(key, body).public())


@bp.get("/api/me/deliveries")
def deliveries_json() -> ResponseReturnValue:
    return jsonify(days=deliveries.DAYS, deliveries=[row.public() for row in deliveries.log_of(require_api_email())])


@bp.post("/p/<token>/seen")
def seen(token: str) -> ResponseReturnValue:
    notifications.visited(load_player(token), utcnow())
    return "", 204
