"""Per-game adapters, looked up by the engine's name: everything the service does differently for one
game (its board template and board words, start form fieldset, command-line shorthands, result words,
hand words, campaign follow-up) lives in `service/games/<game>.py`, so the rest of the service never
names a game.  A game without an adapter of its own (a new one, the tests' toy game) gets the defaults
of `base.Adapter`.  An adapter module is imported on first lookup: a process that serves one game
never loads the others' engines."""

from __future__ import annotations

import importlib

import engine
from service.games.base import Adapter, FollowUp, FormData, GameCatalog, Mode, card_words

# engine name -> the module whose ADAPTER serves it
MODULES = {
    "riftforce": "service.games.riftforce",
    "riftwalker": "service.games.riftwalker",
    "beyond-the-rift": "service.games.beyond_the_rift",
}
_ADAPTERS: dict[str, Adapter] = {}


def adapter(name: str) -> Adapter:
    """The adapter of the game registered under `name` (raises engine.UnknownGame for no such game)."""
    found = _ADAPTERS.get(name)
    if found is None:
        engine.get(name)  # an unknown name is an error, a known game without an adapter gets the defaults
        module = MODULES.get(name)
        found = importlib.import_module(module).ADAPTER if module else Adapter(name)
        _ADAPTERS[name] = found
    return found


def every() -> list[Adapter]:
    """An adapter per playable game, in listing order."""
    return sorted((adapter(name) for name in engine.names()), key=lambda a: (a.listing_order, a.name))


__all__ = ["Adapter", "FollowUp", "FormData", "GameCatalog", "Mode", "adapter", "card_words", "every"]
