"""The JSON API: the spectator view of a game (public information only)."""

from __future__ import annotations

from flask import Blueprint, jsonify

from service import notify, positions, store
from service.db import get_engine, read_session

bp = Blueprint("api", __name__, url_prefix="/api")


@bp.get("/games/<int:game_id>")
def game(game_id: int):
    with read_session(get_engine()) as session:
        game = store.get_game(session, game_id)
        players = notify.players_of(session, game_id)
        position = positions.build(session, game, None)
    return jsonify(
        id=game.id,
        game=game.name,
        title=positions.title(game),
        rules_version=game.rules_version,
        seq=game.seq,
        status=game.status,
        to_act=game.to_act,
        result=game.result,
        players=[{"seat": p.seat, "name": p.name} for p in players],  # never the email addresses
        view=position.view,
    )
