"""Games with talk for the talk tests: one of each game and mode, its seats by number."""

from __future__ import annotations

from service import links, store
from service.play import new_game
from service.store import get_engine, read_session
from service.store.models import Player

ADDRESSES = ["ann@example.org", "bob@example.org", "cyd@example.org", "dee@example.org"]
NAMES = ["Ann", "Bob", "Cyd", "Dee"]


def players(count: int) -> list[tuple[str, str]]:
    return list(zip(NAMES[:count], ADDRESSES[:count]))


def riftforce_team(count: int = 4) -> int:
    """Riftforce team play: with 4 seats, 0 & 2 against 1 & 3; with 3, 0 & 2 against seat 1 alone."""
    return new_game("riftforce", players(count), {"mode": "team"}, seed=5)


def riftforce_duel() -> int:
    return new_game("riftforce", players(2), seed=5)


def riftforce_solo() -> int:
    return new_game("riftforce", players(1), {"mode": "solo"}, seed=5)


def riftwalker() -> int:
    return new_game("riftwalker", players(2), seed=5)


def beyond(count: int = 3) -> int:
    return new_game("beyond-the-rift", players(count), {"scenario": "tutorial"}, seed=5)


def seat(game_id: int, number: int) -> Player:
    with read_session(get_engine()) as session:
        player = next(p for p in store.players_of(session, game_id) if p.seat == number)
        session.expunge(player)
        return player


def token(game_id: int, number: int) -> str:
    player = seat(game_id, number)
    return links.player_token(player.id, player.row_key, player.link_generation)
