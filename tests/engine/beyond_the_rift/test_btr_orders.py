"""Standing orders of section 3.3 (the defense plan's WHEN lines, every setting editable in play, the
party's TIEBREAK / HEALCHOICE / HOUND-TARGET) and the pledge forms of section 3.2 (ON <enemy>,
NOPLEDGE)."""

from __future__ import annotations

import pytest

import engine
from engine import IllegalMove
from engine.beyond_the_rift import model as m

from .helpers import G, clear_enemies, decisions, finish, hand, new, of, place, play, responses


def _quiet(n=1, **options):
    s, log = new(n, **options)
    clear_enemies(s)
    s["piles"]["enemy"] = []
    s["terrain"] = []
    s["piles"]["terrain"] = []
    return s


def _set(s, seat, key, value):
    s, ev = play(s, seat, {"type": "setting", "key": key, "value": value})
    return s


# ---- the defense plan -------------------------------------------------------------------------------

@pytest.mark.parametrize("enemy, margin", [("O4", 5), ("O1", 3)])
def test_rule_3_3_plan_when_line_sets_the_target_for_heavy_attacks(enemy, margin):
    """WHEN damage>=2 TARGET attack+5; otherwise TARGET attack+3: an Orc Brute deals 2 Wounds, an
    Orc Grunt 1, so only the Brute meets the heavier target (Ashes at Hollowmere, column 2: both
    "Attack / Engage")."""
    s = _quiet(scenario="old-friends-1", defense_modes=["auto"])
    s = _set(s, 0, "heavy_margin", 5)
    s = _set(s, 0, "maxspend", "all")
    assert s["heroes"][0]["plan"]["when"] == [{"if": {"damage_at_least": 2}, "margin": 5}]
    place(s, enemy, 0)
    hand(s, 0, ap=20)
    responses(s, 2, 1)
    s, ev = finish(s)
    (atk,) = of(ev, "enemy_attack")
    attack = {"O4": 5, "O1": 3}[enemy]
    assert atk["defense"] == attack + margin  # AP at Brannoc's 1:1 rate, nothing more than needed


def test_rule_3_3_when_lines_from_the_options_first_match_wins():
    plan = {"when": [{"if": {"enemy": "Cultist Zealot"}, "margin": 1}, {"if": {"attack_at_least": 4}, "margin": 6}],
            "maxspend": "all"}
    s = _quiet(defense_modes=["auto"], plans=[plan])
    place(s, "C2", 0)  # a Zealot (attack 4) matches both lines: the first one counts
    hand(s, 0, ap=20)
    responses(s, 1, 1)
    s, ev = finish(s)
    assert of(ev, "enemy_attack")[0]["defense"] == 4 + 1


@pytest.mark.parametrize("plan", [
    {"when": [{"if": {"colour": "red"}, "margin": 2}]}, {"when": [{"margin": "x"}]}, {"when": {"margin": 2}},
    {"when": [{"if": {"damage_at_least": "2"}, "margin": 4}]}, {"when": [{"if": {"enemy": "Dragon"}, "margin": 1}]},
    {"ask_if": {"attack_at_least": "5"}}, {"margin": True}, {"reserve": 1.5},
    {"react": ["NOPE"]}, {"react": ["BV01"]}, {"aid": [{"to": 1, "card": "NOPE"}]}, {"aid": [{"to": True, "card": "FO03"}]},
])
def test_rule_3_3_malformed_plans_are_refused_at_start(plan):
    """Refused at start, never a failure in the middle of the enemy phase or on a page (review finding)."""
    with pytest.raises(IllegalMove) as exc:
        new(2, plans=[plan, {}])
    assert exc.value.code == "bad_options"


