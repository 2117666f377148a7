"""Defense decisions of section 3.3: modes, prompts, their timeout default (the plan), defense aid, allies,
reactions to special abilities (prompted and by standing plan)."""

from __future__ import annotations

import pytest

from engine import IllegalMove
from engine.beyond_the_rift import model as m

from .helpers import G, clear_enemies, decisions, finish, hand, new, of, place, play, responses


def _setup(modes, heroes=None, n=None):
    n = n or len(modes)
    s, _ = new(n, heroes=heroes or ["brannoc", "isolde", "tamsin", "osric"][:n], defense_modes=modes)
    clear_enemies(s)
    s["piles"]["enemy"] = []
    return s


def test_auto_mode_applies_the_plan_without_asking():
    s = _setup(["auto"])
    place(s, "C2", 0)  # attack 4; plan target 4 + 3 = 7
    blk, sd = hand(s, 0, "BV03", "BV09", ap=8)  # Shield Block 3 (1 AP), Sidestep 2 (0 AP)
    responses(s, 1, 1)  # col 1 "Attack / Engage"; attack 4 + 1
    s, ev = finish(s)
    (atk,) = of(ev, "enemy_attack")
    # cheapest per point first: Sidestep (free), Shield Block, then 2 AP at 1:1 -> 7
    assert atk["defense"] == 7 and not atk["hit"] and s["prompt"] is None


def test_plan_plays_only_free_cards_when_the_target_is_out_of_reach():
    s = _setup(["auto"])
    place(s, "C2", 0)
    blk, sd = hand(s, 0, "BV03", "BV09", ap=2)  # budget: half of 2 = 1 -> 3 + 2... target 7 unreachable
    responses(s, 1, 4)
    s, ev = finish(s)
    (atk,) = of(ev, "enemy_attack")
    assert atk["defense"] == 2 and blk in s["heroes"][0]["hand"]


def test_ask_mode_prompts_and_the_deadline_default_is_the_plan():
    s = _setup(["ask"])
    place(s, "C2", 0)
    hand(s, 0, "BV03", "BV09", ap=8)
    responses(s, 1, 1)
    s, ev = finish(s)
    assert s["prompt"]["kind"] == "defense" and G.to_act(s) == [0] and s["phase"] == "enemy"
    assert G.default_move(s, 0) == {"type": "plan"}
    moves = G.legal_moves(s, 0)
    assert {"type": "spend"} in moves and {"type": "confirm"} in moves
    s, ev = play(s, 0, G.default_move(s, 0))
    (atk,) = of(ev, "enemy_attack")
    assert atk["defense"] == 7 and s["phase"] == "hero"


def test_rule_3_1_standing_orders_stay_editable_during_a_defense_prompt():
    """Section 3.1: standing orders are "always visible and editable"; 3.3: the mode changes any time.
    While the enemy phase waits on Brannoc's defense prompt, Isolde (not asked) and Brannoc himself may
    change theirs; the prompt stays open, and Brannoc's plan then defends with his new margin."""
    s = _setup(["ask", "auto"])
    place(s, "C2", 0)  # attack 4
    hand(s, 0, "BV03", "BV09", ap=8)
    responses(s, 1, 1)
    s, _ = finish(s)
    prompt = s["prompt"]
    assert prompt["kind"] == "defense" and G.to_act(s) == [0]
    s, _ = play(s, 1, {"type": "mode", "mode": "ask"})
    s, _ = play(s, 1, {"type": "setting", "key": "margin", "value": 5})
    s, _ = play(s, 0, {"type": "setting", "key": "margin", "value": 1})
    assert s["prompt"] == prompt and G.to_act(s) == [0] and s["phase"] == "enemy"
    assert s["heroes"][1]["mode"] == "ask" and s["heroes"][1]["plan"]["margin"] == 5
    s, ev = play(s, 0, G.default_move(s, 0))
    (atk,) = of(ev, "enemy_attack")
    assert atk["defense"] == 5  # 4 + 1, where the plan's margin 3 made it 7 (test above)


def test_ask_if_asks_only_dangerous_attacks():
    s = _setup(["ask_if"], heroes=["brannoc"], n=1)
    s["scenario"] = "old-friends-1"
    place(s, "O1", 0)  # 1 Wound: not asked
    hand(s, 0, "BV01", ap=0)
    responses(s, 1, 1, 1)
    s1, ev = finish(s)
    assert of(ev, "enemy_attack") and s1["prompt"] is None
    s = _setup(["ask_if"], heroes=["brannoc"], n=1)
    s["scenario"] = "old-friends-1"
    place(s, "O4", 0)  # Orc Brute: 2 Wounds -> asked
    hand(s, 0, "BV01", ap=0)
    responses(s, 2, 1)
    s2, ev = finish(s)
    assert s2["prompt"] and s2["prompt"]["kind"] == "defense"


