"""One root for every error the service answers with a 4xx: not found, conflict (a stale position among
them), invalid, forbidden, gone, too many (a limit).  Each carries a message for people and a page title; the web maps them
to HTTP in one place (service/web/errors.py), the command line prints the message."""

from __future__ import annotations

from typing import Any, ClassVar

import engine
from service.lang import N_


class RiftpostError(Exception):
    """Something a person asked for that cannot be done, said in words fit to show them."""

    status: ClassVar[int] = 400
    default_title: ClassVar[str] = N_("That did not work")

    def __init__(self, message: str, title: str | None = None):
        super().__init__(message)
        self.message = message
        self.title = title or self.default_title


class NotFound(RiftpostError, LookupError):
    status = 404
    default_title = N_("Not found")


class Conflict(RiftpostError):
    """The request clashes with the current state of things (already done, being done)."""

    status = 409


class Invalid(RiftpostError, ValueError):
    """Well-formed, but not acceptable (bad settings, a tampered choice)."""

    status = 422


class BadRequest(RiftpostError, ValueError):
    """Malformed input (a parameter that is not a number, a tampered link)."""

    status = 400


class Forbidden(RiftpostError):
    status = 403


class Gone(RiftpostError):
    status = 410


class TooMany(RiftpostError):
    """A limit on how often something may be done was reached: 429, with `retry_after` seconds (the
    Retry-After header) until it may be done again."""

    status = 429
    default_title = N_("Too many requests")

    def __init__(self, message: str, retry_after: int, title: str | None = None):
        super().__init__(message, title)
        self.retry_after = max(1, int(retry_after))


class GameNotFound(NotFound):
    default_title = N_("No such game")

    def __init__(self, game_id: Any):
        super().__init__(f"there is no game {game_id}")
        self.game_id = game_id


class StaleState(Conflict):
    """The game moved on since the caller looked at it (its expected seq is not the current one)."""

    def __init__(self, game_id: int, expected_seq: int, current_seq: int | None = None):
        super().__init__(N_("the game moved on since this page or link was made"))
        self.game_id = game_id
        self.expected_seq = expected_seq
        self.current_seq = current_seq


class IllegalMoveAt(engine.IllegalMove):
    """An illegal move of several sent together (service.play.handle takes a whole turn): the engine's
    reason and code, and `index`, the place of the first illegal move in the list (from 0).  It is an
    engine.IllegalMove, so whoever catches those catches it too."""

    def __init__(self, index: int, reason: str, code: str = "illegal", move: Any = None):
        super().__init__(reason, code, move)
        self.index = index

    @classmethod
    def of(cls, exc: engine.IllegalMove, index: int) -> IllegalMoveAt:
        return cls(index, exc.reason, exc.code, exc.move)


LINK_TITLE = N_("This link cannot be used")


def bad_link(message: str = N_("This link is not valid.")) -> BadRequest:
    return BadRequest(message, LINK_TITLE)
