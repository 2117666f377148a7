"""The working context of one `play` call: a private copy of the state plus the events so far.

Rules code never edits the state directly: it `emit`s a fact, which is applied to the working
copy at once (so later steps see it, as the rules' step-by-step resolution demands) and recorded
for the caller.  That keeps `play`'s events and `evolve` in agreement by construction.
"""

from __future__ import annotations

import random
from typing import Any

from .cards import GUILD, NUMBER
from .state import State, copy_state, evolve, locate

# House rule Q3 (rules §13): an enemy captured by Music "becomes your elemental", so when it is
# destroyed later it goes to its captor's discard pile.  False sends it back to the discard pile
# of the player who brought it (the owner of its guild) instead.
CAPTURED_CARDS_STAY_WITH_CAPTOR = True


class Effects:
    def __init__(self, state: State, rng: random.Random | None):
        self.s: State = copy_state(state)
        self.rng = rng
        self.events: list[dict[str, Any]] = []

    def emit(self, event: dict[str, Any]) -> None:
        evolve(self.s, event)
        self.events.append(event)

    # ---- readers ---------------------------------------------------------------------------------

    def stack(self, loc: int, seat: int) -> list[str]:
        return self.s["board"][loc][seat]

    def first_enemy(self, loc: int, seat: int) -> str | None:
        st = self.s["board"][loc][1 - seat]
        return st[0] if st else None

    def last_enemy(self, loc: int, seat: int) -> str | None:
        st = self.s["board"][loc][1 - seat]
        return st[-1] if st else None

    def damage_of(self, card: str) -> int:
        return self.s["damage"].get(card, 0)

    # ---- facts with consequences -------------------------------------------------------------------

    def hit(self, card: str | None, amount: int, by: str) -> bool:
        """`amount` damage to a board elemental; destroys and scores at once (house rule Q1).

        Returns True if the elemental was destroyed.  No target: the damage is lost (rules §4B).
        """
        if card is None:
            return False
        loc, side = locate(self.s, card)
        self.emit({"type": "damage", "card": card, "seat": side, "amount": amount, "by": by,
                   "by_seat": self.s["turn"]})
        if self.s["damage"].get(card, 0) < NUMBER[card]:
            return False
        pile = side
        if not CAPTURED_CARDS_STAY_WITH_CAPTOR and GUILD[card] not in self.s["guilds"][side]:
            pile = 1 - side
        self.emit({"type": "destroyed", "card": card, "seat": side, "loc": loc, "by": by,
                   "pile": pile})
        self.score(1 - side, kill_points(card, by), "kill")
        return True

    def score(self, seat: int, points: int, reason: str) -> None:
        if points > 0:
            total = self.s["score"][seat] + points
            self.emit({"type": "score", "seat": seat, "points": points, "total": total,
                       "reason": reason})

    def heal(self, card: str, amount: int | None, by: str) -> None:
        """Remove `amount` damage (None: all of it); nothing to remove, nothing happens."""
        have = self.s["damage"].get(card, 0)
        n = have if amount is None else min(amount, have)
        if n > 0:
            self.emit({"type": "heal", "card": card, "seat": self.s["turn"], "amount": n, "by": by})

    def move(self, card: str, to: int) -> None:
        """Change location, to the back of the destination stack (rules §1)."""
        loc, side = locate(self.s, card)
        self.emit({"type": "move", "card": card, "seat": side, "from": loc, "to": to})

    def draw(self, seat: int, n: int) -> int:
        """Draw up to n, reshuffling the discard pile when the pile runs out (rules §4C, Q13)."""
        drawn = 0
        while drawn < n:
            deck = self.s["deck"][seat]
            if not deck:
                pile = self.s["discard"][seat]
                if not pile:
                    break  # Q13: draw what exists, no penalty
                order = pile[:]
                self.rng.shuffle(order)
                self.emit({"type": "reshuffle", "seat": seat, "order": order, "count": len(order)})
                deck = self.s["deck"][seat]
            k = min(n - drawn, len(deck))
            self.emit({"type": "draw", "seat": seat, "cards": deck[:k], "count": k})
            drawn += k
        return drawn


def kill_points(victim: str, by: str) -> int:
    """Riftforce for destroying `victim` with `by`'s ability (rules §5).

    1 per elemental; a Crystal gives +1; a Shadow's kill +1; Acid kills give nothing at all.
    The points go to the opponent of the destroyed elemental's side, even for self-damage.
    """
    killer = GUILD[by]
    if killer == "acid":
        return 0
    points = 1
    if GUILD[victim] == "crystal":
        points += 1
    if killer == "shadow":
        points += 1
    return points
