"""Decks and exhaustion (1.6), round structure (1.7), quest (1.17), draw and death (1.18), end (1.19),
terrain, doors and portcullises (1.20), scenario rules."""

from __future__ import annotations

import contextlib

from engine.beyond_the_rift import model as m
from engine.beyond_the_rift.primitives import Ctx, Stop, attach_damage, draw_cards, hero_takes

from .helpers import G, clear_enemies, finish, give, hand, new, of, place, play, responses, types


def _ctx(s, seed=0):
    import random

    return Ctx(G.copy_state(s), random.Random(seed))


def test_rule_1_6_empty_hero_deck_reshuffles_with_two_fatigue():
    s, _ = new(1)
    h = s["heroes"][0]
    h["discard"] += h["deck"][:-1]
    h["deck"] = h["deck"][-1:]
    ctx = _ctx(s)
    draw_cards(ctx, 0, 2)
    kinds = [e["type"] for e in ctx.events]
    assert kinds == ["draw", "add_to_discard", "add_to_discard", "hero_shuffle", "draw"]
    assert sum(1 for c in ctx.s["heroes"][0]["deck"] + ctx.s["heroes"][0]["hand"] if m.kind(ctx.s, c) == "fatigue") == 2


def test_rule_1_16_no_fatigue_left_means_a_wound_for_heroes_and_nothing_for_enemies():
    s, _ = new(1)
    s["piles"]["fatigue"] = []
    ctx = _ctx(s)
    hero_takes(ctx, 0, {"wound": 0, "fatigue": 1})
    assert [e["pile"] for e in of(ctx.events, "take")] == ["wound"]
    clear_enemies(ctx.s)
    e = place(ctx.s, "O4")
    attach_damage(ctx, e, "fatigue")
    assert not of(ctx.events, "attach")


def test_rule_1_16_wound_supply_running_out_loses():
    s, _ = new(1)
    s["piles"]["wound"] = []
    s["piles"]["wound_discard"] = []
    ctx = _ctx(s)
    with contextlib.suppress(Stop):
        hero_takes(ctx, 0, {"wound": 1, "fatigue": 0})
    assert ctx.s["result"]["outcome"] == "loss" and ctx.s["result"]["reason"] == "wound_supply"
    assert "the Wound supply ran out" in G.render_text(G.view(ctx.s, None))


def test_rule_1_6_wound_deck_reshuffles_its_discard():
    s, _ = new(1)
    s["piles"]["wound_discard"] = s["piles"]["wound"][1:]
    s["piles"]["wound"] = []
    ctx = _ctx(s)
    hero_takes(ctx, 0, {"wound": 1, "fatigue": 0})
    assert types(ctx.events) == ["pile_shuffle", "take"]


def test_h1_response_deck_reshuffles_and_never_mode_loses():
    s, _ = new(1, defense_modes=["auto"])
    s["piles"]["response_discard"] = s["piles"]["response"]
    s["piles"]["response"] = []
    s, ev = finish(s)
    assert "pile_shuffle" in types(ev)
    s, _ = new(1, defense_modes=["auto"], response_reshuffle="never")
    s["piles"]["response_discard"] = s["piles"]["response"]
    s["piles"]["response"] = []
    s, ev = finish(s)
    assert G.result(s)["outcome"] == "loss" and G.result(s)["reason"] == "response_deck"


def test_rule_1_7_round_structure_phases_in_order():
    s, _ = new(1, defense_modes=["auto"])
    s, ev = finish(s)
    phases = [e["phase"] for e in of(ev, "phase")]
    if G.result(s) is None:
        assert phases == ["enemy", "quest", "draw", "end", "hero"] and s["round"] == 2


def test_rule_1_17_quest_phase_threat_and_threat_based_spawns():
    s, _ = new(4, defense_modes=["auto"] * 4)
    clear_enemies(s)
    s["threat"] = 3
    n = len(s["piles"]["enemy"])
    s, ev = finish(s)
    assert s["threat"] >= 4
    # threat 4 after step 1 -> 4-6 row -> 2 spawns for 4 heroes
    assert len([e for e in of(ev, "spawn") if e["from"] == "deck"]) == 2 and len(s["piles"]["enemy"]) == n - 2


