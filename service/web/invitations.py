"""The invitation's pages (service/play/consent.py): its emailed links open a page; only that page's
POST buttons answer.  Mail scanners fetch every link of an email, so a GET never accepts or declines.
The decline also answers the invitation's RFC 8058 one-click POST (its List-Unsubscribe)."""

from __future__ import annotations

from flask import Blueprint, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from sqlmodel import Session

from service import links, paths, store
from service.errors import NotFound
from service.mail.kinds import unlinkable
from service.play import consent
from service.store import read_session
from service.store.db import get_engine
from service.store.models import Invitation, Player, utcnow
from service.views import positions, profile
from service.web.tokens import page_token

bp = Blueprint("invitations", __name__)


def _named(session: Session, token: str) -> Invitation:
    """The invitation the link names, if it is the link's: its id with its key (a restore may have
    given the id of a rolled-back invitation to another one, never its key)."""
    link = links.read_invitation_token(token)
    invitation = consent.get(session, link.invitation_id)
    if invitation.row_key != link.key:
        raise NotFound("There is no such invitation (the link belongs to another Riftpost).", consent.TITLE)
    return invitation


def _invitation_id(token: str) -> int:
    with read_session(get_engine()) as session:
        return _named(session, token).id


def _page(token: str, status: int = 200, **extra: object) -> ResponseReturnValue:
    with read_session(get_engine()) as session:
        invitation = _named(session, token)
        game = store.get_game(session, invitation.game_id)
        players = store.players_of(session, game.id)
        creator = next(p for p in players if p.seat == 0)
        # Who asks: the inviter's record here, by the name they gave themselves (never their address).
        about = profile.profile(session, creator.address_key).line(unlinkable(creator.name))
    return render_template(
        "invitation.html", invitation=invitation, game=game, title=positions.title(game), token=token,
        # The page is the invited address's first sight of us: the same unlinkable name as the email.
        inviter=unlinkable(creator.name), self_invited=creator.id == invitation.player_id,
        answer=request.args.get("answer", ""), about=about, **extra,
    ), status


@bp.get(paths.rule("invitations.page"))
def page(token: str) -> ResponseReturnValue:
    return _page(token)


@bp.post("/i/<token>/accept")
def accept(token: str) -> ResponseReturnValue:
    player_id = consent.accept(_invitation_id(token), utcnow())
    with read_session(get_engine()) as session:
        player = session.get(Player, player_id)
        assert player is not None
    if player.link_generation:
        # Its links were renewed since ("send me a fresh link"): an old invitation must not mint a
        # current page link, or a forwarded invitation would undo the renewal.
        return _page(token, renewed=True)
    flash("Thank you: you accepted. The game's emails are on their way to you.")
    return redirect(url_for("play.page", token=page_token(player)), 303)


@bp.post(paths.rule("invitations.decline"))
def decline(token: str) -> ResponseReturnValue:
    consent.decline(_invitation_id(token), utcnow())
    if request.form.get("List-Unsubscribe") == "One-Click":
        return "Declined: no more email from games this inviter starts.\n", 200, {"Content-Type": "text/plain"}
    return _page(token, declined_now=True)
