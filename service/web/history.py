"""History pages: step through a game as it was, from a seat or as a spectator.

- /p/<token>/history               a player's history (their signed player link is the key); opens
                                   at the end of their last own turn with "since your last move"
                                   (a finished game at its end).
- /p/<token>/history/record.json   their game record: redacted for them, complete after the end.
- /p/<token>/history/public  POST  the game's creator (seat 0, the first address given when the
                                   game was made) turns the public history on or off.
- /games/<id>/history              the public history (spectator view), unless turned off.
- /games/<id>/history/record.json  the public record: spectator redaction, complete after the end.

Query parameters of the pages (all GET, none changes anything):
  at=N        the position after the first N events (1..seq)
  by=event|turn  what first/previous/next/last step over
  view=public|<seat>|all  after the end: another viewpoint, or every hand; `public` any time.
"""

from __future__ import annotations

import json
import re
from urllib.parse import urlencode

from flask import Blueprint, Response, flash, redirect, render_template, request, url_for
from flask_babel import gettext
from sqlmodel import Session

from service import paths, store
from service.errors import BadRequest, Forbidden
from service.games import adapter
from service.lang import N_
from service.store import deal, read_session, write_session
from service.store.db import get_engine
from service.store.models import Game, Player
from service.views import history, positions
from service.views.history import TITLE
from service.views.talk import visible as visible_talk
from service.web import language
from service.web.tokens import player_of

bp = Blueprint("history", __name__)

NOT_PUBLIC = N_("The game's creator turned its public history off.")
def _player(session: Session, token: str) -> tuple[Player, Game]:
    player = player_of(session, token)
    return player, store.get_game(session, player.game_id)


def public_game(session: Session, game_id: int) -> Game:
    """The game, if its creator left its history public (the switch covers every way into the past)."""
    game = store.get_game(session, game_id)
    if not game.history_public:
        raise Forbidden(NOT_PUBLIC, TITLE)
    return game


def _viewpoint(raw: str | None, viewer: int | None, game: Game, names: dict[int, str]):
    """(the seat the board is drawn for, show every hand) for the `view` parameter."""
    if raw in (None, ""):
        return viewer, False
    if raw == "public":
        return None, False
    finished = game.status == "finished"
    if raw == "all":
        if not finished:
            raise Forbidden(N_("Every hand is shown only once the game is over."), TITLE)
        return viewer, True
    if re.fullmatch(r"[0-9]{1,3}", raw) and int(raw) in names:
        seat = int(raw)
        if seat != viewer and not finished:
            raise Forbidden(N_("Another player's view is shown only once the game is over."), TITLE)
        return seat, False
    raise BadRequest(N_("'view' must be 'public', 'all' or the number of a seat of this game."), TITLE)


