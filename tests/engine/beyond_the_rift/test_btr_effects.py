"""The effect ops of section 2.1 as the pack's cards use them (one test per op or card family)."""

from __future__ import annotations

import engine
from engine.beyond_the_rift import model as m

from .helpers import G, clear_enemies, finish, give, hand, new, of, place, play, responses


def test_op_move_enemy_charge_taunt_blink():
    s, _ = new(2, heroes=["brannoc", "isolde"])
    clear_enemies(s)
    q = place(s, "C1")
    o = place(s, "C2", 1)
    charge, taunt = hand(s, 0, "BV08", "BV11", ap=5)
    s, _ = play(s, 0, {"type": "play", "card": charge})  # quest_enemy -> own area (only one: no question)
    assert m.enemy(s, q)["area"] == 0
    s, _ = play(s, 0, {"type": "play", "card": taunt})  # other_area_enemy -> own area
    assert m.enemy(s, o)["area"] == 0
    (blink,) = hand(s, 1, "IM10", ap=2)
    s["enemies"][0]["area"] = 1
    s, _ = play(s, 1, {"type": "play", "card": blink})  # own_area_enemy -> Quest Area
    assert m.enemy(s, q)["area"] == m.QUEST


def test_op_heal_wound_goes_to_the_wound_discard_a31_and_same_target():
    s, _ = new(2, heroes=["osric", "brannoc"])
    mend, soothe = hand(s, 0, "FO04", "FO05", ap=5)
    w, f = give(s, 1, "W01", "F01")
    s, _ = play(s, 0, {"type": "play", "card": mend})
    s, _ = play(s, 0, {"type": "choose", "value": 1})
    assert w not in s["heroes"][1]["hand"] and w in s["piles"]["wound_discard"]
    n = len(s["heroes"][1]["hand"])
    s, _ = play(s, 0, {"type": "play", "card": soothe})
    s, _ = play(s, 0, {"type": "choose", "value": 1})
    # recover 1 Fatigue, then draw 1 for the same hero
    assert f in s["piles"]["fatigue_discard"] and len(s["heroes"][1]["hand"]) == n


def test_op_attach_self_snare_changes_engagement_cost():
    s, _ = new(1, heroes=["tamsin"])
    clear_enemies(s)
    e = place(s, "O4")  # engage 3, attack 5
    (sn,) = hand(s, 0, "TR12", ap=5)
    s, _ = play(s, 0, {"type": "play", "card": sn})
    rec = m.enemy(s, e)
    assert m.enemy_stat(s, rec, "engage") == 1 and m.enemy_stat(s, rec, "attack") == 4
    assert sn not in s["heroes"][0]["discard"] and s["limbo"] == []


def test_op_bonus_attach_fatigue_and_pinning_arrow():
    s, _ = new(2, heroes=["isolde", "tamsin"])
    clear_enemies(s)
    s["terrain"] = []
    e = place(s, "O4")
    (lance,) = hand(s, 0, "IM04", ap=5)
    (pin,) = hand(s, 1, "TR04", ap=5)
    s, _ = play(s, 0, {"type": "attack", "card": lance})
    s, _ = play(s, 1, {"type": "aid", "card": pin})
    responses(s, 4, 1)
    s, ev = play(s, 0, {"type": "resolve"})
    assert of(ev, "attack_result")[0]["hit"]  # 2 + 4 + 2 = 8 vs 2 + 1
    kinds = [m.kind(s, a["card"]) for a in m.enemy(s, e)["att"]]
    assert kinds == ["wound", "fatigue", "hero"]  # damage, then the bonuses in commit order
    assert pin not in s["heroes"][1]["discard"]


def test_op_ap_gift_with_quick_hands_and_lose_ap_by_wound():
    s, _ = new(1, heroes=["tamsin"])
    (qh,) = hand(s, 0, "TR10", ap=1)
    s, ev = play(s, 0, {"type": "play", "card": qh})
    assert s["heroes"][0]["ap"] == 2 and len(s["heroes"][0]["hand"]) == 1


