"""`turn(state)`: a turn begins each time the game waits on heroes again after a moment it waited on nobody
(the service's rule before engines said turns: a move was "idle" when, after an event that is not its
last, nobody was to act while the scenario went on; then every seat to act after it began a new turn)."""

from __future__ import annotations

import random

import engine

from .helpers import G, clear_enemies, greedy_chooser, hand, new, place, play, random_chooser, responses


def _old_rule_idle(state, events):
    for i, ev in enumerate(events):
        state = G.apply(state, ev)
        if i < len(events) - 1 and not G.to_act(state) and G.result(state) is None:
            return True
    return False


def test_turns_follow_the_services_old_idle_rule_move_by_move():
    checked = new_turns = 0
    for scenario, n, modes, chooser in (("tutorial", 2, ["ask", "ask_if"], greedy_chooser),
                                        ("old-friends-1", 3, ["ask"] * 3, random_chooser),
                                        ("old-friends-2", 1, ["auto"], greedy_chooser),
                                        ("old-friends-3", 4, ["ask", "auto", "ask_if", "ask"], greedy_chooser)):
        for seed in (1, 2, 3):
            state, _ = new(n, scenario, seed, defense_modes=modes)
            assert G.turn(state) == engine.Turn(1, "hero", tuple(range(n)))
            rng = random.Random(seed)
            while G.result(state) is None:
                seat = rng.choice(G.to_act(state))
                move = chooser(state, seat, G.legal_moves(state, seat), rng)
                events = G.play(state, seat, move, random.Random(rng.getrandbits(32)))
                idle = _old_rule_idle(state, events)
                before = G.turn(state)
                state = engine.replay(G, events, state)
                after = G.turn(state)
                checked += 1
                if G.result(state) is not None:
                    assert after.seats == () and after.phase == "over"
                elif idle:
                    new_turns += 1
                    assert after.number == before.number + 1, (move, before, after)
                    assert set(after.seats) == set(G.to_act(state)) and after.seats
                else:
                    assert after.number == before.number, (move, before, after)
    assert checked > 500 and new_turns > 50


def test_a_hero_phase_is_one_turn_until_its_last_done():
    s, _ = new(2, defense_modes=["auto", "auto"])
    clear_enemies(s)
    s["piles"]["enemy"] = []
    t1 = G.turn(s)
    s, _ = play(s, 0, {"type": "done"})
    s, _ = play(s, 0, {"type": "undone"})
    s, _ = play(s, 0, {"type": "done"})
    assert G.turn(s) == t1  # DONE, UNDONE: the same turn
    s, _ = play(s, 1, {"type": "done"})  # the last DONE: the automatic phases, then round 2's hero phase
    assert s["round"] == 2 and G.turn(s) == engine.Turn(t1.number + 1, "hero", (0, 1))


def test_an_attack_window_and_a_target_prompt_begin_no_turn():
    s, _ = new(2, heroes=["tamsin", "brannoc"])
    clear_enemies(s)
    a = place(s, "C1", -1)
    place(s, "C1", -1)
    s["terrain"] = []
    (c,) = hand(s, 0, "TR02", ap=9)  # range 2: two targets, so the target is asked
    t1 = G.turn(s)
    s, _ = play(s, 0, {"type": "attack", "card": c})
    assert s["prompt"]["kind"] == "choose" and G.turn(s) == t1
    s, _ = play(s, 0, {"type": "choose", "value": a})
    assert s["attack"] is not None and G.turn(s) == t1


def test_each_defense_prompt_of_the_enemy_phase_begins_a_turn():
    s, _ = new(1, defense_modes=["ask"])
    clear_enemies(s)
    s["piles"]["enemy"] = []
    place(s, "C2", 0)
    place(s, "C2", 0)
    responses(s, 2, 1, 1, 1, 1, 1)
    t1 = G.turn(s)
    s, _ = play(s, 0, {"type": "done"})
    assert s["prompt"]["kind"] == "defense" and G.turn(s) == engine.Turn(t1.number + 1, "enemy", (0,))
    s, _ = play(s, 0, {"type": "confirm"})
    assert G.turn(s).number == t1.number + 2  # the enemy phase went on without anyone, then asked again
