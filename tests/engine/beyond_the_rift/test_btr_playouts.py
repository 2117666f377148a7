"""Random and greedy playouts: 1, 2 and 4 heroes in every scenario end in a win or a loss; the live state
equals the replay of the JSON round-tripped log; every listed move is accepted; views, sentences and
redaction hold up on every event."""

from __future__ import annotations

import json
import random

import pytest

import engine

from .helpers import SCENARIOS, G, greedy_chooser, playout, random_chooser


def _check_text(state, log):
    for seat in (None, *range(state["n"])):
        text = G.render_text(G.view(state, seat))
        assert "Beyond the Rift" in text
    before = None
    for i, ev in enumerate(log):
        if i % 7 == 0:
            for seat in (None, 0):
                red = G.redact_event(ev, seat)
                json.dumps(red)
                line = G.describe_event(ev, seat, before)
                assert line is None or isinstance(line, str)
        before = G.apply(before, ev)


@pytest.mark.parametrize("scenario", SCENARIOS)
@pytest.mark.parametrize("n", [1, 2, 4])
def test_random_playout_ends_and_replays(scenario, n):
    for seed, chooser in ((n * 11, random_chooser), (n * 13 + 1, greedy_chooser)):
        state, log = playout(n, scenario, seed, chooser)
        res = G.result(state)
        assert res["outcome"] in ("win", "loss")
        assert res["winners"] == (list(range(n)) if res["outcome"] == "win" else [])
        assert G.to_act(state) == [] and all(G.legal_moves(state, s) == [] for s in range(n))
        replayed = engine.replay(G, json.loads(json.dumps(log)))
        assert replayed == state
        assert json.loads(json.dumps(state)) == state  # plain JSON all the way
        _check_text(state, log)


def test_greedy_playouts_reach_both_outcomes_in_the_tutorial():
    outcomes = set()
    for seed in range(12):
        state, _ = playout(2, "tutorial", seed, greedy_chooser, {"defense_modes": ["auto", "auto"]})
        outcomes.add(G.result(state)["outcome"])
    assert outcomes == {"win", "loss"}


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_every_listed_move_is_accepted_along_a_playout(scenario):
    """Every legal line is reachable: at sampled states every listed move of every seat to act plays
    without error, and a few malformed variants are refused."""

    state, log = playout(3, scenario, 21, random_chooser)
    states = [None]
    current = None
    for ev in log:
        current = G.evolve(G.copy_state(current) if current is not None else None, ev)
        if ev["type"] == "flow":
            states.append(current)
    for st in states[1::6]:
        if G.result(st) is not None:
            continue
        for seat in G.to_act(st):
            for mv in G.legal_moves(st, seat):
                events = G.play(st, seat, mv, random.Random(1))
                json.dumps(events)
            with pytest.raises(engine.IllegalMove):
                G.play(st, seat, {"type": "attack", "card": "nope"}, random.Random(1))


# ---- thousands of seeded games -------------------------------------------------------------------

GAMES_PER_CASE = 250  # x 4 scenarios x 3 hero counts = 3,000 games, half random, half greedy


def _physical_cards(state):
    """Every physical card in a place of play or a pile, once per place (duplicates are a bug)."""
    out = []
    for h in state["heroes"]:
        out += h["hand"] + h["deck"] + h["discard"]
        for p in h["area"]:
            out += [p["card"]] + [a["card"] for a in p["att"]]
    for e in state["enemies"]:
        out += [e["card"]] + [a["card"] for a in e["att"]]
    out += state["terrain"] + state["limbo"] + state["aside"]
    for pile in state["piles"].values():
        out += pile
    for pool in state["summon"].values():
        out += pool
    return out


JUNK = ({"type": "attack", "card": "nope"}, {"type": "setting", "key": "margin", "value": 99},
        {"type": "done", "extra": 1}, {}, {"type": "pledge", "card": "BV01a", "to": 9})


def refusing_junk(chooser):
    """The chooser, plus: every 40th decision, junk moves are refused and leave the state alone."""
    count = [0]

    def choose(state, seat, moves, rng):
        count[0] += 1
        if count[0] % 40 == 0:
            before = json.dumps(state, sort_keys=True)
            for junk in JUNK:
                with pytest.raises(engine.IllegalMove):
                    G.play(state, seat, junk, random.Random(count[0]))
            assert json.dumps(state, sort_keys=True) == before
        return chooser(state, seat, moves, rng)

    return choose


@pytest.mark.slow
@pytest.mark.parametrize("scenario", SCENARIOS)
@pytest.mark.parametrize("n", [1, 2, 4])
def test_thousands_of_seeded_games_end_and_replay_from_event_0(scenario, n):
    """Each seed: the game ends in a win or a loss, no card is ever in two places, junk moves are
    refused without touching the state, and the replay of the JSON log from event 0 equals the live
    state."""
    outcomes = {}
    for i in range(GAMES_PER_CASE):
        seed = 10_000 * n + 1_000 * SCENARIOS.index(scenario) + i
        chooser = refusing_junk(random_chooser if i % 2 else greedy_chooser)
        state, log = playout(n, scenario, seed, chooser)
        res = G.result(state)
        assert res["outcome"] in ("win", "loss"), (scenario, n, seed)
        cards = _physical_cards(state)
        assert len(cards) == len(set(cards)), (scenario, n, seed)
        assert set(cards) <= set(state["cards"])
        assert engine.replay(G, json.loads(json.dumps(log))) == state, (scenario, n, seed)
        outcomes[res["outcome"]] = outcomes.get(res["outcome"], 0) + 1
    assert sum(outcomes.values()) == GAMES_PER_CASE
    assert outcomes.get("loss")  # the scenarios are not a walkover
