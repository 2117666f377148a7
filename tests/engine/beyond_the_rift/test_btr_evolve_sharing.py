"""evolve hands some of an event's own values to the state uncopied (evolve.py's "whole records": plans,
the party's settings, the flow, attacks, defenses).  What that relies on, checked along random games in
which players change their standing orders, attack and defend: an event never changes once emitted, by
the rest of its move, by later moves or by replaying it; and a state kept (the service keeps the state
before a move, and the positions it showed) never changes when later events are applied."""

from __future__ import annotations

import json
import random

import pytest

import engine
from engine.beyond_the_rift import primitives

from .helpers import G, greedy_chooser, new, random_chooser


def _frozen(x) -> str:
    return json.dumps(x, sort_keys=True)


@pytest.mark.parametrize(("n", "scenario", "seed"), [(1, "tutorial", 1), (2, "old-friends-1", 1), (3, "old-friends-2", 5), (4, "old-friends-3", 3)])
def test_events_never_change_once_emitted_and_kept_states_stay_as_they_were(monkeypatch, n, scenario, seed):
    emitted: list[tuple[dict, str]] = []  # each event as play applied it to its working state, at that moment

    def evolve_noting(s, ev):
        emitted.append((ev, _frozen(ev)))
        return G.evolve(s, ev)

    monkeypatch.setattr(primitives, "evolve", evolve_noting)  # what Ctx.emit and Ctx.sync apply
    state, log = new(n, scenario, seed, defense_modes=["ask"] * n)
    rng = random.Random(seed)
    kept: list[tuple[dict, str]] = []  # states left behind by `apply`, as the service keeps them
    in_place = engine.replay(G, json.loads(json.dumps(log)))  # the other way: one state evolved in place
    kinds: set[str] = set()
    for _ in range(600):
        if G.result(state) is not None:
            break
        seat = rng.choice(G.to_act(state))
        chooser = greedy_chooser if rng.random() < 0.6 else random_chooser  # greedy attacks, random edits orders
        move = chooser(state, seat, G.legal_moves(state, seat), rng)
        events = G.play(state, seat, move, random.Random(rng.getrandbits(32)))
        for ev in events:
            kept.append((state, _frozen(state)))
            state = G.apply(state, ev)
            in_place = G.evolve(in_place, ev)
            kinds.add(ev["key"] if ev["type"] in ("set", "hero_set") else ev["type"])
        log += events
    assert {"plan", "party", "flow", "attack_state", "defense_state"} <= kinds, kinds  # the records evolve shares were exercised
    assert in_place == state
    for ev, then in emitted:
        assert _frozen(ev) == then, f"an event changed after it was emitted: {then}"
    for old, then in kept:
        assert _frozen(old) == then, "a kept state changed when later events were applied"
    shown = [_frozen(ev) for ev in log]
    replayed = engine.replay(G, log)  # the very event objects the log keeps (and shows)
    assert [_frozen(ev) for ev in log] == shown, "replay changed the log's events"
    assert replayed == state
