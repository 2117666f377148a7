"""What a Riftforce bot may know (determinize) and a cheap worth of a position (evaluate).

Hidden from a seat (view.py): other hands, every draw pile's order (its own too), discard piles below
the top card, the base draft's removed summoner and, until the draft ends, the summoner dealt to the
other player; in solo the plan pile below its top.  Each seat's cards are of its own guilds, so each
seat's unseen cards are redealt among that seat's hidden places only.
"""

from __future__ import annotations

import random

from engine.bots import redeal

from . import solo
from .cards import GUILD, NUMBER
from .state import State, controls, copy_state


def determinize(s: State, seat: int, rng: random.Random) -> State:
    c = copy_state(s)
    for p in range(len(c["deck"])):
        hand = c["hand"][p] if p != seat else []
        pile = c["discard"][p]
        below = pile[:-1]
        hand2, deck2, below2 = redeal(rng, [hand, c["deck"][p], below])
        if p != seat:
            c["hand"][p] = hand2
        c["deck"][p] = deck2
        c["discard"][p] = below2 + pile[-1:]
    d = c["draft"]
    if d is not None and "quota" not in d and c["options"].get("guilds") == "base":
        # The unseen removal and the other player's dealt summoner (house rule Q16) trade places.
        other = 1 - seat
        removed, dealt = redeal(rng, [d["removed"], [d["dealt"][other]]])
        d["removed"] = removed
        d["dealt"] = d["dealt"][:]
        d["dealt"][other] = dealt[0]
        d["picks"][other] = dealt + d["picks"][other][1:]
    if c["mode"] == "solo" and len(c.get("plans", [])) > 1:
        # The pile's top is face up; below it the kinds keep their places (3 attack plans, then a
        # control plan), the cards of each kind are unseen.
        rest = c["plans"][1:]
        kinds = [solo.PLANS[p]["kind"] for p in rest]
        dealt_by_kind = {k: redeal(rng, [[p for p in rest if solo.PLANS[p]["kind"] == k]])[0] for k in set(kinds)}
        c["plans"] = c["plans"][:1] + [dealt_by_kind[k].pop() for k in kinds]
    return c


def evaluate(s: State, seat: int) -> float:
    """Riftforce points and what is on the way to them, for `seat`'s side, squashed into [0, 1]:
    the score gap; half a point per location held more than the other side (a Check & Draw, or in
    solo the trainer's control plan, would score them); a small worth per elemental on the board;
    and the damage on each elemental as the share of its health (its number) gone, times what its
    destruction would score (a Crystal 2), at 0.6 since the kill is not yet made."""
    side = seat & 1
    gap = s["score"][side] - s["score"][1 - side]
    held = len(controls(s, side)) - len(controls(s, 1 - side))
    board = 0
    hurt = 0.0
    damage = s["damage"]
    solo = s["mode"] == "solo"
    for sides in s["board"]:
        board += len(sides[side]) - len(sides[1 - side])
        for who in (0, 1):
            for card in sides[who]:
                d = damage.get(card)
                if d:
                    crystal = GUILD[card] == "crystal" and not (solo and who == 1)  # a Crystal bot: no bonus
                    worth = d / NUMBER[card] * (2 if crystal else 1)
                    hurt += worth if who != side else -worth
    x = gap + 0.5 * held + 0.15 * board + 0.6 * hurt
    return 0.5 + 0.5 * x / (abs(x) + 4)
