"""The invitation's pages (service/play/consent.py): its emailed links open a page; only that page's
POST buttons answer.  Mail scanners fetch every link of an email, so a GET never accepts or declines.
The decline also answers the invitation's RFC 8058 one-click POST (its List-Unsubscribe)."""

from __future__ import annotations

from flask import Blueprint, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext
from sqlmodel import Session

from service import links, paths, store
from service.errors import NotFound
from service.lang import N_
from service.mail.kinds import unlinkable
from service.play import consent, handover
from service.store import read_session
from service.store.db import get_engine
from service.store.models import Invitation, Player, utcnow
from service.views import positions, profile
from service.web import language
from service.web.tokens import page_token

bp = Blueprint("invitations", __name__)


def _named(session: Session, token: str) -> Invitation:
    """The invitation the link names, if it is the link's: its id with its key (a restore may have
    given the id of a rolled-back invitation to another one, never its key)."""
    link = links.read_invitation_token(token)
    invitation = consent.get(session, link.invitation_id)
    if invitation.row_key != link.key:
        raise NotFound(N_("There is no such invitation (the link belongs to another Riftpost)."), consent.TITLE)
    return invitation


def _invitation_id(token: str) -> int:
    with read_session(get_engine()) as session:
        return _named(session, token).id


def _page(token: str, status: int = 200, **extra: object) -> ResponseReturnValue:
    with read_session(get_engine()) as session:
        invitation = _named(session, token)
        # Its language: the reader's choice or setting, the invited address's, the browser's, else the inviter's.
        language.for_address(invitation.address, invitation.inviter)
        game = store.get_game(session, invitation.game_id)
        players = store.players_of(session, game.id)
        creator = next(p for p in players if p.seat == 0)
        # Who asks: the inviter's record here, by the name they gave themselves (never their address).
        about = profile.profile(session, creator.address_key).line(unlinkable(creator.name), language.current())
        # An invitation to take over a seat of a game under way (service/play/handover.py): the player who
        # named the address asks, with the others' agreement.
        seat = handover.of_invitation(session, invitation.id)
        if seat is not None:
            inviter = next((p for p in players if p.address_key == seat.inviter), None)
            name = unlinkable(inviter.name) if inviter is not None else gettext("A player")
            extra = {**extra, "seat_handover": seat, "seat_players": len(players)}
            about = profile.profile(session, seat.inviter).line(name, language.current())
            creator_name = name
        else:
            creator_name = unlinkable(creator.name)
    return render_template(
        "invitation.html", invitation=invitation, game=game, title=positions.title(game), token=token,
        # The page is the invited address's first sight of us: the same unlinkable name as the email.
        inviter=creator_name, self_invited=creator.id == invitation.player_id and "seat_handover" not in extra,
        answer=request.args.get("answer", ""), about=about, **extra,
    ), status


@bp.get(paths.rule("invitations.page"))
def page(token: str) -> ResponseReturnValue:
    return _page(token)


@bp.post("/i/<token>/accept")
def accept(token: str) -> ResponseReturnValue:
    invitation_id = _invitation_id(token)
    with read_session(get_engine()) as session:
        seat = handover.of_invitation(session, invitation_id)
    if seat is not None:
        player_id, taken = handover.accept(invitation_id, utcnow())
        if not taken:  # taken already: a forwarded invitation must not open the seat's page
            return _page(token)
        with read_session(get_engine()) as session:
            player = session.get(Player, player_id)
            assert player is not None
        flash(gettext("Thank you: the seat is yours. This page is your game page; its link is in the email we sent you."))
        return redirect(url_for("play.page", token=page_token(player)), 303)
    player_id = consent.accept(invitation_id, utcnow())
    with read_session(get_engine()) as session:
        player = session.get(Player, player_id)
        assert player is not None
    if player.link_generation:
        # Its links were renewed since ("send me a fresh link"): an old invitation must not mint a
        # current page link, or a forwarded invitation would undo the renewal.
        return _page(token, renewed=True)
    flash(gettext("Thank you: you accepted. The game's emails are on their way to you."))
    return redirect(url_for("play.page", token=page_token(player)), 303)


@bp.post(paths.rule("invitations.decline"))
def decline(token: str) -> ResponseReturnValue:
    invitation_id = _invitation_id(token)
    with read_session(get_engine()) as session:
        seat = handover.of_invitation(session, invitation_id)
    if seat is not None:
        handover.decline(invitation_id, utcnow())
    else:
        consent.decline(invitation_id, utcnow())
    if request.form.get("List-Unsubscribe") == "One-Click":
        return "Declined: no more email from games this inviter starts.\n", 200, {"Content-Type": "text/plain"}
    return _page(token, declined_now=True)
