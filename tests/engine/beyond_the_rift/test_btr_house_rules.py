"""House rules H25-H27 (rules file section 4): the Door's freed Fatigue is each hero's choice, the drawing
hero hands out the campaign rewards (by a standing order that defaults to the automatic rule), and an
alternate side keeps its hero's name, class and alignment for item requirements."""

from __future__ import annotations

import random

import engine
from engine.beyond_the_rift import model as m
from engine.beyond_the_rift.content import CONTENT
from engine.kit import jcopy

from .helpers import G, clear_enemies, give, greedy_chooser, instances, new, of, play, responses
from .test_btr_campaign import attack_to_kill, win_by_killing

# ---- H25: the Door of "A Debt Paid in Ash" ----------------------------------------------------------


def _at_the_door(n: int = 2, **options):
    """Scenario 3 with its Door alone in the Quest Area, no enemy, hero 0 with AP to open it."""
    s, _ = new(n, "old-friends-3", 1, **options)
    clear_enemies(s)
    s["piles"]["enemy"] = []
    door = instances(s, "T1")[0]
    s["piles"]["terrain"].remove(door)
    s["terrain"] = [door]
    s["heroes"][0]["ap"] = 9
    responses(s, 1)
    return s, door


def _open(s, door):
    s, _ = play(s, 0, {"type": "open", "door": door})
    return play(s, 0, {"type": "spend", "n": 9})


def test_h25_the_door_asks_each_hero_holding_a_fatigue_to_discard_one_or_keep():
    s, door = _at_the_door(3)
    (f0,) = give(s, 0, "F01")
    f1, f1b = give(s, 1, "F10", "F03")  # hero 2 holds no Fatigue: not asked
    turn = G.turn(s)
    s, ev = _open(s, door)
    assert door not in s["terrain"] and not of(ev, "heal")
    assert s["prompt"]["kind"] == "recover" and G.to_act(s) == [0, 1]
    assert G.turn(s) == turn  # asked inside the hero phase's turn
    assert [mv for mv in G.legal_moves(s, 1) if G.move_section(mv) is None] == [
        {"type": "recover", "card": f1}, {"type": "recover", "card": f1b}, {"type": "keep"}]
    assert G.view(s, 1)["waiting_on"] == {"kind": "recover", "default_deadline_hours": 12}
    s, ev = play(s, 1, {"type": "recover", "card": f1})  # the worse one: AP -2
    assert of(ev, "heal")[0] == {"type": "heal", "seat": 1, "card": f1, "pile": "fatigue"}
    assert f1 in s["piles"]["fatigue_discard"] and f1b in s["heroes"][1]["hand"]
    assert G.to_act(s) == [0]
    s, ev = play(s, 0, {"type": "keep"})  # +1 AP at the draw phase: keeping can be right
    assert f0 in s["heroes"][0]["hand"] and s["prompt"] is None and G.to_act(s) == [0, 1, 2]
    assert G.describe_move({"type": "keep"}, G.apply(s, {"type": "flow", "tasks": [], "action": None,
                                                         "prompt": {"kind": "recover", "seats": [0]}})) \
        == "Keep the Fatigue in my hand"


def test_h25_the_standing_order_always_discards_at_once_and_the_timeout_does_the_same():
    s, door = _at_the_door(2, plans=[{"recover_fatigue": "always"}, {}])
    (f0,) = give(s, 0, "F01")
    (f1,) = give(s, 1, "F02")
    s2, ev = _open(s, door)
    assert [e["seat"] for e in of(ev, "heal")] == [0] and s2["prompt"]["seats"] == [1]
    assert G.default_move(s2, 1) == {"type": "recover", "card": f1}
    assert G.timeout_move(s2, 1, "skip") == {"type": "recover", "card": f1}
    # the order is a setting, changed in play like any other (one drop-down on pages)
    mv = {"type": "setting", "key": "recover_fatigue", "value": "always"}
    assert mv in G.legal_moves(s, 1) and G.move_section(mv) == "A Fatigue the Door frees from my hand"
    s3, _ = play(s, 1, mv)
    s3, ev = _open(s3, door)
    assert [e["seat"] for e in of(ev, "heal")] == [0, 1] and s3["prompt"] is None


def test_h25_nobody_holding_a_fatigue_means_nobody_is_asked():
    s, door = _at_the_door(2)
    s, ev = _open(s, door)
    assert s["prompt"] is None and not of(ev, "heal")


def test_h25_the_order_is_offered_only_where_a_door_frees_fatigue():
    for scenario, offered in (("tutorial", False), ("old-friends-1", False), ("old-friends-3", True)):
        s, _ = new(1, scenario)
        keys = {mv["key"] for mv in G.legal_moves(s, 0) if mv["type"] == "setting"}
        assert ("recover_fatigue" in keys) is offered


# ---- H26: the rewards of a campaign win -------------------------------------------------------------


