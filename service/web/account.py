"""What acts for an address rather than a seat, and the links that protect it.

From a player page (its signed player link is the key):
- POST /p/<token>/fresh-link    end every link of this seat (scope=all: of every seat of the address) and
                                mail the new one(s) to the address itself
- GET  /p/<token>/account       what the account link is for (the emails' "Never email me" lands here,
                                ?why=never): a page with one button, because the footer travels with a
                                forwarded email and its reader must not stop the owner's mail
- POST /p/<token>/signin        mail a sign-in link and code to the address ("Sign in to see all your
                                games"; /p/<token>/account, the old "email me a link to my account", too)

An account link mailed before sign-in existed (one hour):
- GET  /a/<token>               a page with one button ...
- POST /a/<token>               ... that signs the browser in and leads to /settings (service/web/settings.py)

RFC 8058 (the List-Unsubscribe header of every email):
- GET  /never/<token>           a page with the button (a GET changes nothing: scanners prefetch)
- POST /never/<token>           never email this address: mail providers POST it without cookies, so
                                it needs no CSRF token; the signed link is the proof
"""

from __future__ import annotations

from flask import Blueprint, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext

from service import links, paths, store
from service.errors import BadRequest
from service.lang import N_
from service.people import access
from service.play import consent
from service.store import read_session
from service.store.db import get_engine
from service.store.models import utcnow
from service.web import auth
from service.web.tokens import load_player

bp = Blueprint("account", __name__)
TITLE = N_("That did not work")
@bp.post("/p/<token>/fresh-link")
def fresh_link(token: str) -> ResponseReturnValue:
    player = load_player(token)
    scope = request.form.get("scope")
    if scope not in ("game", "all"):
        raise BadRequest(N_("Choose a fresh link for this game or for all your games."), TITLE)
    email = access.fresh_link(player.id, scope == "all", utcnow())
    # The link this page was opened with no longer works: no redirect back to it.
    address = access.masked(email)
    return render_template(
        "account/sent.html", title=gettext("We sent you a fresh link"),
        sent=(gettext("We sent fresh links to all your games to %(address)s.", address=address) if scope == "all"
              else gettext("We sent a fresh link to this game to %(address)s.", address=address)),
        ended=(gettext("Every earlier link to your games (this page's among them) no longer works: use the link "
                       "in that email.") if scope == "all"
               else gettext("Every earlier link to this game (this page's among them) no longer works: use the "
                            "link in that email.")))


@bp.get(paths.rule("account.ask"))
def ask(token: str) -> ResponseReturnValue:
    player = load_player(token)
    return render_template("account/ask.html", title=gettext("Your account"), token=token, never=request.args.get("why") == "never",
                           address=access.masked(player.email))


@bp.post("/p/<token>/signin")
@bp.post("/p/<token>/account")  # the button of pages opened before sign-in existed
def send(token: str) -> ResponseReturnValue:
    player = load_player(token)
    email = access.signin_link(player.id, utcnow())
    return render_template("account/sent.html", title=gettext("We sent you a sign-in link"),
                           sent=gettext("We sent a sign-in link and code to %(address)s.",
                                        address=access.masked(email)),
                           ended=None, back=url_for("play.page", token=token))


def _email(token: str) -> str:
    """The address an old account link acts for, while it works: its hour, and no fresh link asked for since."""
    link = links.read_account_token(token)
    with read_session(get_engine()) as session:
        access.account_link_alive(session, link.email, link.issued)
    return link.email


@bp.get(paths.rule("account.page"))
def page(token: str) -> ResponseReturnValue:
    _email(token)
    return render_template("people/signin_link.html", title=gettext("Your account"),
                           action=url_for("account.sign_in", token=token))


@bp.post("/a/<token>")
def sign_in(token: str) -> ResponseReturnValue:
    """An account link mailed before sign-in existed: it signs in, for its hour, and leads to the
    settings (one account page, not two)."""
    auth.sign_in(_email(token))
    return redirect(url_for("settings.page"), 303)


@bp.route(paths.rule("account.one_click"), methods=["GET", "POST"])
def one_click(token: str) -> ResponseReturnValue:
    email = links.read_never_email_token(token)
    if request.method == "POST":
        access.set_never_email(email, True, utcnow())
        consent.decline_unanswered(email, utcnow())
        if request.form.get("List-Unsubscribe") == "One-Click":
            return "We will not email this address any more.\n", 200, {"Content-Type": "text/plain"}
    with read_session(get_engine()) as session:
        never = store.person_of(session, email).never_email_at is not None
    return render_template("account/never.html", title=gettext("Never email me"), address=access.masked(email),
                           done=never)
