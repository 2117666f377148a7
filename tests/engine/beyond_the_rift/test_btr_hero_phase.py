"""Section 1.3-1.12 rules of the hero phase, one scenario test each (names say which rule)."""

from __future__ import annotations

import pytest

from engine import IllegalMove
from engine.beyond_the_rift import model as m

from .helpers import G, clear_enemies, decisions, give, hand, new, of, place, play, responses, types


def test_rule_1_3_hand_size_by_hero_count_and_setup_draws():
    for n, size in ((1, 7), (2, 6), (3, 5), (4, 4)):
        s, _ = new(n)
        assert all(len(h["hand"]) == size for h in s["heroes"])
        assert m.hand_size(s) == size


def test_rule_1_5_setup_ap_threat_spawns_and_gate_last():
    for n, spawn in ((1, 1), (2, 2), (3, 2), (4, 3)):
        s, _ = new(n)
        assert [h["ap"] for h in s["heroes"]] == [m.board(s, i)["start_ap"] for i in range(n)]
        assert s["threat"] == 1 and len(s["enemies"]) == spawn and len(s["terrain"]) == 1
        assert s["cards"][s["piles"]["terrain"][-1]] == "T2"  # the Side Gate always comes last
        assert s["phase"] == "hero" and G.to_act(s) == list(range(n))


def test_rule_1_3_ap_is_capped_at_20():
    s, _ = new(1)
    (c,) = hand(s, 0, "BV10", ap=19)  # Sellsword's Resolve: +3 AP to self
    s, ev = play(s, 0, {"type": "play", "card": c})
    assert s["heroes"][0]["ap"] == 20


def test_rule_1_8_cards_need_enough_ap():
    s, _ = new(1)
    clear_enemies(s)
    place(s, "C1", 0)
    (c,) = hand(s, 0, "BV02", ap=2)  # Heavy Swing: primary 3
    assert not [mv for mv in G.legal_moves(s, 0) if mv.get("card") == c and mv["type"] == "attack"]
    with pytest.raises(IllegalMove) as err:
        G.play(s, 0, {"type": "attack", "card": c}, None)
    assert err.value.code == "illegal"


def test_rule_1_8_draw_cycle_and_discard_for_ap():
    s, _ = new(1)
    cards = hand(s, 0, "BV01", "BV03", "BV06", ap=6)
    s, _ = play(s, 0, {"type": "draw"})
    assert s["heroes"][0]["ap"] == 4 and len(s["heroes"][0]["hand"]) == 4
    # cycle: flat cost (A5), pick cards one at a time
    s, _ = play(s, 0, {"type": "cycle"})
    assert G.to_act(s) == [0] and s["prompt"]["kind"] == "cycle"
    s, _ = play(s, 0, {"type": "pick", "card": cards[0]})
    s, _ = play(s, 0, {"type": "pick", "card": cards[1]})
    s, ev = play(s, 0, {"type": "finish"})
    assert s["heroes"][0]["ap"] == 3 and len(s["heroes"][0]["hand"]) == 4
    assert cards[0] in s["heroes"][0]["discard"] and cards[1] in s["heroes"][0]["discard"]
    # discard for AP: free, +board amount, not for Wounds (golden rule)
    w = give(s, 0, "W01")[0]
    moves = G.legal_moves(s, 0)
    assert {"type": "discard_ap", "card": w} not in moves
    s, _ = play(s, 0, {"type": "discard_ap", "card": cards[2]})
    assert s["heroes"][0]["ap"] == 4


def test_rule_1_8_engage_from_any_area_and_disengage():
    s, _ = new(2)
    clear_enemies(s)
    e = place(s, "O1", 1)  # engaged with the other hero
    hand(s, 0, "BV01", ap=5)
    assert {"type": "engage", "enemy": e} in G.legal_moves(s, 0)  # A6: from any area, same cost
    s, _ = play(s, 0, {"type": "engage", "enemy": e})
    assert m.enemy(s, e)["area"] == 0 and s["heroes"][0]["ap"] == 3
    s, _ = play(s, 0, {"type": "disengage", "enemy": e})
    assert m.enemy(s, e)["area"] == m.QUEST and s["heroes"][0]["ap"] == 1


