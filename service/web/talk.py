"""Table talk on the web (the rules: service/talk/messages.py).

- POST /p/<token>/talk                     write (form: text, channel), back to the page's talk
- POST /p/<token>/talk/<id>/delete         take back one's own message (it shows as deleted)
- POST /p/<token>/talk/<id>/mute           stop reading the writer of that message, in every game
- POST /p/<token>/talk/unmute/<seat>       read that seat's writer again
- POST /p/<token>/talk/<id>/report         report the message to the operator (`flask reports`)
- POST /p/<token>/talk/spectators          the creator opens (or closes) the talk to spectators in play
- GET|POST /api/play/<token>/messages      the same as JSON (the signed token is the proof, no cookie)
- POST /settings/notifications/talk        "tell me at once" (signed in)

A mute names a message, never an address: the server finds whose inbox wrote it.  Every refusal is a
4xx with words (service/errors.py); the JSON routes answer JSON (service/web/errors.py).
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from flask import Blueprint, flash, jsonify, make_response, redirect, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext
from sqlmodel import Session, col
from werkzeug.exceptions import RequestEntityTooLarge

from service import jsontext, store
from service.errors import BadRequest, Forbidden, Invalid, NotFound, TooMany
from service.lang import N_
from service.store import read_session, write_session
from service.store.db import get_engine
from service.store.inboxes import key as inbox_key
from service.store.models import Player, TalkMessage, TalkMute, TalkOpen, TalkReport, utcnow
from service.store.rows import MAX_ID
from service.talk import messages, notify
from service.web import play, play_api
from service.web.auth import current_email, require_email
from service.web.errors import said
from service.web.tokens import load_player, player_of

bp = Blueprint("talk", __name__)

TITLE = N_("Table talk")
MAX_BODY = 16 * 1024  # bytes of a JSON message: 1,000 characters, escaped, fit many times over
MAX_REASON = 500


def _page(token: str) -> str:
    return url_for("play.page", token=token) + "#talk"


def _message(session: Session, player: Player, message_id: int) -> TalkMessage:
    """A message of the player's game that the player may read (else 404: as if it did not exist)."""
    row = session.get(TalkMessage, message_id) if 0 < message_id < MAX_ID else None
    if row is None or row.game_id != player.game_id or not any(
            said.id == row.id for said in messages.visible(session, player.game_id, player, after_id=row.id - 1)):
        raise NotFound(N_("There is no such message in this game's talk."), TITLE)
    return row


# ---- the page's forms ------------------------------------------------------------------------------


@bp.post("/p/<token>/talk")
def write(token: str) -> ResponseReturnValue:
    text = request.form.get("text", "")
    channel = request.form.get("channel", messages.ALL)
    try:
        with write_session(get_engine()) as session:
            messages.post(session, player_of(session, token), text, channel=channel, source="page")
    except Invalid as exc:
        # The page again, the typed text kept in the box: nothing the player wrote is lost.
        response = make_response(play._render_page(load_player(token), exc.status, error=said(exc.message),
                                                   talk_text=text, talk_channel=channel))
        if isinstance(exc, TooMany):
            response.headers["Retry-After"] = str(exc.retry_after)
        return response
    flash(gettext("Your message is at the table."))
    return redirect(_page(token), 303)


@bp.post("/p/<token>/talk/<int:message_id>/delete")
def delete(token: str, message_id: int) -> ResponseReturnValue:
    with write_session(get_engine()) as session:
        player = player_of(session, token)
        row = _message(session, player, message_id)
        if row.player_id != player.id:
            raise Forbidden(N_("You can delete only your own messages."), TITLE)
        if row.deleted_at is None:
            row.deleted_at, row.text = utcnow(), ""
            session.add(row)
    flash(gettext("Your message was deleted."))
    return redirect(_page(token), 303)


@bp.post("/p/<token>/talk/<int:message_id>/mute")
def mute(token: str, message_id: int) -> ResponseReturnValue:
    with write_session(get_engine()) as session:
        player = player_of(session, token)
        row = _message(session, player, message_id)
        writer = session.get(Player, row.player_id)
        assert writer is not None
        me, them = inbox_key(player.email), inbox_key(writer.email)
        if me == them:
            raise Invalid(N_("That message is your own: there is nobody to mute."), TITLE)
        if session.get(TalkMute, (me, them)) is None:
            session.add(TalkMute(person=me, muted=them))
        name = store.seat_names([writer])[writer.seat]
    flash(gettext("You will not see %(name)s's messages any more, in any game. Unmute on your game page.", name=name))
    return redirect(_page(token), 303)


@bp.post("/p/<token>/talk/unmute/<int:seat>")
def unmute(token: str, seat: int) -> ResponseReturnValue:
    """Unmute a seat of this game's writer (the page lists the muted seats of this game)."""
    with write_session(get_engine()) as session:
        player = player_of(session, token)
        writer = next((p for p in store.players_of(session, player.game_id) if p.seat == seat), None)
        if writer is None:
            raise NotFound(N_("There is no such seat in this game."), TITLE)
        session.execute(sa.delete(TalkMute).where(col(TalkMute.person) == inbox_key(player.email),
                                                  col(TalkMute.muted) == inbox_key(writer.email)))
    flash(gettext("You see their messages again."))
    return redirect(_page(token), 303)


