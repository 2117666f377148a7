"""The JSON play API: a player's own position and decisions, a preview of moves, and a whole turn
played in one request (the page's turn composer uses it; so can a bot).

Authenticated by the player's signed page token alone (service/links.py): no cookie, so no ambient
authority and no CSRF token.  POSTs must say `Content-Type: application/json`.  Answers:

- 200: the answer (GET; a preview; after the moves were recorded, the position they led to)

GET /api/play/<token> answers the seat's game now: the game's identity (`id`, `game`, `title`,
`rules_version`, `players`, the deal check), `seat`, `name`, `seq`, `status`, `to_act`, `your_turn`,
`result`, `deadline` (null: untimed), `view` (the engine's view for this seat alone: never another
seat's hidden cards), `decisions`, `steps` and `settings`.  POST /api/play/<token> answers the same
fields for the position the moves led to, plus `played` (each move's `index`, `move`, `text`, `label`),
so a client goes on from its answer without a second request: while `your_turn` holds (a turn of
several requests, a co-op phase) its `decisions` are the next ones; once it does not, the client waits
for its turn (an email, a poll of GET).  POST .../preview answers a position not recorded (`after_seq`,
`moves`, `hidden`, `complete`, `board_html`, the view and decisions).
- 400: a body that is not JSON, too large or too deeply nested, or without a whole-number `seq` and a
  list of `moves`
- 403: a token that is not a valid player link (another purpose's, tampered, of another database)
- 409: the game moved on (`seq` is the current one); nothing was played
- 410: an expired link, or one replaced by a fresh link the player asked for
- 415: a POST that is not `application/json`
- 422: an illegal move: `index` (from 0), `reason`, `code`; nothing was played

Every error under /api is JSON (service/web/errors.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec
from flask import Blueprint, Response, current_app, jsonify, request
from flask.typing import ResponseReturnValue
from flask_babel import gettext
from werkzeug.exceptions import RequestEntityTooLarge, UnsupportedMediaType

from service import jsontext, links, store
from service.errors import BadRequest, Forbidden, NotFound, StaleState
from service.lang import N_
from service.names import player_name
from service.play import handle
from service.play.batch import MAX_MOVES, Played
from service.play.preview import preview as preview_moves
from service.store import current, read_session
from service.store.current import AnyPlayer, ClockRow, GameRow, PlayerRow
from service.store.db import get_engine, one_connection, single_reads, unbound
from service.store.models import as_utc
from service.views import positions
from service.views.positions import Position
from service.web import language
from service.web.api import identity
from service.web.tokens import table_of

bp = Blueprint("play_api", __name__, url_prefix="/api/play")

TITLE = N_("That request could not be read")
MAX_BODY = 64 * 1024  # bytes: a turn of moves is a few kilobytes
HIDDEN_NOTE = N_("What this move brings (a card drawn or revealed) is known only once your turn is confirmed, "
               "so the board is shown as it stands before it.")


@bp.after_request
def private(response: Response) -> Response:
    response.headers["Cache-Control"] = "private, no-store"  # answers hold a player's hand
    return response


def _player(token: str) -> PlayerRow:
    return _table(token)[0]


def _table(token: str) -> tuple[PlayerRow, list[PlayerRow]]:
    """The seat the token names and every seat of its game (the answers name them all), in one read."""
    try:
        return table_of(links.read_player_token(token))  # a replaced link: 410
    except (BadRequest, NotFound):
        raise Forbidden(N_("This is not a valid player link: use the address of your game page."),
                        "Not a player link") from None


# ---- reading a request ------------------------------------------------------------------------------


def _body() -> dict[str, Any]:
    if request.mimetype != "application/json":
        raise UnsupportedMediaType(N_("Send the request as JSON, with Content-Type: application/json."))
    if request.content_length is not None and request.content_length > MAX_BODY:
        raise RequestEntityTooLarge(gettext("A request is at most %(num)d KiB.", num=MAX_BODY // 1024))
    raw = request.get_data(cache=False)
    if len(raw) > MAX_BODY:
        raise RequestEntityTooLarge(gettext("A request is at most %(num)d KiB.", num=MAX_BODY // 1024))
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise BadRequest(N_("The request is not UTF-8 text."), TITLE) from None
    try:
        body = jsontext.loads(text)  # nesting bounded: a move is an object in a list in an object
    except jsontext.TooDeep as exc:
        raise BadRequest(str(exc), TITLE) from None
    except ValueError as exc:
        raise BadRequest(gettext("The request is not valid JSON: %(why)s", why=str(exc)[:120]), TITLE) from None
    if not isinstance(body, dict):
        raise BadRequest(N_('Send a JSON object: {"seq": <number>, "moves": [...]}.'), TITLE)
    return body


def _request(token: str, *, empty: bool) -> tuple[PlayerRow, list[PlayerRow], int, list[dict[str, Any] | str]]:
    """What both POSTs read: the token's player and its game's seats, then the JSON body's `seq` and
    `moves` (`empty`: an empty list of moves is allowed)."""
    player, seats = _table(token)
    return player, seats, *read_turn(empty=empty)


def read_turn(*, empty: bool) -> tuple[int, list[dict[str, Any] | str]]:
    """The JSON body's `seq` and `moves` (also /api/me's: service/web/me_api.py)."""
    body = _body()
    return _seq(body), _moves(body, empty=empty)


def _seq(body: dict[str, Any]) -> int:
    seq = body.get("seq")
    if isinstance(seq, bool) or not isinstance(seq, int) or not 0 <= seq < 2**53:
        raise BadRequest(N_('"seq" must be the whole number of events your moves start from (GET gives it).'), TITLE)
    return seq


def _moves(body: dict[str, Any], *, empty: bool) -> list[dict[str, Any] | str]:
    moves = body.get("moves")
    if not isinstance(moves, list) or not (moves or empty):
        raise BadRequest(N_('"moves" must be a list of moves: JSON objects or their text forms.'), TITLE)
    if len(moves) > MAX_MOVES:
        raise BadRequest(gettext("At most %(num)d moves can be sent at once.", num=MAX_MOVES), TITLE)
    return moves


def _current(game_id: int, exc: StaleState) -> StaleState:
    """The stale answer with the game's current seq (a conflict found while appending lacks it)."""
    if exc.current_seq is None:
        with read_session(get_engine()) as session:
            exc.current_seq = store.get_game(session, game_id).seq
    return exc


