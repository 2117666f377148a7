"""The signed-in person's settings (what the one-hour account page had, and API tokens):

- GET  /settings                         time zone, vacation, never-email, sign out, API tokens
- POST /settings/vacation                action=start|end: in all the person's games
- POST /settings/time-zone               the person's zone
- POST /settings/emails                  emails=never|allow
- POST /settings/tokens                  name=...: a new personal API token, shown once on the answer
- POST /settings/tokens/<id>/revoke      end one of the person's tokens

Every route needs a signed-in browser (401 with the sign-in form otherwise: service/web/signin.py); the
sub-pages other parts add (notifications, channels, deliveries) share the nav
(templates/people/_settings_nav.html).
"""

from __future__ import annotations

from flask import Blueprint, flash, make_response, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext

from service import store
from service.errors import BadRequest, Invalid
from service.lang import N_
from service.people import access, tokens
from service.people import vacations as people
from service.play import consent
from service.store import read_session
from service.store.db import get_engine
from service.store.models import as_utc, utcnow
from service.views.times import local_time
from service.web import language
from service.web.auth import require_email
from service.web.clock import choose_zone, zone_panel
from service.web.errors import said

bp = Blueprint("settings", __name__, url_prefix="/settings")
TITLE = N_("That did not work")


def _page(status: int = 200, *, new_token: str | None = None, error: str | None = None) -> ResponseReturnValue:
    email = require_email()
    now = utcnow()
    with read_session(get_engine()) as session:
        who = store.person_of(session, email)
    zone, words = who.time_zone, language.current()
    response = make_response(render_template(
        "people/settings.html", title=gettext("Settings"), address=email, zone=zone_panel(who),
        on_vacation=who.vacation_since is not None,
        vacation_until=local_time(as_utc(who.vacation_until), zone, words) if who.vacation_until else None,
        allowance_days=round(people.allowance_left(who, now).total_seconds() / 86400, 1),
        never_email=local_time(as_utc(who.never_email_at), zone, words) if who.never_email_at else None,
        tokens=[(t.id, t.name, local_time(as_utc(t.created_at), zone, words),
                 local_time(as_utc(t.last_used_at), zone, words) if t.last_used_at else None)
                for t in tokens.listed(email)],
        new_token=new_token, error=error,
    ), status)
    response.headers["Cache-Control"] = "private, no-store"  # a new token is on it, once
    return response


@bp.get("")
def page() -> ResponseReturnValue:
    return _page()


@bp.post("/vacation")
def vacation() -> ResponseReturnValue:
    email = require_email()
    action = request.form.get("action")
    if action == "start":
        people.start_vacation(email, utcnow())
        flash(gettext("Your vacation started: your clocks are stopped in all your games."))
    elif action == "end":
        people.end_vacation(email, utcnow())
        flash(gettext("Welcome back: your clocks run again."))
    else:
        raise BadRequest(gettext("Choose to start or to end your vacation."), gettext(TITLE))
    return redirect(url_for("settings.page"), 303)


@bp.post("/time-zone")
def time_zone() -> ResponseReturnValue:
    return choose_zone(require_email(), url_for("settings.page"))


@bp.post("/emails")
def emails() -> ResponseReturnValue:
    email = require_email()
    choice = request.form.get("emails")
    if choice not in ("never", "allow"):
        raise BadRequest(gettext("Choose to stop every email or to allow them again."), gettext(TITLE))
    access.set_never_email(email, choice == "never", utcnow())
    if choice == "never":
        consent.decline_unanswered(email, utcnow())
    flash(gettext("We will not email you any more, in any game.") if choice == "never"
          else gettext("Emails are on again: you will hear from your games as before."))
    return redirect(url_for("settings.page"), 303)


@bp.post("/tokens")
def new_token() -> ResponseReturnValue:
    email = require_email()
    try:
        made = tokens.create(email, request.form.get("name") or "", utcnow())
    except Invalid as exc:
        return _page(422, error=said(exc.message))
    # Shown on this answer only (no redirect: the token would have to wait in the session cookie).
    return _page(new_token=made)


@bp.post("/tokens/<int:token_id>/revoke")
def revoke_token(token_id: int) -> ResponseReturnValue:
    email = require_email()
    if not tokens.revoke(email, token_id, utcnow()):
        raise BadRequest(gettext("That token is not one of yours, or was revoked already."), gettext(TITLE))
    flash(gettext("The token was revoked: it no longer works."))
    return redirect(url_for("settings.page"), 303)