def test_rule_1_17_empty_enemy_deck_spawns_nothing_and_threat_10_loses():
    s, _ = new(1, defense_modes=["auto"])
    clear_enemies(s)
    s["piles"]["enemy"] = []
    s, ev = finish(s)
    assert not of(ev, "spawn")
    s, _ = new(1, defense_modes=["auto"])
    clear_enemies(s)
    s["threat"] = 9
    s, ev = finish(s)
    assert G.result(s)["outcome"] == "loss" and G.result(s)["reason"] == "threat"
    assert "(Threat reached 10)" in G.render_text(G.view(s, 0))


def test_rule_1_18_ap_reset_counts_every_card_in_hand_and_draws_hand_size():
    s, _ = new(1, defense_modes=["auto"])
    clear_enemies(s)
    s["piles"]["enemy"] = []
    hand(s, 0, "BV01", "W01", "F01", ap=0)
    s, ev = finish(s)
    h = s["heroes"][0]
    assert [e["ap"] for e in of(ev, "ap") if e["why"] == "draw_phase"] == [6 + 3]  # A7: Wounds count
    assert len(h["hand"]) == 10 and h["discard_down"] == 3


def test_rule_1_18_discard_down_is_deferred_and_defaults_by_discard_order():
    s, _ = new(1, defense_modes=["auto"])
    clear_enemies(s)
    s["piles"]["enemy"] = []
    hand(s, 0, "BV01", "BV11", "W01", ap=0)
    s, _ = finish(s)
    h = s["heroes"][0]
    assert h["discard_down"] == 3
    moves = G.legal_moves(s, 0)
    # the discard-down comes first; only the standing orders (DISCARD-ORDER among them) may change before it
    assert {mv["type"] for mv in moves} == {"discard", "done", "done_final", "mode", "setting"}
    assert all(not m.is_damage(s, mv["card"]) for mv in moves if mv["type"] == "discard")
    s1, _ = play(s, 0, moves[0])
    assert s1["heroes"][0]["discard_down"] == 2
    s3, ev = play(s, 0, {"type": "setting", "key": "discard_first", "value": "defense"})
    assert s3["heroes"][0]["discard_down"] == 3 and not of(ev, "discard")
    s2, ev = play(s, 0, G.default_move(s, 0))
    (d,) = [e for e in of(ev, "discard") if e.get("why") == "hand_size"]
    assert len(d["cards"]) == 3 and not any(m.is_damage(s, c) for c in d["cards"])


def test_rule_1_18_death_when_wounds_and_fatigue_fill_the_hand():
    s, _ = new(1, defense_modes=["auto"])
    clear_enemies(s)
    s["piles"]["enemy"] = []
    hand(s, 0, "W01", "W02", "W03", "F01", "F02", "F03", ap=0)
    h = s["heroes"][0]
    for w in ("W04",):
        s["piles"]["wound"].remove(w)
        h["deck"].insert(0, w)
    before = s
    s, ev = finish(s)
    assert G.result(s) == {"scores": {"0": 0}, "winners": [], "outcome": "loss", "reason": "hero_died", "seat": 0,
                           "scenario": "tutorial", "rounds": 1, "rewards": {}}
    states = [before]
    for e in ev:
        states.append(G.apply(states[-1], e))
    assert G.describe_event(ev[-1], 0, states[-2]) == "The heroes lose: Brannoc Vey died."


