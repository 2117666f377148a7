"""The JSON API: the spectator view of a game (public information only), now or after its first
N events (`?at=N`), and its event list with private contents removed."""

from __future__ import annotations

import re

from flask import Blueprint, jsonify, request

from service import history, notify, positions, store
from service.db import get_engine, read_session

bp = Blueprint("api", __name__, url_prefix="/api")


@bp.get("/games/<int:game_id>")
def game(game_id: int):
    if "at" in request.args:
        return game_at(game_id)
    with read_session(get_engine()) as session:
        game = store.get_game(session, game_id)
        players = notify.players_of(session, game_id)
        position = positions.build(session, game, None)
    return jsonify(
        **_identity(game, players),
        seq=game.seq,
        status=game.status,
        to_act=game.to_act,
        result=game.result,
        view=position.view,
    )


def _identity(game, players) -> dict:
    """What names a game in every answer; players by seat and name, never their email addresses."""
    return {
        "id": game.id,
        "game": game.name,
        "title": positions.title(game),
        "rules_version": game.rules_version,
        "players": [{"seat": p.seat, "name": p.name} for p in players],
    }


def _public_history(session, game_id: int):
    game = store.get_game(session, game_id)
    if not game.history_public:  # the creator's switch covers every way into the past
        raise history.HistoryError("The game's creator turned its public history off.", 403)
    return game


def game_at(game_id: int):
    """The spectator view after the first N events: the same fields as the live answer, for
    that position (`seq` is N; `latest_seq` is the game's seq now)."""
    with read_session(get_engine()) as session:
        game = _public_history(session, game_id)
        at = history.parse_at(request.args.get("at"), game)
        if at is None:
            raise history.HistoryError(f"'at' must be a whole number of events, 1 to {game.seq}.", 400)
        players = notify.players_of(session, game_id)
        past = history.public_view(session, game, at)
    return jsonify(**_identity(game, players), **past)


@bp.get("/games/<int:game_id>/events")
def events(game_id: int):
    """Every event as a spectator may see it (`redact_event(event, None)`) with its sentence;
    `?after=K` for the events after seq K only."""
    raw = request.args.get("after", "0")
    if not re.fullmatch(r"[0-9]{1,12}", raw):
        raise history.HistoryError("'after' must be a whole number (a seq).", 400)
    with read_session(get_engine()) as session:
        game = _public_history(session, game_id)
        rows = history.public_events(session, game, after=int(raw))
    return jsonify(id=game.id, game=game.name, seq=game.seq, status=game.status, events=rows)
