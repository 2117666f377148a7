"""Random playouts: thousands of seeded games with both guild options (issue 2, "Tests").

Each game must finish with a result, raise nothing, conserve every card, keep the rules'
invariants at every step, and reject wrong-seat, junk and stale moves with engine.IllegalMove.
(JSON events, replay from event 0, purity, words and hidden cards are checked the same way for
every game by the shared contract suite, tests/engine/test_contract.py.)
"""

from __future__ import annotations

import multiprocessing
import os
import random
from collections import Counter

import pytest

import engine
from engine.riftforce.cards import NUMBER, deck_for

from .scenario import GAME, random_game

GAMES_PER_CHUNK = 250
CHUNKS = 4  # per option: 2 options x 4 chunks x 250 = 2000 games
JUNK = [None, 7, "check", [], {}, {"type": None}, {"type": "check", "extra": 1},
        {"type": "play", "card": "nope-5a", "loc": 0}, {"type": "target", "card": 3},
        {"type": "pick"}, {"type": "move_to", "loc": -1}, {"type": "heal", "card": {"a": 1}}]


def _cards_everywhere(s):
    cards = []
    for seat in (0, 1):
        cards += s["deck"][seat] + s["hand"][seat] + s["discard"][seat]
        for sides in s["board"]:
            cards += sides[seat]
    if s["limbo"] is not None:
        cards.append(s["limbo"])
    return cards


class Checker:
    def __init__(self, seed):
        self.rng = random.Random(seed)
        self.max_moves = 0
        self.expected = None
        self.previous_moves = []
        self.steps = 0

    def __call__(self, before, after, legal, seat, move, new):
        self.max_moves = max(self.max_moves, len(legal))
        self.steps += 1
        if after["phase"] != "draft" and (self.steps % 5 == 0 or after["result"] is not None):
            cards = _cards_everywhere(after)
            if self.expected is None:
                self.expected = sorted(deck_for(after["guilds"][0]) + deck_for(after["guilds"][1]))
            assert sorted(cards) == self.expected
        self._invariants(before, after, seat, new)
        roll = self.rng.random()
        if roll < 0.03:
            self._illegal(before, seat, legal)
        self.previous_moves = legal

    def _invariants(self, before, after, seat, new):
        """§5: nothing stays on the board at or past its number; damage only on board cards;
        §4C: hands never exceed 7; RF never drops; §6/Q4: the game ends only after an action of
        the second player with a score of 12+ and no tie (or in the stalemate of house rule Q14)."""
        board = {c for sides in after["board"] for side in sides for c in side}
        assert all(0 < d < NUMBER[c] and c in board for c, d in after["damage"].items())
        assert len(after["hand"][0]) <= 7 and len(after["hand"][1]) <= 7
        assert after["score"][0] >= before["score"][0] and after["score"][1] >= before["score"][1]
        ends = [e for e in new if e["type"] == "action_end"]
        if ends:
            assert ends[0]["seat"] == seat
            if after["phase"] == "over":
                if after["result"]["reason"] == "score":
                    assert seat != after["start"] and max(after["score"]) >= 12
                    assert after["score"][0] != after["score"][1]
            else:
                assert after["turn"] == 1 - seat and after["pending"] is None
        elif before["phase"] == "play":
            assert after["turn"] == seat and after["pending"] is not None

    def _illegal(self, s, seat, legal):
        rng = random.Random(0)
        with pytest.raises(engine.IllegalMove):
            GAME.play(s, 1 - seat, legal[0], rng)
        with pytest.raises(engine.IllegalMove):
            GAME.play(s, seat, self.rng.choice(JUNK), rng)
        stale = [m for m in self.previous_moves if m not in legal]
        if stale:
            with pytest.raises(engine.IllegalMove):
                GAME.play(s, seat, self.rng.choice(stale), rng)


FULL_CHECK_EVERY = 4  # every 4th game also gets the per-step Checker (keeps the run under ~90 s)
# The chunks of one option run in this many processes (the machine has 2 cores); 1 = in-process.
PROCESSES = int(os.environ.get("RIFTFORCE_PLAYOUT_PROCESSES", min(2, os.cpu_count() or 1)))


def play_chunk(guilds, chunk):
    """Play and check one chunk of seeded games; returns (end reasons, widest move list)."""
    reasons = Counter()
    widest = 0
    for seed in range(chunk * GAMES_PER_CHUNK, (chunk + 1) * GAMES_PER_CHUNK):
        check = Checker(seed) if seed % FULL_CHECK_EVERY == 0 else None
        paranoid = seed % (2 * FULL_CHECK_EVERY) == 0
        events, live, moves = random_game(seed, guilds, on_step=check, paranoid=paranoid)
        result = GAME.result(live)
        assert result is not None and set(result["winners"]) <= {0, 1} and result["winners"], seed
        assert sorted(_cards_everywhere(live)) == \
            sorted(deck_for(live["guilds"][0]) + deck_for(live["guilds"][1])), seed
        reasons[result["reason"]] += 1
        if check is not None:
            widest = max(widest, check.max_moves)
    return dict(reasons), widest


def _play_chunk(args):
    return play_chunk(*args)


@pytest.mark.slow
@pytest.mark.parametrize("guilds", ["base", "all"])
def test_random_playouts_finish_replay_and_conserve_cards(guilds):
    """Random-playout rule: every game finishes with a result and all 72 cards are still there;
    in every 4th game, at sampled steps, wrong-seat, junk and stale moves raise IllegalMove and
    cards are conserved; in every 8th game play and apply never change their input."""
    jobs = [(guilds, chunk) for chunk in range(CHUNKS)]
    if PROCESSES > 1 and "fork" in multiprocessing.get_all_start_methods():
        with multiprocessing.get_context("fork").Pool(PROCESSES) as pool:
            outcomes = pool.map(_play_chunk, jobs, chunksize=1)
    else:
        outcomes = [play_chunk(*job) for job in jobs]
    for reasons, widest in outcomes:
        assert reasons.get("score", 0) > GAMES_PER_CHUNK // 2  # most games reach the real end
        assert widest <= 60, widest  # decisions stay button-sized
