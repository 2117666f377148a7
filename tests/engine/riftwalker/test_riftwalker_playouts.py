"""Random playouts for 2, 3 and 4 players (issue 6): thousands of seeded games end, cards are conserved,
replaying the JSON round-tripped log equals the live state, and junk or illegal moves are refused."""

import importlib.util
import json
import random
from multiprocessing import get_context
from pathlib import Path

import pytest

import engine
from engine.riftwalker import flow
from engine.riftwalker.state import all_card_ids, copy_state

from ._helpers import G, check_conserved

GAMES = {2: 700, 3: 700, 4: 700}  # 2,100 games in all (about 70 s of CPU, split over two cores)
PREFERRED = ("burst", "shift", "explore", "activate", "force_burst", "take", "draw", "tuck", "choose")


def _load_bot():
    path = Path(__file__).resolve().parents[3] / "bench" / "riftwalker_balance.py"
    spec = importlib.util.spec_from_file_location("riftwalker_balance", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.greedy


GREEDY = _load_bot()  # the balance bench's bot: its element choices make lines, so games end sooner


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
def test_replay_of_the_json_log_equals_the_live_state(players):
    for seed in range(5):
        rng = random.Random(seed)
        log = G.start(players, {}, seed)
        state = engine.replay(G, log)
        while not state["over"]:
            seat = G.to_act(state)[0]
            moves = G.legal_moves(state, seat)
            move = pick(rng, state, moves)
            before = json.dumps(state, sort_keys=True) if rng.random() < 0.05 else None
            events, work = flow.play(state, seat, move)
            if before is not None:
                assert json.dumps(state, sort_keys=True) == before  # play never mutates its input
            state = engine.replay(G, events, state)
            assert state == work  # the state play computed is exactly the fold of its events
            log += events
        stored = json.loads(json.dumps(log))
        assert engine.replay(G, stored) == state
        assert json.loads(json.dumps(state)) == state  # plain JSON: no tuples, no int keys
        mid = len(stored) // 2
        snapshot = engine.replay(G, stored[:mid])
        assert engine.replay(G, stored[mid:], snapshot) == state  # snapshots are only a cache


def test_copy_state_is_independent():
    state = engine.replay(G, G.start(3, {}, 4))
    twin = copy_state(state)
    assert twin == state
    twin["hands"][0].append("X")
    twin["grid"][0][1] ^= 1
    twin["turn"]["activated"].append("Y")
    twin["end"]["left"].append(9)
    assert twin != state and "X" not in state["hands"][0] and state["turn"]["activated"] == []
    assert G.copy_state(None) is None
