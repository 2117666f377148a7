"""Shared by the Beyond the Rift service tests: a deterministic policy that ends a scenario quickly, and
the card ids each seat may not see."""

from __future__ import annotations

import re

import engine

RULES = engine.get("beyond-the-rift")
# Physical card ids: hero cards (BV12a), wounds (W02), fatigue (F04), Response (R18), terrain (T3a),
# enemies (C2c), items (IT-...); only those in a hidden place at the time are checked.
CARD_ID = re.compile(r"\b(?:IT-[A-Za-z0-9-]+|[A-Z]{1,3}\d{1,3}[a-z]?)\b")


def policy(state: dict, seat: int, legal: list[dict]) -> dict:
    """Attack while possible, finish every follow-up at once, never aid, defend by the standing plan,
    then DONE: tutorials end in a handful of rounds (usually a hero dies), never stalls."""
    types = {move["type"] for move in legal}
    for want in ("resolve", "no_aid", "plan", "pass", "finish", "keep", "choose", "spend", "attack", "done",
                 "cancel"):
        if want in types:
            return next(move for move in legal if move["type"] == want)
    return legal[0]


def hidden_from(state: dict, seat: int | None) -> set[str]:
    """Every other hero's hand, every hero's deck, and the face-down piles."""
    hidden = set()
    for s, hero in enumerate(state["heroes"]):
        hidden |= set(hero["deck"])
        if s != seat:
            hidden |= set(hero["hand"])
    for name in ("enemy", "terrain", "response", "wound", "fatigue"):
        hidden |= set(state["piles"][name])
    return hidden


def leaks(text: str, state: dict, seat: int | None) -> set[str]:
    return set(CARD_ID.findall(text)) & hidden_from(state, seat)
