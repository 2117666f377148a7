"""The leaderboard of a game and mode (service/play/ratings.py keeps the ratings), and a person's
ratings for their profile line.  Reads only.

Names: a person is named by the display name of their most recent seat (the newest players row of
their address that played: consent ""), since names are given per seat when a game starts; never their
address.  Only people with at least RATING_MIN_GAMES rated games are listed."""

from __future__ import annotations

from dataclasses import dataclass

import sqlalchemy as sa
from sqlmodel import Session, col

from service.names import player_name
from service.store.inboxes import key as inbox_key
from service.store.models import Player, Rating

PAGE_SIZE = 25


def display(mu: float, sigma: float) -> int:
    """The number people read (the same as service/play/ratings.py `display`): 1500 + 24 x ordinal."""
    return round(1500 + 24 * (mu - 3 * sigma))


@dataclass(frozen=True)
class Row:
    place: int
    name: str
    rating: int
    games: int


@dataclass(frozen=True)
class Board:
    rows: list[Row]
    page: int
    pages: int
    total: int


def latest_names(session: Session, people: list[str]) -> dict[str, str]:
    """Each person's display name: that of their newest seat that played."""
    if not people:
        return {}
    newest = (sa.select(sa.func.max(col(Player.id))).where(col(Player.address_key).in_(people), col(Player.consent) == "")
              .group_by(col(Player.address_key)))
    rows = session.execute(sa.select(col(Player.address_key), col(Player.name), col(Player.seat))
                           .where(col(Player.id).in_(newest))).all()
    return {row.address_key: player_name(row.name, row.seat) for row in rows}


def board(session: Session, game: str, mode: str, page: int, min_games: int) -> Board:
    """One page (1-based; past the end: the last) of the game and mode's leaderboard, best first."""
    listed = sa.and_(col(Rating.game) == game, col(Rating.mode) == mode, col(Rating.games) >= min_games)
    total = session.execute(sa.select(sa.func.count()).select_from(Rating).where(listed)).scalar_one()
    pages = max(1, -(-total // PAGE_SIZE))
    page = min(max(1, page), pages)
    found = session.execute(sa.select(Rating).where(listed)
                            .order_by(col(Rating.ordinal).desc(), col(Rating.games).desc(), col(Rating.person))
                            .offset((page - 1) * PAGE_SIZE).limit(PAGE_SIZE)).scalars().all()
    names = latest_names(session, [row.person for row in found])
    first = (page - 1) * PAGE_SIZE
    return Board([Row(first + index + 1, names.get(row.person, "A player"), display(row.mu, row.sigma), row.games)
                  for index, row in enumerate(found)], page, pages, total)


def ratings_of(session: Session, email: str) -> list[tuple[str, str, int, int]]:
    """The person's ratings: (game, mode, display rating, games), most played first."""
    rows = session.execute(sa.select(Rating).where(col(Rating.person) == inbox_key(email))
                           .order_by(col(Rating.games).desc(), col(Rating.game), col(Rating.mode))).scalars().all()
    return [(row.game, row.mode, display(row.mu, row.sigma), row.games) for row in rows]