def test_rule_1_8_board_action_once_per_round():
    s, _ = new(2)
    clear_enemies(s)
    e = place(s, "C1", 1)
    hand(s, 0, "BV01", ap=6)
    s, _ = play(s, 0, {"type": "board"})  # Shoulder Check: enemy engaged with another hero -> mine
    assert m.enemy(s, e)["area"] == 0 and s["heroes"][0]["ap"] == 4
    place(s, "C1", 1)
    assert {"type": "board"} not in G.legal_moves(s, 0)


def test_rule_1_9_choose_one_card_gives_one_mode():
    s, _ = new(1)
    (c,) = hand(s, 0, "BV05", ap=3)  # Brigandine: defense 1 | gain 1 AP
    plays = [mv for mv in G.legal_moves(s, 0) if mv.get("card") == c and mv["type"] == "play"]
    assert plays == [{"type": "play", "card": c, "mode": 1}]  # the defense half is for the enemy phase
    s, _ = play(s, 0, plays[0])
    assert s["heroes"][0]["ap"] == 4 and c in s["heroes"][0]["discard"]


def test_rule_1_9_do_both_card_gives_both_for_one_payment():
    s, _ = new(2, heroes=["tamsin", "brannoc"])
    (c,) = hand(s, 0, "TR10", ap=3)  # Quick Hands: gain 1 AP (range 2 hero) and draw 1
    s, _ = play(s, 0, {"type": "play", "card": c})
    assert s["prompt"]["kind"] == "choose" and s["prompt"]["options"] == [0, 1]
    s, ev = play(s, 0, {"type": "choose", "value": 1})
    assert s["heroes"][1]["ap"] == m.board(s, 1)["start_ap"] + 1
    assert len(s["heroes"][0]["hand"]) == 1 and "draw" in types(ev)


def test_rule_1_11_ap_card_for_another_hero_needs_range_2():
    s, _ = new(2)
    c1, c2 = hand(s, 0, "BV10", "BV06", ap=3)
    # Sellsword's Resolve is range 1 (self only): no target question; Battle Cry (range 2) asks
    s2, _ = play(s, 0, {"type": "play", "card": c1})
    assert s2["heroes"][0]["ap"] == 6 and s2["prompt"] is None
    s3, _ = play(s, 0, {"type": "play", "card": c2})
    assert s3["prompt"]["options"] == [0, 1]
    s3, _ = play(s3, 0, {"type": "choose", "value": 1})
    assert s3["heroes"][1]["ap"] == m.board(s, 1)["start_ap"] + 2


def test_target_choice_can_be_cancelled_before_anything_is_paid():
    s, _ = new(2)
    (c,) = hand(s, 0, "BV06", ap=3)
    s2, _ = play(s, 0, {"type": "play", "card": c})
    s2, _ = play(s2, 0, {"type": "cancel"})
    assert s2["heroes"][0]["hand"] == [c] and s2["heroes"][0]["ap"] == 3 and s2["prompt"] is None


def test_rule_1_9_persistent_sanctuary_defense_bonus_until_hit():
    s, _ = new(2, heroes=["osric", "brannoc"], defense_modes=["auto", "auto"])
    clear_enemies(s)
    (c,) = hand(s, 0, "FO09", ap=5)
    s, _ = play(s, 0, {"type": "play", "card": c})
    s, _ = play(s, 0, {"type": "choose", "value": 1})  # into Brannoc's area (range 2)
    assert [p["card"] for p in s["heroes"][1]["area"]] == [c] and s["heroes"][1]["area"][0]["bonus"] == 2
    e = place(s, "C2", 1)
    hand(s, 1, "BV01", ap=0)
    responses(s, 1, 4)  # column 1: Zealot "Attack / Engage"; attack 4 + 4 = 8 > 2 -> hit
    s["heroes"][0]["status"] = "done"
    s, ev = play(s, 1, {"type": "done"})
    (atk,) = of(ev, "enemy_attack")
    assert atk["defense"] == 2 and atk["hit"]
    assert s["heroes"][1]["area"] == [] and c in s["heroes"][0]["discard"] + s["heroes"][0]["hand"] + s["heroes"][0]["deck"]
    assert m.enemy(s, e)