def test_rule_3_3_every_setting_is_one_move_and_replays():
    """Each listed setting move changes exactly that setting; the log replays to the same state."""
    s, log = new(2, heroes=["osric", "isolde"])
    before = s["heroes"][0]["plan"]
    moves = [mv for mv in G.legal_moves(s, 0) if mv["type"] == "setting"]
    keys = {mv["key"] for mv in moves}
    assert keys >= {"margin", "heavy_margin", "reserve", "maxspend", "else", "use_wounds", "discard_persistent", "ally",
                    "discard_first", "ask_damage", "ask_wounds", "react", "aid", "tiebreak", "healchoice",
                    "hound_target"}
    # Osric owns Rebuke (a Reaction) and Holy Shield (range-2 Defense): REACT and AID lines for Isolde
    assert {"type": "setting", "key": "react", "value": "FO11"} in moves
    assert {"type": "setting", "key": "aid", "value": {"to": 1, "card": "FO03"}} in moves
    for mv in ({"type": "setting", "key": "margin", "value": 5}, {"type": "setting", "key": "reserve", "value": 2},
               {"type": "setting", "key": "react", "value": "FO11"},
               {"type": "setting", "key": "aid", "value": {"to": 1, "card": "FO03"}},
               {"type": "setting", "key": "discard_first", "value": "defense"},
               {"type": "setting", "key": "ask_wounds", "value": 3}):
        s, _ = play(s, 0, mv, log=log)
    plan = s["heroes"][0]["plan"]
    assert (plan["margin"], plan["reserve"], plan["react"], plan["aid"]) == (5, 2, ["FO11"], [{"to": 1, "card": "FO03"}])
    assert plan["discard_order"][0] == "defense" and plan["ask_if"]["wounds_at_least"] == 3
    assert before["margin"] == 3  # the earlier state's plan is untouched (plans are replaced, not edited)
    s, _ = play(s, 0, {"type": "setting", "key": "react", "value": "FO11"}, log=log)  # toggles off again
    assert s["heroes"][0]["plan"]["react"] == []
    assert s["heroes"][1]["plan"] == before  # one hero's orders only
    assert engine.replay(G, log) == s
    with pytest.raises(IllegalMove):
        play(s, 0, {"type": "setting", "key": "margin", "value": 99})
    for lookalike in (True, 1.0):  # equal to 1 for Python, not the listed move
        assert {"type": "setting", "key": "margin", "value": 1} in G.legal_moves(s, 0)
        with pytest.raises(IllegalMove):
            play(s, 0, {"type": "setting", "key": "margin", "value": lookalike})
    with pytest.raises(IllegalMove):
        play(s, 0, {"type": "setting", "key": "aid", "value": {"to": 0, "card": "FO03"}})  # not to yourself


def test_rule_3_2_done_heroes_edit_orders_without_reopening():
    s = _quiet(2)
    s, _ = play(s, 1, {"type": "done"})
    assert G.to_act(s) == [0]  # nobody waits on a DONE hero...
    assert {"type": "setting", "key": "margin", "value": 4} in G.legal_moves(s, 1)  # ...who may still edit
    before = s
    s, ev = play(s, 1, {"type": "setting", "key": "margin", "value": 4})
    assert s["heroes"][1]["status"] == "done" and s["heroes"][1]["plan"]["margin"] == 4
    assert s["phase"] == "hero" and G.describe_event(ev[0], 0, before).endswith("(margin).")


def test_rule_3_3_ask_if_thresholds_are_settings():
    """ASK-IF damage>=N or wounds>=N; both off means the hero is never asked."""
    s = _quiet(scenario="old-friends-1", defense_modes=["ask_if"])
    s = _set(s, 0, "ask_damage", None)
    s = _set(s, 0, "ask_wounds", 7)
    place(s, "O4", 0)  # 2 Wounds: would have asked under the default damage>=2
    responses(s, 2, 1)
    s, ev = finish(s)
    assert s["prompt"] is None and of(ev, "enemy_attack")
    s = _quiet(defense_modes=["ask_if"])
    s = _set(s, 0, "ask_damage", 1)
    place(s, "C2", 0)
    responses(s, 1, 1)
    s, ev = finish(s)
    assert s["prompt"]["kind"] == "defense"


