"""A deterministic move policy for Riftforce team and solo games in service tests: it ends games in
a bounded number of decisions (a 4-player team game in about 60, a solo game, which the trainer
usually wins, in about 45), so end-to-end games by email stay short."""

from __future__ import annotations

import engine

RULES = engine.get("riftforce")


def fast(state: dict, seat: int, moves: list[dict]) -> dict:
    """The first draft pick (solo: also the first guild that may go to the trainer); follow-up
    decisions ended at once ("end_play", "done") or the first option (the trainer's bots, choices
    inside abilities); Check & Draw when it scores or the hand
    is nearly empty; else a play into the emptiest location of the seat's own zone."""
    if state["pending"] is not None:
        return next((m for m in moves if m["type"] in ("end_play", "done")), moves[0])
    if moves[0]["type"] in ("pick", "give"):
        return moves[0]
    check = [m for m in moves if m["type"] == "check"]
    me = RULES.view(state, seat)["players"][seat if state["mode"] == "team" else 0]
    if check and (me["controls"] or len(state["hand"][seat]) <= 2):
        return check[0]
    plays = [m for m in moves if m["type"] == "play"]
    if not plays:
        return check[0] if check else moves[0]
    side = seat & 1
    zone = state["zones"][seat] if state["mode"] == "team" else range(len(state["board"]))

    def rank(m):
        sides = state["board"][m["loc"]]
        return (m["loc"] not in zone, bool(sides[1 - side]), bool(sides[side]), m["loc"])

    return min(plays, key=rank)