def test_rule_1_9_ally_attacks_in_the_end_phase():
    s, _ = new(1, heroes=["tamsin"], defense_modes=["auto"])
    clear_enemies(s)
    (c,) = hand(s, 0, "TR11", ap=5)
    s, _ = play(s, 0, {"type": "play", "card": c})
    assert s["heroes"][0]["area"][0]["ally"]["attack"] == 3
    e = place(s, "C1", 0)
    # activation 1: Acolyte "Engage / Attack" -> attack; hero defense by plan; ally attack vs 1 + 1
    responses(s, 1, 4, 1, 1, 1, 1, 1, 1)
    s, ev = play(s, 0, {"type": "done"})
    (aa,) = of(ev, "ally_attack")
    assert aa["enemy"] == e and aa["attack"] == 3 and aa["hit"]
    assert m.enemy(s, e) is None  # health 1, one Wound


def test_rule_1_9_bonus_resolves_after_the_attack_only_on_a_hit():
    s, _ = new(1)
    clear_enemies(s)
    e = place(s, "O4", 0)  # Orc Brute, defense 2, health 4
    (c,) = hand(s, 0, "BV04", ap=5)  # Shield Bash: bonus on hit, move the target to the Quest Area
    responses(s, 1)
    s1, _ = play(s, 0, {"type": "attack", "card": c})
    s1, ev = play(s1, 0, {"type": "resolve"})
    assert of(ev, "attack_result")[0]["hit"] is False  # 2 vs 2 + 1
    assert m.enemy(s1, e)["area"] == 0
    s["heroes"][0]["ap"] = 5
    responses(s, 1)
    for f in ("F10", "F03"):  # defense -1 each: 2 vs 0 + 1 -> hit
        s["enemies"][0]["att"].append({"card": f, "mods": None, "until": None})
        s["piles"]["fatigue"].remove(f)
    s2, _ = play(s, 0, {"type": "attack", "card": c})
    s2, ev = play(s2, 0, {"type": "resolve"})
    assert of(ev, "attack_result")[0]["hit"] is True
    assert m.enemy(s2, e)["area"] == m.QUEST


def test_rule_1_10_attack_primary_secondary_and_add_range():
    s, _ = new(1, heroes=["isolde"])
    clear_enemies(s)
    e = place(s, "O1")  # in the Quest Area: range 2
    s["piles"]["terrain"][:0], s["terrain"] = s["terrain"], []
    staff, bolt, kindle, lance = hand(s, 0, "IM01", "IM02", "IM03", "IM04", ap=10)
    moves = G.legal_moves(s, 0)
    starts = {mv["card"] for mv in moves if mv["type"] == "attack"}
    assert kindle not in starts  # no primary cost: cannot start an attack
    assert staff not in starts  # range 1 cannot reach the Quest Area
    s, _ = play(s, 0, {"type": "attack", "card": bolt})  # the only target: no question asked
    assert s["heroes"][0]["ap"] == 8 and s["attack"]["target"] == e
    adds = {mv["card"] for mv in G.legal_moves(s, 0) if mv["type"] == "add"}
    assert kindle in adds and lance not in adds and staff not in adds  # no secondary / out of range (A10)
    s, _ = play(s, 0, {"type": "add", "card": kindle})
    responses(s, 4, 2)  # the "?" of Kindle, then the enemy's defense card
    s, ev = play(s, 0, {"type": "resolve"})
    (res,) = of(ev, "attack_result")
    assert res["q"] == [4] and res["attack"] == 7 and res["defense"] == 4 and res["hit"]
    assert [a["card"] for a in m.enemy(s, e)["att"]] and s["heroes"][0]["ap"] == 7
    assert s["attack"] is None and bolt in s["heroes"][0]["discard"] and kindle in s["heroes"][0]["discard"]


