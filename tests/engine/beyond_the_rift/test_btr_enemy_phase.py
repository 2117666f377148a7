"""Section 1.13-1.15 and every enemy keyword: activation, fallbacks, target priority, enemy attacks."""

from __future__ import annotations

from engine.beyond_the_rift import model as m

from .helpers import G, clear_enemies, finish, hand, new, of, place, play, responses, sigil_response, types


def enemy_round(s, seat=0):
    """Close the hero phase; everything automatic runs."""
    return finish(s, seat)


def _quiet(s):
    """No terrain spawn surprises, no quest spawns: the enemy deck is emptied into the bottom pile."""
    s["piles"]["enemy"] = []


def test_rule_1_13_no_enemy_no_enemy_phase():
    s, _ = new(1)
    clear_enemies(s)
    _quiet(s)
    n = len(s["piles"]["response"])
    s, ev = enemy_round(s)
    assert not of(ev, "activation") and len(s["piles"]["response"]) == n


def test_rule_1_13_activation_column_rows_and_oldest_first():
    s, _ = new(2, defense_modes=["auto", "auto"])
    clear_enemies(s)
    _quiet(s)
    a1 = place(s, "C1")  # Acolyte row 2 in the tutorial, Zealot row 1
    z = place(s, "C2")
    a2 = place(s, "C1")
    responses(s, 2)  # column 2: Zealot "Engage ; Attack", Acolyte "Attack / Engage"
    s, ev = enemy_round(s)
    steps = [e["enemy"] for e in of(ev, "enemy_step")]
    assert steps[:3] == [z, z, a1] and a2 in steps[3:]


def test_rule_1_13_fallback_when_unable_and_unable_means_no_board_change():
    s, _ = new(1, defense_modes=["auto"])
    clear_enemies(s)
    _quiet(s)
    a = place(s, "C1")  # range 1, in the Quest Area: "Attack / Engage" -> cannot attack, engages
    responses(s, 2)
    s, ev = enemy_round(s)
    (st,) = of(ev, "enemy_step")
    assert st["did"] == "else" and m.enemy(s, a)["area"] == 0


def test_rule_1_13_newcomers_do_not_activate():
    s, _ = new(1, scenario="old-friends-1", defense_modes=["auto"])
    clear_enemies(s)
    _quiet(s)
    place(s, "O3", 0)  # Huntmaster col 4: "Summon Orc Grunt ; Attack"
    responses(s, 4)
    s, ev = enemy_round(s)
    (sp,) = [e for e in of(ev, "spawn") if e["from"] == "summon"]
    assert sp["enemy"]["area"] == 0  # A37: summoned into the summoner's area
    assert sp["enemy"]["id"] not in [e["enemy"] for e in of(ev, "enemy_step")]


def test_rule_1_15_target_priority_fewest_enemies_then_fewest_cards_then_most_wounds():
    s, _ = new(3, defense_modes=["auto"] * 3)
    clear_enemies(s)
    place(s, "C1", 0)
    assert m.ranking(s)[-1] == 0  # hero 0 has an enemy in their area
    hand(s, 1, "BV01", "BV01")
    hand(s, 2, "BV03", "W01")
    # 1 and 2 tie on enemies and hand size; 2 has more Wounds
    for h in s["heroes"][1:]:
        assert len(h["hand"]) == 2
    assert m.ranking(s)[:2] == [2, 1]
    s["heroes"][1]["hand"].pop()
    assert m.ranking(s)[0] == 1  # fewer cards wins before wounds


def test_rule_1_15_ties_use_the_rotating_tiebreak_order():
    s, _ = new(2)
    clear_enemies(s)
    for h in s["heroes"]:
        h["hand"] = []
    assert m.ranking(s) == [0, 1]
    s["tiebreak"] = [1, 0]
    assert m.ranking(s) == [1, 0]


def test_keyword_attack_hits_into_hand_wounds_first_then_fatigue():
    s, _ = new(1, scenario="old-friends-1", defense_modes=["auto"])
    clear_enemies(s)
    _quiet(s)
    place(s, "O3", 0)  # Huntmaster: 1 Wound + 1 Fatigue; col 3 "Orc: Attack / Attack"
    hand(s, 0, "BV01", ap=0)
    responses(s, 3, 4)
    s, ev = enemy_round(s)
    (atk,) = of(ev, "enemy_attack")
    assert atk["attack"] == 8 and atk["defense"] == 0 and atk["hit"]
    assert [e["pile"] for e in of(ev, "take")] == ["wound", "fatigue"]


