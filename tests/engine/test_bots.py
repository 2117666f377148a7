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


def _btr_hero_phase(players=2, seed=3):
    """A Beyond the Rift position in the hero phase with an enemy in play, and the hero to act."""
    game = engine.get("beyond-the-rift")
    state = engine.replay(game, game.start(players=players, options={"scenario": "tutorial"}, seed=seed))
    rng = random.Random(seed)
    for n in range(400):
        acting = game.to_act(state)
        if (state["phase"] == "hero" and state["prompt"] is None and state["attack"] is None and acting
                and state["enemies"]):
            return game, state, acting[0]
        move = rng.choice(bots.choices(game, state, acting[0]))
        for event in game.play(state, acting[0], move, random.Random(n)):
            state = game.evolve(state, event)
    raise AssertionError("no hero phase with an enemy in play")


def test_beyond_the_rift_bot_never_engages_for_free():
    """A free engage (an enemy whose engage cost fell to 0) is one a free disengage undoes: a bot
    that fears the enemy phase would play the two for ever rather than end its turn.  The bot skips
    the free engage; a person may still play it, and a free disengage stays a bot's choice."""
    game, state, seat = _btr_hero_phase()
    for e in state["enemies"]:
        e["tmp"] = [*e.get("tmp", []), {"stat": "engage", "n": -9}]
    free = [mv for mv in game.legal_moves(state, seat) if mv.get("type") == "engage"]
    assert free
    assert not [mv for mv in bots.choices(game, state, seat) if mv.get("type") == "engage"]
    # Engaged with it (as a person may do): the free disengage is still a choice.
    for event in game.play(state, seat, free[0], random.Random(1)):
        state = game.evolve(state, event)
    assert {"type": "disengage", "enemy": free[0]["enemy"]} in bots.choices(game, state, seat)
    # With the cost paid in AP, engaging is a choice like any other.
    game, state, seat = _btr_hero_phase()
    paid = [mv for mv in bots.choices(game, state, seat) if mv.get("type") == "engage"]
    assert paid == [mv for mv in game.legal_moves(state, seat) if mv.get("type") == "engage"]


def test_choices_never_skip_every_decision():
    class Stalling(_Toy):
        def bot_skips(self, state, seat, move):
            return True

    assert bots.choices(Stalling(), {"pile": 3, "turn": 0, "last": None}, 0) == [{"take": 1}, {"take": 2}]


def test_beyond_the_rift_a_peeked_card_stays_where_the_peeker_saw_it():
    """The card a hero peeks at (a Response or deck top it may put away) is seen by that hero: its
    samples keep it on top, so answering the prompt in a playout names a card that is there.  Another
    hero did not see it: its samples name whatever they dealt on top (never the real card by force)."""
    game = engine.get("beyond-the-rift")
    state = engine.replay(game, game.start(players=2, options={"scenario": "tutorial"}, seed=1))
    rng = random.Random(1)
    for n in range(200):
        if state["prompt"] and state["prompt"]["kind"] == "bottom":
            break
        seat = game.to_act(state)[0]
        move = rng.choice([mv for mv in game.legal_moves(state, seat) if game.move_section(mv) is None])
        for event in game.play(state, seat, move, random.Random(n)):
            state = game.evolve(state, event)
    p = state["prompt"]
    assert p and p["kind"] == "bottom" and p["pile"] == "response"
    peeker, other = p["seats"][0], 1 - p["seats"][0]
    tops = set()
    for k in range(8):
        sample = game.determinize(state, peeker, random.Random(k))
        assert sample["piles"]["response"][:len(p["options"])] == p["options"]
        assert game.view(sample, peeker) == game.view(state, peeker)
        for move in game.legal_moves(sample, peeker):  # each answer plays on the sample
            after = game.copy_state(sample)
            for event in game.play(after, peeker, move, random.Random(k)):
                after = game.evolve(after, event)
        theirs = game.determinize(state, other, random.Random(k))
        assert theirs["prompt"]["options"] == theirs["piles"]["response"][:len(p["options"])]
        assert game.view(theirs, other) == game.view(state, other)
        tops.add(theirs["prompt"]["options"][0])
    assert len(tops) > 1


def test_beyond_the_rift_worth_counts_the_terrain_removed():
    """The tutorial is won by removing its last terrain card: each terrain removed is progress."""
    game, state, seat = _btr_hero_phase()
    assert state["terrain"] or state["piles"]["terrain"]
    before = game.evaluate(state, seat)
    more = game.copy_state(state)
    more["removed_terrain"] = [*more["removed_terrain"], more["piles"]["terrain"].pop()]
    assert game.evaluate(more, seat) > before
    assert game.evaluate(more, 1 - seat) == game.evaluate(more, seat)  # the party's worth, one for all


def test_beyond_the_rift_worth_fears_the_hero_nearest_death():
    """A hero holding as much damage as the hand size at a draw phase dies and the party loses: the
    same Wounds piled on one hero are worse than spread over two."""
    from engine.beyond_the_rift import model

    game, state, seat = _btr_hero_phase()
    wounds = state["piles"]["wound"][:4]
    assert len(wounds) == 4

    def dealt(split):
        s = game.copy_state(state)
        s["piles"]["wound"] = [c for c in s["piles"]["wound"] if c not in wounds]
        at = 0
        for hero, k in enumerate(split):
            s["heroes"][hero]["hand"] = [c for c in s["heroes"][hero]["hand"] if not model.is_damage(s, c)] + wounds[at:at + k]
            at += k
        return s

    assert game.evaluate(dealt([4, 0]), seat) < game.evaluate(dealt([2, 2]), seat)


