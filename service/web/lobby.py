"""The lobby and open games (service/play/lobby.py).

- GET  /lobby                            the listed games waiting for players
- GET  /lobby/new/<game>                 the form opening a game with open seats (signed in)
- POST /lobby/new/<game>                 open it (limited per client like the start form)
- GET  /lobby/<id>/<key>                 one open game ("anyone with this link"; the lobby links here too)
- POST /lobby/<id>/<key>/join            a signed-in person joins with one press
- POST /lobby/<id>/<key>/ask             join by typing an address: one confirmation email to it (limited
                                         per client and per address typed; the same answer whatever the
                                         address)
- GET  /lobby/confirm/<token>            the confirmation email's link: a page with one button
- POST /lobby/confirm/<token>            confirm: the seat is taken (the game starts if it was the last)
- POST /lobby/<id>/<key>/cancel          the signed-in creator cancels the open game (those who joined are told)
"""

from __future__ import annotations

from flask import Blueprint, current_app, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext, ngettext

import engine
from service import links, paths, store
from service.clocks.settings import parse_settings
from service.errors import Invalid
from service.games import Adapter, every
from service.mail import addresses
from service.names import name_problem, player_name, unlinkable
from service.play import bots, lobby, ratings
from service.play.startform import parse_options
from service.store import read_session
from service.store.db import get_engine
from service.store.models import OpenGame, utcnow
from service.views import profile
from service.web import auth, language
from service.web.errors import said
from service.web.games import adapter_or_none, no_such_game
from service.web.limits import limiter, lobby_join, lobby_join_address, new_games, refund, typed_address_key
from service.web.tokens import page_token

bp = Blueprint("lobby", __name__)


def pace_words(hours: int | None) -> str:
    return gettext("no deadline") if hours is None else ngettext("%(num)d hour a turn", "%(num)d hours a turn", hours)


def _describe(session, opened: OpenGame, now) -> dict:
    game = store.get_game(session, opened.game_id)
    found = adapter_or_none(game.name)
    assert found is not None
    creator = next(p for p in store.players_of(session, game.id) if p.seat == 0)
    modes = found.modes()
    taken = lobby.seats_of(session, opened, now)
    robots = [seat.player.name for seat in taken if bots.level_of(seat.player)]
    return {
        "bots": robots,
        "open": opened, "game": game, "title": found.rules.title or found.name,
        "mode": said(found.mode(opened.mode).title) if len(modes) > 1 else "",
        "pace": pace_words(opened.deadline_hours),
        "about": profile.profile(session, creator.address_key).line(unlinkable(creator.name), language.current()),
        "left": opened.seats - sum(1 for seat in taken if seat.confirmed()),  # lobby.seats_left, read once
        "url": url_for("lobby.game", open_id=opened.id, key=opened.key),
    }


@bp.get(paths.rule("lobby.index"))
def index() -> ResponseReturnValue:
    now = utcnow()
    with read_session(get_engine()) as session:
        games = [_describe(session, opened, now) for opened in lobby.listed(session, now)]
    boards = [(each.name, each.rules.title or each.name) for each in every() if ratings.rated(each.name)]
    return render_template("lobby/index.html", games=[g for g in games if g["left"] > 0], boards=boards)


BOT_CHOICES = ("", "bot:easy", "bot", "bot:strong")  # a seat of an open game: open, or a bot of a level


def _bot_choices() -> list[tuple[str, str]]:
    return [("", gettext("Open to a person")), ("bot:easy", gettext("Bot (easy)")), ("bot", gettext("Bot (normal)")),
            ("bot:strong", gettext("Bot (strong)"))]


def _new_page(chosen: Adapter, status: int = 200, errors: list[str] | None = None, **form: str) -> ResponseReturnValue:
    modes = [mode for mode in chosen.modes() if max(mode.players) > 1]
    most = max(max(mode.players) for mode in modes)
    return render_template("lobby/new.html", adapter=chosen, modes=modes, errors=errors, form=form,
                           other_seats=range(1, most), choices=_bot_choices(),
                           expiry=current_app.config["LOBBY_EXPIRY_DAYS"]), status


@bp.get("/lobby/new/<game>")
def new(game: str) -> ResponseReturnValue:
    chosen = adapter_or_none(game)
    if chosen is None:
        return no_such_game(game)
    auth.require_email()
    return _new_page(chosen)


@bp.post("/lobby/new/<game>")
@limiter.limit(new_games)
def create(game: str) -> ResponseReturnValue:
    started = False
    try:
        answer = _create(game)
        started = answer.status_code == 303  # type: ignore[union-attr]
        return answer
    finally:
        if not started:
            refund()


