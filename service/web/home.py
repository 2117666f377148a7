"""A signed-in person's home: their games (service/views/my_games.py) and their profile line.

- GET  /                              (service/web/games.py `index`, signed in) my games
- GET  /me/games/hidden               the finished games they hid, each with a button to show it again
- POST /me/games/<id>/hide, /unhide   (CSRF form) hide a finished game from the list, or show it again
- GET  /api/me/games                  the same as JSON (`require_api_email`: a session, later a bearer token)
- GET  /api/me/profile                the person's own profile line's figures

The page shows the person their own player links (they proved the address by signing in, as the
account link proves it) and the names of the people they played with; never an address but theirs.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, jsonify, redirect, render_template, url_for
from flask.typing import ResponseReturnValue

from service.people import hidden_games
from service.store import read_session
from service.store.db import get_engine
from service.store.models import utcnow
from service.views import my_games, profile
from service.web.auth import require_api_email, require_email

bp = Blueprint("home", __name__)


def page(email: str, show_hidden: bool = False) -> ResponseReturnValue:
    """The "my games" page of the signed-in address key `email`."""
    with read_session(get_engine()) as session:
        games = my_games.my_games(session, email, utcnow(), show_hidden=show_hidden)
    return render_template("people/home.html", games=games, groups=my_games.GROUPS, titles=my_games.GROUP_TITLES,
                           show_hidden=show_hidden)


@bp.get("/me/games/hidden")
def hidden() -> ResponseReturnValue:
    return page(require_email(), show_hidden=True)


@bp.post("/me/games/<int:game_id>/hide")
def hide(game_id: int) -> ResponseReturnValue:
    hidden_games.hide(require_email(), game_id, utcnow())
    return redirect(url_for("games.index"), 303)


@bp.post("/me/games/<int:game_id>/unhide")
def unhide(game_id: int) -> ResponseReturnValue:
    hidden_games.unhide(require_email(), game_id)
    return redirect(url_for("home.hidden"), 303)


def _links(row: my_games.Row) -> dict[str, Any]:
    return {"page": url_for("play.page", token=row.page_token, _external=True),
            "history": url_for("history.player", token=row.page_token, _external=True),
            "invitation": (url_for("invitations.page", token=row.invitation_token, _external=True)
                           if row.invitation_token else None)}


@bp.get("/api/me/games")
def api_games() -> ResponseReturnValue:
    email = require_api_email()
    with read_session(get_engine()) as session:
        games = my_games.my_games(session, email, utcnow())
    return jsonify({
        "awaiting": games.awaiting, "hidden": games.hidden,
        "groups": {group: [{**row.public(), **_links(row)} for row in rows] for group, rows in games.groups.items()},
        # Names only: the people one played with are never given by address.
        "played_with": [co.name for co in games.co_players],
    })


@bp.get("/api/me/profile")
def api_profile() -> ResponseReturnValue:
    email = require_api_email()
    with read_session(get_engine()) as session:
        found = profile.profile(session, email)
    return jsonify(found.public())
