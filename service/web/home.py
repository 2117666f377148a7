"""A signed-in person's home: their games (service/views/my_games.py) and their profile line.

- GET  /                              (service/web/games.py `index`, signed in) my games
- GET  /me/games/hidden               the finished games they hid, each with a button to show it again
- GET  /me/games/<id>[/history|/invitation]  to the person's player page of the game, its history, or
                                      the invitation that asks them about it (a redirect: the signed
                                      links are made for the one game opened, not for every row shown)
- POST /me/games/<id>/hide, /unhide   (CSRF form) hide a finished game from the list, or show it again
- GET  /api/me/games                  the same as JSON (`require_api_email`: a session, later a bearer token)
- GET  /api/me/profile                the person's own profile line's figures

The page shows the person their own player links (they proved the address by signing in, as the
account link proves it) and the names of the people they played with, each with a "new game with"
link (service/people/address_book.py: a reference, not the address); never an address but theirs.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from flask import Blueprint, jsonify, redirect, render_template, url_for
from flask.typing import ResponseReturnValue

from service import links
from service.errors import NotFound
from service.people import address_book, hidden_games
from service.people.hidden_games import NOT_YOURS
from service.store import read_session
from service.store.db import get_engine, single_reads
from service.store.models import utcnow
from service.views import my_games, profile
from service.web.auth import require_api_email, require_email
from service.web.tokens import page_token

bp = Blueprint("home", __name__)


def page(email: str, show_hidden: bool = False) -> ResponseReturnValue:
    """The "my games" page of the signed-in address key `email`."""
    with single_reads(get_engine()).connect() as conn:
        games = my_games.my_games(conn, email, utcnow(), show_hidden=show_hidden)
    return render_template("people/home.html", games=games, shown=_shown(games), groups=my_games.GROUPS,
                           titles=my_games.GROUP_TITLES, show_hidden=show_hidden,
                           book=lambda co: address_book.reference(email, co))


class Shown(NamedTuple):
    """A row of the page with its links' paths: made here, where a path is a string's concatenation,
    rather than by calls from the template (a call from Jinja costs several of Python's, and the rows'
    links were a third of the page's rendering)."""

    row: my_games.Row
    href: str  # the title's link: the invitation while it waits for an answer, else the player page
    page: str
    history: str
    form: str | None  # a finished game's hide (or, hidden, show again) form's action


def _shown(games: my_games.MyGames) -> dict[str, list[Shown]]:
    game, history, invitation, hide, unhide = (_game_path(f"home.{name}") for name in
                                               ("open_game", "open_history", "open_invitation", "hide", "unhide"))
    return {group: [Shown(row, invitation(row.game_id) if row.invited else game(row.game_id), game(row.game_id),
                          history(row.game_id),
                          (unhide if row.hidden else hide)(row.game_id) if group == my_games.FINISHED else None)
                    for row in rows]
            for group, rows in games.groups.items()}


def _game_path(endpoint: str, external: bool = False) -> Callable[[int], str]:
    """The endpoint's path for any game id: a url_for per row and link cost more than the rest of the
    row (Flask runs its URL-defaults hooks at every call), so the path of game 0 is made once and
    each row's id put in the place of its 0."""
    head, zero, tail = url_for(endpoint, game_id=0, _external=external).rpartition("/0")
    assert zero, endpoint
    return lambda game_id: f"{head}/{game_id}{tail}"


@bp.get("/me/games/hidden")
def hidden() -> ResponseReturnValue:
    return page(require_email(), show_hidden=True)


def _seat_token(email: str, game_id: int) -> str:
    with read_session(get_engine()) as session:
        seat = my_games.my_seat(session, email, game_id)
    if seat is None:
        raise NotFound(NOT_YOURS, "No such game")
    return page_token(seat)


@bp.get("/me/games/<int:game_id>")
def open_game(game_id: int) -> ResponseReturnValue:
    return redirect(url_for("play.page", token=_seat_token(require_email(), game_id)), 303)


@bp.get("/me/games/<int:game_id>/history")
def open_history(game_id: int) -> ResponseReturnValue:
    return redirect(url_for("history.player", token=_seat_token(require_email(), game_id)), 303)


@bp.get("/me/games/<int:game_id>/invitation")
def open_invitation(game_id: int) -> ResponseReturnValue:
    email = require_email()
    with read_session(get_engine()) as session:
        invitation = my_games.my_invitation(session, email, game_id)
    if invitation is None:
        raise NotFound("No invitation waits for your answer about that game.", "No such invitation")
    return redirect(url_for("invitations.page", token=links.invitation_token(invitation.id, invitation.row_key)), 303)


@bp.post("/me/games/<int:game_id>/hide")
def hide(game_id: int) -> ResponseReturnValue:
    hidden_games.hide(require_email(), game_id, utcnow())
    return redirect(url_for("games.index"), 303)


@bp.post("/me/games/<int:game_id>/unhide")
def unhide(game_id: int) -> ResponseReturnValue:
    hidden_games.unhide(require_email(), game_id)
    return redirect(url_for("home.hidden"), 303)


def _links() -> Callable[[my_games.Row], dict[str, Any]]:
    """A row's three links, from paths made once per request (see _game_path)."""
    page, history, invitation = (_game_path(f"home.{name}", external=True)
                                 for name in ("open_game", "open_history", "open_invitation"))
    return lambda row: {"page": page(row.game_id), "history": history(row.game_id),
                        "invitation": invitation(row.game_id) if row.invited else None}


@bp.get("/api/me/games")
def api_games() -> ResponseReturnValue:
    email = require_api_email()
    with single_reads(get_engine()).connect() as conn:
        games = my_games.my_games(conn, email, utcnow())
    links_of = _links()
    return jsonify({
        "awaiting": games.awaiting, "hidden": games.hidden,
        "groups": {group: [{**row.public(), **links_of(row)} for row in rows] for group, rows in games.groups.items()},
        # Names only: the people one played with are never given by address.
        "played_with": [co.name for co in games.co_players],
    })


@bp.get("/api/me/profile")
def api_profile() -> ResponseReturnValue:
    email = require_api_email()
    with read_session(get_engine()) as session:
        found = profile.profile(session, email)
    return jsonify(found.public())
