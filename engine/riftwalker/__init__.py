"""Riftwalker (2–4 players) behind the engine contract; registered as "riftwalker".

Rules: ../shared/rules/riftwalker.md (digest §1–8, element cards §2, our rift set §9.4 in the power
language of §9.3, house rules H1–H9).  The cards are data (cards.json), powers are interpreted
(powers.py), and a turn is a sequence of small decisions (flow.py).

Timeout default (H8), `Riftwalker.default_move`: in the Element step flip the first slot in reading
order (top-left); skip the Rift step and the Burst step (and, inside a power, decline every
optional choice — where a choice is forced, take the first legal one; an opponent forced to
discard gives the first card of their hand); in the Refresh step discard nothing (draw up to 3).
"""

from engine.core import register

from .game import Riftwalker

GAME = register(Riftwalker())

__all__ = ["GAME", "Riftwalker"]
