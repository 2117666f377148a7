"""Driving seeded games for the history tests, and knowing what is hidden at each position."""

from __future__ import annotations

import random
import re

from service import store
from service.play import new_game
from service.store import get_engine, read_session
from tests import tokens
from tests.service.helpers import current, play_one

PLAYERS = [("Ann", "ann@example.org"), ("Bob", "bob@example.org")]
# Riftforce card ids: "<guild>-<number><copy letter>" (engine/riftforce/VIEW.md).
CARD_ID = re.compile(r"(?<![\w-])([a-z]+-[567][a-d])(?![\w-])")


def riftforce_game(min_seq: int = 0, *, to_end: bool = False, seed: int = 11, moves_seed: int = 5) -> int:
    """A seeded duel played with seeded random choices until it has `min_seq` events (or ends)."""
    game_id = new_game("riftforce", PLAYERS, seed=seed)
    choose = random.Random(moves_seed)
    for _ in range(20000):
        game, _ = current(game_id)
        if game.status != "active" or (not to_end and game.seq >= min_seq):
            break
        play_one(game_id, lambda moves: choose.choice(moves))
    return game_id


def state_at(game_id: int, seq: int) -> dict:
    with read_session(get_engine()) as session:
        game = store.get_game(session, game_id)
        state, _ = store.load_state(session, game, seq)
    return state


def hidden_from(state: dict, viewer: int | None) -> set[str]:
    """Card ids `viewer` may not see: every other seat's hand and every draw pile's order."""
    hidden: set[str] = set()
    for seat, hand in enumerate(state["hand"]):
        if seat != viewer:
            hidden.update(hand)
    for deck in state["deck"]:
        hidden.update(deck)
    return hidden


def card_ids(text: str) -> set[str]:
    return set(CARD_ID.findall(text))


def history_url(player_id: int | None, game_id: int, **params) -> str:
    base = f"/p/{tokens.page(player_id)}/history" if player_id else f"/games/{game_id}/history"
    query = "&".join(f"{key}={value}" for key, value in params.items())
    return f"{base}?{query}" if query else base


def player_ids(game_id: int) -> dict[int, int]:
    """seat -> player id (the id the player's signed link carries)."""
    with read_session(get_engine()) as session:
        return {player.seat: player.id for player in store.players_of(session, game_id)}
