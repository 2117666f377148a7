"""The player a page's signed link names (service/links.py): 400 for a tampered link, 410 for an
expired one or one of an earlier link generation (the player asked for a fresh link since), 404 for
one of another database."""

from __future__ import annotations

from typing import TypeVar

from sqlmodel import Session

from service import links, store
from service.clocks.access import masked
from service.errors import Gone, NotFound
from service.store import current
from service.store.current import AnyPlayer, PlayerRow
from service.store.db import get_engine, single_reads
from service.store.models import Player

REPLACED = "This link was replaced"


def current_player(session: Session, player_id: int, generation: int) -> Player:
    """The player (an ORM row of `session`, to change), if a link of this generation still stands for them."""
    return _standing(store.get_player(session, player_id), generation)


def seat_of(player_id: int, generation: int) -> PlayerRow:
    """The player as a plain row read in a connection of its own (for pages and moves: they change
    no player), if a link of this generation still stands for them."""
    with single_reads(get_engine()).connect() as conn:
        player = current.player(conn, player_id)
    if player is None:
        raise NotFound("This link belongs to no game here.", "This link cannot be used")
    return _standing(player, generation)


P = TypeVar("P", Player, PlayerRow)


def _standing(player: P, generation: int) -> P:
    if generation != player.link_generation:
        raise Gone(f"This link was replaced by a fresher one: it was sent to {masked(player.email)}. "
                   "Open your game from that newer email.", REPLACED)
    return player


def player_of(session: Session, token: str) -> Player:
    link = links.read_player_token(token)
    return current_player(session, link.player_id, link.generation)


def load_player(token: str) -> PlayerRow:
    """The player a page link stands for, read on its own (for routes that change no player)."""
    link = links.read_player_token(token)
    return seat_of(link.player_id, link.generation)


def page_token(player: AnyPlayer) -> str:
    """The player's page token of their current generation."""
    return links.player_token(player.id, player.link_generation)
