"""The player page's time settings: the time zone (a vacation acts on all the address's games, so it is
started and ended on the account page, service/web/account.py).  POSTs with CSRF act; `panel` gives the
page what it shows of the seat's clock.

The time zone stays here although it is the address's, not the game's: it is set where the deadline is
read, and a forwarded email's reader who changes it misleads nobody (every time shown names its zone)."""

from __future__ import annotations

from functools import lru_cache
from typing import Any
from zoneinfo import available_timezones

from flask import Blueprint, flash, redirect, request, url_for
from flask.typing import ResponseReturnValue
from sqlmodel import Session

from service import store
from service.clocks import people
from service.clocks.seats import status_for
from service.errors import BadRequest
from service.store.current import AnyPlayer
from service.store.models import as_utc, utcnow
from service.views.sentences import POLICY_WORDS
from service.views.times import local_time
from service.web.tokens import load_player

bp = Blueprint("clock", __name__)
TITLE = "That did not work"


@lru_cache(maxsize=1)
def zone_names() -> list[str]:
    return sorted(name for name in available_timezones() if "/" in name or name == "UTC")


@bp.post("/p/<token>/time-zone")
def time_zone(token: str) -> ResponseReturnValue:
    player = load_player(token)
    name = (request.form.get("time_zone") or "").strip()
    if name not in zone_names():
        raise BadRequest(f"{name[:64]!r} is not a time zone we know; pick one from the list.", TITLE)
    people.set_time_zone(player.email, name)
    flash(f"Times are now shown in {name}.")
    return redirect(url_for("play.page", token=token), 303)


def panel(session: Session, player: AnyPlayer) -> dict[str, Any]:
    """What the player page shows: the seat's deadline in the person's zone, vacation, allowance."""
    now = utcnow()
    who = store.person_of(session, player.email)
    status = status_for(session, player.game_id, player.seat)
    info: dict[str, Any] = {
        "time_zone": who.time_zone, "zones": zone_names(), "on_vacation": who.vacation_since is not None,
        "allowance_days": round(people.allowance_left(who, now).total_seconds() / 86400, 1),
        "timed": status is not None, "due": None, "stopped": False, "paused": False,
        "never_email": who.never_email_at is not None,
    }
    if who.vacation_until is not None:
        info["vacation_until"] = local_time(as_utc(who.vacation_until), who.time_zone)
    if status is not None:
        clock, row = status["clock"], status["deadline"]
        info.update(hours=clock.deadline_hours, policy=clock.policy, paused=clock.paused_at is not None,
                    policy_words=POLICY_WORDS.get(clock.policy, ""))
        if row is not None and row.due_at is not None:
            info["due"] = local_time(as_utc(row.due_at), who.time_zone)
        elif row is not None:
            info["stopped"] = True
    return info
