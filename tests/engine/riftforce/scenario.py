"""Build Riftforce states directly and play moves on them, for the scenario tests.

    s = board(me=[[], ["fire-5a"], [], [], []], foe=[[], ["ice-6a"], [], [], []],
              hand=["water-5a"], damage={"ice-6a": 1})
    s, events = do(s, {"type": "activate", "card": "water-5a"}, {"type": "activate_elemental", ...})

Seat 0 is "me" and acts first (holds the start marker) unless `turn`/`start` say otherwise.
"""

from __future__ import annotations

import json
import random

import engine
import engine.riftforce
from engine.riftforce.state import evolve

GAME = engine.get("riftforce")


def board(me=None, foe=None, hand=None, foe_hand=None, deck=None, foe_deck=None, discard=None,
          foe_discard=None, damage=None, score=(0, 0), turn=0, start=0, guilds=None, ending=False,
          actions=(0, 0)):
    """A play-phase state with the given stacks (5 lists each, front first) for seat 0 and 1."""
    me = me or [[], [], [], [], []]
    foe = foe or [[], [], [], [], []]
    s = evolve(None, {"type": "setup", "players": 2, "mode": "duel", "options": {"guilds": "all"}})
    s["phase"] = "play"
    s["start"] = start
    s["turn"] = turn
    s["guilds"] = guilds or [["fire", "water", "air", "earth"], ["ice", "plant", "light", "shadow"]]
    s["board"] = [[list(me[l]), list(foe[l])] for l in range(5)]
    s["hand"] = [list(hand or []), list(foe_hand or [])]
    s["deck"] = [list(deck or []), list(foe_deck or [])]
    s["discard"] = [list(discard or []), list(foe_discard or [])]
    s["damage"] = dict(damage or {})
    s["score"] = list(score)
    s["actions"] = list(actions)
    s["ending"] = ending
    return s


def do(s, *moves, seat=None, seed=0):
    """Play moves in order (by the seat to act unless `seat`), returning (state, events)."""
    rng = random.Random(seed)
    events = []
    start, first_snapshot = s, json.dumps(s, sort_keys=True)
    for move in moves:
        who = s["turn"] if seat is None else seat
        new = GAME.play(s, who, move, rng)
        assert json.loads(json.dumps(new)) == new  # every event is JSON and round-trips
        for e in new:
            s = GAME.apply(s, e)
        events.extend(new)
    # play and apply are pure: the state we started from is untouched (checked once per call)
    if moves:
        assert json.dumps(start, sort_keys=True) == first_snapshot
    return s, events


def sentences(s, events, viewer, redact=False):
    """Each event's sentence for `viewer`, worded from the state the event was applied to (and
    from the event as `viewer` gets it, with `redact`)."""
    out = []
    for e in events:
        out.append(GAME.describe_event(GAME.redact_event(e, viewer) if redact else e, viewer, s))
        s = GAME.apply(s, e)
    return out


def types(events, t):
    return [e for e in events if e["type"] == t]


def legal(s, seat=None):
    return GAME.legal_moves(s, s["turn"] if seat is None else seat)


def dmg(s, card):
    return s["damage"].get(card, 0)


def stack(s, loc, seat):
    return s["board"][loc][seat]


def A(card):  # activate an elemental on the board
    return {"type": "activate_elemental", "card": card}


def D(card):  # start an Activate by discarding this card
    return {"type": "activate", "card": card}


def P(card, loc):
    return {"type": "play", "card": card, "loc": loc}


def MV(loc):
    return {"type": "move_to", "loc": loc}


DONE = {"type": "done"}
END = {"type": "end_play"}
CHECK = {"type": "check"}


def pick_move(rng, moves):
    """A seeded random policy: an action kind uniformly, then a move of that kind uniformly.
    (Uniform over all moves would favour Play, which has the most buttons, and stall games.)"""
    kinds = sorted({m["type"] for m in moves})
    kind = rng.choice(kinds)
    return rng.choice([m for m in moves if m["type"] == kind])


def random_game(seed, guilds, on_step=None, max_decisions=20000, paranoid=False):
    """Play one full game with the seeded policy; returns (events, live state, moves).

    The live state is built by `GAME.apply` on each event as it is produced.  `on_step(state,
    legal, seat, move, new_events)` is called after each move, for extra checks.  `paranoid` also
    checks that neither `play` nor `apply` changed the states they were given.
    """
    events = GAME.start(2, {"guilds": guilds}, seed)
    state = None
    for e in events:
        state = GAME.apply(state, e)
    rng = random.Random(seed)
    policy = random.Random(seed * 7919 + 1)
    moves = []
    while GAME.result(state) is None:
        (seat,) = GAME.to_act(state)
        legal = GAME.legal_moves(state, seat)
        move = pick_move(policy, legal)
        snapshot = json.dumps(state, sort_keys=True) if paranoid else None
        new = GAME.play(state, seat, move, rng)
        before = state
        for e in new:
            state = GAME.apply(state, e)
        if paranoid:
            assert json.dumps(before, sort_keys=True) == snapshot
        events.extend(new)
        moves.append(move)
        if on_step is not None:
            on_step(before, state, legal, seat, move, new)
        assert len(moves) < max_decisions, "game did not finish"
    return events, state, moves
