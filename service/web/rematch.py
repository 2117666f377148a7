"""Rematch pages (service/play/rematch.py), reached by a player's own signed link:

- GET  /p/<token>/again          the seat's rematch page: ask (choosing the seats), accept, or see who
                                 is still to accept; once started, the link to the seat in the new game
- POST /p/<token>/again          ask to play again (form: seating = kept | swapped | random)
- POST /p/<token>/again/accept   accept the rematch asked
- POST /p/<token>/again/decline  "No thanks": the rematch is closed, the others are told

The game-over email links to the GET page (mail scanners fetch links: a GET changes nothing)."""

from __future__ import annotations

from flask import Blueprint, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext

from service import paths, store
from service.play import rematch
from service.store import read_session
from service.store.db import get_engine
from service.views import followups, positions
from service.web.tokens import load_player, page_token

bp = Blueprint("rematch", __name__)


@bp.get(paths.rule("rematch.page"))
def page(token: str) -> ResponseReturnValue:
    player = load_player(token)
    with read_session(get_engine()) as session:
        game = store.get_game(session, player.game_id)
        offer = followups.offer(session, game)
        names = store.seat_names(store.players_of(session, game.id))
        found = rematch.find(session, game.id)
    new_url = None
    if found is not None and found.new_game_id is not None:
        new_url = url_for("play.page", token=page_token(rematch.new_seat_player(game.id, found, player.seat)))
    return render_template("play/again.html", player=player, game=game, offer=offer, names=names, rematch=found,
                           title=positions.title(game), token=token, new_url=new_url,
                           own=offer is not None and offer.kind == followups.AGAIN)


@bp.post(paths.rule("rematch.page"))
def ask(token: str) -> ResponseReturnValue:
    player = load_player(token)
    found = rematch.ask(player.game_id, player.id, (request.form.get("seating") or "kept").strip()[:10])
    if found.new_game_id is None:
        flash(gettext("Asked: the other players are emailed. The new game starts when everyone has accepted."))
    return redirect(url_for("rematch.page", token=token), 303)


@bp.post("/p/<token>/again/accept")
def accept(token: str) -> ResponseReturnValue:
    player = load_player(token)
    found = rematch.accept(player.game_id, player.id)
    if found.new_game_id is not None:
        flash(gettext("Everyone accepted: the new game has started, and everyone got its first email."))
    else:
        flash(gettext("Accepted. The new game starts when everyone has accepted."))
    return redirect(url_for("rematch.page", token=token), 303)


@bp.post("/p/<token>/again/decline")
def decline(token: str) -> ResponseReturnValue:
    player = load_player(token)
    rematch.decline(player.game_id, player.id)  # the page says so (play/_again.html): no flash to repeat it
    return redirect(url_for("rematch.page", token=token), 303)