def test_rule_1_20_open_a_door_with_ap_tie_fails():
    s, _ = new(1)
    clear_enemies(s)
    door = s["terrain"][0]
    assert s["cards"][door] == "T1"  # tutorial Door: lock 4
    s["heroes"][0]["ap"] = 8
    responses(s, 3)
    s1, _ = play(s, 0, {"type": "open", "door": door})
    assert s1["prompt"]["options"] == list(range(1, 9))
    s1, ev = play(s1, 0, {"type": "spend", "n": 7})
    assert of(ev, "door_open")[0]["ok"] is False and door in s1["terrain"] and s1["heroes"][0]["ap"] == 1
    responses(s, 3)
    s2, _ = play(s, 0, {"type": "open", "door": door})
    s2, ev = play(s2, 0, {"type": "spend", "n": 8})
    assert of(ev, "door_open")[0]["ok"] and door not in s2["terrain"]
    assert s2["threat"] == 0  # tutorial: removing the Door lowers Threat by 1


def test_rule_1_20_terrain_needs_a_hero_not_engaged():
    s, _ = new(1)
    clear_enemies(s)
    place(s, "C1", 0)
    s["heroes"][0]["ap"] = 8
    assert not [mv for mv in G.legal_moves(s, 0) if mv["type"] in ("open", "interact")]


def test_rule_1_20_attacking_a_door_range_depends_on_engagement():
    s, _ = new(1)
    clear_enemies(s)
    door = s["terrain"][0]
    (cut,) = hand(s, 0, "BV01", ap=5)  # range 1: reaches the door only while not engaged
    assert {"type": "attack", "card": cut} in G.legal_moves(s, 0)
    e = place(s, "C1", 0)
    s1, _ = play(s, 0, {"type": "attack", "card": cut})
    assert s1["attack"]["target"] == e  # the door is at range 2 now; only the enemy is reachable
    clear_enemies(s)
    s2, _ = play(s, 0, {"type": "attack", "card": cut})
    assert s2["attack"]["target"] == door
    responses(s2, 1)
    s2, ev = play(s2, 0, {"type": "resolve"})
    assert of(ev, "attack_result")[0]["defense"] == 4 and not of(ev, "attack_result")[0]["hit"]


def test_rule_1_20_terrain_interaction_rubble_and_once_per_round_well():
    s, _ = new(1, scenario="old-friends-1")
    clear_enemies(s)
    s["piles"]["terrain"] += s["terrain"]
    s["terrain"] = []
    rub = [c for c in s["piles"]["terrain"] if s["cards"][c] == "T3"][0]
    well = [c for c in s["piles"]["terrain"] if s["cards"][c] == "T6"][0]
    s["piles"]["terrain"].remove(rub)
    s["piles"]["terrain"].remove(well)
    s["terrain"] = [rub, well]
    hand(s, 0, "BV01", "F01", ap=6)
    s, ev = play(s, 0, {"type": "interact", "terrain": rub})
    assert rub not in s["terrain"] and len(s["heroes"][0]["hand"]) == 3 and s["heroes"][0]["ap"] == 4
    s, ev = play(s, 0, {"type": "interact", "terrain": well})
    assert "F01" in s["piles"]["fatigue_discard"] and well in s["terrain"]
    assert {"type": "interact", "terrain": well} not in G.legal_moves(s, 0)


def test_tutorial_win_when_the_side_gate_leaves_play():
    s, _ = new(1)
    clear_enemies(s)
    gate = [c for c in s["piles"]["terrain"] if s["cards"][c] == "T2"][0]
    s["piles"]["terrain"].remove(gate)
    s["terrain"] = [gate]
    s["heroes"][0]["ap"] = 20
    responses(s, 4)
    s, _ = play(s, 0, {"type": "open", "door": gate})
    s, ev = play(s, 0, {"type": "spend", "n": 11})
    r = G.result(s)
    assert r["outcome"] == "win" and r["winners"] == [0] and G.to_act(s) == []