def _render(game: Game, viewer: int | None, *, player: Player | None = None, token: str | None = None):
    by = request.args.get("by", "event")
    if by not in history.BY:
        raise BadRequest(N_("'by' must be 'event' or 'turn'."), TITLE)
    raw_view = request.args.get("view")
    with read_session(get_engine()) as session:
        game = store.get_game(session, game.id)  # fresh: the caller's copy may predate a move
        names = store.player_names(session, game.id)
        board_seat, show_all = _viewpoint(raw_view, viewer, game, names)
        at = history.parse_at(request.args.get("at"), game)
        timeline = history.timeline(session, game, board_seat, names, language=language.current())
        own_view = raw_view in (None, "")
        own_seq = timeline.last_own_seq() if viewer is not None and own_view else None
        if at is None:  # a game under way opens at the viewer's last move; a finished one at its end
            at = own_seq if own_seq is not None and game.status != "finished" else game.seq
        position = history.position_at(session, game, board_seat, at, language=language.current())
        drawn = history.shown_seq(session, game, at)
        hands = history.all_hands(session, game, at, names, language.current()) if show_all else []
        chart = history.chart(session, game, names, marker=at, chart_id="score-chart", language=language.current(),
                              target=adapter(game.name).chart_target(position.view))
        # The table talk this reader may read (a player: their channels and mutes; the public history:
        # a spectator's, the table's talk of a finished game or one its creator opened), placed
        # among the lines in time order.
        talk = visible_talk(session, game.id, player)
    steps = timeline.steps(by)
    turn = timeline.turn_at(at)
    turn_steps = timeline.turn_steps()

    # One url_for, then plain query strings: a long game's page has hundreds of step links.
    base = (url_for("history.player", token=token) if token is not None
            else url_for("history.public", game_id=game.id))

    # Most links differ only in `at` (one per turn and per line: hundreds in a long game), so the
    # rest of their query is encoded once; the same strings as the general case makes.
    rest = urlencode({k: v for k, v in (("by", by), ("view", raw_view)) if v and not (k == "by" and v == "event")})
    at_prefix, at_suffix = f"{base}?at=", f"&{rest}" if rest else ""

    def step_url(n: int | None = None, **changes) -> str:
        if not changes:
            return f"{at_prefix}{at if n is None else n}{at_suffix}"
        params = {"at": at if n is None else n, "by": by, "view": raw_view or None}
        params.update(changes)
        params = {k: v for k, v in params.items() if v not in (None, "") and not (k == "by" and v == "event")}
        return f"{base}?{urlencode(params)}" if params else base

    def turn_label(t) -> str:
        if t.kind == "setup":
            return gettext("Setup")
        if t.kind == "system":
            return "Riftpost"
        if viewer is not None and t.actor == viewer:
            return gettext("You")
        return names.get(t.actor, gettext("Seat %(num)d", num=t.actor + 1))

    turn_rows = [{"number": t.number, "label": turn_label(t), "first": t.first, "last": t.last,
                  "url": step_url(t.last), "current": turn is not None and t.number == turn.number}
                 for t in timeline.turns]

    record_url = (url_for("history.player_record", token=token) if token is not None
                  else url_for("history.public_record", game_id=game.id))
    return render_template(
        "history/page.html",
        game=game, player=player, viewer=viewer, board_seat=board_seat, show_all=show_all,
        names=names, title=positions.title(game), position=position, at=at, by=by,
        raw_view=raw_view or "", nav=history.neighbours(steps, at),
        turn_nav=history.neighbours(turn_steps, at), steps=steps, timeline=timeline, turn=turn,
        turn_lines=history.with_talk(timeline.lines_of(turn), talk, turn.first, turn.last) if turn else [],
        since=history.with_talk(timeline.since(own_seq), talk, own_seq) if own_seq is not None else None,
        own_seq=own_seq,
        hands=hands, chart=chart, drawn=drawn, turn_rows=turn_rows,
        turn_label=turn_label(turn) if turn else "", step_url=step_url, record_url=record_url, token=token,
        result_words=positions.result_words(game, game.result, names, language=language.current()),
        game_url=(url_for("play.page", token=token) if token is not None
                  else url_for("games.spectate", game_id=game.id)),
        public_url=url_for("history.public", game_id=game.id), deal=deal.shown(game),
    )


def _download(data: dict, filename: str) -> Response:
    return Response(
        json.dumps(data, indent=1, sort_keys=False),
        mimetype="application/json",
        headers={"Content-Disposition": f'attachment; filename="{filename}"'},
    )


@bp.get(paths.rule("history.player"))
def player(token: str):
    with read_session(get_engine()) as session:
        player, game = _player(session, token)
    return _render(game, player.seat, player=player, token=token)


@bp.get("/p/<token>/history/record.json")
def player_record(token: str):
    with read_session(get_engine()) as session:
        player, game = _player(session, token)
        data = history.record(session, game, player.seat)
    who = "complete" if data["complete"] else f"seat{player.seat + 1}"
    return _download(data, f"riftpost-{game.name}-{game.id}-{who}.json")


@bp.post("/p/<token>/history/public")
def set_public(token: str):
    wanted = request.form.get("history_public") == "on"
    with write_session(get_engine()) as session:
        player, game = _player(session, token)
        if player.seat != 0:
            raise Forbidden(N_("Only the game's creator (the first player) can change this."), TITLE)
        game.history_public = wanted
        session.add(game)
    flash("Anyone with the game's address can now review its history." if wanted
          else "The public history of this game is now off.")
    return redirect(url_for("history.player", token=token), 303)


@bp.get("/games/<int:game_id>/history")
def public(game_id: int):
    with read_session(get_engine()) as session:
        game = public_game(session, game_id)
    return _render(game, None)


@bp.get("/games/<int:game_id>/history/record.json")
def public_record(game_id: int):
    with read_session(get_engine()) as session:
        game = public_game(session, game_id)
        data = history.record(session, game, None)
    who = "complete" if data["complete"] else "public"
    return _download(data, f"riftpost-{game.name}-{game.id}-{who}.json")