def test_rule_1_14_tie_means_no_damage_for_the_hero():
    s, _ = new(1, defense_modes=["ask"])
    clear_enemies(s)
    _quiet(s)
    place(s, "C1", 0)  # attack 2
    (blk,) = hand(s, 0, "BV03", ap=1)  # Shield Block 3
    responses(s, 2, 1)  # column 2 "Attack / Engage": 2 + 1 = 3 vs 3
    s, ev = enemy_round(s)
    assert s["prompt"]["kind"] == "defense" and G.to_act(s) == [0]
    s, _ = play(s, 0, {"type": "defend", "card": blk})
    s, ev = play(s, 0, {"type": "confirm"})
    (atk,) = of(ev, "enemy_attack")
    assert atk["attack"] == 3 and atk["defense"] == 3 and not atk["hit"]
    assert blk in s["heroes"][0]["discard"]


def test_keyword_engage_and_disengage():
    s, _ = new(2, defense_modes=["auto", "auto"])
    clear_enemies(s)
    _quiet(s)
    place(s, "C1", 1)
    hand(s, 0, "BV01", "BV01")
    hand(s, 1, "BV01")
    g = place(s, "I1")  # Boneworm col 1 "Engage / Attack": engages the best-ranked hero (0: no enemies)
    responses(s, 1)
    s, ev = enemy_round(s)
    assert m.enemy(s, g)["area"] == 0
    s, _ = new(1, scenario="old-friends-1", defense_modes=["auto"])
    clear_enemies(s)
    _quiet(s)
    a = place(s, "O2", 0)  # Orc Archer col 2 "Disengage / Attack"
    responses(s, 2)
    s, ev = enemy_round(s)
    assert m.enemy(s, a)["area"] == m.QUEST and not of(ev, "enemy_attack")


def test_keyword_reengage_to_the_same_hero_counts_as_done():
    s, _ = new(1, defense_modes=["auto"])
    clear_enemies(s)
    _quiet(s)
    place(s, "C2", 0)  # Zealot col 3 "Re-engage ; Attack"
    responses(s, 3)
    s, ev = enemy_round(s)
    assert [e["did"] for e in of(ev, "enemy_step")] == ["do", "do"] and of(ev, "enemy_attack")


def test_keyword_support_moves_to_the_area_with_most_others():
    s, _ = new(2, defense_modes=["auto", "auto"])
    clear_enemies(s)
    _quiet(s)
    place(s, "C2", 1)  # col 3 "Re-engage ; Attack": stays with hero 1, the best-ranked
    place(s, "C3", 0)
    hand(s, 1, "IM01")
    a = place(s, "C1")  # Acolyte col 3: "Support Cultist Zealot / Attack"
    responses(s, 3)
    s, ev = enemy_round(s)
    assert m.enemy(s, a)["area"] == 1


def test_keyword_support_unable_when_already_there_falls_back():
    s, _ = new(1, defense_modes=["auto"])
    clear_enemies(s)
    _quiet(s)
    place(s, "C2", 0)
    a = place(s, "C1", 0)
    responses(s, 3)
    s, ev = enemy_round(s)
    st = [e for e in of(ev, "enemy_step") if e["enemy"] == a][0]
    assert st["did"] == "else"


def test_keyword_family_command_and_compound_and():
    # Huntmaster col 1: "Support Orc Archer and all Orc Archer: Disengage / Orc: Attack"
    s, _ = new(1, scenario="old-friends-1", defense_modes=["auto"])
    clear_enemies(s)
    _quiet(s)
    h = place(s, "O3")
    ar = place(s, "O2")
    g = place(s, "O1")
    responses(s, 1)
    s, ev = enemy_round(s)
    st = [e for e in of(ev, "enemy_step") if e["enemy"] == h][0]
    # the rulebook example: everyone already shares the Quest Area -> neither part changes anything
    assert st["did"] == "else"
    # Orc: Attack -> the other orcs in his area attack (the Archer at range 2 can; the Grunt cannot)
    attackers = [e["enemy"] for e in of(ev, "enemy_attack")]
    assert ar in attackers and g not in attackers[:1]
    # now the archer is engaged: support moves the Huntmaster to it and the archer disengages
    s, _ = new(1, scenario="old-friends-1", defense_modes=["auto"])
    clear_enemies(s)
    _quiet(s)
    h = place(s, "O3")
    ar = place(s, "O2", 0)
    responses(s, 1)
    s, ev = enemy_round(s)
    st = [e for e in of(ev, "enemy_step") if e["enemy"] == h][0]
    assert st["did"] == "do" and m.enemy(s, h)["area"] == 0 and m.enemy(s, ar)["area"] == m.QUEST


