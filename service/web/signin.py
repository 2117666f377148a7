"""Signing in by email (service/people/signin.py), signing out, and the answer to a page that needs it.

- GET  /signin                  the form: an address (and the code form, for a code read on another device)
- POST /signin                  mail a link and a code; the same answer whatever the address (limited
                                per client and per address typed, like the start form)
- GET  /signin/<token>          the emailed link: a page with one button (mail scanners fetch links)
- POST /signin/<token>          sign in (once), then the start page
- POST /signin/code             sign in with the address and the emailed code
- POST /signout                 sign this browser out
- POST /signout/everywhere      sign every browser of the person out (the session generation moves on)

A page that needs a signed-in browser raises auth.SignInNeeded: it answers 401 with the sign-in form
(JSON under /api/, with `WWW-Authenticate: Bearer`).
"""

from __future__ import annotations

from flask import Blueprint, flash, make_response, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext

from service import links, paths
from service.errors import Invalid
from service.mail import addresses
from service.people import sessions, signin
from service.store.models import utcnow
from service.web import auth, language
from service.web.errors import error_page, said
from service.web.limits import limiter, signin_address, signin_codes, typed_address_key
from service.web.limits import signin as signin_limit

bp = Blueprint("signin", __name__)


def _form(status: int = 200, *, error: str | None = None, sent: bool = False, email: str = "",
          title: str | None = None) -> ResponseReturnValue:
    return render_template("people/signin.html", title=title or gettext("Sign in"), error=error, sent=sent,
                           email=email), status


@bp.app_errorhandler(auth.SignInNeeded)
def sign_in_needed(exc: auth.SignInNeeded) -> ResponseReturnValue:
    if request.path.startswith("/api/"):
        response = make_response(error_page(401, exc.title, exc.message))
        response.headers["WWW-Authenticate"] = 'Bearer realm="riftpost"'
        return response
    return _form(401, error=said(exc.message))  # auth's message, marked for the catalogs there


@bp.route("/signin", methods=["GET", "POST"])
@limiter.limit(signin_limit, methods=["POST"])
@limiter.limit(signin_address, methods=["POST"], key_func=typed_address_key)
def form() -> ResponseReturnValue:
    if request.method == "GET":
        return _form()
    typed = (request.form.get("email") or "").strip()
    try:
        email = addresses.normalized(typed)
    except Invalid:  # its syntax only: says nothing about whether it is known
        return _form(422, error=gettext("Type the email address you play with (name@example.org)."), email=typed[:254])
    signin.ask(email, utcnow())
    return _form(sent=True, email=email, title=gettext("Check your email"))


@bp.get(paths.rule("signin.link"))
def link(token: str) -> ResponseReturnValue:
    links.read_signin_token(token)  # a tampered link: 400 now rather than after the press
    return render_template("people/signin_link.html", title=gettext("Sign in"), action=url_for("signin.use", token=token))


@bp.post("/signin/<token>")
def use(token: str) -> ResponseReturnValue:
    email = signin.redeem_link(links.read_signin_token(token), utcnow())
    return _signed_in(email)


@bp.post("/signin/code")
@limiter.limit(signin_codes)
def code() -> ResponseReturnValue:
    email = (request.form.get("email") or "").strip()[:254]
    try:
        who = signin.redeem_code(email, request.form.get("code") or "", utcnow())
    except Invalid as exc:
        return _form(422, error=said(exc.message), sent=True, email=email, title=gettext("Check your email"))
    return _signed_in(who)


def _signed_in(email: str) -> ResponseReturnValue:
    chosen = language.chosen_signed_out()  # sign_in clears the session: kept first
    auth.sign_in(email)
    language.carry_to(email, chosen)
    flash(gettext("You are signed in as %(address)s.", address=email))
    return redirect(url_for("settings.page"), 303)


@bp.post("/signout")
def sign_out() -> ResponseReturnValue:
    auth.sign_out()
    flash(gettext("You are signed out."))
    return redirect(url_for("games.index"), 303)


@bp.post("/signout/everywhere")
def sign_out_everywhere() -> ResponseReturnValue:
    sessions.end_everywhere(auth.require_email())
    auth.sign_out()
    flash(gettext("You are signed out on every device and browser."))
    return redirect(url_for("games.index"), 303)
