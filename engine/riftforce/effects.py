"""The working context of one `play` call: a private copy of the state plus the events so far.

Rules code never edits the state directly: it `emit`s a fact, which is applied to the working
copy at once (so later steps see it, as the rules' step-by-step resolution demands) and recorded
for the caller (engine.kit.Sink).  That keeps `play`'s events and `evolve` in agreement by
construction.
"""

from __future__ import annotations

import random

from engine import kit

from .cards import GUILD, NUMBER
from .state import State, adjacent, copy_state, evolve, locate, others, owner

# House rule Q3 (rules §13): an enemy captured by Music "becomes your elemental", so when it is
# destroyed later it goes to its captor's discard pile.  False sends it back to the discard pile
# of the player who brought it (the owner of its guild) instead.
CAPTURED_CARDS_STAY_WITH_CAPTOR = True


class Effects(kit.Sink):
    def __init__(self, state: State, rng: random.Random | None):
        super().__init__(copy_state(state), evolve)
        self._rng = rng  # None only for the trainer's dry runs (trainer._damage_dealt), which never shuffle
        self.mode = state["mode"]
        self.n = len(state["board"])
        # Solo: the trainer's bots act with seat 1 while the player (seat 0) keeps the turn.
        self.acting: int | None = None

    @property
    def rng(self) -> random.Random:
        """The move's random source, for shuffles; a dry run has none."""
        if self._rng is None:
            raise RuntimeError("a dry run (no random source) tried to shuffle")
        return self._rng

    def adjacent(self, loc: int) -> list[int]:
        return adjacent(loc, self.n)

    def others(self, loc: int) -> list[int]:
        return others(loc, self.n)

    def actor_seat(self) -> int:
        return self.s["turn"] if self.acting is None else self.acting

    def owner(self, card: str, side: int) -> int:
        return owner(self.s, card, side)

    # ---- readers ---------------------------------------------------------------------------------

    def stack(self, loc: int, seat: int) -> list[str]:
        """`seat`'s side at `loc` (its team's side in team play)."""
        return self.s["board"][loc][seat & 1]

    def enemies(self, loc: int, seat: int) -> list[str]:
        return self.s["board"][loc][1 - (seat & 1)]

    def first_enemy(self, loc: int, seat: int) -> str | None:
        st = self.s["board"][loc][1 - (seat & 1)]
        return st[0] if st else None

    def last_enemy(self, loc: int, seat: int) -> str | None:
        st = self.s["board"][loc][1 - (seat & 1)]
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
        seat = self.owner(card, side)
        by_seat = self.actor_seat()
        self.emit({"type": "damage", "card": card, "seat": seat, "amount": amount, "by": by,
                   "by_seat": by_seat})
        if self.s["damage"].get(card, 0) < NUMBER[card]:
            return False
        pile = seat
        if not CAPTURED_CARDS_STAY_WITH_CAPTOR and GUILD[card] not in self.s["guilds"][seat]:
            pile = self._first_owner(card, side)
        self.emit({"type": "destroyed", "card": card, "seat": seat, "loc": loc, "by": by,
                   "pile": pile})
        if self.mode == "solo" and by_seat == 1:
            points = bot_kill_points(card)
        else:  # solo: a Crystal *bot* gives no bonus (rules §11); your Shadow and Acid still count
            points = kill_points(card, by, crystal_bonus=not (self.mode == "solo" and side == 1))
        self.score(1 - side, points, "kill")
        return True

    def _first_owner(self, card: str, side: int) -> int:
        g = GUILD[card]
        for seat, guilds in enumerate(self.s["guilds"]):
            if g in guilds:
                return seat
        return 1 - side

    def score(self, side: int, points: int, reason: str) -> None:
        """Riftforce for a side: a seat in the duel and solo (the trainer is 1), a team in team play."""
        if points > 0:
            total = self.s["score"][side] + points
            if self.mode == "team":
                self.emit({"type": "score", "team": side, "points": points, "total": total, "reason": reason})
            else:
                self.emit({"type": "score", "seat": side, "points": points, "total": total,
                           "reason": reason})

    def heal(self, card: str, amount: int | None, by: str) -> None:
        """Remove `amount` damage (None: all of it); nothing to remove, nothing happens."""
        have = self.s["damage"].get(card, 0)
        n = have if amount is None else min(amount, have)
        if n > 0:
            self.emit({"type": "heal", "card": card, "seat": self.actor_seat(), "amount": n,
                       "by": by})

    def move(self, card: str, to: int) -> None:
        """Change location, to the back of the destination stack (rules §1)."""
        loc, side = locate(self.s, card)
        self.emit({"type": "move", "card": card, "seat": self.owner(card, side), "from": loc,
                   "to": to})

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


def bot_kill_points(victim: str) -> int:
    """Solo (rules §11): a bot has only its challenge ability (no Shadow bonus, no Acid zero), so
    its kill is 1 RF for the trainer, +1 for a Crystal of yours (its ability is intact)."""
    return 1 + (GUILD[victim] == "crystal")


def kill_points(victim: str, by: str, crystal_bonus: bool = True) -> int:
    """Riftforce for destroying `victim` with `by`'s ability (rules §5).

    1 per elemental; a Crystal gives +1; a Shadow's kill +1; Acid kills give nothing at all.
    The points go to the opponent of the destroyed elemental's side, even for self-damage.
    """
    killer = GUILD[by]
    if killer == "acid":
        return 0
    points = 1
    if crystal_bonus and GUILD[victim] == "crystal":
        points += 1
    if killer == "shadow":
        points += 1
    return points
