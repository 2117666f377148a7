"""The engine's errors, shared by the contract (engine/core.py) and the kit (engine/kit.py)."""

from __future__ import annotations

from typing import Any, TypeVar

T = TypeVar("T")


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


def present(value: T | None, invariant: str) -> T:
    """`value`, which the rules guarantee is there (an invariant of the engine, not a check of a move):
    an explicit error otherwise, since `python -OO` (the Procfile's worker, which plays bots' moves and
    timeouts) strips asserts, and a broken invariant must fail the move, not be written as an event."""
    if value is None:
        raise AssertionError(invariant)
    return value
