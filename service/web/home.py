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
from typing import Any

from flask import Blueprint, g, jsonify, redirect, render_template, url_for
from flask.typing import ResponseReturnValue
from flask_babel import get_translations, gettext
from flask_wtf.csrf import generate_csrf
from markupsafe import Markup

from service import links
from service.errors import NotFound
from service.lang import N_
from service.people import address_book, hidden_games, sessions
from service.people.hidden_games import NOT_YOURS
from service.store import read_session
from service.store.db import get_engine, single_reads
from service.store.models import utcnow
from service.views import my_games, profile
from service.web import language
from service.web.auth import require_api_email, require_email
from service.web.tokens import page_token

bp = Blueprint("home", __name__)


def page(email: str, show_hidden: bool = False) -> ResponseReturnValue:
    """The "my games" page of the signed-in address key `email`."""
    games = _games(email, show_hidden)
    language.settle(email, games.language)  # read with the games: the page's words need no statement of their own
    return render_template("people/home.html", games=games, lists=_lists(games), groups=my_games.GROUPS,
                           titles=my_games.group_titles(games.words_language), show_hidden=show_hidden,
                           book=lambda co: address_book.reference(email, co))


_KEPT = "home_games"


def generation_with_games(who: str) -> int | None:
    """The session generation of the address key a cookie names (for auth.current_email), read by the
    statement that reads that person's games, which `page` then shows, once the cookie's generation
    matched: the signed-in start page makes one round trip to the database, not two.  A person without
    games gets no row to carry it: read on its own then."""
    with single_reads(get_engine()).connect() as conn:
        games = my_games.my_games(conn, who, utcnow(), language=language.without_person())
    g.setdefault(_KEPT, (who, games))
    return games.generation if games.generation is not None else sessions.generation(who)


def _games(email: str, show_hidden: bool = False) -> my_games.MyGames:
    """The person's games: those `generation_with_games` read for the sign-in check of this request if
    it did, else read now."""
    kept = g.pop(_KEPT, None)
    if kept is not None and kept[0] == email and not show_hidden:
        return kept[1]  # type: ignore[no-any-return]
    with single_reads(get_engine()).connect() as conn:
        return my_games.my_games(conn, email, utcnow(), show_hidden=show_hidden, language=language.without_person())


def _lists(games: my_games.MyGames) -> dict[str, Markup]:
    """Each group's rows as HTML, for templates/people/home.html to put in the group's <ul>.

    Made here rather than in Jinja: the template escaped each of a row's dozen values on every use (the
    title four times, each a Markup object made) and called a function per link, half of the page's
    rendering.  Here each text of the row is escaped once (`_html`), and a link is an escaped path with
    the game's id (an int) in it.  Nothing else goes into the HTML unescaped but the literal markup."""
    game, history, invitation, hide, unhide = (_game_path(f"home.{name}", escaped=True) for name in
                                               ("open_game", "open_history", "open_invitation", "hide", "unhide"))
    csrf = _html(generate_csrf())
    # The row's words, translated once per page, not per row (a gettext call per row and word was a
    # tenth of the page): those with the title in them as escaped templates, the escaped title put in.
    answer_words, show_words, hide_words = (_html(gettext("Answer the invitation")), _html(gettext("Show again")),
                                            _html(gettext("Hide")))
    page_words, history_words = _html(gettext("Your page")), _html(gettext("History"))
    said = get_translations()
    to_game, of_game = _html(said.gettext("to %(game)s")), _html(said.gettext("of %(game)s"))
    lists = {}
    for group, rows in games.groups.items():
        if group == my_games.LOBBY:
            lists[group] = Markup(_open_rows(rows, csrf))
            continue
        made = []
        for row in rows:
            title, page = _html(row.title), game(row.game_id)
            href = invitation(row.game_id) if row.invited else page
            to_title = to_game % {"game": title} if row.invited else ""
            answer = (f'<a href="{href}">{answer_words}<span class="visually-hidden"> {to_title}</span></a>'
                      if row.invited else "")
            action, words = (unhide, show_words) if row.hidden else (hide, hide_words)
            of_title = of_game % {"game": title}
            form = "" if group != my_games.FINISHED else f"""
      <form method="post" action="{action(row.game_id)}">
        <input type="hidden" name="csrf_token" value="{csrf}">
        <button class="secondary" type="submit">{words}<span class="visually-hidden"> {title}</span></button>
      </form>
      """
            made.append(f"""
  <li class="my-game">
    <h3><a href="{href}">{title}: {_html(row.players)}</a></h3>
    <p class="my-game-mode muted">{_html(row.mode)}</p>
    <p class="my-game-status">{_html(row.status)}</p>
    <div class="game-actions">
      {answer}
      <a href="{page}">{page_words}<span class="visually-hidden"> {of_title}</span></a>
      <a href="{history(row.game_id)}">{history_words}<span class="visually-hidden"> {of_title}</span></a>
      {form}
    </div>
  </li>
""")
        lists[group] = Markup("".join(made))
    return lists


