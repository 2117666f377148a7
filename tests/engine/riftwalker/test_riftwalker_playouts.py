"""Random playouts for 2, 3 and 4 players (issue 6): thousands of seeded games end, cards are conserved,
junk or illegal moves are refused, and each move's private state is the fold of its events."""

import json
import random
from multiprocessing import get_context

import pytest

import engine
from engine.riftwalker import flow
from engine.riftwalker.state import all_card_ids

from ._helpers import GREEDY, G, check_conserved

GAMES = {2: 700, 3: 700, 4: 700}  # 2,100 games in all (about 70 s of CPU, split over two cores)
PREFERRED = ("burst", "shift", "explore", "activate", "force_burst", "take", "draw", "tuck", "choose")


def pick(rng, state, moves):
    """Half the time the greedy bot, else mostly purposeful, often plain random."""
    if rng.random() < 0.5:
        return GREEDY(state, state["turn"]["seat"] if not state["stack"] else flow.decision(state)[0], moves, rng)
    if rng.random() < 0.35:
        return rng.choice(moves)
    if not state["stack"] and state["turn"]["step"] == "refresh":
        return moves[-1] if rng.random() < 0.85 else rng.choice(moves)
    for kind in PREFERRED:
        options = [m for m in moves if m["type"] == kind]
        if options:
            return rng.choice(options)
    non_skip = [m for m in moves if m["type"] != "skip"]
    return rng.choice(non_skip or moves)


def junk_for(rng, state, seat, moves):
    """A move that must be refused: another seat's move, a mutated move, or garbage."""
    n = state["players"]
    kind = rng.randrange(4)
    if kind == 0:
        return (seat + 1 + rng.randrange(n - 1)) % n, moves[0]
    if kind == 1:
        m = dict(rng.choice(moves))
        key = next((k for k in m if k != "type"), None)
        if key is None:
            m["type"] = m["type"] + "x"
        elif isinstance(m[key], int):
            m[key] = m[key] + 100
        else:
            m[key] = str(m[key]) + "?"
        return seat, m
    if kind == 2:
        return seat, {"type": rng.choice(["flip", "burst", "skip", "done", "put", "explore"]), "slot": 99}
    return seat, rng.choice([None, [], "skip", {"type": None}, {"slot": 1}])


def run_games(players, seeds):
    """Play the seeds in place; returns [(seed, decisions, result)] (raises on any broken invariant)."""
    out = []
    for seed in seeds:
        rng = random.Random(seed)
        state = engine.replay(G, G.start(players, {}, seed))
        decisions = 0
        while not state["over"]:
            seat, moves = flow.decision(state)
            assert len(moves) >= 2, "forced moves never wait for a player"
            if decisions % 40 == 7:
                bad_seat, bad = junk_for(rng, state, seat, moves)
                if not (bad_seat == seat and isinstance(bad, dict) and any(flow.same_move(bad, m) for m in moves)):
                    before = json.dumps(state, sort_keys=True)
                    with pytest.raises(engine.IllegalMove):
                        G.play(state, bad_seat, bad, rng)
                    assert json.dumps(state, sort_keys=True) == before
            flow.step(state, seat, pick(rng, state, moves))
            decisions += 1
            if decisions % 50 == 0:
                assert len(all_card_ids(state)) == 52 and len(set(all_card_ids(state))) == 52
            assert decisions < 20000, f"{players}p seed {seed} does not end"
        check_conserved(state)
        res = G.result(state)
        assert res["winners"] and json.loads(json.dumps(res)) == res
        out.append((seed, decisions, res["winners"]))
    return out


def _job(args):
    return run_games(*args)


@pytest.mark.slow
def test_thousands_of_seeded_random_games_end_with_cards_conserved():
    jobs = []
    for players, count in GAMES.items():
        seeds = list(range(1000 * players, 1000 * players + count))
        jobs += [(players, seeds[i::2]) for i in range(2)]
    with get_context("fork").Pool(2) as pool:  # two cores: half the wall time
        results = [r for chunk in pool.map(_job, jobs) for r in chunk]
    assert len(results) == sum(GAMES.values())
    winners = {w for _, _, ws in results for w in ws}
    assert winners == {0, 1, 2, 3}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_state_a_move_works_on_is_exactly_the_fold_of_its_events(players):
    """flow.py changes the control fields of its private state directly and records them in the
    move's closing control event: folding the move's events must give that very state.  (Replay
    from event 0, JSON all through and pure play/apply are the shared contract suite's.)"""
    for seed in range(5):
        rng = random.Random(seed)
        state = engine.replay(G, G.start(players, {}, seed))
        while not state["over"]:
            seat = G.to_act(state)[0]
            events, work = flow.play(state, seat, pick(rng, state, G.legal_moves(state, seat)))
            state = engine.replay(G, events, state)
            assert state == work
