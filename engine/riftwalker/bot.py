"""What a Riftwalker bot may know (determinize) and a cheap worth of a position (evaluate).

Hidden from a seat (redact.py, views.py): the rift deck, other hands, face-down cards beneath a rift
unless the seat put them there or owns the host rift, the cards another player is looking at in a
search, and the element deck below its top card.  Rift cards hidden from the seat are one pool
redealt among those places; the element cards below the top are reshuffled among themselves.
"""

from __future__ import annotations

import random

from engine.bots import redeal

from .scoring import totals
from .state import THRESHOLD, copy_state


def determinize(state: dict, seat: int, rng: random.Random) -> dict:
    c = copy_state(state)
    n = c["players"]
    slots: list[list[str]] = [c["rdeck"]]
    others = [p for p in range(n) if p != seat]
    slots += [c["hands"][p] for p in others]
    searcher = c["turn"]["seat"] if c["turn"] else None
    hide_limbo = bool(c["limbo"]) and searcher != seat
    if hide_limbo:
        slots.append(c["limbo"])
    hidden_beneath = []  # (beneath entry) for face-down cards the seat may not see
    for owner in range(n):
        for pile in (c["explored"][owner], c["scored"][owner]):
            for rift in pile:
                for b in rift["beneath"]:
                    if b["face"] != "up" and seat not in (b["by"], owner):
                        hidden_beneath.append(b)
    slots.append([b["id"] for b in hidden_beneath])
    dealt = redeal(rng, slots)
    c["rdeck"] = dealt[0]
    for p, hand in zip(others, dealt[1:1 + len(others)]):
        c["hands"][p] = hand
    if hide_limbo:
        c["limbo"] = dealt[1 + len(others)]
    for b, cid in zip(hidden_beneath, dealt[-1]):
        b["id"] = cid  # copy_state copied each beneath entry
    if len(c["edeck"]) > 2:
        c["edeck"] = c["edeck"][:1] + redeal(rng, [c["edeck"][1:]])[0]
    return c


def evaluate(state: dict, seat: int) -> float:
    """Riftwalker points (scored rifts with their bonuses) against the best other player's, and a
    little for rifts explored (the next to score), squashed into [0, 1]."""
    points = totals(state)
    n = state["players"]
    explored = [len(p) for p in state["explored"]]
    mine = points[seat] + 1.5 * explored[seat]
    best = max(points[p] + 1.5 * explored[p] for p in range(n) if p != seat)
    x = (mine - best) / max(1, THRESHOLD[n] // 2)
    return 0.5 + 0.5 * x / (abs(x) + 3)