def test_defense_step_by_step_cards_ap_units_and_wounds():
    s = _setup(["ask"])
    place(s, "C2", 0)
    blk, w = hand(s, 0, "BV03", "W05", ap=4)  # Bruise: defense -1
    responses(s, 1, 4)
    s, _ = finish(s)
    assert {"type": "defend_wound", "card": w} not in G.legal_moves(s, 0)  # 0 - 1 < 1 (A8)
    s, _ = play(s, 0, {"type": "defend", "card": blk})
    s, _ = play(s, 0, {"type": "spend"})
    s, _ = play(s, 0, {"type": "defend_wound", "card": w})
    assert s["heroes"][0]["ap"] == 2  # 1 for the card, 1 for one unit at Brannoc's 1:1 rate
    s, ev = play(s, 0, {"type": "confirm"})
    (atk,) = of(ev, "enemy_attack")
    assert atk["defense"] == 3 and atk["hit"]  # 3 + 1 - 1 vs 4 + 4
    assert w in s["heroes"][0]["discard"]


def test_defense_aid_from_another_hero_with_a_range_2_card():
    s = _setup(["ask", "ask"], heroes=["brannoc", "osric"])
    place(s, "C1", 0)  # attack 2, col 1 "Engage / Attack"
    hand(s, 0, "BV01", ap=0)
    (hs,) = hand(s, 1, "FO03", ap=3)  # Holy Shield: defense 3, range 2
    responses(s, 1, 1)
    s, _ = finish(s)
    assert G.to_act(s) == [0, 1]
    assert decisions(s, 1) == [{"type": "aid_defense", "card": hs}, {"type": "no_aid"}]
    assert G.default_move(s, 1) == {"type": "no_aid"}
    s, ev = play(s, 1, {"type": "aid_defense", "card": hs})
    assert [e["ap"] for e in of(ev, "ap")] == [2]
    s, _ = play(s, 0, {"type": "confirm"})
    assert G.to_act(s) == [1]  # the point closes when every aider has answered
    s, ev = play(s, 1, {"type": "no_aid"})
    (atk,) = of(ev, "enemy_attack")
    assert atk["defense"] == 3 and not atk["hit"] and hs in s["heroes"][1]["discard"]


def test_attack_sent_to_an_ally():
    s = _setup(["ask"], heroes=["osric"], n=1)
    (gs,) = hand(s, 0, "FO12", ap=5)
    s, _ = play(s, 0, {"type": "play", "card": gs})
    place(s, "C2", 0)
    responses(s, 1, 4)
    s, _ = finish(s)
    assert {"type": "to_ally", "ally": gs} in G.legal_moves(s, 0)
    s, _ = play(s, 0, {"type": "to_ally", "ally": gs})
    assert {"type": "spend"} not in G.legal_moves(s, 0)
    s, ev = play(s, 0, {"type": "confirm"})
    (atk,) = of(ev, "enemy_attack")
    assert atk["ally"] == "ally:" + gs and atk["defense"] == 3 and atk["hit"]
    assert len(s["heroes"][0]["area"][0]["att"]) == 1 and not any(m.is_damage(s, c) for c in s["heroes"][0]["hand"])


def test_reaction_prompt_cancels_intimidate_and_plan_react_lines():
    s = _setup(["ask"], heroes=["brannoc"], n=1)
    place(s, "C3")  # col 3 "Intimidate 1 / Attack"
    iw, cut = hand(s, 0, "BV07", "BV01", ap=2)  # Iron Will cancels intimidate/obstruct
    responses(s, 3)
    s, _ = finish(s)
    assert s["prompt"]["kind"] == "react" and decisions(s, 0) == [{"type": "react", "card": iw}, {"type": "pass"}]
    assert G.default_move(s, 0) == {"type": "pass"}
    s, ev = play(s, 0, {"type": "react", "card": iw})
    assert of(ev, "cancelled") and cut in s["heroes"][0]["hand"] + s["heroes"][0]["deck"] + s["heroes"][0]["discard"]
    assert not [e for e in of(ev, "discard") if e.get("why") == "intimidate"]
    # the same with a standing REACT line in AUTO mode: no prompt
    s = _setup(["auto"], heroes=["brannoc"], n=1)
    s["heroes"][0]["plan"] = dict(s["heroes"][0]["plan"], react=["BV07"])
    place(s, "C3")
    iw, cut = hand(s, 0, "BV07", "BV01", ap=2)
    responses(s, 3)
    s, ev = finish(s)
    assert of(ev, "cancelled")


