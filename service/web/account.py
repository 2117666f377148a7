"""What acts for an address rather than a seat, and the links that protect it.

From a player page (its signed player link is the key):
- POST /p/<token>/fresh-link    end every link of this seat (scope=all: of every seat of the address) and
                                mail the new one(s) to the address itself
- GET  /p/<token>/account       what the account link is for (the emails' "Never email me" lands here,
                                ?why=never): a page with one button, because the footer travels with a
                                forwarded email and its reader must not stop the owner's mail
- POST /p/<token>/account       mail the one-hour account link to the address

With the account link (mailed to the address, one hour):
- GET  /a/<token>               the address's games, vacation, time zone, never-email
- POST /a/<token>/vacation, /a/<token>/time-zone, /a/<token>/emails

RFC 8058 (the List-Unsubscribe header of every email):
- GET  /never/<token>           a page with the button (a GET changes nothing: scanners prefetch)
- POST /never/<token>           never email this address: mail providers POST it without cookies, so
                                it needs no CSRF token; the signed link is the proof
"""

from __future__ import annotations

from flask import Blueprint, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue

from service import links, store
from service.errors import BadRequest
from service.people import access
from service.people import vacations as people
from service.play import consent
from service.store import read_session
from service.store.db import get_engine
from service.store.models import as_utc, utcnow
from service.views import positions
from service.views.times import local_time
from service.web.clock import choose_zone, zone_panel
from service.web.tokens import load_player, page_token

bp = Blueprint("account", __name__)
TITLE = "That did not work"


@bp.post("/p/<token>/fresh-link")
def fresh_link(token: str) -> ResponseReturnValue:
    player = load_player(token)
    scope = request.form.get("scope")
    if scope not in ("game", "all"):
        raise BadRequest("Choose a fresh link for this game or for all your games.", TITLE)
    email = access.fresh_link(player.id, scope == "all", utcnow())
    # The link this page was opened with no longer works: no redirect back to it.
    return render_template("account/sent.html", title="We sent you a fresh link", address=access.masked(email),
                           what=("fresh links to all your games" if scope == "all" else "a fresh link to this game"),
                           ended=("Every earlier link to your games" if scope == "all"
                                  else "Every earlier link to this game"))


@bp.get("/p/<token>/account")
def ask(token: str) -> ResponseReturnValue:
    player = load_player(token)
    return render_template("account/ask.html", title="Your account", token=token, never=request.args.get("why") == "never",
                           address=access.masked(player.email))


@bp.post("/p/<token>/account")
def send(token: str) -> ResponseReturnValue:
    player = load_player(token)
    email = access.account_link(player.id, utcnow())
    return render_template("account/sent.html", title="We sent you a link to your account",
                           address=access.masked(email), what="a link to your account", ended=None,
                           back=url_for("play.page", token=token))


def _email(token: str) -> str:
    """The address the account link acts for, while it works: its hour, and no fresh link asked for since."""
    link = links.read_account_token(token)
    with read_session(get_engine()) as session:
        access.account_link_alive(session, link.email, link.issued)
    return link.email


@bp.get("/a/<token>")
def page(token: str) -> ResponseReturnValue:
    email = _email(token)
    with read_session(get_engine()) as session:
        who = store.person_of(session, email)
        seats = access.games_of(session, email)
        games = [(f"{positions.title(game)} #{game.id}", game.status == "active",
                  url_for("play.page", token=page_token(player))) for player, game in seats]
    now = utcnow()
    return render_template(
        "account/page.html", title="Your account", token=token, address=email, games=games, zone=zone_panel(who), on_vacation=who.vacation_since is not None,
        vacation_until=local_time(as_utc(who.vacation_until), who.time_zone) if who.vacation_until else None,
        allowance_days=round(people.allowance_left(who, now).total_seconds() / 86400, 1),
        never_email=(local_time(as_utc(who.never_email_at), who.time_zone) if who.never_email_at else None),
    )


@bp.post("/a/<token>/vacation")
def vacation(token: str) -> ResponseReturnValue:
    email = _email(token)
    action = request.form.get("action")
    if action == "start":
        people.start_vacation(email, utcnow())
        flash("Your vacation started: your clocks are stopped in all your games.")
    elif action == "end":
        people.end_vacation(email, utcnow())
        flash("Welcome back: your clocks run again.")
    else:
        raise BadRequest("Choose to start or to end your vacation.", TITLE)
    return redirect(url_for("account.page", token=token), 303)


@bp.post("/a/<token>/time-zone")
def time_zone(token: str) -> ResponseReturnValue:
    return choose_zone(_email(token), url_for("account.page", token=token))


@bp.post("/a/<token>/emails")
def emails(token: str) -> ResponseReturnValue:
    email = _email(token)
    choice = request.form.get("emails")
    if choice not in ("never", "allow"):
        raise BadRequest("Choose to stop every email or to allow them again.", TITLE)
    access.set_never_email(email, choice == "never", utcnow())
    if choice == "never":
        consent.decline_unanswered(email, utcnow())
    flash("We will not email you any more, in any game." if choice == "never"
          else "Emails are on again: you will hear from your games as before.")
    return redirect(url_for("account.page", token=token), 303)


@bp.route("/never/<token>", methods=["GET", "POST"])
def one_click(token: str) -> ResponseReturnValue:
    email = links.read_never_email_token(token)
    if request.method == "POST":
        access.set_never_email(email, True, utcnow())
        consent.decline_unanswered(email, utcnow())
        if request.form.get("List-Unsubscribe") == "One-Click":
            return "We will not email this address any more.\n", 200, {"Content-Type": "text/plain"}
    with read_session(get_engine()) as session:
        never = store.person_of(session, email).never_email_at is not None
    return render_template("account/never.html", title="Never email me", address=access.masked(email),
                           done=never)
