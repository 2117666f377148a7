"""Riftpost's game engines: pure rules, no I/O.  See engine/core.py for the contract.

    import engine
    game = engine.get("riftforce")
    events = game.start(players=2, options={}, seed=42)
    state = engine.replay(game, events)
"""

from engine.core import (
    Event,
    Game,
    Move,
    Result,
    State,
    Turn,
    View,
    get,
    names,
    register,
    replay,
)
from engine.errors import IllegalMove, UnknownGame

__all__ = [
    "Event", "Game", "IllegalMove", "Move", "Result", "State", "Turn", "UnknownGame", "View",
    "get", "names", "register", "replay",
]
