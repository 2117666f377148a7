"""Team play for 3 and 4 players (rules §9, §10, house rule Q5).

Seats and teams: team 0 is seats 0 and 2, team 1 is seat 1 (the lone player of a 3-player game)
or seats 1 and 3.  A team shares one side of every location and one score (`score[team]`).

Locations: a row of 6, `GREEN` (0-2) then `GREY` (3-5); the two zones meet between locations 3
and 4 in words (2 and 3 in data), which are adjacent like any neighbours; the ends are not.

Turn order (the player-order card, Q5): 3 players: the team starts, positions 1-4 are seats
0, 1, 2, 1 (the lone player acts at 2 and 4); 4 players: a toss picks the starting team and
positions alternate teams: 0, 1, 2, 3 or 1, 2, 3, 0.  Positions 1 and 2 sit at the green zone,
3 and 4 at the grey zone, so a team member's Check & Draw scores that zone only; the lone player
checks all six.  The draft picks in the same position order until each team member holds 3
guilds and the lone player 4 (6 + players offered, 1 dealt to each).

Opening elementals: 3 players: the lone player puts the top two cards of their pile at the middle
of the green zone, then of the grey zone; 4 players: positions 2, 3 and 4 each put their top card
at the middle of their zone.

End (§10): once a team reached 12 the round is finished (through position 4); the game ends at
the end of a round whose scores are not tied.
"""

from __future__ import annotations

import random
from typing import Any

from engine import kit
from engine.errors import IllegalMove

from .cards import ALL_GUILDS, deck_for
from .effects import Effects
from .state import controls

GREEN = [0, 1, 2]
GREY = [3, 4, 5]
ALL = GREEN + GREY
MIDDLE = {"green": 1, "grey": 4}
HAND_SIZE = 7


def normalize_options(players: Any, options: dict) -> dict:
    if isinstance(players, bool) or players not in (3, 4):
        raise IllegalMove("team play is for 3 or 4 players", "bad_options")
    if set(options) - {"mode", "guilds"} or options.get("guilds", "all") != "all":
        raise IllegalMove("team play takes no options (all 18 guilds are used)", "bad_options")
    return {"mode": "team", "guilds": "all"}


def teammates(players: int, seat: int) -> list[int]:
    return [x for x in range(players) if x != seat and x & 1 == seat & 1]


def turn_order(players: int, rng: random.Random) -> list[int]:
    if players == 3:
        return [0, 1, 2, 1]
    return [0, 1, 2, 3] if rng.randrange(2) == 0 else [1, 2, 3, 0]


def zones_for(players: int, order: list[int]) -> list[list[int]]:
    """Per seat, the locations its Check & Draw scores."""
    zones: list[list[int]] = [[] for _ in range(players)]
    if players == 3:
        zones[0], zones[1], zones[2] = GREEN[:], ALL[:], GREY[:]
    else:
        for pos, seat in enumerate(order):
            zones[seat] = GREEN[:] if pos < 2 else GREY[:]
    return zones


def start_events(players: int, options: dict, rng: random.Random) -> list[dict]:
    pool = ALL_GUILDS[:]
    rng.shuffle(pool)
    dealt, offer = pool[:players], pool[players:players + 6 + players]
    order = turn_order(players, rng)
    quota = [4 if players == 3 and seat == 1 else 3 for seat in range(players)]
    return [
        {"type": "setup", "players": players, "mode": "team", "options": options},
        {"type": "draft", "removed": [], "dealt": dealt, "offer": offer, "first": order[0],
         "order": order, "quota": quota, "zones": zones_for(players, order)},
    ]


def after_draft(fx: Effects) -> None:
    """Decks, 7 cards each, the opening elementals, then position 1 acts."""
    s = fx.s
    order = s["order"]
    fx.emit({"type": "draft_end", "removed": s["draft"]["offer"][:], "start": order[0]})
    players = s["players"]
    for seat in range(players):
        cards = deck_for(s["guilds"][seat])
        fx.rng.shuffle(cards)
        fx.emit({"type": "deck", "seat": seat, "order": cards, "count": len(cards)})
    for seat in order[:players]:
        fx.draw(seat, HAND_SIZE)
    if players == 3:
        openers = [(1, MIDDLE["green"]), (1, MIDDLE["grey"])]
    else:
        openers = [(seat, MIDDLE["green"] if pos < 2 else MIDDLE["grey"])
                   for pos, seat in enumerate(order) if pos > 0]
    for seat, loc in openers:
        fx.emit({"type": "enter", "seat": seat, "card": s["deck"][seat][0], "loc": loc,
                 "from": "deck"})
    fx.emit({"type": "turn", "seat": order[0], "pos": 0})


def scored_locations(s, seat: int) -> list[int]:
    """Check & Draw (§10): the controlled locations of the zone in front of a team member; all
    six for the lone player.  Control is by the whole team's side (Q5)."""
    zone = s["zones"][seat]
    return [l for l in controls(s, seat) if l in zone]


def end_action(fx: Effects, seat: int) -> None:
    """After an action: the next position, or the end of the game at the end of a round."""
    s = fx.s
    pos = s["pos"]
    a, b = s["score"]
    if pos == len(s["order"]) - 1 and s["ending"] and a != b:
        reason = "score"
    elif _dead(s):
        reason = "stalemate"
    else:
        nxt = kit.next_seat(pos, len(s["order"]))  # the next position of the turn-order card
        fx.emit({"type": "turn", "seat": s["order"][nxt], "pos": nxt})
        return
    best = max(a, b)
    fx.emit({"type": "game_over", "scores": [a, b], "reason": reason,
             "winners": [x for x in range(s["players"]) if s["score"][x & 1] == best]})


def _dead(s) -> bool:
    """House rule Q14 with zones, as in the duel (moves._dead): nobody holds a card off the board
    and no seat's Check & Draw can score, so nothing can ever change; the game ends, most RF wins,
    a tie stands."""
    if any(s["hand"][x] or s["deck"][x] or s["discard"][x] for x in range(s["players"])):
        return False
    return not any(scored_locations(s, x) for x in range(s["players"]))
