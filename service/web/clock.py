"""The player page's time settings: the time zone (a vacation acts on all the address's games, so it is
started and ended on the account page, service/web/account.py).  POSTs with CSRF act; `panel` gives the
page what it shows of the seat's clock.

The time zone stays here although it is the address's, not the game's: it is set where the deadline is
read, and a forwarded email's reader who changes it misleads nobody (every time shown names its zone).

A person who never chose a zone sees times in UTC until the page's script (static/timezone.js) sends
the browser's zone: that POST says `first_visit`, sets the zone only if none was chosen meanwhile and
answers JSON (the script updates the page in place); every other choice is a form's POST.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Blueprint, flash, jsonify, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext
from sqlmodel import Session

from service import store
from service.clocks.seats import status_for
from service.lang import N_
from service.people import identity
from service.people import vacations as people
from service.store.current import AnyPlayer
from service.store.models import Person, as_utc, utcnow
from service.views import zones
from service.views.sentences import POLICY_WORDS
from service.views.times import local_time
from service.web import language
from service.web.tokens import load_player

bp = Blueprint("clock", __name__)
TITLE = N_("That did not work")
def choose_zone(email: str, back: str) -> ResponseReturnValue:
    """The time zone form's POST for `email` (a player page's or the account page's), then `back`."""
    typed = request.form.get("time_zone") or ""
    name = zones.resolve(typed)
    if name is None:  # a 400 with the way back to the form, to type it again
        return render_template("error.html", status=400, title=gettext(TITLE), message=zones.unknown(typed),
                               back=back + "#time-zone", back_words=gettext("Back to the time zone")), 400
    if request.form.get("first_visit") == "browser":
        changed = identity.set_time_zone(email, name, utcnow(), only_if_unset=True)
        return jsonify(time_zone=name, changed=changed), 200 if changed else 409
    identity.set_time_zone(email, name, utcnow())
    flash(gettext("Times are now shown in %(zone)s.", zone=name))
    return redirect(back, 303)


@bp.post("/p/<token>/time-zone")
def time_zone(token: str) -> ResponseReturnValue:
    player = load_player(token)
    return choose_zone(player.email, url_for("play.page", token=token))


@bp.get("/time-zones")
def zone_names() -> ResponseReturnValue:
    """Every zone's name, for the time zone field's suggestions (the same for everyone: cached a day)."""
    response = jsonify(list(zones.names()))
    response.headers["Cache-Control"] = "public, max-age=86400"
    return response


def zone_panel(who: Person) -> dict[str, Any]:
    """What the time zone form shows: the zone, whether the person chose it, the short list (`nearby`;
    `options`: as the form's `<option>`s)."""
    now = utcnow()
    return {"name": who.time_zone, "chosen": who.time_zone_set_at is not None,
            "world": zones.region(who.time_zone) is None, "nearby": zones.nearby(who.time_zone, now),
            "options": zones.options(who.time_zone, now)}


def panel(session: Session, player: AnyPlayer, known: Mapping[str, Person] | None = None) -> dict[str, Any]:
    """What the player page shows: the seat's deadline in the person's zone, vacation, allowance
    (`known`: the game's people, read already: store.people_of)."""
    now = utcnow()
    who = store.person_of(session, player.email, known)
    status = status_for(session, player.game_id, player.seat)
    info: dict[str, Any] = {
        "time_zone": who.time_zone, "zone": zone_panel(who), "on_vacation": who.vacation_since is not None,
        "allowance_days": round(people.allowance_left(who, now).total_seconds() / 86400, 1),
        "timed": status is not None, "due": None, "stopped": False, "paused": False,
        "never_email": who.never_email_at is not None,
    }
    if who.vacation_until is not None:
        info["vacation_until"] = local_time(as_utc(who.vacation_until), who.time_zone, language.current())
    if status is not None:
        clock, row = status["clock"], status["deadline"]
        info.update(hours=clock.deadline_hours, policy=clock.policy, paused=clock.paused_at is not None,
                    policy_words=POLICY_WORDS.get(clock.policy, ""))
        if row is not None and row.due_at is not None:
            info["due"] = local_time(as_utc(row.due_at), who.time_zone, language.current())
        elif row is not None:
            info["stopped"] = True
    return info