def _riftforce_board(mode="duel"):
    """A Riftforce position in play (duel or solo) with elementals on both sides of the board."""
    game = engine.get("riftforce")
    players, options = (1, {"mode": "solo", "trainer_guilds": "random"}) if mode == "solo" else (2, {})
    state = engine.replay(game, game.start(players=players, options=options, seed=5))
    rng = random.Random(5)
    for n in range(400):
        if state["phase"] == "play" and state["pending"] is None and all(
                any(sides[side] for sides in state["board"]) for side in (0, 1)):
            return game, state
        seat = game.to_act(state)[0]
        move = rng.choice(bots.choices(game, state, seat))
        for event in game.play(state, seat, move, random.Random(n)):
            state = game.evolve(state, event)
    raise AssertionError("no position with elementals on both sides")


@pytest.mark.parametrize("mode", ["duel", "solo"])
def test_riftforce_worth_counts_damage_toward_a_kill(mode):
    """An Activate that damages without destroying is progress: damage on an enemy elemental raises
    the worth, damage on one's own lowers it, more of it (nearer the kill) more so."""
    game, state = _riftforce_board(mode)
    ours = next(c for sides in state["board"] for c in sides[0])
    theirs = next(c for sides in state["board"] for c in sides[1])

    def hurt(card, n):
        s = game.copy_state(state)
        s["damage"] = {**s["damage"], card: n}
        return game.evaluate(s, 0)

    assert hurt(theirs, 1) > hurt(theirs, 0) and hurt(theirs, 3) > hurt(theirs, 1)
    assert hurt(ours, 1) < hurt(ours, 0) and hurt(ours, 3) < hurt(ours, 1)
    assert 0 < hurt(theirs, 4) < 1


def test_riftforce_worth_a_crystal_bonus_only_where_it_scores():
    """A destroyed Crystal gives its destroyer's side 2, so damage on an enemy Crystal is worth twice
    the same share on another elemental; in solo a Crystal bot gives the player no bonus (rules §11)."""
    from engine.riftforce.bot import evaluate

    def board(mode, card):
        return {"mode": mode, "score": [0, 0], "board": [[[], [card]], [[], ["fire-5a"]]] + [[[], []]] * 3,
                "damage": {card: 2}}

    duel_crystal = evaluate(board("duel", "crystal-5a"), 0)
    duel_other = evaluate(board("duel", "ice-5a"), 0)
    assert duel_crystal > duel_other
    assert evaluate(board("solo", "crystal-5a"), 0) == evaluate(board("solo", "ice-5a"), 0)


def test_solo_a_player_win_is_worth_one_and_a_trainer_win_nothing():
    """Solo's result names seat 0 among the winners when the player wins (the trainer is no seat):
    the search must count that as a win, and the trainer's as a loss."""
    game, state = _riftforce_board("solo")
    won = game.copy_state(state)
    won["phase"], won["turn"] = "over", None
    won["result"] = {"scores": [12, 9], "winners": [0], "reason": "score"}
    assert game.result(won)["winners"] == [0] and bots.outcome(game, won, 0) == 1.0
    lost = game.copy_state(won)
    lost["result"] = {"scores": [9, 12], "winners": [], "reason": "score"}
    assert bots.outcome(game, lost, 0) == 0.0


def test_successive_halving_finds_the_winning_move_and_keeps_to_the_budget(monkeypatch):
    """With `bot_halving` the playouts go round by round to the better half of the moves: the search
    still finds the winning move, spends about its budget (not more than twice the move count over
    it), and is deterministic."""
    calls = []

    class Halving(_Toy):
        bot_halving = True

        def legal_moves(self, state, seat):
            return [{"take": n} for n in (1, 2, 3, 4, 5) if n <= state["pile"]]

        def determinize(self, state, seat, rng):
            calls.append(1)
            return dict(state)

    toy = Halving()
    state = {"pile": 5, "turn": 0, "last": None}
    for seed in range(5):
        calls.clear()
        assert bots.decide(toy, state, 0, random.Random(seed), playouts=60, steps=5) == {"take": 5}
        assert 60 <= len(calls) <= 60 + 2 * 5
    assert bots.decide(toy, state, 0, random.Random(3), playouts=7, steps=5) == \
        bots.decide(toy, state, 0, random.Random(3), playouts=7, steps=5)
    # A deadline stops the search, but never before every move was tried once (the last one too).
    tried = []
    real = bots.playout

    def watched(game, sample, seat, move, steps, rng):
        tried.append(move["take"])
        return real(game, sample, seat, move, steps, rng)

    monkeypatch.setattr(bots, "playout", watched)
    bots.decide(toy, state, 0, random.Random(2), playouts=60, steps=5, deadline=lambda: True)
    assert set(tried) == {1, 2, 3, 4, 5} and len(tried) < 60
