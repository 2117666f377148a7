"""A player's link tokens as their emails carry them (their row's key and generation), for tests that
hold only a player's id or row.  Tests that mean a link of another key or generation make it with
service/links.py themselves."""

from __future__ import annotations

from service import links, store
from service.store import get_engine, read_session
from service.store.models import Player


def player(player_id: int) -> Player:
    with read_session(get_engine()) as session:
        return store.get_player(session, player_id)


def _row(who: int | Player) -> Player:
    return player(who) if isinstance(who, int) else who


def page(who: int | Player) -> str:
    """The token of the player's page link (`/p/<token>`)."""
    row = _row(who)
    return links.player_token(row.id, row.row_key, row.link_generation)


def move(who: int | Player, seq: int, chosen: dict) -> str:
    """The token of a move link (`/m/<token>`)."""
    row = _row(who)
    return links.move_token(row.id, row.row_key, seq, chosen, row.link_generation)


def unsubscribe(who: int | Player) -> str:
    """The token of the player's unsubscribe link (`/u/<token>`)."""
    row = _row(who)
    return links.unsubscribe_token(row.id, row.row_key, row.link_generation)
