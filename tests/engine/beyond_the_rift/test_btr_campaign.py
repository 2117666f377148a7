"""Campaign carry-over (section 1.21, 2.11-2.12): a won scenario's result carries the rewards that the
next scenario's start accepts; requirements, equipping by body part, the alternate side."""

from __future__ import annotations

import json

import pytest

from engine import IllegalMove
from engine.beyond_the_rift.content import CONTENT

from .helpers import G, clear_enemies, hand, new, place, play, responses


def attack_to_kill(s, etype):
    """Arrange a sure kill of the scenario's boss by hero 0 and declare the attack (not yet resolved)."""
    clear_enemies(s)
    boss = place(s, etype, 0)
    rec = [e for e in s["enemies"] if e["id"] == boss][0]
    for w in list(s["piles"]["wound"])[:5]:
        s["piles"]["wound"].remove(w)
        rec["att"].append({"card": w, "mods": {"health": -1}, "until": None})
    s["terrain"] = []
    (c,) = hand(s, 0, "BV02", ap=5)
    responses(s, 1)
    s, _ = play(s, 0, {"type": "attack", "card": c})
    return s


def win_by_killing(s, etype):
    """Arrange a sure kill of the scenario's boss by hero 0 and play it."""
    s, _ = play(attack_to_kill(s, etype), 0, {"type": "resolve"})
    return s


def test_campaign_needs_brannoc_and_scenario_order():
    with pytest.raises(IllegalMove) as err:
        G.start(1, {"scenario": "old-friends-1", "heroes": ["isolde"]}, 1)
    assert err.value.code == "bad_options"
    with pytest.raises(IllegalMove):
        G.start(1, {"scenario": "old-friends-2"}, 1)  # scenario 1 not won
    with pytest.raises(IllegalMove):
        G.start(1, {"scenario": "tutorial", "heroes": [{"hero": "brannoc", "side": "oathbound"}]}, 1)
    with pytest.raises(IllegalMove):
        G.start(5, {}, 1)
    with pytest.raises(IllegalMove):
        G.start(1, {"colour": "red"}, 1)


def test_rule_1_21_campaign_carry_over_through_all_three_scenarios():
    s, _ = new(2, scenario="old-friends-1", seed=3, heroes=["brannoc", "tamsin"])
    s = win_by_killing(s, "O3")
    r = G.result(s)
    assert r["outcome"] == "win" and r["winners"] == [0, 1]
    rw = json.loads(json.dumps(r["rewards"]))  # it travels as JSON through the service
    assert rw["won"] == ["old-friends-1"] and len(rw["drawn"]) == 2
    assert len(rw["reward_deck"]) + len([d for d in rw["drawn"] if d["to"] != "reward_deck"]) == 7

    # the next scenario starts with it: kept items replace the body part's cards in the deck
    s2, _ = new(2, scenario="old-friends-2", seed=4, heroes=["brannoc", "tamsin"], carry=rw)
    assert s2["campaign"]["won"] == ["old-friends-1"]
    for d in rw["drawn"]:
        if d["to"] in ("head", "torso", "left_arm", "right_arm", "legs"):
            seat = ["brannoc", "tamsin"].index(d["hero"])
            h = s2["heroes"][seat]
            defs = {s2["cards"][c] for c in h["deck"] + h["hand"]}
            item = CONTENT.items[d["item"]]
            assert {c["id"] for c in item["cards"]} <= defs
            assert not [x for x in defs if CONTENT.cards[x].get("part") == item["part"] and not x.startswith("IT-")]

    s2 = win_by_killing(s2, "I4")  # The Burrow Road is won in the end phase: arrange that instead
    assert G.result(s2) is None
    s2["terrain"] = []
    s2["removed_terrain"] = ["T8", "T8", "T2"]
    s2["enemies"] = []
    s2["piles"]["enemy"] = []
    for h in s2["heroes"]:
        h["status"] = "done"
    s2["heroes"][0]["status"] = "active"
    s2, _ = play(s2, 0, {"type": "done"})
    r2 = G.result(s2)
    assert r2["outcome"] == "win" and r2["rewards"]["won"] == ["old-friends-1", "old-friends-2"]

    s3, _ = new(2, scenario="old-friends-3", seed=5, heroes=["brannoc", "tamsin"], carry=r2["rewards"])
    s3 = win_by_killing(s3, "C5")
    r3 = G.result(s3)
    assert r3["outcome"] == "win"
    assert r3["rewards"]["unlocked_sides"] == {"brannoc": ["oathbound"]} and "IT-HASK" in r3["rewards"]["stash"]

    # the alternate side is now allowed, and Hask's Blade can be equipped from the stash
    carry = r3["rewards"]
    events = G.start(1, {"scenario": "old-friends-1", "heroes": [{"hero": "brannoc", "side": "oathbound"}],
                         "carry": carry, "equip": {"brannoc": {"right_arm": "IT-HASK"}}}, 9)
    st = events[0]["state"]
    assert st["heroes"][0]["side"] == "oathbound" and st["heroes"][0]["ap"] == 7
    defs = [st["cards"][c] for c in st["heroes"][0]["deck"]]
    assert defs.count("IT-HASK-1") == 4 and "BV01" not in defs and "BV02" not in defs