def test_op_recover_fatigue_by_the_priest_board_action():
    s, _ = new(2, heroes=["osric", "isolde"])
    (f,) = give(s, 1, "F05")
    s["heroes"][0]["ap"] = 3
    s, _ = play(s, 0, {"type": "board"})
    s, _ = play(s, 0, {"type": "choose", "value": 1})
    assert f in s["piles"]["fatigue_discard"] and s["heroes"][0]["ap"] == 0


def test_op_after_quest_spawn_reaction_by_standing_order():
    s, _ = new(1, heroes=["isolde"], defense_modes=["auto"], plans=[{"react": ["IM11"]}])
    clear_enemies(s)
    (sm,) = hand(s, 0, "IM11", ap=3)
    s, ev = finish(s)
    spawned = [e for e in of(ev, "spawn") if e["from"] == "deck"]
    if spawned:
        att = [e for e in of(ev, "attach") if e["to"] == spawned[0]["enemy"]["id"]]
        assert att and sm in s["heroes"][0]["discard"] + s["heroes"][0]["deck"] + s["heroes"][0]["hand"]


def test_op_ally_guardian_spirit_in_another_heros_area():
    s, _ = new(2, heroes=["osric", "brannoc"])
    (gs,) = hand(s, 0, "FO12", ap=5)
    s, _ = play(s, 0, {"type": "play", "card": gs})
    s, _ = play(s, 0, {"type": "choose", "value": 1})
    assert s["heroes"][1]["area"][0]["ally"]["defense"] == 3 and s["heroes"][0]["ap"] == 2


def test_op_choose_asks_for_an_option():
    import random

    from engine.beyond_the_rift.effects import run_ops
    from engine.beyond_the_rift.primitives import Ctx

    s, _ = new(1)
    ctx = Ctx(G.copy_state(s), random.Random(1))
    run_ops(ctx, [{"op": "choose", "options": [[{"op": "gain_ap", "n": 1, "target": "self"}],
                                                [{"op": "draw", "n": 1, "target": "self"}]]}],
            {"seat": 0, "chosen": {}})
    assert ctx.prompt["kind"] == "option" and ctx.prompt["options"] == [0, 1]


def test_h10_hero_healing_can_treat_an_ally():
    s, _ = new(1, heroes=["osric"])
    gs, mend = hand(s, 0, "FO12", "FO04", ap=10)
    s, _ = play(s, 0, {"type": "play", "card": gs})
    ally = s["heroes"][0]["area"][0]
    s["piles"]["wound"].remove("W01")
    ally["att"].append({"card": "W01", "mods": None, "until": None})
    s, _ = play(s, 0, {"type": "play", "card": mend})
    assert s["prompt"]["options"] == [0, "ally:" + gs]
    s, ev = play(s, 0, {"type": "choose", "value": "ally:" + gs})
    assert s["heroes"][0]["area"][0]["att"] == [] and "W01" in s["piles"]["wound_discard"]


def test_damage_for_an_ally_that_died_of_the_same_hit_is_not_attached():
    """An enemy dealing a Wound and a Fatigue (Captain Hask, Orc Huntmaster) to a defending ally: if the
    Wounds kill it, the Fatigue has nobody to go to (rules 1.9: damage attaches to a card in play)."""
    import random

    from engine.beyond_the_rift.primitives import Ctx, attach_damage

    s, _ = new(1, heroes=["osric"])
    (gs,) = hand(s, 0, "FO12", ap=10)
    s, _ = play(s, 0, {"type": "play", "card": gs})
    ctx = Ctx(G.copy_state(s), random.Random(1))
    health = m.ally_stat(ctx.s, ctx.s["heroes"][0]["area"][0], "health")
    attach_damage(ctx, "ally:" + gs, "wound", health)
    assert ctx.s["heroes"][0]["area"] == [] and of(ctx.events, "persist_gone")
    before = len(ctx.events)
    attach_damage(ctx, "ally:" + gs, "fatigue", 1)
    assert len(ctx.events) == before
    engine.replay(G, ctx.events, s)  # and what was emitted applies
