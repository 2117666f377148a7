"""A signed-in person's address book: the people they played with (service/views/my_games.py
`co_players`), each as a reference a browser can hold, "new game with Bo", without ever seeing Bo's
address.

A reference (service/links.py `co_player_token`) names one past seat of Bo's (player id and row key),
signed under a salt of the signed-in address's own: it is good for that person only.  The start form
(service/web/games.py) sends it back and the server turns it into the seat's address, again only for
the signed-in person it was made for, and only while the seat is in a game both played (a reference
says nothing about anyone else, and a forged one names nobody).  The person never types, nor sees,
the address; what the form says back about it (a repeated seat, a cap reached) names Bo instead.
"""

from __future__ import annotations

from collections.abc import Iterable

import sqlalchemy as sa
from sqlmodel import Session, col

from service import links
from service.errors import Forbidden
from service.names import player_name
from service.store.inboxes import key
from service.store.models import Player
from service.views.my_games import CoPlayer

NOT_PLAYED_WITH = ("You can start a game from your games page only with someone you played with. "
                   "Type their email address instead.")


def reference(me: str, co: CoPlayer) -> str:
    """The "new game with" reference of a co-player, for the signed-in address `me`."""
    return links.co_player_token(key(me), co.player_id, co.row_key)


def resolve(session: Session, me: str, token: str) -> CoPlayer:
    """The co-player a reference names (name and address, for the server only), if it was made for `me`
    (400 otherwise) and `me` played a game with that seat (403 otherwise: the same words whether the
    seat exists or not)."""
    me = key(me)
    link = links.read_co_player_token(me, token)
    seat = session.get(Player, link.player_id)
    if seat is None or seat.row_key != link.key or seat.consent != "" or seat.address_key == me:
        raise Forbidden(NOT_PLAYED_WITH, "Not someone you played with")
    mine = session.execute(sa.select(col(Player.id)).where(
        col(Player.game_id) == seat.game_id, col(Player.address_key) == me, col(Player.consent) == "").limit(1))
    if mine.first() is None:
        raise Forbidden(NOT_PLAYED_WITH, "Not someone you played with")
    return CoPlayer(player_name(seat.name, seat.seat), seat.email, seat.id, seat.row_key)


def unnamed(words: str, known: Iterable[CoPlayer]) -> str:
    """`words` (a message the form shows) with each known co-player's address put as their name."""
    for co in known:
        words = words.replace(co.address, co.name)
    return words
