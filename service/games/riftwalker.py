"""Riftwalker in the service: its board, and its hand in words.  It has no start options."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.riftwalker.cards import CARDS, WILD
from engine.riftwalker.messages import STEP_NAMES, step_name
from service import lang
from service.games import riftwalker_text
from service.games.base import Adapter, GameCatalog
from service.games.riftwalker_catalog import CATALOG
from service.lang import N_

# The icon of the sprite (static/board/riftwalker-icons.svg) and the colour class
# (static/board/riftwalker.css: .el-<key>) of an element, and its English word (the board writes the
# reader's: the catalog's term "element", service/games/riftwalker_catalog.py).
ELEMENT_KEYS = {element: element.lower() for element in CARDS.elements} | {WILD: "any"}
ELEMENT_WORDS = {element: element for element in CARDS.elements} | {WILD: "Any"}


def element_key(element: str) -> str:
    return ELEMENT_KEYS[element]


class Riftwalker(Adapter):
    listing_order = 2
    summary = N_("Take an element from a shared 3 by 3 grid each turn to explore the rifts in your hand, then "
                 "burst them for points when three of an element line up.")
    rules_template = "games/riftwalker/rules.html"
    catalog: GameCatalog | None = CATALOG
    free_options = False  # no options at all
    board_translated = True  # its board and text board in the reader's language (issue #26)
    # A card of one's own hand discarded or tucked face down.
    preview_own_events = frozenset({"discard", "tuck"})

    def board_words(self, view: Mapping[str, Any]) -> dict[str, Any]:
        """The steps' names as messages (the board words them, and every card, element and rule, with
        its `words`: the reader's language), and each element's colour class and icon."""
        return {"step_names": {step: step_name(step) for step in STEP_NAMES}, "element_keys": ELEMENT_KEYS}

    def text_board(self, view: Mapping[str, Any], words: Any) -> str | None:
        """The plain-text board in the reader's language (service/games/riftwalker_text.py); English keeps
        the engine's `render_text`, as before."""
        if words is None or words.language == lang.ENGLISH:
            return None
        return riftwalker_text.render(view, words)

    view_has_hand = True
    # A turn in a first line: the rift explored or burst, not the element step, draws and discards.
    minor_events = frozenset({"turn", "flip", "grow", "place", "swap", "draw", "deal", "take", "look", "discard",
                              "bottom"})


ADAPTER = Riftwalker("riftwalker", board_template="games/riftwalker/board.html")
