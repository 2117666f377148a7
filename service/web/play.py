"""Player pages, reached only through the player's signed links.

GETs show; POSTs act.  The move form and the confirm page both end in `service.handle`, with the
seq the page was made for, so a resubmitted or stale form is "the game moved on" and acts on nothing.
"""

from __future__ import annotations

import json

from flask import Blueprint, flash, redirect, render_template, request, url_for

import engine
from service import csrf, links, notify, positions, store
from service.db import get_engine, read_session, write_session
from service.models import Game, Player
from service.moves import handle

bp = Blueprint("play", __name__)

RECENT_EVENTS = 12


def _player(session, player_id: int) -> Player:
    player = session.get(Player, player_id)
    if player is None:
        raise links.LinkError("This link belongs to no game here.", 404)
    return player


def _player_and_game(session, player_id: int) -> tuple[Player, Game]:
    player = _player(session, player_id)
    return player, store.get_game(session, player.game_id)


def _render_page(player: Player, status: int = 200, error: str | None = None, **extra):
    with read_session(get_engine()) as session:
        game = store.get_game(session, player.game_id)
        players = notify.players_of(session, game.id)
        position = positions.build(session, game, player.seat, recent=RECENT_EVENTS)
    return (
        render_template(
            "play/page.html",
            player=player, game=game, players=players, names=positions.seat_names(players),
            position=position, token=links.player_token(player.id), error=error,
            title=positions.title(game), result_words=positions.result_words(
                position.result, positions.seat_names(players)),
            **extra,
        ),
        status,
    )


def _stale(player: Player):
    """The answer to a link or form made for an earlier position: 409 and the current position."""
    return _render_page(
        player, 409,
        stale="This link is out of date: the game moved on since it was made, so nothing was "
        "played. Here is the current position.",
    )


@bp.get("/p/<token>")
def page(token: str):
    link = links.read_player_token(token)
    with read_session(get_engine()) as session:
        player = _player(session, link.player_id)
    return _render_page(player)


@bp.post("/p/<token>/move")
def move(token: str):
    link = links.read_player_token(token)
    with read_session(get_engine()) as session:
        player = _player(session, link.player_id)
    try:
        expected_seq = int(request.form.get("seq", ""))
        chosen = json.loads(request.form.get("move", ""))
    except (TypeError, ValueError):
        chosen = None
    if not isinstance(chosen, dict):
        return _render_page(player, 400, error="Choose one of the moves below, then press the button.")
    return _act(player, chosen, expected_seq, token)


def _act(player: Player, chosen: dict, expected_seq: int, page_token: str | None = None):
    try:
        handle(player.game_id, player.seat, chosen, expected_seq)
    except store.StaleState:
        return _stale(player)
    except engine.IllegalMove as exc:
        return _render_page(player, 422, error=f"That move is not allowed: {exc.reason}")
    flash("Your move was recorded.")
    page_token = page_token or links.player_token(player.id)
    return redirect(url_for("play.page", token=page_token), 303)


@bp.route("/m/<token>", methods=["GET", "POST"])
def confirm(token: str):
    """The target of an emailed move link: GET shows what it would do, only the POST does it."""
    link = links.read_move_token(token)
    with read_session(get_engine()) as session:
        player, game = _player_and_game(session, link.player_id)
        if game.seq != link.seq:
            stale = True
        else:
            stale = False
            position = positions.build(session, game, player.seat)
            label = position.describe_move(link.move)
    if stale:
        return _stale(player)
    if request.method == "POST":
        return _act(player, link.move, link.seq)
    with read_session(get_engine()) as session:
        players = notify.players_of(session, game.id)
    return render_template(
        "play/confirm.html", player=player, game=game, position=position, label=label,
        names=positions.seat_names(players), title=positions.title(game),
        player_url=url_for("play.page", token=links.player_token(player.id)),
    )


@bp.post("/p/<token>/notifications")
def notifications(token: str):
    link = links.read_player_token(token)
    wanted = request.form.get("turn_emails") == "on"
    with write_session(get_engine()) as session:
        player, game = _player_and_game(session, link.player_id)
        player.turn_emails = wanted
        session.add(player)
    flash("Turn emails are on for this game." if wanted else "Turn emails are off for this game.")
    return redirect(url_for("play.page", token=token), 303)


@bp.route("/u/<token>", methods=["GET", "POST"])
@csrf.exempt  # RFC 8058: the mail provider POSTs without cookies; the signed token is the proof
def unsubscribe(token: str):
    link = links.read_unsubscribe_token(token)
    with read_session(get_engine()) as session:
        player, game = _player_and_game(session, link.player_id)
    done = False
    if request.method == "POST":
        with write_session(get_engine()) as session:
            row = session.get(Player, player.id)
            row.turn_emails = False
            session.add(row)
        done = True
        if request.form.get("List-Unsubscribe") == "One-Click":
            return "Unsubscribed from turn emails for this game.\n", 200, {"Content-Type": "text/plain"}
    return render_template(
        "play/unsubscribe.html", player=player, game=game, done=done, title=positions.title(game),
        player_url=url_for("play.page", token=links.player_token(player.id)),
    )

