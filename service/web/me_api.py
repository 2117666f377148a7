"""The play API of a person's own seats, for a bot or another client holding a personal API token (or a
signed-in browser): the same answers as the player-link API (service/web/play_api.py), by game id.

- GET  /api/me/games/<game_id>          the seat's position (as GET /api/play/<token>)
- POST /api/me/games/<game_id>/moves    {"seq", "moves"}: play a whole turn (as POST /api/play/<token>:
                                        the answer is the position after it, with `played`)

A person holding several seats of one game (one address playing each side) names the seat: `?seat=N`.
Who the person is: service/web/auth.py `require_api_email` (a bearer token; or the session cookie, whose
POST must carry the CSRF token in `X-CSRFToken`: this blueprint is exempt from the form check, since a
bot posts no form).  Not a seat of theirs: 404, whether or not the game exists (ids are public anyway).
Seats reached this way skip the link generations: the token is the person's, not a forwarded link.
"""

from __future__ import annotations

from flask import Blueprint, Response, request
from flask.typing import ResponseReturnValue
from flask_babel import gettext

from service.errors import BadRequest, NotFound
from service.lang import N_
from service.store import current
from service.store.current import PlayerRow
from service.store.db import get_engine, single_reads
from service.store.rows import MAX_ID
from service.web import auth, play_api

bp = Blueprint("me_api", __name__, url_prefix="/api/me/games")
bp.after_request(play_api.private)


def _seat(game_id: int) -> tuple[PlayerRow, list[PlayerRow]]:
    """The person's seat of the game, and the game's seats (read to find it: the answer names them)."""
    email = auth.require_api_email()
    with single_reads(get_engine()).connect() as conn:
        seats = current.players(conn, game_id) if 0 < game_id < MAX_ID else []
    mine = [p for p in seats if p.address_key == email]
    wanted = request.args.get("seat")
    if wanted is not None:
        if not wanted.isdigit():
            raise BadRequest(N_("?seat= is a seat number (0, 1, ...)."), play_api.TITLE)
        mine = [p for p in mine if p.seat == int(wanted)]
    if not mine:
        raise NotFound(gettext("You have no seat in game %(game)s.", game=game_id), N_("Not your game"))
    if len(mine) > 1:
        raise BadRequest(gettext("You hold seats %(seats)s in game %(game)s: say which with ?seat=N.",
                                 seats=", ".join(str(p.seat) for p in mine), game=game_id), N_("Which seat?"))
    return mine[0], seats


@bp.get("/<int:game_id>")
def position(game_id: int) -> ResponseReturnValue:
    return play_api.position_of(*_seat(game_id))


@bp.post("/<int:game_id>/moves")
def play(game_id: int) -> Response:
    player, seats = _seat(game_id)
    seq, moves = play_api.read_turn(empty=False)
    return play_api.play_as(player, seq, moves, seats)
