"""Player pages, reached only through the player's signed links.

GETs show; POSTs act.  The move form and the confirm page both end in `handle`, with the seq the page
was made for, so a resubmitted or stale form is "the game moved on" and acts on nothing.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue

import engine
from service import jsontext, links, store
from service.clocks import access
from service.errors import StaleState
from service.mail import bounces, outbox
from service.play import handle
from service.store import deal, read_session, write_session
from service.store.current import AnyPlayer
from service.store.db import get_engine
from service.views import bounced, followups, history, invitations, positions
from service.views.times import local_time
from service.web.clock import panel
from service.web.tokens import current_player, load_player, page_token, player_of, seat_of

bp = Blueprint("play", __name__)

RECENT_EVENTS = 12
STEP_MAX = 200  # characters of a step's key (a move's text form) in a link


def _render_page(player: AnyPlayer, status: int = 200, error: str | None = None, step: str | None = None,
                 **extra: Any) -> ResponseReturnValue:
    with read_session(get_engine()) as session:
        game = store.get_game(session, player.game_id)
        players = store.players_of(session, game.id)
        names = store.seat_names(players)
        position = positions.build(session, game, player.seat, recent=RECENT_EVENTS, players=players)
        offer = followups.offer(session, game)
        chart = history.chart(session, game, names) if position.finished else None
        clock = panel(session, player)
        mail_notices = bounced.notices(session, game, players, player)
        own_bounce = bounced.own(session, player)
        # Who has not accepted an invitation (or declined) tells whether an address has played here:
        # only the creator, who typed the addresses, reads it.
        notes = invitations.notes(session, players) if player.seat == 0 else {}
        # Only here, on the player's own page (the token is theirs): their address and what their mail
        # server said are nobody else's business.
        trouble = outbox.trouble(session, player)
    if trouble is not None:
        extra["mail_trouble"] = trouble
        # Masked, as every page reached by a link shows an address: links get forwarded.
        extra["mail_trouble_address"] = access.masked(trouble.address)
        extra["mail_trouble_since"] = local_time(trouble.since, clock["time_zone"])
    steps = position.first_steps() if position.decisions else []
    chosen = next((found for found in steps if found.key == step), None)
    if step is not None and chosen is None:
        extra["step_note"] = ("The choice your link named is not open any more (the game moved on, or the "
                              "link is old): here are your choices now.")
    return (
        render_template(
            "play/page.html",
            player=player, game=game, players=players, names=names, position=position,
            token=page_token(player), error=error, title=positions.title(game),
            heading=positions.heading(game, players, position.teams),
            result_words=positions.result_words(game, position.result, names, player.seat), clock=clock, chart=chart,
            offer=offer, follow_up_template=followups.template(game, offer) if offer else None,
            chosen=chosen, mail_notices=mail_notices, own_bounce=own_bounce, notes=notes,
            deal=deal.shown(game), **extra,
        ),
        status,
    )


def _stale(player: AnyPlayer) -> ResponseReturnValue:
    """The answer to a link or form made for an earlier position: 409 and the current position."""
    return _render_page(
        player, 409,
        stale="This link is out of date: the game moved on since it was made, so nothing was "
        "played. Here is the current position.",
    )


@bp.get("/p/<token>")
def page(token: str) -> ResponseReturnValue:
    """The player's page; `?step=<text form>` (a turn email's link) opens it with that first step
    chosen.  A step no longer open is ignored with a short note."""
    return _render_page(load_player(token), step=request.args.get("step", "")[:STEP_MAX].strip() or None)


@bp.post("/p/<token>/move")
def move(token: str) -> ResponseReturnValue:
    player = load_player(token)
    try:
        expected_seq = int(request.form.get("seq", ""))
        chosen = jsontext.loads(request.form.get("move", ""))
    except (TypeError, ValueError):
        chosen = None
    if not isinstance(chosen, dict):
        return _render_page(player, 400, error="Choose one of the moves below, then press the button.")
    return _act(player, chosen, expected_seq, token)


def _act(player: AnyPlayer, chosen: dict[str, Any], expected_seq: int, token: str | None = None) -> ResponseReturnValue:
    try:
        handle(player.game_id, player.seat, chosen, expected_seq)
    except StaleState:
        return _stale(player)
    except engine.IllegalMove as exc:
        return _render_page(player, 422, error=f"That move is not allowed: {exc.reason}")
    flash("Your move was recorded.")
    return redirect(url_for("play.page", token=token or page_token(player)), 303)


@bp.route("/m/<token>", methods=["GET", "POST"])
def confirm(token: str) -> ResponseReturnValue:
    """The target of an emailed move link: GET shows what it would do, only the POST does it."""
    link = links.read_move_token(token)
    if request.method == "POST":
        # Straight to the move: `handle` checks the link's seq itself (a stale link is the 409 page),
        # so the position the GET shows is not built for nothing.
        return _act(seat_of(link), link.move, link.seq)
    with read_session(get_engine()) as session:
        player = current_player(session, link)
        game = store.get_game(session, player.game_id)
        current = game.seq == link.seq
        if current:
            players = store.players_of(session, game.id)
            position = positions.build(session, game, player.seat, players=players)
    if not current:
        return _stale(player)
    return render_template(
        "play/confirm.html", player=player, game=game, position=position, label=position.describe_move(link.move),
        names=store.seat_names(players), title=positions.title(game),
        player_url=url_for("play.page", token=page_token(player)),
    )


@bp.post("/p/<token>/notifications")
def notifications(token: str) -> ResponseReturnValue:
    wanted = request.form.get("turn_emails") == "on"
    with write_session(get_engine()) as session:
        player = player_of(session, token)
        player.turn_emails = wanted
        session.add(player)
    flash("Turn emails are on for this game." if wanted else "Turn emails are off for this game.")
    return redirect(url_for("play.page", token=token), 303)


@bp.post("/p/<token>/mail-again")
def mail_again(token: str) -> ResponseReturnValue:
    """The player whose address bounced asks us to try email again: the mark goes, in all their games.
    If the address still bounces, the next bounce marks it again (only emails sent from now on count).

    Playing a move through the page does not clear the mark by itself: it proves the player has a link,
    not that their mail works again (they may be playing from an old email, or a bookmark), and
    emailing a dead address just to learn it is dead costs the server's reputation with every bounce.
    The button is on the very page they play on, with the reason."""
    player = load_player(token)
    if bounces.clear(player.email):
        flash("We will email you again. If your mail still bounces, this page will say so.")
    return redirect(url_for("play.page", token=token), 303)


@bp.route("/u/<token>", methods=["GET", "POST"])
def unsubscribe(token: str) -> ResponseReturnValue:
    link = links.read_unsubscribe_token(token)
    with read_session(get_engine()) as session:
        player = current_player(session, link)
        game = store.get_game(session, player.game_id)
    done = False
    if request.method == "POST":
        with write_session(get_engine()) as session:
            row = store.get_player(session, player.id)
            row.turn_emails = False
            session.add(row)
        done = True
        if request.form.get("List-Unsubscribe") == "One-Click":
            return "Unsubscribed from turn emails for this game.\n", 200, {"Content-Type": "text/plain"}
    return render_template(
        "play/unsubscribe.html", player=player, game=game, done=done, title=positions.title(game),
        player_url=url_for("play.page", token=page_token(player)),
    )
