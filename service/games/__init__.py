"""Per-game adapters, looked up by the engine's name: everything the service does differently for one
game (its board template, start form fieldset, command-line shorthands, result words, hand words,
campaign follow-up) lives in `service/games/<game>.py`, so the rest of the service never names a game.
A game without an adapter of its own (a new one, the tests' toy game) gets the defaults of
`base.Adapter`."""

from __future__ import annotations

import engine
from service.games import beyond_the_rift, riftforce, riftwalker
from service.games.base import Adapter, FollowUp, FormData, card_words

_ADAPTERS: dict[str, Adapter] = {a.name: a for a in (riftforce.ADAPTER, riftwalker.ADAPTER, beyond_the_rift.ADAPTER)}


def register(adapter: Adapter) -> Adapter:
    _ADAPTERS[adapter.name] = adapter
    return adapter


def adapter(name: str) -> Adapter:
    """The adapter of the game registered under `name` (raises engine.UnknownGame for no such game)."""
    found = _ADAPTERS.get(name)
    if found is None:
        engine.get(name)  # an unknown name is an error, a known game without an adapter gets the defaults
        found = _ADAPTERS.setdefault(name, Adapter(name))
    return found


def every() -> list[Adapter]:
    """An adapter per playable game, in listing order."""
    return sorted((adapter(name) for name in engine.names()), key=lambda a: (a.listing_order, a.name))


__all__ = ["Adapter", "FollowUp", "FormData", "adapter", "card_words", "every", "register"]
