"""The follow-up of a finished game from a player page (service/play/followups.py): the POST that
starts the next part of a campaign (or the replay) with the party's choices from the offer's form, or
plays a finished game again."""

from __future__ import annotations

from flask import Blueprint, flash, redirect, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext

from service import store
from service.play import followups
from service.store import read_session
from service.store.db import get_engine
from service.web.tokens import page_token, player_of

bp = Blueprint("campaign", __name__)


@bp.post("/p/<token>/campaign")
def follow_up(token: str) -> ResponseReturnValue:
    with read_session(get_engine()) as session:
        player = player_of(session, token)
    new_player_id = followups.follow_up(player.game_id, player.id, request.form)
    with read_session(get_engine()) as session:
        token = page_token(store.get_player(session, new_player_id))
    flash(gettext("The new game has started; everyone got an email about it."))
    return redirect(url_for("play.page", token=token), 303)
