"""Campaign follow-ups from a player page (service/campaigns.py): the offer shown on the page of a
finished campaign game, and the POST that starts the next scenario (or the replay) with the party's
equipment and side choices."""

from __future__ import annotations

from flask import Blueprint, flash, redirect, render_template, request, url_for

from service import campaigns, links, store
from service.db import get_engine, read_session
from service.models import Player

bp = Blueprint("campaign", __name__)


@bp.app_template_global()
def campaign_offer(game):
    """For templates: what a finished campaign game offers (None for other games).  Reads only."""
    if getattr(game, "name", None) != campaigns.GAME:
        return None
    with read_session(get_engine()) as session:
        return campaigns.offer(session, store.get_game(session, game.id))


def choices(form) -> tuple[dict, dict]:
    """The offer form's fields as (equip, sides): `equip.<hero>.<part>` = "keep" (left out), "none"
    (unequip) or an item id; `side.<hero>` = a side.  The engine judges the values, so a tampered
    field gets its reason."""
    equip, sides = {}, {}
    for name, value in form.items():
        kind, _, rest = name.partition(".")
        if kind == "equip" and value != "keep":
            hero, _, part = rest.partition(".")
            equip.setdefault(hero, {})[part] = None if value == "none" else value
        elif kind == "side":
            sides[rest] = value
    return equip, sides


@bp.post("/p/<token>/campaign")
def follow_up(token: str):
    link = links.read_player_token(token)
    with read_session(get_engine()) as session:
        player = session.get(Player, link.player_id)
        if player is None:
            raise links.LinkError("This link belongs to no game here.", 404)
    try:
        new_player_id = campaigns.follow_up(player.game_id, player.id, *choices(request.form))
    except campaigns.FollowUpError as exc:
        return render_template("error.html", title="The next game was not started", message=exc.message,
                               status=exc.status), exc.status
    flash("The next game of the campaign has started; everyone got an invitation.")
    return redirect(url_for("play.page", token=links.player_token(new_player_id)), 303)
