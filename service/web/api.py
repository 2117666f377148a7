"""The JSON API: the spectator view of a game (public information only), now or after its first
N events (`?at=N`), and its event list with private contents removed."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from flask import Blueprint, jsonify, request
from flask.typing import ResponseReturnValue
from flask_babel import gettext

from service import store
from service.errors import BadRequest
from service.lang import N_
from service.store import deal, read_session
from service.store.current import AnyGame, AnyPlayer
from service.store.db import get_engine
from service.views import history, positions
from service.views.history import TITLE
from service.web.history import public_game

bp = Blueprint("api", __name__, url_prefix="/api")


@bp.get("/games/<int:game_id>")
def game(game_id: int) -> ResponseReturnValue:
    if "at" in request.args:
        return game_at(game_id)
    with read_session(get_engine()) as session:
        game = store.get_game(session, game_id)
        players = store.players_of(session, game_id)
        position = positions.build(session, game, None, players=players)
    return jsonify(
        **identity(game, players),
        seq=game.seq,
        status=game.status,
        to_act=game.to_act,
        result=game.result,
        view=position.view,
    )


def identity(game: AnyGame, players: Sequence[AnyPlayer]) -> dict[str, Any]:
    """What names a game in every answer; players by seat and name, never their email addresses.
    With the deal check (service/store/deal.py): `commitment`, "sha256:<hex>" of the game's secret
    (null while a game dealt from a seed runs), and `secret` once the game is over."""
    return {
        "id": game.id,
        "game": game.name,
        "title": positions.title(game),
        "rules_version": game.rules_version,
        "players": [{"seat": seat, "name": name} for seat, name in sorted(store.seat_names(players).items())],
        **deal.shown(game).public(),
    }


def game_at(game_id: int) -> ResponseReturnValue:
    """The spectator view after the first N events: the same fields as the live answer, for
    that position (`seq` is N; `latest_seq` is the game's seq now)."""
    with read_session(get_engine()) as session:
        game = public_game(session, game_id)
        at = history.parse_at(request.args.get("at"), game)
        if at is None:
            raise BadRequest(gettext("'at' must be a whole number of events, 1 to %(num)d.", num=game.seq), TITLE)
        players = store.players_of(session, game_id)
        past = history.public_view(session, game, at)
    return jsonify(**identity(game, players), **past)


@bp.get("/games/<int:game_id>/events")
def events(game_id: int) -> ResponseReturnValue:
    """Every event as a spectator may see it (`redact_event(event, None)`) with its sentence;
    `?after=K` for the events after seq K only."""
    raw = request.args.get("after", "0")
    if not re.fullmatch(r"[0-9]{1,12}", raw):
        raise BadRequest(N_("'after' must be a whole number (a seq)."), TITLE)
    with read_session(get_engine()) as session:
        game = public_game(session, game_id)
        rows = history.public_events(session, game, after=int(raw))
    return jsonify(id=game.id, game=game.name, seq=game.seq, status=game.status, events=rows)
