"""What a finished game offers its players next (the game's adapter says: the next part of a campaign,
a replay), with the follow-up already started, if any.  Reads only; service/play/followups.py starts it."""

from __future__ import annotations

from sqlmodel import Session, col, select

from service import store
from service.games import Adapter, FollowUp, adapter
from service.store.models import CampaignGame, Game


def offer(session: Session, game: Game) -> FollowUp | None:
    """The follow-up a finished game offers (None for games that offer none)."""
    found = adapter(game.name)
    if game.status != "finished" or type(found).follow_up is Adapter.follow_up:
        return None  # no state to load for a game whose adapter offers nothing
    state, _ = store.load_state(session, game)
    offered = found.follow_up(game.options or {}, game.result, state)
    if offered is not None:
        link = campaign_link(session, game.id)
        offered.follow_up_game_id = link.follow_up_game_id if link else None
    return offered


def campaign_link(session: Session, game_id: int) -> CampaignGame | None:
    return session.exec(select(CampaignGame).where(col(CampaignGame.game_id) == game_id)).first()