# ---- writing an answer ------------------------------------------------------------------------------


def _choices(position: Position) -> dict[str, Any]:
    """The seat's decisions (engine order), each with its text form, words and first step; the steps
    in order; standing settings apart."""
    steps = position.first_steps()
    step_of = {id(legal): step for step in steps for legal in step.moves}
    return {
        "decisions": [
            {"move": legal.move, "text": position.move_text(legal.move), "label": legal.label,
             "step": {"key": step_of[id(legal)].key, "label": step_of[id(legal)].label}}
            for legal in position.decisions
        ],
        "steps": [{"key": step.key, "label": step.label, "moves": len(step.moves)} for step in steps],
        "settings": [
            {"move": legal.move, "text": position.move_text(legal.move), "label": legal.label,
             "section": legal.section}
            for legal in position.moves if legal.section is not None
        ],
    }


def _played(played: list[Played]) -> list[dict[str, Any]]:
    return [{"index": p.index, "move": p.move, "text": p.text, "label": p.label} for p in played]


def _deadline(player: PlayerRow, clock: ClockRow | None) -> dict[str, Any] | None:
    """The seat's clock in a timed game (None: untimed, known from the clock read with the game, so
    an untimed game reads nothing more): `due` in UTC (None while stopped)."""
    if clock is None or clock.deadline_hours is None:
        return None
    # The clock as it stands (the one read with the game is from before the move), in one statement
    # outside any transaction.
    with unbound(get_engine()) as conn:
        now = current.seat_clock(conn, player.game_id, player.seat)
    if now is None or now.deadline_hours is None:
        return None
    due = now.due_at
    return {
        "due": as_utc(due).isoformat().replace("+00:00", "Z") if due is not None else None,
        "hours": now.deadline_hours, "policy": now.policy, "paused": now.paused_at is not None,
        "stopped": now.deadline and due is None,
    }


def _answer(player: PlayerRow, game: GameRow, state: dict[str, Any], players: Sequence[AnyPlayer],
            clock: ClockRow | None, **extra: Any) -> Response:
    """The seat's game at `state` (the state after `game.seq`), as GET answers it: its own view only
    (the engine's `view` for that seat), its decisions, the game's identity and clock; `extra` after."""
    names = store.seat_names(players)
    shown = positions.at_state(game, state, player.seat, game.seq, names,
                               result=game.result if game.status == "finished" else None,  # a recorded forfeit
                               deadline_hours=clock.deadline_hours if clock is not None else None,
                               language=language.for_api())
    return _json(dict(
        **identity(game, players), seat=player.seat, name=player_name(player.name, player.seat), seq=shown.seq,
        status=game.status, to_act=shown.to_act, your_turn=shown.my_turn, result=game.result,
        deadline=_deadline(player, clock), view=shown.view, **_choices(shown), **extra,
    ))


