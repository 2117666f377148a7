"""The player page's time settings: time zone and vacation (issue 4).  POSTs with CSRF act; the
panel on the player page (a template global) only reads."""

from __future__ import annotations

from functools import lru_cache
from zoneinfo import available_timezones

from flask import Blueprint, flash, redirect, request, url_for

from service import deadlines, links
from service.db import get_engine, read_session
from service.models import Player, utcnow

bp = Blueprint("clock", __name__)


@lru_cache(maxsize=1)
def zone_names() -> list[str]:
    return sorted(name for name in available_timezones() if "/" in name or name == "UTC")


def _player(token: str) -> Player:
    link = links.read_player_token(token)
    with read_session(get_engine()) as session:
        player = session.get(Player, link.player_id)
    if player is None:
        raise links.LinkError("This link belongs to no game here.", 404)
    return player


def _problem(message: str, status: int = 400):
    from service.web import error_page

    return error_page(status, "That did not work", message)


@bp.post("/p/<token>/time-zone")
def time_zone(token: str):
    player = _player(token)
    name = (request.form.get("time_zone") or "").strip()
    if name not in zone_names():
        return _problem(f"{name[:64]!r} is not a time zone we know; pick one from the list.")
    deadlines.set_time_zone(player.email, name)
    flash(f"Times are now shown in {name}.")
    return redirect(url_for("play.page", token=token), 303)


@bp.post("/p/<token>/vacation")
def vacation(token: str):
    player = _player(token)
    action = request.form.get("action")
    try:
        if action == "start":
            deadlines.start_vacation(player.email, utcnow())
            flash("Your vacation started: your clocks are stopped in all your games.")
        elif action == "end":
            deadlines.end_vacation(player.email, utcnow())
            flash("Welcome back: your clocks run again.")
        else:
            return _problem("Choose to start or to end your vacation.")
    except deadlines.DeadlineError as exc:
        return _problem(str(exc), 409)
    return redirect(url_for("play.page", token=token), 303)


def panel(player: Player) -> dict:
    """What the player page shows: the seat's deadline in the person's zone, vacation, allowance."""
    now = utcnow()
    with read_session(get_engine()) as session:
        who = deadlines.peek_person(session, player.email)
        status = deadlines.status_for(session, player.game_id, player.seat)
    info = {
        "time_zone": who.time_zone, "zones": zone_names(), "on_vacation": who.vacation_since is not None,
        "allowance_days": round(deadlines.allowance_left(who, now).total_seconds() / 86400, 1),
        "timed": status is not None, "due": None, "stopped": False, "paused": False,
    }
    if who.vacation_until is not None:
        info["vacation_until"] = deadlines.local_time(deadlines.as_utc(who.vacation_until), who.time_zone)
    if status is not None:
        clock, row = status["clock"], status["deadline"]
        info.update(hours=clock.deadline_hours, policy=clock.policy, paused=clock.paused_at is not None,
                    policy_words=deadlines.POLICY_WORDS.get(clock.policy, ""))
        if row is not None and row.due_at is not None:
            info["due"] = deadlines.local_time(deadlines.as_utc(row.due_at), who.time_zone)
        elif row is not None:
            info["stopped"] = True
    return info