# ---- the party's settings ---------------------------------------------------------------------------

def test_rule_3_3_tiebreak_order_rotates_each_round():
    s = _quiet(3)
    for seat in range(3):
        s, _ = play(s, seat, {"type": "done"})
    assert s["round"] == 2 and s["tiebreak"] == [1, 2, 0]


def test_rule_3_3_tiebreak_setting_puts_a_hero_first_and_stops_the_rotation():
    s = _quiet(3)
    s = _set(s, 2, "tiebreak", "first:2")
    assert s["tiebreak"] == [2, 0, 1] and m.ranking(s) == [2, 0, 1]
    for seat in range(3):
        s, _ = play(s, seat, {"type": "done"})
    assert s["round"] == 2 and s["tiebreak"] == [2, 0, 1]
    s = _set(s, 0, "tiebreak", "rotate")
    for seat in range(3):
        s, _ = play(s, seat, {"type": "done"})
    assert s["tiebreak"] == [0, 1, 2]
    s2, _ = new(3, party={"tiebreak": "first:1"})
    assert s2["tiebreak"] == [1, 0, 2]


@pytest.mark.parametrize("choice, healed", [("most_health", "z2"), ("least_health", "z1"), ("oldest", "z1")])
def test_rule_a29_healchoice_picks_which_enemy_heal_treats(choice, healed):
    """Heal Cultist 1 with two wounded Zealots: the party's HEALCHOICE decides."""
    s = _quiet(defense_modes=["auto"], party={"healchoice": choice})
    z1, z2 = place(s, "C2"), place(s, "C2")
    place(s, "C3")  # tutorial col 4: Heal Cultist 1 / Poison
    for eid, card in ((z1, "W01"), (z2, "F01")):  # z1 health 1 (Gash), z2 health 2 (Winded: attack -1)
        s["piles"]["wound" if card[0] == "W" else "fatigue"].remove(card)
        m.enemy(s, eid)["att"].append({"card": card, "mods": None, "until": None})
    responses(s, 4)
    s, ev = finish(s)
    (d,) = of(ev, "detach")
    assert d["to"] == {"z1": z1, "z2": z2}[healed]


@pytest.mark.parametrize("choice", ["lowest_health", "highest_attack"])
def test_rule_3_6_hound_target_setting(choice):
    s = _quiet(heroes=["tamsin"], defense_modes=["auto"])
    (c,) = hand(s, 0, "TR11", ap=5)
    s, _ = play(s, 0, {"type": "play", "card": c})
    s = _set(s, 0, "hound_target", choice) if choice != "lowest_health" else s
    weak, strong = place(s, "C1", 0), place(s, "C2", 0)  # health 1 attack 2; health 2 attack 4
    s["piles"]["wound"] = s["piles"]["wound"][:12]  # plenty, and nobody dies of it
    responses(s, 3, *[1] * 10)
    s, ev = play(s, 0, {"type": "done"})
    (aa,) = of(ev, "ally_attack")
    assert aa["enemy"] == (weak if choice == "lowest_health" else strong)


@pytest.mark.parametrize("party", [{"tiebreak": "first:5"}, {"healchoice": "nearest"}, {"colour": 1}, []])
def test_bad_party_options_are_refused(party):
    with pytest.raises(IllegalMove) as exc:
        new(2, party=party)
    assert exc.value.code == "bad_options"


# ---- pledges ---------------------------------------------------------------------------------------

def _pledge_setup():
    s = _quiet(2, heroes=["brannoc", "isolde"])
    e1, e2 = place(s, "O4", 0), place(s, "C2", 0)
    (cut,) = hand(s, 0, "BV01", ap=5)
    (bolt,) = hand(s, 1, "IM02", ap=5)
    return s, e1, e2, cut, bolt


