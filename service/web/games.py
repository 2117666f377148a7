"""Public pages: the start page with the form to start a game, and a spectator page per game."""

from __future__ import annotations

from flask import Blueprint, redirect, render_template, request, url_for

import engine
from service import notify, positions, store
from service.db import get_engine, read_session
from service.gameform import GameForm, parse_form
from service.moves import new_game

bp = Blueprint("games", __name__)

RECENT_EVENTS = 12


def playable_games() -> list[engine.Game]:
    return [engine.get(name) for name in engine.names()]


@bp.get("/")
def index():
    return render_template("index.html", form=GameForm(), games=playable_games())


@bp.route("/games/new", methods=["GET", "POST"])
def create():
    if request.method == "GET":
        return render_template("new_game.html", form=GameForm(), games=playable_games()), 200
    form, errors = parse_form(request.form)
    if not errors:
        try:
            game_id = new_game(form.game, form.players, form.options, form.seed,
                               deadline_hours=form.deadline_hours, policy=form.policy, reminders=form.reminders)
        except engine.UnknownGame as exc:
            errors.append(str(exc))
        except engine.IllegalMove as exc:
            errors.append(exc.reason)
        else:
            return redirect(url_for("games.created", game_id=game_id), 303)
    return render_template("new_game.html", form=form, games=playable_games(), errors=errors), 422


@bp.get("/games/<int:game_id>/created")
def created(game_id: int):
    with read_session(get_engine()) as session:
        game = store.get_game(session, game_id)
        players = notify.players_of(session, game_id)
    return render_template("created.html", game=game, players=players, title=positions.title(game))


@bp.get("/games/<int:game_id>")
def spectate(game_id: int):
    with read_session(get_engine()) as session:
        game = store.get_game(session, game_id)
        players = notify.players_of(session, game_id)
        position = positions.build(session, game, None, recent=RECENT_EVENTS)
    names = positions.seat_names(players)
    return render_template(
        "spectate.html", game=game, position=position, names=names, title=positions.title(game),
        result_words=positions.result_words(position.result, names),
    )
