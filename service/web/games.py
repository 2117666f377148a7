"""Public pages: the start page with the form to start a game, a spectator page per game, and the
site's icon at /favicon.ico (where browsers ask for it whatever the page links)."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from flask import (
    Blueprint,
    Response,
    current_app,
    make_response,
    redirect,
    render_template,
    request,
    send_from_directory,
    session,
    url_for,
)
from flask.typing import ResponseReturnValue
from flask_babel import gettext
from sqlmodel import col

import engine
from service import store
from service.errors import TooMany
from service.games import Adapter, adapter, every
from service.people import address_book
from service.play import new_game
from service.play.startform import MAX_PLAYERS_IN_FORM, GameForm, parse_form
from service.store import deal, read_session
from service.store.db import get_engine
from service.store.inboxes import key as inbox_key
from service.store.models import Deadline, as_utc
from service.views import history, positions
from service.views.my_games import CoPlayer
from service.views.times import local_time
from service.views.wording import Wording
from service.web import auth, home, language
from service.web.errors import said
from service.web.limits import limiter, new_games, refund

bp = Blueprint("games", __name__)

RECENT_EVENTS = 12
# The games this browser started, in its session (signed with SECRET_KEY: a visitor cannot add one).
MADE, MADE_KEPT = "made", 10
# A game under way is followed from the public view: static/follow.js asks the JSON view this often
# and reloads when a move was made (a finished game never changes).
SPECTATOR_REFRESH_SECONDS = 60
ICON_MAX_AGE = 7 * 24 * 3600


def _game_list(template: str, status: int = 200, errors: list[str] | None = None, **extra: Any) -> ResponseReturnValue:
    """The games one may start, each with its line, its player counts, its rules and its form."""
    return render_template(template, games=every(), errors=errors, **extra), status


def adapter_or_none(game: str) -> Adapter | None:
    """The game's adapter, or None for a name no game has (the form's, the rules page's)."""
    try:
        return adapter(game)
    except engine.UnknownGame:
        return None


def _form_page(form: GameForm, chosen: Adapter, status: int = 200, errors: list[str] | None = None) -> ResponseReturnValue:
    """One game's start form: its modes, the chosen mode's player rows and options, the rest folded."""
    mode = chosen.mode(form.mode)
    # The game's own words for its fieldset (guilds, heroes: issue #26), None for a game without a catalog.
    words = Wording(chosen.name, language.current()) if chosen.catalog is not None else None
    return render_template("start_game.html", form=form, adapter=chosen, modes=chosen.modes(), mode=mode,
                           rows=form.rows(mode.players), errors=errors, game_words=words), status


def no_such_game(game: str) -> ResponseReturnValue:
    """The 404 of a game's form or rules page whose game does not exist, naming those that do."""
    titles = [each.rules.title or each.name for each in every()]
    return render_template(
        "error.html", status=404, title="No such game",
        message=f"There is no game called \u201c{game[:40]}\u201d here. The games to start are "
                f"{', '.join(titles[:-1])} and {titles[-1]}." if len(titles) > 1 else "There is no such game here.",
        back=url_for("games.create"), back_words=gettext("Choose a game")), 404


@bp.get("/")
def index() -> ResponseReturnValue:
    # The cookie's generation is checked in the statement that reads the person's games.
    email = auth.current_email(home.generation_with_games)
    if email is not None:  # signed in: the person's own games (service/web/home.py)
        return home.page(email)
    return _game_list("index.html", signed_in=None)  # the sign-in form


@bp.route("/games/new", methods=["GET", "POST"])
# The form emails the addresses typed into it: limited per client.  Every POST takes its place in the
# counters before the game is made (atomically: simultaneous posts cannot all see room for one more),
# and one that starts no game gives it back (a form sent back to fix a mistake, or shown in another
# mode, emails nobody); every POST is refused once the limit is reached.
@limiter.limit(new_games, methods=["POST"])
def create() -> ResponseReturnValue:
    if request.method == "GET":
        game = request.args.get("game")
        co = request.args.get("co") or None  # "new game with" from the signed-in home: kept to the game's form
        if game:  # the old single form's choice, or a link naming the game: its own form
            return redirect(url_for("games.new_form", game=game, mode=request.args.get("mode") or None, co=co))
        return _game_list("new_game.html", co=co)
    answer: Response | None = None
    try:
        answer = _create()
    finally:
        if answer is None or answer.status_code != 303:  # no game started (or a bug): it does not count
            refund()
    return answer


@bp.get("/games/new/<game>")
def new_form(game: str) -> ResponseReturnValue:
    chosen = adapter_or_none(game)
    if chosen is None:
        return no_such_game(game)
    form = GameForm(game=game, mode=chosen.mode(request.args.get("mode")).name)
    me = auth.current_email()
    if me is not None:  # their own address in seat 0: they proved it by signing in, and know it
        form.emails[0] = me
    co = request.args.get("co")
    if co:  # seat 1 from the address book: the name and the reference, never the address
        me = auth.require_email()
        with read_session(get_engine()) as db:
            form.names[1] = address_book.resolve(db, me, co).name
        form.refs[1] = co
    return _form_page(form, chosen)


def _known_rows(data: Any) -> tuple[Any, dict[int, CoPlayer]]:
    """The form's data with each address-book reference (`ref<row>`) turned into its co-player's address,
    and the co-players by row; only for the signed-in person the references were made for."""
    refs = {row: ref for row in range(MAX_PLAYERS_IN_FORM) if (ref := (data.get(f"ref{row}") or "").strip())}
    if not refs:
        return data, {}
    me = auth.require_email()
    with read_session(get_engine()) as db:
        known = {row: address_book.resolve(db, me, ref) for row, ref in refs.items()}
    data = data.copy()
    for row, co in known.items():
        data[f"email{row}"] = co.address
    return data, known


