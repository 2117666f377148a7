"""engine/bots.py: the search is deterministic, legal, reads only what its seat may see, and plays
games of every game and mode to the end."""

from __future__ import annotations

import random

import pytest

import engine
from engine import bots

SETUPS = [
    ("riftforce", 2, {}), ("riftforce", 4, {"mode": "team"}), ("riftforce", 1, {"mode": "solo"}),
    ("riftwalker", 2, {}), ("riftwalker", 3, {}), ("beyond-the-rift", 1, {}), ("beyond-the-rift", 2, {}),
]


def positions(name, players, options, seed=3, count=6, every=7):
    """A few positions of a game played by random moves, with the seat to act in each."""
    game = engine.get(name)
    state = engine.replay(game, game.start(players=players, options=options, seed=seed))
    rng = random.Random(seed)
    found = []
    for n in range(count * every):
        acting = game.to_act(state)
        if not acting or game.result(state) is not None:
            break
        seat = acting[0]
        if n % every == every - 1 and len(bots.choices(game, state, seat)) > 1:
            found.append((game.copy_state(state), seat))
        move = rng.choice(bots.choices(game, state, seat))
        for event in game.play(state, seat, move, random.Random(n)):
            state = game.evolve(state, event)
    assert found
    return game, found


def hidden_swap(game, state, seat, k):
    """Another state the seat cannot tell from `state`: hidden cards moved around (a determinization
    with a seed of its own is exactly that)."""
    return game.determinize(state, seat, random.Random(1000 + k))


@pytest.mark.parametrize(("name", "players", "options"), SETUPS)
def test_determinize_keeps_the_seats_view(name, players, options):
    game, found = positions(name, players, options)
    for state, seat in found:
        before = game.copy_state(state)
        sample = game.determinize(state, seat, random.Random(7))
        assert state == before  # never mutated
        assert game.view(sample, seat) == game.view(state, seat)
        assert bots.choices(game, sample, seat) == bots.choices(game, state, seat)


@pytest.mark.parametrize(("name", "players", "options"), SETUPS)
def test_a_bot_never_reads_what_its_seat_cannot_see(name, players, options):
    """The rule: replace the hidden cards in ways consistent with the view, get the same move (and
    the very same determinizations: the search depends on the view alone)."""
    game, found = positions(name, players, options)
    for state, seat in found:
        for k in range(3):
            other = hidden_swap(game, state, seat, k)
            assert game.view(other, seat) == game.view(state, seat)
            assert game.determinize(other, seat, random.Random(5)) == game.determinize(state, seat, random.Random(5))
            assert bots.decide(game, other, seat, random.Random(9), playouts=12, steps=4) == \
                bots.decide(game, state, seat, random.Random(9), playouts=12, steps=4)


@pytest.mark.parametrize(("name", "players", "options"), SETUPS)
def test_a_bot_decision_is_legal_and_deterministic(name, players, options):
    game, found = positions(name, players, options)
    for state, seat in found:
        move = bots.decide(game, state, seat, random.Random(4), playouts=10, steps=3)
        assert move in game.legal_moves(state, seat)
        assert move == bots.decide(game, state, seat, random.Random(4), playouts=10, steps=3)
        assert bots.decide(game, state, seat, random.Random(4), "easy") in game.legal_moves(state, seat)


def test_levels_and_bot_seat_words():
    assert bots.level_of("bot") == "normal"
    assert bots.level_of("BOT:strong") == "strong"
    with pytest.raises(ValueError):
        bots.level_of("bot:godlike")
    assert bots.is_bot("bot:easy") and not bots.is_bot("bot@example.org")


class _Toy(engine.Game):
    """Take 1 or 2 from a pile of 3; who takes the last one wins.  Taking 2 wins at once; the bot must
    see it (a random move would find it half the time)."""

    name = "bots-toy"

    def to_act(self, state):
        return [] if state["pile"] == 0 else [state["turn"]]

    def legal_moves(self, state, seat):
        return [{"take": n} for n in (1, 2) if n <= state["pile"]]

    def play(self, state, seat, move, rng):
        return [{"take": move["take"], "seat": seat}]

    def evolve(self, state, event):
        state["pile"] -= event["take"]
        state["last"] = event["seat"]
        state["turn"] = 1 - event["seat"]
        return state

    def result(self, state):
        if state["pile"]:
            return None
        return {"scores": {"0": int(state["last"] == 0), "1": int(state["last"] == 1)}, "winners": [state["last"]]}

    def determinize(self, state, seat, rng):
        return dict(state)


def test_the_search_prefers_the_winning_move():
    toy = _Toy()
    state = {"pile": 2, "turn": 0, "last": None}
    for seed in range(10):
        assert bots.decide(toy, state, 0, random.Random(seed), playouts=20, steps=5) == {"take": 2}
    # From 3: taking 2 leaves the last one to the other, a sure loss; taking 1 wins whenever the other
    # then takes only 1 (half its random replies), so the better mean is taking 1.
    state = {"pile": 3, "turn": 0, "last": None}
    assert bots.decide(toy, state, 0, random.Random(1), playouts=200, steps=5) == {"take": 1}
