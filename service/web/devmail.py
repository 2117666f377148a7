"""The dev mailbox: the local mail sink's messages in the browser, so one person can play every
seat locally by clicking the links.  Registered only in embedded mode (SMTP_URL unset, or the
local sink's own address), and it answers only a client on this machine: every player's links are in
it, so a web process reachable from elsewhere would hand every seat of every game to whoever found
/dev/mail/.  The client is a loopback address; behind PROXY_HOPS trusted proxies, the one they name.
Without PROXY_HOPS a request that a proxy relayed (it says so in X-Forwarded-For or Forwarded) is
refused too, since a proxy on this machine connects from loopback whoever its client is."""

from __future__ import annotations

import ipaddress
import mailbox
import re
from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path

from flask import Blueprint, Response, abort, current_app, render_template, request
from flask.typing import ResponseReturnValue

from service.maildir import delivery_order, ensure_maildir

bp = Blueprint("devmail", __name__, url_prefix="/dev/mail")


def on_this_machine(address: str | None) -> bool:
    """Whether the client's address is a loopback one (127.0.0.0/8, ::1, or IPv4's mapped into IPv6)."""
    try:
        ip = ipaddress.ip_address((address or "").split("%", 1)[0])
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip.is_loopback


RELAYED = ("X-Forwarded-For", "Forwarded", "X-Real-IP")


@bp.before_request
def loopback_only() -> None:
    """Not found for anyone but a client on this machine: the mailbox is not there for them."""
    relayed = not current_app.config.get("PROXY_HOPS") and any(name in request.headers for name in RELAYED)
    if relayed or not on_this_machine(request.remote_addr):
        abort(404)


LISTED = 200
# An email's HTML shown as a page of its own: no script, no plugin, no form, nothing fetched but
# images; a sandbox origin of its own, as a mail client would treat it.  Links still open.  Emails
# carry their styles inline (mail clients drop stylesheets), hence 'unsafe-inline' for styles here
# and nowhere else.
HTML_PART_POLICY = ("sandbox allow-popups allow-top-navigation-by-user-activation; default-src 'none'; "
                    "img-src data: http: https:; style-src 'unsafe-inline'; frame-ancestors 'none'")
# The same HTML framed in the message's page.  A frame of its own URL rather than a srcdoc: a srcdoc
# document inherits its parent page's policy, whose style-src 'self' would strip the email of its
# inline styles.  Framed by this site only; same origin (still without scripts) so that
# static/devmail.js can measure the email's height.
FRAME_POLICY = ("sandbox allow-same-origin allow-popups allow-top-navigation-by-user-activation; "
                "default-src 'none'; img-src data: http: https:; style-src 'unsafe-inline'; "
                "frame-ancestors 'self'")


HEAD = re.compile(r"<head\b[^>]*>", re.I)
DOCTYPE = re.compile(r"^\s*<!doctype[^>]*>", re.I)
BASE = '<base target="_top">'


def framed(html: str) -> str:
    """The HTML part for the message page's frame, its links opening in the tab: `<base target="_top">` goes
    into the head (before the doctype it would throw the email into quirks mode)."""
    for where in (HEAD, DOCTYPE):
        found = where.search(html)
        if found:
            return html[:found.end()] + BASE + html[found.end():]
    return BASE + html


def _box() -> mailbox.Maildir:
    path = Path(current_app.config["MAILDIR"])
    ensure_maildir(path)
    return mailbox.Maildir(path, factory=None)


def _parse(box: mailbox.Maildir, key: str) -> EmailMessage:
    with box.get_file(key) as handle:
        parsed = message_from_bytes(handle.read(), policy=policy.default)
    assert isinstance(parsed, EmailMessage)
    return parsed


def _message(key: str) -> EmailMessage:
    try:
        return _parse(_box(), key)
    except KeyError:
        abort(404)


def _part(message: EmailMessage, subtype: str) -> str:
    part = message.get_body(preferencelist=(subtype,))
    return part.get_content() if isinstance(part, EmailMessage) else ""


@bp.get("/")
def inbox() -> ResponseReturnValue:
    box = _box()
    keys = sorted(box.keys(), key=delivery_order, reverse=True)[:LISTED]
    messages = [(key, _parse(box, key)) for key in keys]
    return render_template("dev/mail_list.html", messages=messages)


@bp.get("/<key>")
def show(key: str) -> ResponseReturnValue:
    message = _message(key)
    html = _part(message, "html")
    return render_template("dev/mail_show.html", key=key, message=message, text=_part(message, "plain"), html=html)


@bp.get("/<key>/html")
def html_part(key: str) -> ResponseReturnValue:
    """The HTML part alone, as a phone's or a desktop's mail client would lay it out."""
    html = _part(_message(key), "html")
    if not html:
        abort(404)
    response = Response(html, mimetype="text/html")
    response.headers["Content-Security-Policy"] = HTML_PART_POLICY
    return response


@bp.get("/<key>/frame")
def html_frame(key: str) -> ResponseReturnValue:
    """The HTML part as the message's page frames it."""
    html = _part(_message(key), "html")
    if not html:
        abort(404)
    response = Response(framed(html), mimetype="text/html")
    response.headers["Content-Security-Policy"] = FRAME_POLICY
    response.headers["X-Frame-Options"] = "SAMEORIGIN"
    return response
