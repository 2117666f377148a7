"""Scoring (§6): points of burst rifts, bonus at game end, and the tie-breaks."""

from __future__ import annotations

from engine import kit
from engine.core import Result

from .cards import CARDS
from .state import value


def bonus(rift, pile, piles) -> int:
    """The bonus of a scored rift (0 at orientation 0, which never happens for a burst rift)."""
    card = CARDS.rifts[rift["id"]]
    b = card.bonus
    if not b or rift["rot"] == 0:
        return 0
    per = b["values"][rift["rot"] - 1]
    when = b["when"]
    if when == "always":
        return per
    if when == "per_beneath":  # face-up and face-down cards both count
        count = len(rift["beneath"])
        return per * (count if b.get("max") is None else min(count, b["max"]))
    others = [r for r in pile if r is not rift] if b.get("other") else pile
    if when in ("score_count", "per_score"):
        count = sum(1 for r in others if b["el"] in CARDS.rifts[r["id"]].bonus_elements())
        if when == "score_count":
            return per if count >= b["min"] else 0
        return per * (count if b.get("max") is None else min(count, b["max"]))
    if when == "distinct_elements":
        seen = {e for r in pile for e in CARDS.rifts[r["id"]].bonus_elements()}
        return per if len(seen) >= b["min"] else 0
    if when == "most_burst":
        return per if all(len(pile) >= len(p) for p in piles) else 0
    raise AssertionError(when)  # pragma: no cover - cards.py validates conditions


def breakdown(state) -> list[list[dict]]:
    piles = state["scored"]
    return [[{"id": r["id"], "value": value(r), "bonus": bonus(r, pile, piles)} for r in pile]
            for pile in piles]


def totals(state) -> list[int]:
    return [sum(x["value"] + x["bonus"] for x in rows) for rows in breakdown(state)]


def result(state) -> Result | None:
    if not state["over"]:
        return None
    n = state["players"]
    points = totals(state)
    bursts = [len(p) for p in state["scored"]]  # tie-break 1: rift cards, not cards beneath
    explored = [sum(value(r) for r in pile) for pile in state["explored"]]  # tie-break 2, no bonus
    best = max(points)
    tied = [s for s in range(n) if points[s] == best]
    decided_by = "points"
    if len(tied) > 1:
        decided_by = "bursts"
        m = max(bursts[s] for s in tied)
        tied = [s for s in tied if bursts[s] == m]
    if len(tied) > 1:
        decided_by = "explored"
        m = max(explored[s] for s in tied)
        tied = [s for s in tied if explored[s] == m]
    if len(tied) > 1:
        decided_by = "shared"  # H4
    return kit.result(points, tied, points=points, bursts=bursts, explored_value=explored,
                      decided_by=decided_by, end_reason=state["end"]["reason"],
                      triggered_by=state["end"]["by"], breakdown=breakdown(state))