def test_scenario_1_barricade_gives_archers_defense_and_huntmaster_arrives():
    s, _ = new(1, scenario="old-friends-1", defense_modes=["auto"])
    clear_enemies(s)
    a = place(s, "O2")
    barricade = [c for c in s["piles"]["terrain"] + s["terrain"] if s["cards"][c] == "T7"][0]
    if barricade not in s["terrain"]:
        s["piles"]["terrain"].remove(barricade)
        s["terrain"].append(barricade)
    assert m.enemy_stat(s, m.enemy(s, a), "defense") == 2
    s["threat"] = 3  # quest phase raises it to 4: the Huntmaster arrives (1 hero)
    s["piles"]["enemy"] = []
    s, ev = finish(s)
    assert [e for e in of(ev, "spawn") if e["from"] == "aside"][0]["enemy"]["type"] == "O3"


def test_scenario_3_ritual_circles_protect_captain_hask():
    s, _ = new(1, scenario="old-friends-3")
    hask = [e for e in s["enemies"] if e["type"] == "C5"][0]
    assert m.enemy_stat(s, hask, "defense") == 5
    s["heroes"][0]["ap"] = 10
    assert {"type": "engage", "enemy": hask["id"]} not in G.legal_moves(s, 0)
    s["terrain"] = [t for t in s["terrain"] if s["cards"][t] != "T9"]
    assert {"type": "engage", "enemy": hask["id"]} in G.legal_moves(s, 0)


def test_rule_1_19_end_phase_scenario_win_in_the_burrow_road():
    s, _ = new(1, scenario="old-friends-2", defense_modes=["auto"])
    clear_enemies(s)
    s["piles"]["enemy"] = []
    s["terrain"] = []
    s["removed_terrain"] = ["T8", "T8", "T2"]
    s, ev = finish(s)
    assert G.result(s)["outcome"] == "win" and types(ev).index("result") > types(ev).index("phase")


def test_scout_ahead_reveals_and_picks_one():
    s, _ = new(1, heroes=["tamsin"])
    (sa,) = hand(s, 0, "TR08", ap=3)
    top = s["heroes"][0]["deck"][:3]
    s, ev = play(s, 0, {"type": "play", "card": sa})
    assert of(ev, "reveal")[0]["cards"] == top and s["prompt"]["kind"] == "pick"
    s, ev = play(s, 0, {"type": "pick", "card": top[1]})
    h = s["heroes"][0]
    assert top[1] in h["hand"] and top[0] in h["discard"] and top[2] in h["discard"] and sa in h["discard"]
    assert s["limbo"] == []


def test_board_actions_peek_response_and_sharp_eyes():
    s, _ = new(1, heroes=["isolde"])
    s["heroes"][0]["ap"] = 3
    top = s["piles"]["response"][0]
    s, ev = play(s, 0, {"type": "board"})
    assert of(ev, "peek")[0]["cards"] == [top] and s["prompt"]["kind"] == "bottom"
    s, _ = play(s, 0, {"type": "bottom", "card": top})
    assert s["piles"]["response"][-1] == top
    s, _ = new(1, heroes=["tamsin"])
    top = s["heroes"][0]["deck"][0]
    s, ev = play(s, 0, {"type": "board"})
    s, _ = play(s, 0, {"type": "bottom", "card": top})
    assert top in s["heroes"][0]["discard"]
    assert G.redact_event(of(ev, "peek")[0], None)["cards"] == 1  # nobody else sees it


def test_attach_self_cards_stay_under_the_enemy_and_return_when_it_dies():
    s, _ = new(1, heroes=["isolde"])
    clear_enemies(s)
    e = place(s, "C1")
    (sm,) = hand(s, 0, "IM09", ap=5)  # Scorch Mark: defense -1, attached
    s, _ = play(s, 0, {"type": "play", "card": sm})
    rec = m.enemy(s, e)
    assert [a["card"] for a in rec["att"]] == [sm] and m.enemy_stat(s, rec, "defense") == 0
    s["heroes"][0]["ap"] = 5
    (bolt,) = give(s, 0, "IM02")
    responses(s, 1)
    s["terrain"] = []
    s, ev = play(s, 0, {"type": "attack", "card": bolt})
    s, ev = play(s, 0, {"type": "resolve"})
    assert m.enemy(s, e) is None and sm in s["heroes"][0]["discard"]
