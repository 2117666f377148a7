"""The five cards the rulebook names (§9.1, §5) and house rule H1."""

from engine.riftwalker import scoring
from engine.riftwalker.cards import CARDS

from ._helpers import FIRE_LINE, NO_LINE, G, arrange, do, explored_ids, hand_of, legal, new_state, rift

SKIP = {"type": "skip"}


def test_burn_memory_burns_your_own_rifts_under_itself_and_scores_per_card_beneath_9_4():
    s = arrange(new_state(), step="rift", element="Fire", grid=NO_LINE, hands={0: ["FI-01", "WA-08", "LI-08"]},
                explored={0: [("WA-02", 2), ("WA-03", 0)], 1: [("ST-01", 1)]})
    s = do(s, {"type": "explore", "card": "FI-01"}, {"type": "activate", "rift": "FI-01"})
    # tuck! (mandatory) one of *your other* explored rifts: not the opponent's, not itself
    assert legal(s) == [{"type": "tuck", "card": "WA-02"}, {"type": "tuck", "card": "WA-03"}]
    s = do(s, {"type": "tuck", "card": "WA-02"})
    assert rift(s, "FI-01")["beneath"] == [{"id": "WA-02", "face": "up", "by": 0}]
    # bonus per card beneath: +1 at 3, +2 at 7 (counted only once burst, §6)
    r = {"id": "FI-01", "rot": 2, "beneath": [{"id": "WA-02", "face": "up", "by": 0}] * 2}
    assert scoring.bonus(r, [r], [[r], []]) == 4


def test_false_story_echoes_activating_an_opponents_burn_memory_rulebook_example_A9():
    """The rulebook's example: "you" is the active player, who burns their *own* rifts, and the burned
    cards go under the opponent's Burn Memory, so they count for that opponent's bonus."""
    s = arrange(new_state(), seat=0, step="rift", element="Wind", grid=NO_LINE,
                hands={0: ["WI-01", "WA-08", "LI-08"]},
                explored={0: [("ST-01", 1)], 1: [("FI-01", 1), ("FI-02", 1)]})
    s = do(s, {"type": "explore", "card": "WI-01"}, {"type": "activate", "rift": "WI-01"})
    assert legal(s) == [{"type": "activate", "rift": "FI-01"}, {"type": "activate", "rift": "FI-02"}, SKIP]
    s = do(s, {"type": "activate", "rift": "FI-01"})
    # Burn Memory's mandatory tuck: the active player's only other rift... WI-01 and ST-01 are both seat 0's
    moves = legal(s)
    assert moves == [{"type": "tuck", "card": "ST-01"}, {"type": "tuck", "card": "WI-01"}]
    s = do(s, {"type": "tuck", "card": "ST-01"})
    assert rift(s, "FI-01")["beneath"] == [{"id": "ST-01", "face": "up", "by": 0}]
    assert explored_ids(s, 1) == ["FI-01", "FI-02"] and explored_ids(s, 0) == ["WI-01"]


def test_false_story_echoes_you_is_the_active_player_5():
    # Seat 0 activates seat 1's Whispering Heights (draw 1): seat 0 draws, not its owner
    s = arrange(new_state(), step="rift", element="Wind", grid=NO_LINE, hands={0: ["WI-01", "WA-08", "LI-08"]},
                explored={1: [("WI-02", 2)]}, deck_top=["LI-01"])
    s = do(s, {"type": "explore", "card": "WI-01"}, {"type": "activate", "rift": "WI-01"})
    # a single target: activation of WI-02 is the only non-skip choice
    s = do(s, {"type": "activate", "rift": "WI-02"}, {"type": "draw", "n": 1})
    assert "LI-01" in hand_of(s, 0) and "LI-01" not in hand_of(s, 1)
    # seat 1's Cinder Reach activated by seat 0 discards a rift of seat 0's opponent, i.e. seat 1's
    s = arrange(new_state(), step="rift", element="Wind", grid=NO_LINE, hands={0: ["WI-01", "WA-08", "LI-08"]},
                explored={0: [("ST-01", 0)], 1: [("FI-02", 1), ("WA-02", 0)]})
    s = do(s, {"type": "explore", "card": "WI-01"}, {"type": "activate", "rift": "WI-01"},
           {"type": "activate", "rift": "FI-02"})
    assert legal(s) == [{"type": "discard", "card": "WA-02"}, SKIP]


def test_rolling_dunes_shifts_and_may_activate_A4():
    s = arrange(new_state(), step="rift", element="Earth", grid=NO_LINE, hands={0: ["EA-01", "WA-08", "LI-08"]},
                explored={0: [("ST-02", 0), ("ST-01", 2)], 1: [("FI-02", 0)]})
    s = do(s, {"type": "explore", "card": "EA-01"}, {"type": "activate", "rift": "EA-01"})
    # your other rifts that can still shift (ST-01 is at max: no shift, so no activation, A4)
    assert legal(s) == [{"type": "shift", "rift": "ST-02"}, SKIP]
    s = do(s, {"type": "shift", "rift": "ST-02"})
    assert rift(s, "ST-02")["rot"] == 1
    assert legal(s) == [{"type": "activate", "rift": "ST-02"}, SKIP]  # activating is optional
    s = do(s, {"type": "activate", "rift": "ST-02"})
    assert legal(s)[0] == {"type": "flip", "slot": 0}