def test_rebuke_protects_another_hero_in_range_2():
    s = _setup(["auto", "ask"], heroes=["brannoc", "osric"])
    place(s, "C3")  # col 2 "Poison" on the best-ranked hero
    hand(s, 0, "BV01")
    (rb,) = hand(s, 1, "FO11", "FO01", ap=2)[:1]
    s["heroes"][1]["hand"].append(s["heroes"][1]["deck"].pop())  # hero 1 ranks second (more cards)
    responses(s, 2)
    s, _ = finish(s)
    assert s["prompt"]["kind"] == "react" and s["prompt"]["hero"] == 0 and G.to_act(s) == [1]
    s, ev = play(s, 1, {"type": "react", "card": rb})
    assert of(ev, "cancelled") and not of(ev, "deck_top")


def test_keen_eye_replaces_a_question_mark_draw():
    s, _ = new(2, heroes=["tamsin", "isolde"])
    clear_enemies(s)
    place(s, "O1", 0)
    s["terrain"] = []
    (ke,) = hand(s, 0, "TR09", "TR03", ap=5)[:1]
    dagger = s["heroes"][0]["hand"][1]
    (kindle,) = hand(s, 1, "IM03", ap=0)
    s, _ = play(s, 0, {"type": "attack", "card": dagger})
    assert G.to_act(s) == [0]  # Isolde has no card that could aid (Kindle has no primary cost)
    # add-only Kindle belongs to Isolde: Tamsin adds nothing; use Dagger + her own "?"-less attack -> no prompt
    responses(s, 1)
    s2, ev = play(s, 0, {"type": "resolve"})
    assert not s2["prompt"]
    # with a "?" (Smite-like): give Tamsin Isolde's Kindle to add (card data, not ownership, decides)
    s["heroes"][0]["hand"].append(kindle)
    s["heroes"][1]["hand"].remove(kindle)
    s["heroes"][0]["ap"] = 5
    s, _ = play(s, 0, {"type": "add", "card": kindle})
    responses(s, 1, 4, 1)
    s, ev = play(s, 0, {"type": "resolve"})
    assert s["prompt"]["kind"] == "react" and decisions(s, 0) == [{"type": "react", "card": ke}, {"type": "pass"}]
    s, ev = play(s, 0, {"type": "react", "card": ke})
    (res,) = of(ev, "attack_result")
    assert res["q"] == [4] and res["attack"] == 6


def test_defense_moves_are_refused_to_others():
    s = _setup(["ask", "auto"])
    place(s, "C2", 0)
    hand(s, 0, "BV03", ap=3)
    hand(s, 1, "IM01")
    responses(s, 1, 1)
    s, _ = finish(s)
    assert G.to_act(s) == [0] and decisions(s, 1) == []  # Isolde may only edit her standing orders
    with pytest.raises(IllegalMove) as err:
        G.play(s, 1, {"type": "confirm"}, None)
    assert err.value.code == "illegal"


def test_standing_aid_line_for_an_auto_hero_and_as_the_aiders_timeout_default():
    s, _ = new(2, heroes=["brannoc", "osric"], defense_modes=["auto", "auto"],
               plans=[{}, {"aid": [{"to": 0, "card": "FO03", "damage_at_least": 1}]}])
    clear_enemies(s)
    s["piles"]["enemy"] = []
    place(s, "C1", 0)
    hand(s, 0, "BV01", ap=0)
    (hs,) = hand(s, 1, "FO03", ap=3)
    responses(s, 1, 1)
    s, ev = finish(s)
    (atk,) = of(ev, "enemy_attack")
    assert atk["defense"] == 3 and hs in s["heroes"][1]["discard"]
    # an aider in ask mode who lets the prompt time out aids by the same line
    s, _ = new(2, heroes=["brannoc", "osric"], defense_modes=["ask", "ask"],
               plans=[{}, {"aid": [{"to": 0, "card": "FO03"}]}])
    clear_enemies(s)
    s["piles"]["enemy"] = []
    place(s, "C1", 0)
    hand(s, 0, "BV01", ap=0)
    (hs,) = hand(s, 1, "FO03", "FO03", ap=3)[:1]
    responses(s, 1, 1)
    s, _ = finish(s)
    assert G.default_move(s, 1) == {"type": "aid_defense", "card": hs}
    s, _ = play(s, 1, G.default_move(s, 1))
    assert G.default_move(s, 1) == {"type": "no_aid"}  # one card per line


def test_ask_if_custom_condition_and_bad_plans_are_refused():
    s, _ = new(1, defense_modes=["ask_if"], plans=[{"ask_if": {"damage_at_least": None, "enemy": "Cultist Zealot"}}])
    clear_enemies(s)
    s["piles"]["enemy"] = []
    place(s, "C2", 0)
    hand(s, 0, "BV01", ap=0)
    responses(s, 1, 1)
    s, _ = finish(s)
    assert s["prompt"]["kind"] == "defense"
    with pytest.raises(IllegalMove):
        G.start(1, {"plans": [{"maxspend": "lots"}]}, 1)
    with pytest.raises(IllegalMove):
        G.start(1, {"plans": [{"aid": [{"to": 3, "card": "FO03"}]}]}, 1)