def test_rule_3_2_pledge_on_one_enemy_joins_only_attacks_on_it_and_its_card_stays_private():
    s, e1, e2, cut, bolt = _pledge_setup()
    s, _ = play(s, 1, {"type": "pledge", "card": bolt, "to": 0})
    assert [mv.get("value") for mv in decisions(s, 1)] == ["any", e1, e2, None]  # ON which, any, or cancel
    s, events = play(s, 1, {"type": "choose", "value": e1})
    assert s["heroes"][1]["pledges"] == [{"card": bolt, "to": 0, "on": e1}]
    for seat in (0, 1):  # the pledger and the hero pledged to know the card
        assert G.view(s, seat)["heroes"][1]["pledges"] == [{"card": "Firebolt", "to": 0, "on": e1}]
    assert G.view(s, None)["heroes"][1]["pledges"] == [{"card": None, "to": 0, "on": e1}]  # the party: a card
    (pledged,) = of(events, "hero_set")
    assert G.redact_event(pledged, 0) == pledged and G.redact_event(pledged, 1) == pledged
    assert G.redact_event(pledged, None)["value"] == [{"card": None, "to": 0, "on": e1}]
    s2, _ = play(s, 0, {"type": "attack", "card": cut})
    s2, _ = play(s2, 0, {"type": "choose", "value": e2})
    assert [c["card"] for c in s2["attack"]["cards"]] == [cut]  # another target: the pledge waits
    s3, _ = play(s, 0, {"type": "attack", "card": cut})
    s3, _ = play(s3, 0, {"type": "choose", "value": e1})
    assert [c["card"] for c in s3["attack"]["cards"]] == [cut, bolt] and s3["heroes"][1]["pledges"] == []


def test_rule_3_2_nopledge_refuses_the_pledged_aid():
    s, e1, e2, cut, bolt = _pledge_setup()
    assert not any(mv.get("nopledge") for mv in G.legal_moves(s, 0))  # nothing to refuse yet
    s, _ = play(s, 1, {"type": "pledge", "card": bolt, "to": 0})
    s, _ = play(s, 1, {"type": "choose", "value": "any"})
    assert {"type": "attack", "card": cut, "nopledge": True} in G.legal_moves(s, 0)
    s, _ = play(s, 0, {"type": "attack", "card": cut, "nopledge": True})
    s, _ = play(s, 0, {"type": "choose", "value": e1})
    assert [c["card"] for c in s["attack"]["cards"]] == [cut] and s["heroes"][1]["ap"] == 5
    assert s["heroes"][1]["pledges"] == [{"card": bolt, "to": 0}]  # still offered until withdrawn or lapsed
    assert "refusing" in G.describe_move({"type": "attack", "card": cut, "nopledge": True}, s)


def test_rule_3_2_a_pledge_can_be_cancelled_before_it_is_made():
    s, e1, e2, cut, bolt = _pledge_setup()
    s, _ = play(s, 1, {"type": "pledge", "card": bolt, "to": 0})
    s, _ = play(s, 1, {"type": "cancel"})
    assert s["heroes"][1]["pledges"] == [] and s["prompt"] is None and s["action"] is None


@pytest.mark.parametrize("reserve", [0, 1, 2])
def test_rule_3_3_orders_summary_says_numbers_as_numbers(reserve):
    """0 and 1 are not "no" and "yes" (a dict keyed by booleans would say so)."""
    s = _quiet()
    s = _set(s, 0, "reserve", reserve) if reserve else s
    orders = {o["name"]: o["value"] for o in G.view(s, 0)["orders"]}
    assert orders["AP kept in reserve during the enemy phase"] == str(reserve)
    assert orders["Defense mode"] == "ask me only at dangerous enemy attacks"
    labels = [G.describe_move(mv, s) for mv in G.legal_moves(s, 0) if mv.get("key") == "reserve"]
    assert f"AP kept in reserve during the enemy phase: {1 - min(reserve, 1)}" in labels
