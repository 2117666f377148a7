"""The engine's errors, shared by the contract (engine/core.py) and the kit (engine/kit.py)."""

from __future__ import annotations

from typing import Any


class UnknownGame(KeyError):
    """No game is registered under that name."""

    def __str__(self) -> str:  # KeyError quotes its argument; we want a sentence
        return f"unknown game: {self.args[0]!r}" if self.args else "unknown game"


class IllegalMove(ValueError):
    """A move the rules do not allow (or that is malformed), with a human reason and a stable code.

    `code` is machine-readable and stable across versions (templates and tests key on it);
    `reason` is a sentence fit to show to the player.
    """

    def __init__(self, reason: str, code: str = "illegal", move: Any = None):
        super().__init__(reason)
        self.reason = reason
        self.code = code
        self.move = move
