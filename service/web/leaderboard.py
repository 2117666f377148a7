"""The leaderboard of each game: GET /leaderboard/<game>?mode=<mode>&page=<n> (service/views/leaderboard.py).
Public: display names and ratings only, never an address."""

from __future__ import annotations

from flask import Blueprint, current_app, render_template, request
from flask.typing import ResponseReturnValue

from service.play import ratings
from service.store import read_session
from service.store.db import get_engine
from service.views import leaderboard
from service.web.games import adapter_or_none, no_such_game

bp = Blueprint("leaderboard", __name__)


@bp.get("/leaderboard/<game>")
def page(game: str) -> ResponseReturnValue:
    chosen = adapter_or_none(game)
    if chosen is None:
        return no_such_game(game)
    title = chosen.rules.title or chosen.name
    # Modes one plays against another person (a solo mode has one player: never rated).
    modes = [mode for mode in chosen.modes() if max(mode.players) > 1]
    if not ratings.rated(chosen.name) or not modes:
        return render_template("leaderboard.html", title=title, adapter=chosen, cooperative=True, modes=[], mode=None,
                               board=None, min_games=0)
    mode = next((m for m in modes if m.name == (request.args.get("mode") or "")), modes[0])
    try:
        number = int(request.args.get("page") or 1)
    except ValueError:
        number = 1
    min_games = int(current_app.config["RATING_MIN_GAMES"])
    with read_session(get_engine()) as session:
        found = leaderboard.board(session, chosen.name, mode.name, number, min_games)
    return render_template("leaderboard.html", title=title, adapter=chosen, cooperative=False, modes=modes, mode=mode,
                           board=found, min_games=min_games)
