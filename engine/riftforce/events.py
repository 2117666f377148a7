"""Events as others read them: brought up to date from an older `rules_version` (`upcast`), as a
seat may see them (`redact_event`), and the seats they touch (`seats_affected`).

Rules versions:
- "1": every team and solo event but `setup` carried `"mode"`, so words could be made without the
  state; the base draft's dealt summoners were public.
- "2": no `"mode"` (words come from the state); house rules Q15 (Plant aims where an enemy is) and
  Q16 (the base draft's dealt summoners stay secret until the draft ends); solo events naming
  the trainer's seat carry `"trainer_side": true` and team `score` events their team's `seats`
  (both for `seats_affected`, which gets no state).
"""

from __future__ import annotations

from typing import Any

Event = dict[str, Any]

RULES_VERSION = "2"


def upcast(e: Event, rules_version: str) -> Event:
    """`e` as this version writes it (never mutated).  A rules_version "1" team `score` event keeps
    no `seats` (the event alone cannot tell 3 players from 4): `seats_affected` falls back."""
    if rules_version == RULES_VERSION or "mode" not in e or e["type"] == "setup":
        return e
    new = {k: v for k, v in e.items() if k != "mode"}
    if e["mode"] == "solo" and names_the_trainer(new):
        new["trainer_side"] = True
    return new


def names_the_trainer(e: Event) -> bool:
    """A solo event about the trainer's side: its seat, the dealer of damage, the discard pile, or
    a bot captured by the player's Music (effects.Effects marks such events)."""
    return e.get("seat") == 1 or e.get("by_seat") == 1 or e.get("pile") == 1 or e["type"] == "captured"


# ---- the seats an event touches ---------------------------------------------------------------------

_NOBODY = frozenset({"setup", "pending", "turn", "action_end", "plan", "plan_end", "plans",
                     "plans_recycled"})
_SEAT_KEYS = ("seat", "owner", "pile", "by_seat")


def seats_affected(e: Event) -> list[int]:
    """The seats whose cards, elementals or score `e` changes, and those its sentence addresses as
    "you" (the dealer of damage, a captured card's owner, the seat that takes the first turn,
    the winners).  The solo trainer (seat 1 of a solo game) is not a seat."""
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
        seats = set(e["seats"]) if "seats" in e else ({0, 2} if e["team"] == 0 else {1})
    else:
        seats = {e[k] for k in _SEAT_KEYS if k in e}
        if t == "captured":
            seats.add(e.get("owner", 1 - (e["seat"] & 1)))
    if e.get("trainer_side"):
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
