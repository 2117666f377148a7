"""What a finished game offers its players next, with the follow-up already started, if any.  Reads
only; service/play/followups.py starts it.

The game's adapter may offer a follow-up of its own (the next part of a campaign, a replay).  Every
other finished game offers "play again": a rematch one player asks for and every other accepts
(service/play/rematch.py), as Board Game Arena and Lichess offer after a game; its state is the offer's
`details["rematch"]` (None until asked), `details["closed"]` the latest rematch declined while none is
asked (None if none was), and the new game its `follow_up_game_id`."""

from __future__ import annotations

import sqlalchemy as sa
from sqlmodel import Session, col, select

import engine
from service import store
from service.games import Adapter, FollowUp, adapter
from service.store.models import CampaignGame, Game, Rematch, RematchClosure

# The kind (and series name) of the generic offer; its templates are play/_again.html on the player
# page and play/_again_email.{html,txt} in the game-over email.
AGAIN = "again"


def offer(session: Session, game: Game) -> FollowUp | None:
    """The follow-up a finished game offers (None while it is under way)."""
    if game.status != "finished":
        return None
    found = adapter(game.name)
    offered = None
    if type(found).follow_up is not Adapter.follow_up:  # no state to load for the generic offer
        state, _ = store.load_state(session, game)
        offered = found.follow_up(game.options or {}, game.result, state)
    link = campaign_link(session, game.id)
    if offered is None:
        title = engine.get(game.name).title or game.name
        played = link.scenario if link else ""
        offered = FollowUp(kind=AGAIN, campaign=AGAIN, campaign_title=title, played=played, played_carry=None,
                           part=played, title=title, carry=None, options=dict(game.options or {}))
    offered.follow_up_game_id = link.follow_up_game_id if link else None
    if offered.kind == AGAIN:
        rematch = session.execute(sa.select(Rematch).where(col(Rematch.game_id) == game.id)).scalar_one_or_none()
        closed = None if rematch is not None else session.execute(
            sa.select(RematchClosure).where(col(RematchClosure.game_id) == game.id)
            .order_by(col(RematchClosure.id).desc()).limit(1)).scalar_one_or_none()
        offered.details = {"rematch": rematch, "closed": closed}
        offered.follow_up_game_id = rematch.new_game_id if rematch else None
    return offered


def template(game: Game, offered: FollowUp) -> str:
    """The template (without its suffix) that draws the offer: the adapter's own, or play-again's."""
    own = adapter(game.name).follow_up_template
    return "play/_again" if offered.kind == AGAIN or own is None else own


def campaign_link(session: Session, game_id: int) -> CampaignGame | None:
    return session.exec(select(CampaignGame).where(col(CampaignGame.game_id) == game_id)).first()