@bp.post("/p/<token>/talk/<int:message_id>/report")
def report(token: str, message_id: int) -> ResponseReturnValue:
    reason = messages.tidy(request.form.get("reason", ""))[:MAX_REASON]
    with write_session(get_engine()) as session:
        player = player_of(session, token)
        row = _message(session, player, message_id)
        if row.player_id == player.id:
            raise Invalid(N_("That message is your own: delete it instead."), TITLE)
        done = session.execute(sa.select(col(TalkReport.id)).where(
            col(TalkReport.message_id) == row.id, col(TalkReport.reporter) == player.id)).first()
        if done is None:
            # The text as it is now, kept with the report: a later delete empties the message's own.
            session.add(TalkReport(message_id=row.id, reporter=player.id, reason=reason, text=row.text))
    flash(gettext("Thank you: the message was reported to the people who run this site."))
    return redirect(_page(token), 303)


@bp.post("/p/<token>/talk/spectators")
def spectators(token: str) -> ResponseReturnValue:
    wanted = request.form.get("open") == "on"
    with write_session(get_engine()) as session:
        player = player_of(session, token)
        if player.seat != 0:
            raise Forbidden(N_("Only the game's creator (the first player) can open the talk to spectators."), TITLE)
        found = session.get(TalkOpen, player.game_id)
        if wanted and found is None:
            session.add(TalkOpen(game_id=player.game_id))
        elif not wanted and found is not None:
            session.delete(found)
    flash("Spectators can now read the table's talk (never a team's)." if wanted
          else "Spectators will read the table's talk once the game is over.")
    return redirect(_page(token), 303)


# ---- JSON ------------------------------------------------------------------------------------------


def _json_body() -> dict[str, Any]:
    if request.mimetype != "application/json":
        from werkzeug.exceptions import UnsupportedMediaType

        raise UnsupportedMediaType(N_("Send the message as JSON, with Content-Type: application/json."))
    if request.content_length is not None and request.content_length > MAX_BODY:
        raise RequestEntityTooLarge(gettext("A message request is at most %(num)d KiB.", num=MAX_BODY // 1024))
    raw = request.stream.read(MAX_BODY + 1)  # never more than the limit, whatever the body claims
    if len(raw) > MAX_BODY:
        raise RequestEntityTooLarge(gettext("A message request is at most %(num)d KiB.", num=MAX_BODY // 1024))
    try:
        body = jsontext.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise BadRequest(N_('Send a JSON object: {"text": "...", "channel": "all" or "team"}.'), TITLE) from None
    if not isinstance(body, dict) or not isinstance(body.get("text"), str):
        raise BadRequest(N_('Send a JSON object: {"text": "...", "channel": "all" or "team"}.'), TITLE)
    if not isinstance(body.get("channel", messages.ALL), str):
        raise BadRequest(N_('"channel" is "all" or "team".'), TITLE)
    return body


@bp.get("/api/play/<token>/messages")
def read_json(token: str) -> ResponseReturnValue:
    """What the player may read, oldest first; `?after=<id>`: only newer ones."""
    raw = request.args.get("after", "")
    try:
        after = int(raw) if raw else None
    except ValueError:
        raise BadRequest(N_('"after" is the id of a message (a whole number).'), TITLE) from None
    player = play_api._player(token)
    with read_session(get_engine()) as session:
        viewer = session.get(Player, player.id)
        seen = messages.visible(session, player.game_id, viewer, after_id=after)
        channels = messages.channels(session, viewer) if viewer is not None else []
    return jsonify(messages=[said.as_json() for said in seen], channels=channels, max_chars=messages.MAX_CHARS)


@bp.post("/api/play/<token>/messages")
def write_json(token: str) -> ResponseReturnValue:
    player = play_api._player(token)
    body = _json_body()
    with write_session(get_engine()) as session:
        writer = session.get(Player, player.id)
        assert writer is not None
        row = messages.post(session, writer, body["text"], channel=body.get("channel", messages.ALL), source="api")
        said = next(s for s in messages.visible(session, writer.game_id, writer, after_id=row.id - 1) if s.id == row.id)
    return jsonify(message=said.as_json()), 201


# ---- the person's setting ----------------------------------------------------------------------------


@bp.post("/settings/notifications/talk")
def at_once() -> ResponseReturnValue:
    key = require_email()
    wanted = "on" in request.form.getlist("at_once")  # the checkbox beside the hidden "off"
    with write_session(get_engine()) as session:
        notify.set_at_once(session, key, wanted)
    minutes = int(notify.AT_ONCE_INTERVAL.total_seconds() // 60)
    flash(gettext("Table talk: we email you when someone writes (at most once per game every %(num)d minutes).",
                  num=minutes) if wanted else gettext("Table talk: it comes with your next email of the game."))
    return redirect(url_for("notify.notifications") + "#talk", 303)


def at_once_of() -> bool:
    """Whether the signed-in person chose "tell me at once" (a template global for the settings page)."""
    person = current_email()
    if person is None:
        return False
    with read_session(get_engine()) as session:
        return notify.at_once(session, person)


def spectator_talk(game_id: int) -> list[messages.Said]:
    """The talk a spectator page shows (a template global): the table's, once the game is finished or
    while its creator opened it; never a team's."""
    with read_session(get_engine()) as session:
        return messages.visible(session, game_id, None)


def register(app: Any) -> None:
    app.register_blueprint(bp)
    app.add_template_global(spectator_talk)
    app.add_template_global(at_once_of, "talk_at_once")