def test_rolling_dunes_cannot_reactivate_a_rift_already_activated_this_turn_H1():
    s = arrange(new_state(), step="rift", element="Earth", grid=NO_LINE, hands={0: ["WA-08", "LI-08", "EA-08"]},
                explored={0: [("EA-05", 0), ("EA-01", 2), ("ST-02", 0)]})
    # Canyon Echo activates the worth-7 Rolling Dunes, which shifts... Canyon Echo itself
    s = do(s, {"type": "shift", "rift": "EA-05"}, {"type": "activate", "rift": "EA-05"})
    assert legal(s) == [{"type": "activate", "rift": "EA-01"}, SKIP]
    s = do(s, {"type": "activate", "rift": "EA-01"})
    s = do(s, {"type": "shift", "rift": "EA-05"})
    # EA-05 was activated this turn: no second activation (H1), so the chain stops by itself
    assert rift(s, "EA-05")["rot"] == 2 and not s["stack"]


def test_activation_loop_stops_H1():
    """§9.5's loop: your worth-7 False Story Echoes activates an opponent's Canyon Echo, which (you = you)
    could activate your False Story Echoes again - H1 forbids it."""
    s = arrange(new_state(), step="rift", element="Wind", grid=NO_LINE, hands={0: ["WA-08", "LI-08", "EA-08"]},
                explored={0: [("WI-01", 1), ("ST-02", 2)], 1: [("EA-05", 2)]})
    s = do(s, {"type": "shift", "rift": "WI-01"}, {"type": "activate", "rift": "WI-01"},
           {"type": "activate", "rift": "EA-05"})
    assert legal(s) == [{"type": "activate", "rift": "ST-02"}, SKIP]  # not WI-01 again
    assert s["turn"]["activated"] == ["WI-01", "EA-05"]


def test_shadowlands_is_wild_and_hides_what_it_holds_9_4():
    s = arrange(new_state(), step="rift", element="Storm", grid=NO_LINE, hands={0: ["SP-04", "FI-02", "WA-08"]})
    assert {"type": "explore", "card": "SP-04"} in legal(s)  # any element explores it
    s = do(s, {"type": "explore", "card": "SP-04"}, {"type": "activate", "rift": "SP-04"},
           {"type": "tuck", "card": "FI-02"})
    assert rift(s, "SP-04")["beneath"] == [{"id": "FI-02", "face": "down", "by": 0}]
    assert G.view(s, 1)["seats"][0]["explored"][0]["beneath"] == [{"id": None, "name": None, "face": "down", "by": 0}]
    s = arrange(new_state(), step="burst", element="Fire", grid=FIRE_LINE, explored={0: [("SP-04", 1)]})
    assert {"type": "burst", "rift": "SP-04", "via": "line"} in legal(s)  # any line bursts it
    assert CARDS.rifts["SP-04"].track == (0, 2, 5)
    # counts as no element for bonus conditions (A20): not a Fire rift for Wildfire Steppe
    fire = {"id": "FI-05", "rot": 1, "beneath": []}
    pile = [fire, {"id": "SP-04", "rot": 1, "beneath": []}, {"id": "FI-02", "rot": 1, "beneath": []}]
    assert scoring.bonus(fire, pile, [pile]) == 0
    sh = pile[1]
    sh["beneath"] = [{"id": "X", "face": "down", "by": 0}] * 3
    assert scoring.bonus(sh, pile, [pile]) == 2  # +1 per card beneath, at most 2


def test_venture_dual_element_never_worth_3_or_7_but_worth_0_A11():
    s = arrange(new_state(), step="rift", element="Water", grid=NO_LINE, hands={0: ["SP-01", "FI-02", "WA-08"]})
    assert {"type": "explore", "card": "SP-01"} in legal(s)
    s = arrange(new_state(), step="rift", element="Fire", grid=NO_LINE, hands={0: ["SP-01", "FI-06", "WA-08"]},
                explored={1: [("SP-02", 1), ("SP-03", 2)]})
    s = do(s, {"type": "explore", "card": "FI-06"}, {"type": "activate", "rift": "FI-06"})
    assert not s["stack"]  # Forge Cauldron (worth 3) finds no target: 2 and 5 never match 3/7
    s = arrange(new_state(), step="rift", element="Fire", grid=NO_LINE, hands={0: ["FI-02", "WA-08", "LI-08"]},
                explored={1: [("SP-02", 0), ("SP-03", 1)]})
    s = do(s, {"type": "explore", "card": "FI-02"}, {"type": "activate", "rift": "FI-02"})
    assert legal(s) == [{"type": "discard", "card": "SP-02"}, SKIP]  # an unshifted Venture is worth 0
    # a Venture counts as both elements for bonus conditions (A20)
    fire = {"id": "FI-05", "rot": 1, "beneath": []}
    pile = [fire, {"id": "SP-01", "rot": 1, "beneath": []}, {"id": "FI-02", "rot": 1, "beneath": []}]
    assert scoring.bonus(fire, pile, [pile]) == 1