def test_keyword_summon_needs_the_pool():
    s, _ = new(1, scenario="old-friends-1", defense_modes=["auto"])
    clear_enemies(s)
    _quiet(s)
    s["summon"]["O1"] = []
    place(s, "O3", 0)
    responses(s, 4)
    s, ev = enemy_round(s)
    assert not [e for e in of(ev, "spawn") if e["from"] == "summon"]
    assert of(ev, "enemy_step")[0]["did"] is None  # no fallback in "Summon Orc Grunt ; Attack"


def test_keyword_poison_puts_fatigue_on_top_of_the_deck():
    s, _ = new(1, defense_modes=["auto"])
    clear_enemies(s)
    _quiet(s)
    place(s, "C3")  # Hexer col 2 "Poison" (range 2)
    responses(s, 2)
    s, ev = enemy_round(s)
    (dt,) = of(ev, "deck_top")
    assert dt["pile"] == "fatigue"
    assert any(m.kind(s, c) == "fatigue" for c in s["heroes"][0]["hand"])  # drawn in the draw phase


def test_keyword_intimidate_discards_by_discard_order():
    s, _ = new(1, defense_modes=["auto"])
    clear_enemies(s)
    _quiet(s)
    place(s, "C3")  # col 3 "Intimidate 1 / Attack"
    cut, blk, tn = hand(s, 0, "BV01", "BV03", "BV11", ap=0)
    responses(s, 3)
    s, ev = enemy_round(s)
    (d,) = [e for e in of(ev, "discard") if e.get("why") == "intimidate"]
    assert d["cards"] == [tn]  # special before attack before ap before defense


def test_keyword_intimidate_unable_without_discardable_cards():
    s, _ = new(1, defense_modes=["auto"])
    clear_enemies(s)
    _quiet(s)
    place(s, "C3")
    hand(s, 0, "W01", ap=0)
    responses(s, 3)
    s, ev = enemy_round(s)
    assert of(ev, "enemy_step")[0]["did"] == "else"


def test_keyword_obstruct_takes_ap_and_is_unable_at_zero():
    s, _ = new(1, defense_modes=["auto"])
    clear_enemies(s)
    _quiet(s)
    place(s, "C3")  # col 1 "Obstruct 2 / Attack"
    hand(s, 0, "BV01", ap=3)
    responses(s, 1)
    s, ev = enemy_round(s)
    assert [e for e in of(ev, "ap") if e["why"] == "obstruct"][0]["ap"] == 1
    s, _ = new(1, defense_modes=["auto"])
    clear_enemies(s)
    _quiet(s)
    place(s, "C3")
    hand(s, 0, "BV01", ap=0)
    responses(s, 1)
    s, ev = enemy_round(s)
    assert of(ev, "enemy_step")[0]["did"] == "else"


def test_keyword_heal_removes_wounds_first_most_recent():
    s, _ = new(1, defense_modes=["auto"])
    clear_enemies(s)
    _quiet(s)
    z = place(s, "C2")
    place(s, "C3")  # col 4 "Heal Cultist 1 / Poison"
    zr = m.enemy(s, z)
    for c in ("F01", "W01"):
        s["piles"]["fatigue" if c[0] == "F" else "wound"].remove(c)
        zr["att"].append({"card": c, "mods": None, "until": None})
    responses(s, 4)
    s, ev = enemy_round(s)
    (d,) = of(ev, "detach")
    assert d["card"] == "W01" and d["to"] == z
    assert "W01" in s["piles"]["wound_discard"]


def test_keyword_heal_unable_without_attachments_falls_back():
    s, _ = new(1, defense_modes=["auto"])
    clear_enemies(s)
    _quiet(s)
    place(s, "C3")
    responses(s, 4)
    s, ev = enemy_round(s)
    assert of(ev, "enemy_step")[0]["did"] == "else" and of(ev, "deck_top")