def version_2_rewards(state: dict) -> dict:
    """Rules version 2's fixed reward rule (its rewards.rewards_for), for comparison."""
    camp = jcopy(state["campaign"])
    sc = m.scenario(state)
    camp["won"].append(sc["id"])
    drawn = []
    rw = sc.get("rewards", {})
    for h in state["heroes"]:
        got = [camp["reward_deck"].pop(0) for _ in range(rw.get("draw_each", 0)) if camp["reward_deck"]]
        usable = [it for it in got if CONTENT.item_allowed(it, h["hero"])]
        keep = (usable or got)[:rw.get("keep_each", 0)]
        for item in got:
            part = CONTENT.items[item]["part"]
            mine = camp["equipped"].setdefault(h["hero"], {})
            if item not in keep:
                camp["reward_deck"].append(item)
                to = "reward_deck"
            elif item in usable and part not in mine:
                mine[part] = item
                to = part
            else:
                camp["stash"].append(item)
                to = "stash"
            drawn.append({"hero": h["hero"], "item": item, "to": to})
    return dict(jcopy(camp), drawn=drawn, scenario=sc["id"])


def test_h26_by_default_nobody_is_asked_and_the_rewards_are_rules_version_2s():
    for scenario, boss, heroes, seed in (("old-friends-1", "O3", ["brannoc", "tamsin"], 3),
                                         ("old-friends-1", "O3", ["osric", "brannoc", "isolde", "tamsin"], 4),
                                         ("old-friends-2", "I4", ["brannoc", "isolde", "osric"], 5),
                                         ("old-friends-2", "I4", ["tamsin", "isolde", "osric", "brannoc"], 6)):
        s, _ = new(len(heroes), scenario, seed, heroes=heroes)
        want = version_2_rewards(s)
        won = win_by_killing(s, boss) if scenario == "old-friends-1" else _win_the_road(s)
        assert G.result(won)["rewards"] == want, (scenario, heroes)
        assert not any(mv["type"] == "reward" for mv in G.legal_moves(won, 0))


def _win_the_road(s):
    """The Burrow Road is won in the end phase: no Tunnel Mouth left and the gate removed."""
    s["terrain"] = []
    s["removed_terrain"] = ["T8", "T8", "T2"]
    s["enemies"] = []
    s["piles"]["enemy"] = []
    for h in s["heroes"]:
        h["status"] = "done"
    s["heroes"][0]["status"] = "active"
    return play(s, 0, {"type": "done"})[0]


def test_h26_a_hero_who_asks_places_each_item_drawn_equipped_on_any_hero_stashed_or_returned():
    s, _ = new(2, "old-friends-1", 3, heroes=["brannoc", "tamsin"], plans=[{"rewards": "ask"}, {}])
    s["campaign"]["reward_deck"] = ["IT-LONGBOW", "IT-GREATHELM", "IT-BOOTS"]
    turn = G.turn(s)
    won = win_by_killing(s, "O3")
    assert G.result(won) is None and won["phase"] == "rewards"
    assert G.to_act(won) == [0] and G.turn(won) == engine.Turn(turn.number + 1, "rewards", (0,))
    asked = [mv for mv in G.legal_moves(won, 0) if G.move_section(mv) is None]
    # Brannoc (a warrior) drew the Longbow (scouts): Tamsin may equip it, or the party stashes or returns it
    assert asked == [{"type": "reward", "item": "IT-LONGBOW", "to": "equip", "seat": 1},
                     {"type": "reward", "item": "IT-LONGBOW", "to": "stash"},
                     {"type": "reward", "item": "IT-LONGBOW", "to": "return"}]
    assert G.default_move(won, 0) == {"type": "reward", "item": "IT-LONGBOW", "to": "stash"}  # the auto rule
    assert G.view(won, 0)["waiting_on"] == {"kind": "reward", "default_deadline_hours": 48}
    before = won
    done, ev = play(won, 0, asked[0])
    assert of(ev, "reward")[0] == {"type": "reward", "seat": 0, "item": "IT-LONGBOW", "to": "left_arm", "on": 1}
    assert G.describe_event(of(ev, "reward")[0], None, before) == \
        "Brannoc Vey gives Ashwood Longbow to Tamsin Rook, who equips it (left arm)."
    # Tamsin's order is auto: her draw (the Greathelm, for warriors) goes to the stash unasked
    result = G.result(done)
    assert result["outcome"] == "win" and result["winners"] == [0, 1]
    rw = result["rewards"]
    assert rw["drawn"] == [{"hero": "tamsin", "item": "IT-LONGBOW", "to": "left_arm", "by": "brannoc"},
                           {"hero": "tamsin", "item": "IT-GREATHELM", "to": "stash"}]
    assert rw["equipped"] == {"brannoc": {}, "tamsin": {"left_arm": "IT-LONGBOW"}}
    assert rw["stash"] == ["IT-GREATHELM"] and rw["reward_deck"] == ["IT-BOOTS"] and rw["won"] == ["old-friends-1"]
    # the next scenario starts with it (the campaign adapter passes `rewards` as `carry`)
    s2, _ = new(2, "old-friends-2", 4, heroes=["brannoc", "tamsin"], carry=rw)
    assert s2["heroes"][1]["equipped"] == {"left_arm": "IT-LONGBOW"}