def _open_rows(rows: list[my_games.Row], csrf: str) -> str:
    """The open games' rows (the group LOBBY): the game's page in the lobby, its link to share, and for
    its creator a button to cancel it (POST, service/web/lobby.py `cancel`).  Few rows: url_for each."""
    made = []
    share_words, cancel_words = _html(gettext("The link to share:")), _html(gettext("Cancel this game"))
    for row in rows:
        title = _html(row.title)
        path = _html(url_for("lobby.game", open_id=row.open_id, key=row.open_key))
        link = _html(url_for("lobby.game", open_id=row.open_id, key=row.open_key, _external=True))
        cancel = "" if not row.opened_by_me else f"""
      <form method="post" action="{_html(url_for("lobby.cancel", open_id=row.open_id, key=row.open_key))}">
        <input type="hidden" name="csrf_token" value="{csrf}">
        <button class="secondary" type="submit">{cancel_words}<span class="visually-hidden"> {title}</span></button>
      </form>"""
        made.append(f"""
  <li class="my-game">
    <h3><a href="{path}">{title}: {_html(row.players)}</a></h3>
    <p class="my-game-mode muted">{_html(row.mode)}</p>
    <p class="my-game-status">{_html(row.status)}</p>
    <p class="share-link">{share_words} <a href="{link}">{link}</a></p>
    <div class="game-actions">{cancel}
    </div>
  </li>
""")
    return "".join(made)


def _html(text: str) -> str:
    """`text` escaped for HTML exactly as markupsafe.escape (Jinja's autoescape) does it, the same five
    characters the same way (tests/people/test_home_games.py compares them), without making a Markup
    object per value (which cost four times the escaping itself)."""
    return (text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("'", "&#39;")
            .replace('"', "&#34;"))


def _game_path(endpoint: str, external: bool = False, escaped: bool = False) -> Callable[[int], str]:
    """The endpoint's path for any game id: a url_for per row and link cost more than the rest of the
    row (Flask runs its URL-defaults hooks at every call), so the path of game 0 is made once and
    each row's id put in the place of its 0 (`escaped`: the path as HTML, for an attribute)."""
    path = url_for(endpoint, game_id=0, _external=external)
    head, zero, tail = (_html(path) if escaped else path).rpartition("/0")
    assert zero, endpoint
    return lambda game_id: f"{head}/{game_id}{tail}"


@bp.get("/me/games/hidden")
def hidden() -> ResponseReturnValue:
    return page(require_email(), show_hidden=True)


def _seat_token(email: str, game_id: int) -> str:
    with read_session(get_engine()) as session:
        seat = my_games.my_seat(session, email, game_id)
    if seat is None:
        raise NotFound(NOT_YOURS, N_("No such game"))
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
        raise NotFound(N_("No invitation waits for your answer about that game."), N_("No such invitation"))
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
    def links_of(row: my_games.Row) -> dict[str, Any]:
        if row.open_id is not None:  # an open game: its page in the lobby (the link to share); no seat page yet
            return {"page": url_for("lobby.game", open_id=row.open_id, key=row.open_key, _external=True),
                    "history": None, "invitation": None}
        return {"page": page(row.game_id), "history": history(row.game_id),
                "invitation": invitation(row.game_id) if row.invited else None}

    return links_of


@bp.get("/api/me/games")
def api_games() -> ResponseReturnValue:
    email = require_api_email(generation_with_games)
    games = _games(email)
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