def test_keyword_all_named_covers_every_enemy_of_that_name_in_play():
    s, _ = new(1, scenario="old-friends-1", defense_modes=["auto"])
    clear_enemies(s)
    _quiet(s)
    place(s, "O3")
    a1 = place(s, "O2", 0)
    a2 = place(s, "O2", 0)
    responses(s, 1)
    s, ev = enemy_round(s)
    assert m.enemy(s, a1)["area"] == m.QUEST and m.enemy(s, a2)["area"] == m.QUEST


def test_enemy_range_1_in_the_quest_area_cannot_attack_h14():
    s, _ = new(1, scenario="old-friends-1", defense_modes=["auto"])
    clear_enemies(s)
    _quiet(s)
    a = place(s, "O2")  # Archer range 2; Blinded Eye makes it range 1
    s["piles"]["wound"].remove("W15")
    m.enemy(s, a)["att"].append({"card": "W15", "mods": None, "until": None})
    responses(s, 1)  # col 1 "Attack" with no fallback
    s, ev = enemy_round(s)
    assert of(ev, "enemy_step")[0]["did"] is None and not of(ev, "enemy_attack")


def test_sigil_raises_threat_after_activations_in_the_tutorial():
    s, _ = new(1, defense_modes=["auto"])
    clear_enemies(s)
    _quiet(s)
    place(s, "C2")
    sigil_response(s, 2)
    t = s["threat"]
    s, ev = enemy_round(s)
    kinds = types(ev)
    assert kinds.index("threat") > kinds.index("enemy_step")
    assert s["threat"] == t + 2  # sigil +1, quest phase +1


def test_rule_1_16_attachments_modify_enemy_stats_with_floors():
    s, _ = new(1)
    clear_enemies(s)
    e = place(s, "C1")  # attack 2, defense 1, range 1, engage 1
    rec = m.enemy(s, e)
    for c in ("W18", "F10", "F09", "F08"):
        s["piles"]["wound" if c[0] == "W" else "fatigue"].remove(c)
        rec["att"].append({"card": c, "mods": None, "until": None})
    assert m.enemy_stat(s, rec, "attack") == 0 and m.enemy_stat(s, rec, "defense") == 0
    assert m.enemy_stat(s, rec, "range") == 1 and m.enemy_stat(s, rec, "engage") == 0
    assert m.enemy_stat(s, rec, "health") == 0
    s2, _ = new(1, enemy_defense_floor=1)
    clear_enemies(s2)
    e2 = place(s2, "C1")
    s2["piles"]["fatigue"].remove("F03")
    s2["piles"]["fatigue"].remove("F04")
    m.enemy(s2, e2)["att"] += [{"card": "F03", "mods": None, "until": None}, {"card": "F04", "mods": None, "until": None}]
    assert m.enemy_stat(s2, m.enemy(s2, e2), "defense") == 1  # H2 alternative


def test_keyword_step_priority_override_is_read_from_the_table():
    from engine.beyond_the_rift.activation import parse_cell
    from engine.beyond_the_rift.content import CONTENT

    (step,) = parse_cell("Attack (most AP)", CONTENT.enemy_names, CONTENT.families)
    s, _ = new(2)
    clear_enemies(s)
    e = place(s, "C3")
    s["heroes"][1]["ap"] = 15
    from engine.beyond_the_rift.enemy_phase import target_hero

    assert target_hero(s, m.enemy(s, e), step["do"]["and"][0], m.ranking(s)) == 1
    assert target_hero(s, m.enemy(s, e), {"op": "attack"}, m.ranking(s)) == 0


def test_keyword_nothing_is_always_unable():
    from engine.beyond_the_rift.enemy_phase import able

    s, _ = new(1)
    assert not able(s, s["enemies"][0], {"op": "nothing"}, [0])


def test_keyword_intimidate_may_take_persistent_cards_with_discard_persistent():
    s, _ = new(1, heroes=["osric"], defense_modes=["auto"], plans=[{"discard_persistent": True}])
    clear_enemies(s)
    _quiet(s)
    (sanc,) = hand(s, 0, "FO09", ap=5)
    s, _ = play(s, 0, {"type": "play", "card": sanc})
    hand(s, 0, "W01", ap=0)
    place(s, "C3")  # col 3 "Intimidate 1 / Attack"
    responses(s, 3)
    s, ev = enemy_round(s)
    assert [e["card"] for e in of(ev, "persist_gone")] == [sanc]