def test_rule_1_3_tie_goes_to_the_defender_in_hero_attacks():
    s, _ = new(1)
    clear_enemies(s)
    e = place(s, "O1", 0)  # defense 2
    (c,) = hand(s, 0, "BV01", ap=5)  # attack 3
    responses(s, 1)
    s, _ = play(s, 0, {"type": "attack", "card": c})
    s, ev = play(s, 0, {"type": "resolve"})
    assert of(ev, "attack_result")[0]["defense"] == 3 and not of(ev, "attack_result")[0]["hit"]
    assert m.enemy(s, e)["att"] == []


def test_rule_1_10_hit_deals_the_initiators_damage_and_kills_at_zero_health():
    s, _ = new(1)
    clear_enemies(s)
    e = place(s, "C1", 0)  # health 1
    (c,) = hand(s, 0, "BV02", ap=5)
    responses(s, 1)
    s, ev = play(s, 0, {"type": "attack", "card": c})
    s, ev = play(s, 0, {"type": "resolve"})
    assert "enemy_dies" in types(ev) and m.enemy(s, e) is None
    assert len(s["piles"]["wound_discard"]) == 1  # its attachment goes to the Wound discard


def test_rule_1_16_attack_kind_wound_keeps_total_at_least_1():
    s, _ = new(1, heroes=["isolde"])
    clear_enemies(s)
    place(s, "O1", 0)
    staff, w7, w17 = hand(s, 0, "IM01", "W07", "W17", ap=5)  # Staff Strike 2; Torn Muscle -2; Adrenaline +1
    s, _ = play(s, 0, {"type": "attack", "card": staff})
    moves = G.legal_moves(s, 0)
    assert {"type": "add_wound", "card": w7} not in moves  # 2 - 2 = 0 < 1 (A8)
    s, _ = play(s, 0, {"type": "add_wound", "card": w17})
    assert {"type": "add_wound", "card": w7} in G.legal_moves(s, 0)  # 3 - 2 = 1
    responses(s, 1)
    s, ev = play(s, 0, {"type": "resolve"})
    assert of(ev, "attack_result")[0]["attack"] == 3
    assert w17 in s["heroes"][0]["discard"]  # a played Wound goes to the hero's own discard


def test_rule_1_16_ap_kind_wound_played_alone_and_fatigue_leaves_the_hero():
    s, _ = new(1)
    w, f = hand(s, 0, "W08", "F10", ap=3)  # AP -2, AP -2
    s, _ = play(s, 0, {"type": "wound", "card": w})
    assert s["heroes"][0]["ap"] == 1 and w in s["heroes"][0]["discard"]
    assert {"type": "wound", "card": f} not in G.legal_moves(s, 0)  # too little AP
    s["heroes"][0]["ap"] = 2
    s, _ = play(s, 0, {"type": "wound", "card": f})
    assert f in s["piles"]["fatigue_discard"]


def test_rule_1_11_aiding_an_attack_pays_primary_and_range_from_the_aider():
    s, _ = new(2, heroes=["brannoc", "isolde"])
    clear_enemies(s)
    e = place(s, "O4", 0)  # engaged with Brannoc: distance 2 for Isolde
    (cut,) = hand(s, 0, "BV01", ap=5)
    staff, bolt, kindle = hand(s, 1, "IM01", "IM02", "IM03", ap=5)
    s, _ = play(s, 0, {"type": "attack", "card": cut})
    assert G.to_act(s) == [0, 1]
    aid = decisions(s, 1)
    assert aid == [{"type": "aid", "card": bolt}, {"type": "no_aid"}]  # Staff range 1, Kindle no primary
    assert [mv for mv in G.legal_moves(s, 0) if mv["type"] == "resolve"]
    with pytest.raises(IllegalMove):
        G.play(s, 1, {"type": "draw"}, None)  # nothing else may start while the attack is open
    s, _ = play(s, 1, {"type": "aid", "card": bolt})
    assert s["heroes"][1]["ap"] == 3
    responses(s, 1)
    s, ev = play(s, 0, {"type": "resolve"})
    res = of(ev, "attack_result")[0]
    assert res["attack"] == 6 and res["hit"]
    assert len(m.enemy(s, e)["att"]) == 1  # damage from the initiator only
    assert bolt in s["heroes"][1]["discard"]