def _create() -> Response:
    data, known = _known_rows(request.form)
    form, errors = parse_form(data)
    for row in known:  # shown again as references, and every message names them instead
        form.refs[row], form.emails[row] = data[f"ref{row}"], ""
    errors = [address_book.unnamed(said(words), known.values()) for words in errors]
    chosen = adapter_or_none(form.game)
    if chosen is None:
        return make_response(_game_list("new_game.html", 422, [
            f"There is no game called \u201c{form.game[:40]}\u201d: choose one below." if form.game
            else "Choose a game below."]))
    shown = request.form.get("show_mode")
    if shown is not None:  # a mode's button: the same form in that mode, what was typed kept, nothing started
        form.mode = chosen.mode(shown.strip()).name
        return make_response(_form_page(form, chosen))
    if not errors:
        try:
            game_id = new_game(form.game, form.players, form.options, deadline_hours=form.deadline_hours,
                               policy=form.policy, reminders=form.reminders, ask_creator=not _signed_in_creator(form))
        except engine.IllegalMove as exc:
            errors.append(address_book.unnamed(said(exc.reason), known.values()))
        except TooMany as exc:  # an address has had its day's invitations: the form again, to change it
            response = make_response(_form_page(form, chosen, 429, [address_book.unnamed(said(exc.message), known.values())]))
            response.headers["Retry-After"] = str(exc.retry_after)
            return response
        else:
            # This browser made the game: its signed session cookie says so (service/web/games.py
            # `created`), so the created page may tell it what only the creator should read.
            made = [i for i in session.get(MADE, []) if isinstance(i, int)][-(MADE_KEPT - 1):]
            session[MADE] = [*made, game_id]
            return make_response(redirect(url_for("games.created", game_id=game_id), 303))
    return make_response(_form_page(form, chosen, 422, errors))


def _signed_in_creator(form: GameForm) -> bool:
    """Whether seat 0 is the signed-in person's own address.  Their session proves the address as much as
    a clicked link does (the sign-in link or code went to it), so such a game is not one anyone could
    have typed: it needs no "did you start this?" of its own, and consent.py treats it as the command
    line's (the seat is emailed at once if the address is verified, else it is asked as ever)."""
    me = auth.current_email()
    return me is not None and bool(form.players) and inbox_key(form.players[0][1]) == me


@bp.get("/games/<int:game_id>/created")
def created(game_id: int) -> ResponseReturnValue:
    """The page the form leads to: public (anyone may open any game's), so it says nothing that depends on
    the players' addresses.  Whether an address was invited, has played here before or declined would
    make the form an oracle for any address typed into it: the creator reads that on their own page.

    The browser that started the game (its signed session names the game) is told where its seat's link
    went: "We emailed you (address) ...".  Never the seat's link itself: this browser proved it posted
    the form, not that it owns the address in seat 0, and a verified address's seat handed to whoever
    typed it would let anyone start games as someone else (and emailing their friends, who accept that
    address's games).  The link goes to the address; opening it (and, for an address new here,
    accepting: the creator's confirmation) is the proof.  The words are the same whether or not the
    address is verified, so even the creator's browser learns nothing about an address from them."""
    with read_session(get_engine()) as db:
        game = store.get_game(db, game_id)
        players = store.players_of(db, game_id)
    mine = game_id in session.get(MADE, [])
    creator = next((p for p in players if p.seat == 0), None)
    return render_template("created.html", game=game, players=players, names=store.seat_names(players),
                           title=positions.title(game), creator_email=creator.email if mine and creator else None)


@bp.get("/games/<int:game_id>")
def spectate(game_id: int) -> ResponseReturnValue:
    with read_session(get_engine()) as session:
        game = store.get_game(session, game_id)
        players = store.players_of(session, game_id)
        names = store.seat_names(players)
        position = positions.build(session, game, None, recent=RECENT_EVENTS, players=players,
                                   language=language.current())
        chart = history.chart(session, game, names, language=language.current()) if position.finished else None
        # Whose clock runs and until when (public: every player sees the others' deadlines too).
        due = session.execute(sa.select(col(Deadline.seat), col(Deadline.due_at)).where(
            col(Deadline.game_id) == game_id, col(Deadline.due_at).is_not(None)).order_by(col(Deadline.seat))).all()
    deadlines = [(names.get(seat, gettext("A player")), local_time(as_utc(at), "UTC", language.current())) for seat, at in due]
    # No word on who has not accepted an invitation: that is the creator's to read (their own page).
    return render_template(
        "spectate.html", game=game, position=position, names=names, title=positions.title(game),
        heading=positions.heading(game, players, position.teams, language.current()), deadlines=deadlines,
        result_words=positions.result_words(game, position.result, names, language=language.current()), chart=chart,
        refresh=SPECTATOR_REFRESH_SECONDS if not position.finished else None,
        deal=deal.shown(game),
    )


@bp.get("/favicon.ico")
def favicon() -> ResponseReturnValue:
    """The icon (static/favicon.ico, drawn from static/favicon.svg), where browsers look by default."""
    assert current_app.static_folder is not None
    return send_from_directory(current_app.static_folder, "favicon.ico",
                               mimetype="image/vnd.microsoft.icon", max_age=ICON_MAX_AGE)