def _create(game: str):
    chosen = adapter_or_none(game)
    if chosen is None:
        return current_app.make_response(no_such_game(game))
    me = auth.require_email()
    data = request.form
    form = {key: (data.get(key) or "").strip()[:40] for key in ("name", "mode", "seats", "deadline", "listed")}
    form |= {f"seat{seat}": (data.get(f"seat{seat}") or "").strip()[:12] for seat in range(1, chosen.rules.max_players)}
    errors = []
    problem = name_problem(form["name"])
    if problem:
        errors.append(said(problem))
    mode = chosen.mode(form["mode"])
    try:
        seats = int(form["seats"] or max(mode.players))
    except ValueError:
        seats = 0
    if seats not in mode.players or seats < 2:
        errors.append(gettext("%(mode)s takes %(count)s; an open game takes at least 2 players.",
                              mode=said(mode.title), count=said(mode.count_words)))
    levels: dict[int, str] = {}
    for seat in range(1, seats):
        chosen_seat = form.get(f"seat{seat}", "")
        if chosen_seat not in BOT_CHOICES:
            errors.append(gettext("Seat %(num)d: choose open, or a bot of a level.", num=seat + 1))
        elif chosen_seat:
            levels[seat] = bots.parse(chosen_seat) or "normal"
    typed, option_errors = parse_options([])
    options, game_errors = chosen.form_options(data, chosen.cli_options(typed), seats)
    errors += [said(error) for error in option_errors + game_errors]
    try:
        hours, policy, reminders = parse_settings(form["deadline"], (data.get("policy") or "auto").strip()[:20], None)
    except Invalid as exc:
        errors.append(said(exc.message))
    if not errors:
        try:
            opened = lobby.open_game(chosen.name, mode.name, options, seats, (form["name"], me),
                                     listed=form["listed"] == "yes", deadline_hours=hours, policy=policy,
                                     reminders=reminders, bots=levels)
        except engine.IllegalMove as exc:
            errors.append(said(exc.reason))
        else:
            flash(gettext("Your game is open. It starts when every seat is taken; share its link or let people "
                          "find it in the lobby.") if opened.listed else
                  gettext("Your game is open. It starts when every seat is taken; share its link."))
            return redirect(url_for("lobby.game", open_id=opened.id, key=opened.key), 303)
    return current_app.make_response(_new_page(chosen, 422, errors, **form))


def _game_page(open_id: int, key: str, status: int = 200, **extra: object) -> ResponseReturnValue:
    now = utcnow()
    me = auth.current_email()
    with read_session(get_engine()) as session:
        opened = lobby.named(session, open_id, key)
        shown = _describe(session, opened, now)
        seats = lobby.seats_of(session, opened, now)
        mine = next((seat for seat in seats if me and seat.player.address_key == me and seat.confirmed()), None)
        creator = mine is not None and mine.player.seat == 0
        names = [player_name(seat.player.name, seat.player.seat) for seat in seats if seat.confirmed()]
    started_url = None
    if opened.status == lobby.STARTED and mine is not None:
        started_url = url_for("play.page", token=page_token(mine.player))
    return render_template("lobby/game.html", **shown, names=names, signed_in=me, mine=mine is not None,
                           creator=creator,
                           started_url=started_url, hold=current_app.config["LOBBY_HOLD_HOURS"], **extra), status


@bp.get("/lobby/<int:open_id>/<key>")
def game(open_id: int, key: str) -> ResponseReturnValue:
    return _game_page(open_id, key)


@bp.post("/lobby/<int:open_id>/<key>/join")
def join(open_id: int, key: str) -> ResponseReturnValue:
    me = auth.require_email()
    name = (request.form.get("name") or "").strip()[:40]
    problem = name_problem(name)
    if problem:
        return _game_page(open_id, key, 422, error=said(problem))
    player = lobby.join_signed_in(open_id, key, name or me.partition("@")[0], me)
    with read_session(get_engine()) as session:
        started = store.get_game(session, player.game_id).status == "active"
    if started:
        flash(gettext("You took the last seat: the game has started."))
        return redirect(url_for("play.page", token=page_token(player)), 303)
    flash(gettext("You have joined. The game starts when every seat is taken; you get its first email then."))
    return redirect(url_for("lobby.game", open_id=open_id, key=key), 303)


@bp.post("/lobby/<int:open_id>/<key>/ask")
@limiter.limit(lobby_join)
@limiter.limit(lobby_join_address, key_func=typed_address_key)
def ask(open_id: int, key: str) -> ResponseReturnValue:
    typed = (request.form.get("email") or "").strip()
    name = (request.form.get("name") or "").strip()[:40]
    problem = name_problem(name)
    try:
        email = addresses.normalized(typed)
    except Invalid:  # its syntax only: says nothing about whether it is known
        refund()
        return _game_page(open_id, key, 422, error=gettext("Type the email address you play with (name@example.org)."))
    if problem:
        refund()
        return _game_page(open_id, key, 422, error=said(problem))
    lobby.ask_to_join(open_id, key, name or email.partition("@")[0], email)
    return _game_page(open_id, key, sent=gettext(
        "If that address can take the seat, we emailed it a link: the seat is held for it until it confirms "
        "(for %(hours)s hours). Nothing else is sent to it.", hours=_hours()))


def _hours() -> str:
    hours = float(current_app.config["LOBBY_HOLD_HOURS"])
    return str(int(hours)) if hours == int(hours) else str(hours)


@bp.get(paths.rule("lobby.confirm_page"))
def confirm_page(token: str) -> ResponseReturnValue:
    joining_id, nonce = links.read_lobby_join_token(token)
    with read_session(get_engine()) as session:
        joining = lobby.joining_of(session, joining_id, nonce)
        opened = session.get(OpenGame, joining.open_game_id)
        assert opened is not None
        shown = _describe(session, opened, utcnow())
    return render_template("lobby/confirm.html", token=token, joining=joining, **shown)


@bp.post(paths.rule("lobby.confirm_page"))
def confirm(token: str) -> ResponseReturnValue:
    joining_id, nonce = links.read_lobby_join_token(token)
    player = lobby.confirm(joining_id, nonce)
    with read_session(get_engine()) as session:
        started = store.get_game(session, player.game_id).status == "active"
    if started:
        flash(gettext("You took the last seat: the game has started."))
    else:
        flash(gettext("You have joined. The game starts when every seat is taken; we email you then."))
    return redirect(url_for("play.page", token=page_token(player)) if started
                    else url_for("lobby.confirm_page", token=token), 303)


@bp.post("/lobby/<int:open_id>/<key>/cancel")
def cancel(open_id: int, key: str) -> ResponseReturnValue:
    me = auth.require_email()
    lobby.cancel(open_id, key, me)
    flash(gettext("The game is cancelled. Everyone who had joined is told by email."))
    return redirect(url_for("lobby.game", open_id=open_id, key=key), 303)
