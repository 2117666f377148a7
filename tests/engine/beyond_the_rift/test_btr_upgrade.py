"""A game set up under rules version 1 goes on under the current rules: its log (made by the version-1
engine, git 74f932d: two rounds of Ashes at Hollowmere, 2 heroes) replays, and the game can be played
to its end; the fields version 2 added take the defaults that were version 1's fixed behaviour."""

from __future__ import annotations

import json
import random
from pathlib import Path

import engine
from engine.beyond_the_rift.orders import DEFAULT_PARTY

from .helpers import G, greedy_chooser

LOG = json.loads((Path(__file__).parent / "upgrade" / "rules-1-old-friends-1-2-heroes.json").read_text())


def test_a_rules_version_1_game_replays_and_plays_on_to_its_end():
    assert LOG["rules_version"] == "1" and G.rules_version != "1"
    assert "party" not in LOG["events"][0]["state"]  # a real version-1 setup
    # as the service reads it: every event upcast, then replayed; the raw events replay the same
    log = [G.upcast(ev, LOG["rules_version"]) for ev in LOG["events"]]
    state = engine.replay(G, log)
    assert engine.replay(G, LOG["events"]) == state
    assert state["party"] == DEFAULT_PARTY and state["round"] == 3
    assert all(h["plan"]["when"] == [] for h in state["heroes"])
    # the standing orders added later keep the older versions' fixed behaviour (H25: discard at once,
    # H26: the automatic rewards), and turns were counted from the old events: one per hero phase
    assert all(h["plan"]["recover_fatigue"] == "always" and h["plan"]["rewards"] == "auto" for h in state["heroes"])
    assert G.turn(state).number == 3 and G.turn(state).phase == "hero"
    rng = random.Random(LOG["seed"])
    for _ in range(4000):
        if G.result(state) is not None:
            break
        for seat in (None, *range(state["n"])):
            G.render_text(G.view(state, seat))
        seat = rng.choice(G.to_act(state))
        move = greedy_chooser(state, seat, G.legal_moves(state, seat), rng)
        events = G.play(state, seat, move, random.Random(rng.getrandbits(32)))
        for ev in events:
            state = G.evolve(state, ev)
        log += events
    assert G.result(state)["outcome"] in ("win", "loss")
    assert engine.replay(G, json.loads(json.dumps(log))) == state


def test_rules_version_1_modifier_events_still_apply():
    """Version 1 named the `mod` op's event enemy_tmp (enemies only); version 2 says stat_mod, and upcast
    turns the one into the other."""
    state = engine.replay(G, LOG["events"])
    enemy = state["enemies"][0]
    old = {"type": "enemy_tmp", "enemy": enemy["id"], "stat": "attack", "n": 2, "dur": "this_round"}
    assert G.upcast(old, "1") == {"type": "stat_mod", "to": enemy["id"], "stat": "attack", "n": 2, "dur": "this_round"}
    for event in (old, G.upcast(old, "1")):
        after = G.apply(state, event)
        assert next(e for e in after["enemies"] if e["id"] == enemy["id"])["tmp"] == [
            {"stat": "attack", "n": 2, "dur": "this_round"}]
