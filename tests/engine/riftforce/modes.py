"""Build team and solo states directly, and play seeded random games in those modes.

    s = team_board(3, sides=[[["fire-5a"], [], [], [], [], []], [[], ...]], hands=[[...], [...], [...]])
    s = solo_board(me=[[...] x5], bots=[[...] x5], hand=[...], stars={"5": 2})

Team seats: 0 and 2 are team 0, 1 (and 3) team 1; guilds default to disjoint sets so that every
card has one owner.  The solo trainer is seat 1 (its bots are side 1).
"""

from __future__ import annotations

import json
import random

import engine
from engine.riftforce import solo, team
from engine.riftforce.cards import deck_for
from engine.riftforce.state import evolve

from .scenario import GAME, pick_move

TEAM_GUILDS = {3: [["fire", "water", "air"], ["ice", "plant", "light", "shadow"],
                   ["earth", "crystal", "star"]],
               4: [["fire", "water", "air"], ["ice", "plant", "light"],
                   ["earth", "crystal", "star"], ["shadow", "music", "lava"]]}


def team_board(players=4, sides=None, hands=None, decks=None, damage=None, score=(0, 0), pos=0,
               ending=False, guilds=None, order=None, discards=None):
    """A team play-phase state; `sides` = [team0 stacks x6, team1 stacks x6]; turn at `pos`.

    Each seat's discard pile holds its first guild's second 7 unless `discards` says otherwise, so
    a position with empty hands is not the "nothing can change" stalemate."""
    order = order or ([0, 1, 2, 1] if players == 3 else [0, 1, 2, 3])
    s = evolve(None, {"type": "setup", "players": players, "mode": "team",
                      "options": {"mode": "team", "guilds": "all"}})
    s["phase"] = "play"
    s["order"] = list(order)
    s["zones"] = team.zones_for(players, order)
    s["pos"] = pos
    s["turn"] = order[pos]
    s["start"] = order[0]
    s["guilds"] = [list(g) for g in (guilds or TEAM_GUILDS[players])]
    sides = sides or [[[] for _ in range(6)], [[] for _ in range(6)]]
    s["board"] = [[list(sides[0][l]), list(sides[1][l])] for l in range(6)]
    s["hand"] = [list(h) for h in (hands or [[] for _ in range(players)])]
    s["deck"] = [list(d) for d in (decks or [[] for _ in range(players)])]
    s["discard"] = [list(d) for d in (discards or [[f"{g[0]}-7b"] for g in s["guilds"]])]
    s["damage"] = dict(damage or {})
    s["score"] = list(score)
    s["ending"] = ending
    return s


def solo_board(me=None, bots=None, hand=None, deck=None, bot_deck=None, damage=None, score=(0, 0),
               stars=None, amp=None, plans=None, guilds=None, trainer=None, ending=False):
    """A solo play-phase state: `me` and `bots` are 5 stacks each, front first."""
    options = {"mode": "solo", "guilds": "all",
               "stars": {"5": 1, "6": 1, "7": 1, **(stars or {})}, "and": amp}
    s = evolve(None, {"type": "setup", "players": 1, "mode": "solo", "options": options})
    s["phase"] = "play"
    s["start"] = 0
    s["turn"] = 0
    s["guilds"] = [list(guilds or ["fire", "water", "air", "earth"]),
                   list(trainer or ["ice", "plant", "light", "shadow"])]
    me = me or [[] for _ in range(5)]
    bots = bots or [[] for _ in range(5)]
    s["board"] = [[list(me[l]), list(bots[l])] for l in range(5)]
    s["hand"] = [list(hand or []), []]
    s["deck"] = [list(deck or []), list(bot_deck or [])]
    s["damage"] = dict(damage or {})
    s["score"] = list(score)
    s["plans"] = list(plans or solo.plan_pile(random.Random(0)))
    s["ending"] = ending
    return s


def play_moves(s, *moves, seed=0):
    """Play moves in order by the seat to act; returns (state, events); checks purity and JSON."""
    rng = random.Random(seed)
    events = []
    snapshot = json.dumps(s, sort_keys=True)
    start = s
    for move in moves:
        (seat,) = GAME.to_act(s)
        new = GAME.play(s, seat, move, rng)
        assert json.loads(json.dumps(new)) == new
        for e in new:
            s = GAME.apply(s, e)
        events.extend(new)
    assert json.dumps(start, sort_keys=True) == snapshot
    return s, events


TRAINER_NAMED = ["fire", "music", "crystal", "sand"]


def solo_options(seed):
    """Varied difficulty per seed so playouts meet every challenge level and both & ends, and
    each standing choice of the trainer's guilds (chosen after the keep, random, 4 named)."""
    r = random.Random(seed * 31 + 7)
    opts = {"mode": "solo", "stars": {n: r.randint(1, 4) for n in ("5", "6", "7")}}
    roll = r.randrange(3)
    if roll:
        opts["and"] = {"number": r.choice([5, 6, 7]), "end": "AB"[roll - 1]}
    standing = (None, "random", TRAINER_NAMED)[seed % 3]
    if standing is not None:
        opts["trainer_guilds"] = standing
    return opts


