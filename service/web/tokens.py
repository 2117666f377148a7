"""The player a page's signed link names (service/links.py): 400 for a tampered link, 410 for an
expired one or one of an earlier link generation (the player asked for a fresh link since), 404 for
one of another database."""

from __future__ import annotations

from sqlmodel import Session

from service import links, store
from service.clocks.access import masked
from service.errors import Gone
from service.store import read_session
from service.store.db import get_engine
from service.store.models import Player

REPLACED = "This link was replaced"


def current_player(session: Session, player_id: int, generation: int) -> Player:
    """The player, if a link of this generation still stands for them."""
    player = store.get_player(session, player_id)
    if generation != player.link_generation:
        raise Gone(f"This link was replaced by a fresher one: it was sent to {masked(player.email)}. "
                   "Open your game from that newer email.", REPLACED)
    return player


def player_of(session: Session, token: str) -> Player:
    link = links.read_player_token(token)
    return current_player(session, link.player_id, link.generation)


def load_player(token: str) -> Player:
    """The player a page link stands for, read in a session of its own (for routes that need no more)."""
    with read_session(get_engine()) as session:
        return player_of(session, token)


def page_token(player: Player) -> str:
    """The player's page token of their current generation."""
    return links.player_token(player.id, player.link_generation)