def test_lost_scenario_grants_nothing_and_replaying_a_win_grants_no_items_twice():
    s, _ = new(1, scenario="old-friends-1", seed=3)
    s["threat"] = 9
    s["enemies"] = []
    s, _ = play(s, 0, {"type": "done"})
    assert G.result(s)["outcome"] == "loss" and G.result(s)["rewards"] == {}
    s, _ = new(1, scenario="old-friends-1", seed=3)
    rw = G.result(win_by_killing(s, "O3"))["rewards"]
    s, _ = new(1, scenario="old-friends-1", seed=4, carry=rw)
    rw2 = G.result(win_by_killing(s, "O3"))["rewards"]
    assert rw2["drawn"] == [] and rw2["won"] == ["old-friends-1"]  # H8


def test_rule_1_21_equip_rejects_items_the_hero_cannot_use():
    carry = {"campaign": "old-friends", "won": ["old-friends-1"], "stash": ["IT-LONGBOW"]}
    with pytest.raises(IllegalMove):
        G.start(1, {"scenario": "old-friends-1", "carry": carry, "equip": {"brannoc": {"left_arm": "IT-LONGBOW"}}}, 1)
    with pytest.raises(IllegalMove):
        G.start(1, {"scenario": "old-friends-1", "carry": carry, "equip": {"brannoc": {"torso": "IT-BOOTS"}}}, 1)


def test_carry_over_from_a_played_win_into_the_next_scenario():
    """A real playout of scenario 1 that ends in a win (the first seed from 16 that does), its result's
    rewards passed to scenario 2, which is then played to its end."""
    from .helpers import greedy_chooser, playout

    for seed in range(16, 120):
        state, log = playout(3, "old-friends-1", seed, greedy_chooser, {"defense_modes": ["auto"] * 3})
        if G.result(state)["outcome"] == "win":
            break
    else:
        pytest.fail("no win in 104 greedy playouts of Ashes at Hollowmere")
    carry = json.loads(json.dumps(G.result(state)["rewards"]))
    state2, _ = playout(3, "old-friends-2", seed, greedy_chooser, {"carry": carry})
    assert G.result(state2)["outcome"] in ("win", "loss")
    assert state2["campaign"]["won"] == ["old-friends-1"]
    heroes = [h["hero"] for h in state2["heroes"]]
    for d in carry["drawn"]:
        if d["to"] not in ("stash", "reward_deck"):
            h = state2["heroes"][heroes.index(d["hero"])]
            assert h["equipped"][d["to"]] == d["item"]


def test_rule_1_21_equipping_leaves_the_callers_carry_over_untouched():
    """The stored options of a game must be what was asked: equipping works on a copy of the carry."""
    import copy

    options = {"scenario": "old-friends-2", "carry": {"campaign": "old-friends", "won": ["old-friends-1"],
                                                      "stash": ["IT-BRIGANDINE"], "equipped": {}},
               "equip": {"brannoc": {"torso": "IT-BRIGANDINE"}}}
    asked = copy.deepcopy(options)
    events = G.start(1, options, 2)
    assert options == asked
    assert events[0]["state"]["campaign"]["equipped"] == {"brannoc": {"torso": "IT-BRIGANDINE"}}
