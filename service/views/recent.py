"""What the views keep of a game per process: small least-recently-used maps, safe across a web
process's threads (the player page's positions, the history's timelines and states).

A game's log is append-only, so whatever is made from "game G up to seq N" never changes: an entry is
keyed by the game's identity in its database (`game_key`) and its seq, and a move simply makes a new
key; nothing is ever invalidated, the oldest entries just go.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable
from typing import Any, Generic, TypeVar

from sqlmodel import Session

from service.store.current import AnyGame

V = TypeVar("V")


class Recent(Generic[V]):
    """At most `size` entries, the least recently used going first."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[Hashable, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable, default: Any = None) -> Any:
        """The entry (now the most recently used), else `default`."""
        with self._lock:
            if key not in self._items:
                return default
            self._items.move_to_end(key)
            return self._items[key]

    def put(self, key: Hashable, value: V) -> None:
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()


def game_key(session: Session, game: AnyGame) -> tuple[Any, ...]:
    """A game's identity: its database, id, commitment and creation time (an id alone may name another
    game after a restore, or in another database of the same process)."""
    return (str(session.get_bind().engine.url), game.id, game.commitment, str(game.created_at))