def test_done_is_cleared_when_another_hero_gives_ap():
    s, _ = new(2)
    (c,) = hand(s, 0, "BV06", ap=3)
    s, _ = play(s, 1, {"type": "done"})
    assert G.to_act(s) == [0]
    s, _ = play(s, 0, {"type": "play", "card": c})
    s, ev = play(s, 0, {"type": "choose", "value": 1})
    assert s["heroes"][1]["status"] == "active" and G.to_act(s) == [0, 1]


def test_done_final_is_not_reopened_and_the_phase_closes_when_all_are_done():
    s, _ = new(2)
    s, _ = play(s, 1, {"type": "done_final"})
    # never reopened: only standing orders stay editable, and nobody waits on that hero
    assert {mv["type"] for mv in G.legal_moves(s, 1)} == {"mode", "setting"} and G.to_act(s) == [0]
    s, ev = play(s, 0, {"type": "done"})
    assert ("phase" in types(ev) and s["round"] == 2 and s["phase"] == "hero") or G.result(s) is not None


def test_pledge_joins_the_next_attack_of_that_hero():
    s, _ = new(2, heroes=["brannoc", "isolde"])
    clear_enemies(s)
    place(s, "O4", 0)
    s["terrain"] = []
    (cut,) = hand(s, 0, "BV01", ap=5)
    bolt, staff = hand(s, 1, "IM02", "IM01", ap=5)
    assert {"type": "pledge", "card": staff, "to": 0} in G.legal_moves(s, 1)
    for card in (bolt, staff):  # the staff has range 1: it will not reach
        s, _ = play(s, 1, {"type": "pledge", "card": card, "to": 0})
        s, _ = play(s, 1, {"type": "choose", "value": "any"})
    assert {"type": "unpledge", "card": bolt} in G.legal_moves(s, 1)
    s, ev = play(s, 0, {"type": "attack", "card": cut})
    assert [c["card"] for c in s["attack"]["cards"]] == [cut, bolt] and s["heroes"][1]["ap"] == 3
    assert s["heroes"][1]["pledges"] == [{"card": staff, "to": 0}]
    s, _ = play(s, 0, {"type": "resolve"})
    s, _ = play(s, 1, {"type": "done"})
    s, ev = play(s, 0, {"type": "done"})
    assert G.result(s) is not None or s["heroes"][1]["pledges"] == []  # lapsed with the hero phase


def test_rule_1_4_range_one_reaches_only_your_own_area():
    s, _ = new(2, heroes=["brannoc", "tamsin"])
    clear_enemies(s)
    s["terrain"] = []
    mine = place(s, "O1", 0)
    theirs = place(s, "O1", 1)
    quest = place(s, "O1")
    (cut,) = hand(s, 0, "BV01", ap=5)  # range 1
    s1, _ = play(s, 0, {"type": "attack", "card": cut})
    assert s1["attack"]["target"] == mine  # the only target at range 1: no question
    (shot,) = hand(s, 1, "TR01", ap=5)  # range 2: everything
    s2, _ = play(s, 1, {"type": "attack", "card": shot})
    assert set(s2["prompt"]["options"]) == {mine, theirs, quest}


def test_rule_1_12_ap_cards_give_the_printed_ap_to_the_target_hero():
    s, _ = new(2, heroes=["osric", "isolde"])
    (fp,) = hand(s, 0, "FO07", ap=1)  # Fervent Prayer: cost 1, +3 to a hero in range 2
    s, _ = play(s, 0, {"type": "play", "card": fp})
    s, ev = play(s, 0, {"type": "choose", "value": 1})
    assert s["heroes"][0]["ap"] == 0 and s["heroes"][1]["ap"] == 8 + 3
    assert [e["seat"] for e in of(ev, "ap")] == [0, 1]


def test_rule_1_8_defense_cards_are_not_played_in_the_hero_phase():
    s, _ = new(1)
    (blk,) = hand(s, 0, "BV03", ap=5)
    assert not [mv for mv in G.legal_moves(s, 0) if mv.get("card") == blk and mv["type"] in ("play", "attack")]
