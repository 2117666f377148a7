"""Events as others read them: brought up to date from an older `rules_version` (`upcast`), as a
seat may see them (`redact_event`), and the seats they touch (`seats_affected`).

Rules versions:
- "1": every team and solo event but `setup` carried `"mode"`, so words could be made without the
  state; the base draft's dealt summoners were public.
- "2": no `"mode"` (words come from the state); house rules Q15 (Plant aims where an enemy is) and
  Q16 (the base draft's dealt summoners stay secret until the draft ends).
- "3": solo (rules §11 setup): the 6 summoners are offered from all 18 and the trainer's 4 guilds
  come after the keep, from the 14 not kept (new events `trainer_draft` and `give`; the `draft`
  event no longer names them).  Events of a "2" game need no change: its `draft` event names the
  trainer's guilds, and the engine plays such a game on as it was set up (solo.after_draft).
"""

from __future__ import annotations

from typing import Any

Event = dict[str, Any]

RULES_VERSION = "3"


def upcast(e: Event, rules_version: str) -> Event:
    """`e` as this version writes it (never mutated)."""
    if rules_version == RULES_VERSION or "mode" not in e or e["type"] == "setup":
        return e
    return {k: v for k, v in e.items() if k != "mode"}


# ---- the seats an event touches ---------------------------------------------------------------------

_NOBODY = frozenset({"setup", "pending", "turn", "action_end", "plan", "plan_end", "plans",
                     "plans_recycled"})
_SEAT_KEYS = ("seat", "owner", "pile", "by_seat")


def seats_affected(e: Event, state: dict[str, Any] | None) -> list[int]:
    """The seats whose cards, elementals or score `e` changes, and those its sentence addresses as
    "you" (the dealer of damage, a captured card's owner, the seat that takes the first turn,
    the winners).  `state` is the state `e` was applied to: the solo trainer (seat 1 of a solo
    game) is not a seat, and a team's score touches its players (seat 1 alone with 3 players)."""
    t = e["type"]
    if t in _NOBODY:
        return []
    if t == "draft":
        seats = set(range(len(e["dealt"]))) | {e["first"]}
    elif t == "draft_end":
        seats = {e["start"]}
    elif t == "game_over":
        seats = set(e["winners"])
    elif t == "score" and "team" in e:
        players = state["players"] if state is not None else 4
        seats = set(range(e["team"], players, 2))
    else:
        seats = {e[k] for k in _SEAT_KEYS if k in e}
        if t == "captured":
            seats.add(e.get("owner", 1 - (e["seat"] & 1)))
    if state is not None and state["mode"] == "solo":
        seats.discard(1)
    return sorted(seats)


# ---- redaction --------------------------------------------------------------------------------------

def redact_event(e: Event, viewer: int | None) -> Event:
    """Remove what `viewer` may not see; the original event is left untouched."""
    t = e["type"]
    if t in ("deck", "reshuffle", "plans"):  # draw piles, and the plan pile below its top card
        return {**e, "order": None}
    if t == "draft" and e.get("removed"):
        # Only the base draft removes a summoner unseen; there the dealt ones are secret too (Q16).
        dealt = [g if seat == viewer else None for seat, g in enumerate(e["dealt"])]
        return {**e, "removed": None, "dealt": dealt}
    if t == "draw" and viewer != e["seat"]:
        return {**e, "cards": None}
    return e
