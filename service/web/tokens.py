"""The player a page's signed link names (service/links.py): 400 for a tampered link, 410 for an
expired one or one of an earlier link generation (the player asked for a fresh link since), 404 for
one of another database, or of a row a restore rolled back (its id now another row's: the key differs)."""

from __future__ import annotations

from typing import TypeVar

from flask_babel import gettext
from sqlmodel import Session

from service import links, store
from service.errors import Gone, NotFound
from service.lang import N_
from service.people.access import masked
from service.play import handover
from service.store import current
from service.store.current import AnyPlayer, PlayerRow
from service.store.db import get_engine, unbound
from service.store.models import Player

REPLACED = N_("This link was replaced")
NO_GAME, CANNOT = N_("This link belongs to no game here."), N_("This link cannot be used")

Link = links.PlayerLink | links.MoveLink


def current_player(session: Session, link: Link) -> Player:
    """The player (an ORM row of `session`, to change), if the link still stands for them."""
    return _standing(store.get_player(session, link.player_id), link)


def seat_of(link: Link) -> PlayerRow:
    """The player as a plain row read in a connection of its own, outside any transaction (for pages
    and moves: they change no player), if the link still stands for them."""
    with unbound(get_engine()) as conn:
        player = current.player(conn, link.player_id)
    if player is None:
        raise NotFound(NO_GAME, CANNOT)
    return _standing(player, link)


def table_of(link: Link) -> tuple[PlayerRow, list[PlayerRow]]:
    """`seat_of`, with every seat of the player's game, read in the same one statement."""
    with unbound(get_engine()) as conn:
        player, seats = current.table_of(conn, link.player_id)
    if player is None:
        raise NotFound(NO_GAME, CANNOT)
    return _standing(player, link), seats


P = TypeVar("P", Player, PlayerRow)


def _standing(player: P, link: Link) -> P:
    # The key first: a row that is not the link's (its id reused after a restore) is no game of the
    # link's, and the "replaced" answer would show its address.
    if link.key != player.row_key:
        if handover.handed_over(player.id, link.key):
            raise Gone(N_("The other players handed this seat over to someone else after it missed two deadlines, "
                          "so its links no longer work."), N_("This seat was handed over"))
        raise NotFound(NO_GAME, CANNOT)
    if link.generation != player.link_generation:
        raise Gone(gettext("This link was replaced by a fresher one: it was sent to %(address)s. "
                           "Open your game from that newer email.", address=masked(player.email)), REPLACED)
    return player


def player_of(session: Session, token: str) -> Player:
    return current_player(session, links.read_player_token(token))


def load_player(token: str) -> PlayerRow:
    """The player a page link stands for, read on its own (for routes that change no player)."""
    return seat_of(links.read_player_token(token))


def page_token(player: AnyPlayer) -> str:
    """The player's page token of their current generation."""
    return links.player_token(player.id, player.row_key, player.link_generation)
