"""The dev mailbox: the local mail sink's messages in the browser, so one person can play every
seat locally by clicking the links.  Registered only in embedded mode (SMTP_URL unset, or the local sink's own address)."""

from __future__ import annotations

import mailbox
from email import message_from_bytes, policy
from pathlib import Path

from flask import Blueprint, abort, current_app, render_template

from service.maildir import delivery_order, ensure_maildir

bp = Blueprint("devmail", __name__, url_prefix="/dev/mail")


def _box() -> mailbox.Maildir:
    path = Path(current_app.config["MAILDIR"])
    ensure_maildir(path)
    return mailbox.Maildir(path, factory=None)


def _parse(box: mailbox.Maildir, key: str):
    with box.get_file(key) as handle:
        return message_from_bytes(handle.read(), policy=policy.default)


@bp.get("/")
def inbox():
    box = _box()
    keys = sorted(box.keys(), key=delivery_order, reverse=True)[:200]
    messages = [(key, _parse(box, key)) for key in keys]
    return render_template("dev/mail_list.html", messages=messages)


@bp.get("/<key>")
def show(key: str):
    box = _box()
    try:
        message = _parse(box, key)
    except KeyError:
        abort(404)
    text = message.get_body(preferencelist=("plain",))
    html = message.get_body(preferencelist=("html",))
    return render_template(
        "dev/mail_show.html", key=key, message=message,
        text=text.get_content() if text else "", html=html.get_content() if html else "",
    )
