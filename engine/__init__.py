"""Riftpost's game engines: pure rules, no I/O.  See engine/core.py for the contract.

    import engine
    game = engine.get("riftforce")
    events = game.start(players=2, options={}, seed=42)
    state = engine.replay(game, events)
"""

from engine.core import (
    Event,
    Game,
    IllegalMove,
    Move,
    State,
    UnknownGame,
    View,
    get,
    names,
    register,
    replay,
)

__all__ = [
    "Event", "Game", "IllegalMove", "Move", "State", "UnknownGame", "View",
    "get", "names", "register", "replay",
]