def options_for(players, seed):
    return solo_options(seed) if players == 1 else {"mode": "team"}


def random_game(players, seed, on_step=None, max_decisions=20000):
    """One full seeded game in team (3, 4) or solo (1) mode; returns (events, state, moves)."""
    events = GAME.start(players, options_for(players, seed), seed)
    state = engine.replay(GAME, events)
    rng = random.Random(seed)
    policy = random.Random(seed * 7919 + 1)
    moves = []
    while GAME.result(state) is None:
        (seat,) = GAME.to_act(state)
        legal = GAME.legal_moves(state, seat)
        move = pick_move(policy, legal)
        new = GAME.play(state, seat, move, rng)
        before = state
        for e in new:
            state = GAME.apply(state, e)
        events.extend(new)
        moves.append(move)
        if on_step is not None:
            on_step(before, state, legal, seat, move, new)
        assert len(moves) < max_decisions, "game did not finish"
    return events, state, moves


def all_cards(s):
    """Every elemental of the game wherever it is (piles, hands, board, Music limbo)."""
    cards = [c for x in s["deck"] + s["hand"] + s["discard"] for c in x]
    cards += [c for sides in s["board"] for side in sides for c in side]
    if s["limbo"] is not None:
        cards.append(s["limbo"])
    return sorted(cards)


def expected_cards(s):
    return sorted(c for guilds in s["guilds"] for c in deck_for(guilds))


# ---- random-playout checks shared by the team and solo playout tests --------------------------------

JUNK = [None, 7, "check", [], {}, {"type": None}, {"type": "check", "extra": 1},
        {"type": "play", "card": "nope-5a", "loc": 0}, {"type": "target", "card": 3},
        {"type": "pick"}, {"type": "move_to", "loc": -1}, {"type": "bot", "card": None},
        {"type": "push", "loc": 9}, {"type": "play", "card": "fire-5a", "loc": 6.0}]


class Checker:
    """Per-step invariants of a team or solo playout (called as `random_game`'s on_step)."""

    def __init__(self, seed):
        self.rng = random.Random(seed)
        self.previous = []
        self.widest = 0

    def __call__(self, before, after, legal, seat, move, new):
        import pytest  # only the tests use this helper

        self.widest = max(self.widest, len(legal))
        # §5: nothing stays on the board at or past its number; damage only on board cards;
        # §4C: hands never exceed 7; RF never drops.
        board = {c for sides in after["board"] for side in sides for c in side}
        assert all(0 < d < int(c.split("-")[1][0]) and c in board for c, d in after["damage"].items())
        assert all(len(h) <= 7 for h in after["hand"])
        assert all(a >= b for a, b in zip(after["score"], before["score"]))
        self.steps = getattr(self, "steps", 0) + 1
        if after["phase"] == "play" and before["phase"] == "play" and self.steps % 5 == 0:
            assert all_cards(after) == expected_cards(after)
        ends = [e for e in new if e["type"] == "action_end"]
        if ends and after["mode"] == "team" and after["phase"] == "play":
            # §10: the next position of the turn-order card acts.
            assert after["pos"] == (before["pos"] + 1) % 4 and after["turn"] == after["order"][after["pos"]]
        if after["phase"] == "over" and after["result"]["reason"] == "score":
            a, b = after["score"]
            assert a != b and max(a, b) >= 12
            if after["mode"] == "team":
                assert before["pos"] == 3  # the round was finished
            else:
                assert after["plan"] is None  # the current plan was finished
        roll = self.rng.random()
        if roll < 0.05:
            rng = random.Random(0)
            wrong = [x for x in range(after["players"]) if x != seat] or [1]
            with pytest.raises(engine.IllegalMove):
                GAME.play(before, self.rng.choice(wrong), legal[0], rng)
            with pytest.raises(engine.IllegalMove):
                GAME.play(before, seat, self.rng.choice(JUNK), rng)
            stale = [m for m in self.previous if m not in legal]
            if stale:
                with pytest.raises(engine.IllegalMove):
                    GAME.play(before, seat, self.rng.choice(stale), rng)
        self.previous = legal


def play_and_check(players, seeds, check_every=3):
    """Play seeded games; every one must finish and conserve cards; every `check_every`-th also
    gets the per-step Checker.  Returns end reasons.  (JSON, replay, purity, words and hidden
    cards are the shared contract suite's: tests/engine/test_contract.py.)"""
    from collections import Counter

    reasons = Counter()
    widest = 0
    for seed in seeds:
        check = Checker(seed) if seed % check_every == 0 else None
        events, live, moves = random_game(players, seed, on_step=check)
        result = GAME.result(live)
        assert result is not None and result["reason"] in ("score", "stalemate"), seed
        assert all_cards(live) == expected_cards(live), seed
        reasons[result["reason"]] += 1
        if check is not None:
            widest = max(widest, check.widest)
    return dict(reasons), widest