_ENCODE = msgspec.json.Encoder(order="sorted").encode
_NOT_ENCODED = (TypeError, ValueError, OverflowError, RecursionError)


def _json(answer: dict[str, Any]) -> Response:
    """`jsonify(**answer)`'s response, its body written by msgspec: the same JSON values with the keys
    sorted as Flask sorts them, in a sixth of the time (~70 -> ~12 µs a move's answer, issue #27), only
    not escaping what is not ASCII.  The answer is JSON data throughout (the engine's view and moves,
    the labels, the deadline already as text); anything msgspec will not write (a lazy string, a bool
    key) goes to jsonify as before."""
    try:
        body = _ENCODE(answer)
    except _NOT_ENCODED:
        return jsonify(**answer)
    return current_app.response_class(body + b"\n", mimetype="application/json")  # (jsonify's newline)


@bp.get("/<token>")
def position(token: str) -> ResponseReturnValue:
    """The player's game now: their own view, `seq`, who is to act, the deadline, their decisions."""
    return position_of(*_table(token))


def position_of(player: PlayerRow, players: Sequence[PlayerRow] | None = None) -> Response:
    """A seat's game now, as GET answers it (also /api/me's; `players`: the game's seats, if read):
    the game with its state row and clock in one statement, the seats in another."""
    with read_session(get_engine()) as session:
        conn = session.connection()
        loaded = current.read(conn, player.game_id)
        players = players if players is not None else current.players(conn, player.game_id)
        # (a game whose state row is missing or stale: from its snapshots and events)
        state = loaded.state if loaded.state is not None else store.load_state(session, loaded.game)[0]
    return _answer(player, loaded.game, state, players, loaded.clock)


@bp.post("/<token>/preview")
def preview(token: str) -> ResponseReturnValue:
    """The position after `moves` from `seq`, with the decisions then; writes nothing."""
    player, _, seq, moves = _request(token, empty=True)
    try:
        found = preview_moves(player.game_id, player.seat, moves, seq, language.for_api())
    except StaleState as exc:
        raise _current(player.game_id, exc) from None
    shown = found.position
    hidden = None
    if found.hidden is not None:
        hidden = {"index": found.hidden, "label": found.played[found.hidden].label, "message": gettext(HIDDEN_NOTE)}
    return jsonify(
        seq=seq, after_seq=shown.seq, moves=_played(found.played), hidden=hidden, complete=found.complete,
        to_act=shown.to_act, your_turn=shown.my_turn, finished=shown.finished, view=shown.view,
        **_choices(shown), board_html=str(shown.board_html()),
    )


@bp.post("/<token>")
def play(token: str) -> ResponseReturnValue:
    """Play `moves` from `seq`, all of them or none; the answer is the position after them, as GET
    answers it, with the moves `played`: a client needs no second request to go on."""
    # (the link's read and the move's transaction on one pooled connection: one checkout)
    with one_connection(get_engine()):
        player, seats, seq, moves = _request(token, empty=False)
        return play_as(player, seq, moves, seats)


def play_as(player: PlayerRow, seq: int, moves: list[dict[str, Any] | str],
            players: Sequence[PlayerRow] | None = None) -> Response:
    """Play `moves` from `seq` for the seat (also /api/me's; `players`: the game's seats, if read).

    The answer is made from the position the move just wrote, as the move path holds it (its Outcome:
    the game row moved on, the state after the moves, the clock read with the game), not read back."""
    try:
        outcome = handle(player.game_id, player.seat, moves, seq, language=language.for_api())
    except StaleState as exc:
        raise _current(player.game_id, exc) from None
    assert outcome.game is not None and outcome.state is not None  # (handle's own path sets them)
    seats = outcome.players if outcome.players is not None else players
    if seats is None:
        with single_reads(get_engine()).connect() as conn:
            seats = current.players(conn, player.game_id)
    return _answer(player, outcome.game, outcome.state, seats, outcome.clock, played=_played(outcome.played))
