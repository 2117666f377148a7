"""The toy game's case for the engine contract suite (tests/engine/contract.py)."""

from __future__ import annotations

from tests.engine.contract import ContractCase
from tests.service.toygame import NAME


def hidden(state: dict, seat: int | None) -> set[str]:
    """Every card in the deck, and the cards in the other seats' hands."""
    out = set(state["deck"])
    for owner, hand in enumerate(state["hands"]):
        if owner != seat:
            out |= set(hand)
    return out


CASE = ContractCase(game=NAME, setups=[(2, {}), (3, {"target": 12})], hidden=hidden, games_per_setup=3)
