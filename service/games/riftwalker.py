"""Riftwalker in the service: its board, and its hand in words.  It has no start options."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from service.games.base import Adapter, card_words


class Riftwalker(Adapter):
    listing_order = 2
    def hand_words(self, view: Mapping[str, Any]) -> list[str] | None:
        hand = view.get("hand")
        return [card_words(card) for card in hand] if isinstance(hand, list) else None


ADAPTER = Riftwalker("riftwalker", board_template="games/riftwalker/board.html")
