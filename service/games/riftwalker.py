"""Riftwalker in the service: its board, and its hand in words.  It has no start options."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.riftwalker.words import pending_text
from service.games.base import Adapter


class Riftwalker(Adapter):
    listing_order = 2

    def board_words(self, view: Mapping[str, Any]) -> dict[str, Any]:
        return {"pending_text": pending_text(view)}
    view_has_hand = True
    # A turn in a first line: the rift explored or burst, not the element step, draws and discards.
    minor_events = frozenset({"turn", "flip", "grow", "place", "swap", "draw", "deal", "take", "look", "discard",
                              "bottom"})


ADAPTER = Riftwalker("riftwalker", board_template="games/riftwalker/board.html")