def test_h26_only_keep_each_items_are_kept_the_rest_go_back_unasked():
    carry = {"campaign": "old-friends", "won": ["old-friends-1"],
             "reward_deck": ["IT-BOOTS", "IT-BRIGANDINE", "IT-LONGBOW"]}
    s, _ = new(1, "old-friends-2", 3, heroes=["brannoc"], carry=carry, plans=[{"rewards": "ask"}])
    won = _win_the_road(s)
    assert won["prompt"] == {"kind": "reward", "seats": [0], "item": "IT-BOOTS"}
    won, _ = play(won, 0, {"type": "reward", "item": "IT-BOOTS", "to": "return"})
    assert won["prompt"]["item"] == "IT-BRIGANDINE"
    done, ev = play(won, 0, {"type": "reward", "item": "IT-BRIGANDINE", "to": "stash"})
    rw = G.result(done)["rewards"]
    assert [d["to"] for d in rw["drawn"]] == ["reward_deck", "stash"]
    assert rw["reward_deck"] == ["IT-LONGBOW", "IT-BOOTS"]  # returned under the deck


def test_h26_the_order_is_a_setting_of_campaign_scenarios_that_draw_items():
    for scenario, offered in (("tutorial", False), ("old-friends-1", True), ("old-friends-3", False)):
        s, _ = new(1, scenario)
        keys = {mv["key"] for mv in G.legal_moves(s, 0) if mv["type"] == "setting"}
        assert ("rewards" in keys) is offered
    s, _ = new(1, "old-friends-1")
    s, ev = play(s, 0, {"type": "setting", "key": "rewards", "value": "ask"})
    assert s["heroes"][0]["plan"]["rewards"] == "ask"


def test_h26_greedy_campaign_games_with_every_hero_asking_end_and_replay():
    outcomes = set()
    for seed in range(6):
        s, log = new(2, "old-friends-1", seed, defense_modes=["auto", "auto"],
                     plans=[{"rewards": "ask"}, {"rewards": "ask"}])
        rng = random.Random(seed)
        while G.result(s) is None:
            seat = rng.choice(G.to_act(s))
            events = G.play(s, seat, greedy_chooser(s, seat, G.legal_moves(s, seat), rng), random.Random(seed))
            s = engine.replay(G, events, s)
            log += events
        outcomes.add(G.result(s)["outcome"])
        assert engine.replay(G, log) == s
    assert outcomes


# ---- H27: alternate sides and items ----------------------------------------------------------------


def test_h27_an_alternate_side_keeps_its_heros_name_class_and_alignment_for_item_requirements():
    standard, oathbound = CONTENT.board("brannoc", "standard"), CONTENT.board("brannoc", "oathbound")
    assert oathbound["name"] != standard["name"]  # "Brannoc Vey, Oathbound": not the name Hask's Blade asks
    carry = {"campaign": "old-friends", "won": ["old-friends-1", "old-friends-2", "old-friends-3"],
             "unlocked_sides": {"brannoc": ["oathbound"]}, "stash": ["IT-HASK"],
             "reward_deck": ["IT-GREATHELM", "IT-BOOTS"]}
    hero = [{"hero": "brannoc", "side": "oathbound"}]
    # between scenarios: Oathbound Brannoc equips Hask's Blade (requires the name Brannoc Vey)
    events = G.start(1, {"scenario": "old-friends-1", "heroes": hero, "carry": carry,
                         "equip": {"brannoc": {"right_arm": "IT-HASK"}}}, 9)
    assert events[0]["state"]["heroes"][0]["equipped"] == {"right_arm": "IT-HASK"}
    # a reward: the Greathelm (class warrior) is equipped on Oathbound Brannoc by the automatic rule
    carry["won"] = []
    s, _ = new(1, "old-friends-1", 9, heroes=hero, carry=carry)
    assert s["heroes"][0]["side"] == "oathbound"
    rw = G.result(win_by_killing(s, "O3"))["rewards"]
    assert rw["drawn"] == [{"hero": "brannoc", "item": "IT-GREATHELM", "to": "head"}]


def test_a_won_scenario_in_words():
    s, _ = new(1, "old-friends-1", 3, plans=[{"rewards": "ask"}])
    s["campaign"]["reward_deck"] = ["IT-BOOTS"]
    s = attack_to_kill(s, "O3")
    states = [s]
    s, ev = play(s, 0, {"type": "resolve"})
    for e in ev:
        states.append(G.apply(states[-1], e))
    said = [G.describe_event(e, 0, st) for e, st in zip(ev, states)]
    assert "The heroes win: Orc Huntmaster is defeated. The rewards are handed out." in said
    assert "You draw Runner's Boots from the reward deck." in said
    text = G.render_text(G.view(s, 0))
    assert "Scenario won, rewards" in text and "Item to place: Runner's Boots (legs)" in text
