"""Every primitive of the power language (§9.3), with the readings of §5 and A16–A19."""

import json

from engine.riftwalker import words
from engine.riftwalker.cards import CARDS, DATA_FILE
from engine.riftwalker.state import up_face

from ._helpers import (
    FIRE_LINE,
    NO_LINE,
    G,
    arrange,
    do,
    explored_ids,
    hand_of,
    legal,
    new_state,
    rift,
    scored_ids,
    words_of,
)

SKIP = {"type": "skip"}


def explore_and_activate(card, element, players=2, **kw):
    kw.setdefault("grid", NO_LINE)
    hands = kw.pop("hands", {0: [card, "WA-08", "LI-08"]})
    s = arrange(new_state(players), step="rift", element=element, hands=hands, **kw)
    return do(s, {"type": "explore", "card": card}, {"type": "activate", "rift": card})


def shift_and_activate(card, element, rot=0, players=2, explored=None, **kw):
    kw.setdefault("grid", NO_LINE)
    kw.setdefault("hands", {0: ["WA-08", "LI-08", "EA-08"]})
    explored = dict(explored or {})
    explored[0] = [(card, rot)] + list(explored.get(0, []))
    s = arrange(new_state(players), step="rift", element=element, explored=explored, **kw)
    return do(s, {"type": "shift", "rift": card}, {"type": "activate", "rift": card})


def test_flip_n_turns_different_cards_and_may_stop_early_9_3():
    s = explore_and_activate("ST-02", "Storm")  # flip(n=2)
    assert legal(s) == [{"type": "flip", "slot": i} for i in range(9)] + [SKIP]
    s = do(s, {"type": "flip", "slot": 0})
    assert up_face(s["grid"][0]) == "Fire"
    assert {"type": "flip", "slot": 0} not in legal(s)  # n *different* cards
    s = do(s, {"type": "flip", "slot": 1})
    assert up_face(s["grid"][1]) == "Life" and not s["stack"]
    s2 = explore_and_activate("ST-02", "Storm")
    s2 = do(s2, {"type": "flip", "slot": 0}, SKIP)  # "up to": stop after one (A19)
    assert not s2["stack"] and up_face(s2["grid"][1]) == "Fire"


def test_place_n_top_card_either_face_replaced_card_to_the_bottom_9_3():
    s = explore_and_activate("ST-01", "Storm")  # place(n=2)
    top = s["edeck"][0]
    faces = CARDS.element_cards[top]
    assert legal(s) == [{"type": "place", "element": f} for f in faces] + [SKIP]
    replaced = s["grid"][3][0]
    s = do(s, {"type": "place", "element": faces[1]})
    assert SKIP not in legal(s)  # the card is taken: it must go somewhere
    s = do(s, {"type": "put", "slot": 3})
    assert s["grid"][3] == [top, 1] and s["edeck"][-1] == replaced and len(s["edeck"]) == 6
    assert s["turn"]["element"] == "Storm"  # a power's place gives no element
    assert legal(s)[0]["type"] == "place"  # the second place
    s = do(s, SKIP)
    assert not s["stack"]


def test_grow_only_cards_hiding_that_element_and_nothing_if_none_9_3():
    s = explore_and_activate("FI-05", "Fire")  # grow(Fire, n=2); NO_LINE hides Fire only at slot 0
    assert legal(s) == [{"type": "grow", "slot": 0}, SKIP]
    s = do(s, {"type": "grow", "slot": 0})
    assert up_face(s["grid"][0]) == "Fire" and not s["stack"]
    s = explore_and_activate("FI-05", "Fire", grid=FIRE_LINE)  # no Fire hidden anywhere
    assert not s["stack"] and s["turn"]["activated"] == ["FI-05"]


def test_swap_exchanges_two_grid_cards_faces_unchanged_9_3():
    s = explore_and_activate("WA-02", "Water")  # swap(n=2)
    a, b = s["grid"][0][:], s["grid"][8][:]
    s = do(s, {"type": "swap", "slot": 0})
    assert SKIP not in legal(s) and {"type": "swap_with", "slot": 0} not in legal(s)
    s = do(s, {"type": "swap_with", "slot": 8})
    assert s["grid"][0] == b and s["grid"][8] == a
    s = do(s, SKIP)
    assert not s["stack"]


def test_explore_by_power_does_not_activate_5():
    s = explore_and_activate("EA-06", "Earth", hands={0: ["EA-06", "EA-02", "WA-01"]})  # explore(Earth)
    assert legal(s) == [{"type": "explore", "card": "EA-02"}, SKIP]
    s = do(s, {"type": "explore", "card": "EA-02"})
    assert explored_ids(s, 0) == ["EA-06", "EA-02"] and s["turn"]["activated"] == ["EA-06"]
    assert not s["stack"]


def test_shift_by_power_does_not_activate_and_skips_maxed_rifts_5():
    s = shift_and_activate("EA-02", "Earth", explored={0: [("EA-08", 0), ("EA-03", 2), ("WA-01", 0)]})
    assert legal(s) == [{"type": "shift", "rift": "EA-08"}, SKIP]  # other, Earth, not at max
    s = do(s, {"type": "shift", "rift": "EA-08"})
    assert rift(s, "EA-08")["rot"] == 1 and s["turn"]["activated"] == ["EA-02"] and not s["stack"]


def test_activate_a_fully_shifted_rift_A5():
    s = shift_and_activate("EA-05", "Earth", explored={0: [("ST-02", 2), ("ST-01", 1)]})  # worth 7, other
    assert legal(s) == [{"type": "activate", "rift": "ST-02"}, SKIP]
    s = do(s, {"type": "activate", "rift": "ST-02"})
    assert rift(s, "ST-02")["rot"] == 2  # activation does not rotate
    assert legal(s)[0] == {"type": "flip", "slot": 0}  # Static Fields' flip is now resolving
    assert s["turn"]["activated"] == ["EA-05", "ST-02"]


def test_return_sends_the_rift_to_its_owners_hand_and_beneath_cards_to_the_bottom_5():
    s = explore_and_activate("WA-01", "Water",
                             explored={1: [("FI-02", 0, [("LI-01", "up")]), ("FI-03", 1)]})  # return(opp, worth 0)
    assert legal(s) == [{"type": "return", "rift": "FI-02"}, SKIP]
    s = do(s, {"type": "return", "rift": "FI-02"})
    assert "FI-02" in hand_of(s, 1) and explored_ids(s, 1) == ["FI-03"] and s["rdeck"][-1] == "LI-01"


def test_discard_explored_goes_to_the_deck_bottom_with_beneath_cards_9_3():
    s = explore_and_activate("FI-02", "Fire", explored={1: [("WA-02", 0, [("LI-01", "down")]), ("WA-03", 1)]})
    assert legal(s) == [{"type": "discard", "card": "WA-02"}, SKIP]
    s = do(s, {"type": "discard", "card": "WA-02"})
    assert s["rdeck"][-2:] == ["WA-02", "LI-01"] and explored_ids(s, 1) == ["WA-03"]


def test_discard_from_each_opponents_hand_the_owner_chooses_A16_A17():
    s = explore_and_activate("WA-07", "Water", players=3,
                             hands={0: ["WA-07", "LI-08", "EA-08"], 1: ["FI-02", "FI-03"], 2: ["ST-01"]})
    assert legal(s) == [{"type": "do"}, SKIP]
    s = do(s, {"type": "do"})
    assert G.to_act(s) == [1] and G.legal_moves(s, 0) == []
    assert G.legal_moves(s, 1) == [{"type": "discard", "card": "FI-02"}, {"type": "discard", "card": "FI-03"}]
    log, before = [], s
    s = do(s, {"type": "discard", "card": "FI-03"}, log=log)
    assert hand_of(s, 1) == ["FI-02"]
    # seat 2 has a single card: forced, so it went at once; then the turn goes on for seat 0
    assert hand_of(s, 2) == [] and G.to_act(s) == [0]
    discard = [e for e in log if e["type"] == "discard"][0]
    assert G.redact_event(discard, 2)["card"] is None and G.redact_event(discard, 1)["card"] == "FI-03"
    told = words_of(before, log, 2)[log.index(discard)]
    assert told == "Player 2 discards a card from their hand to the bottom of the rift deck (Player 1's power)."


def test_discard_from_the_score_pile_as_a_cost_then_burst_without_a_line_9_3():
    s = shift_and_activate("FI-08", "Fire", scored={0: [("WA-03", 1)]})  # cost(discard score) -> burst_step(any)
    assert legal(s) == [{"type": "discard", "card": "WA-03"}, SKIP]
    s = do(s, {"type": "discard", "card": "WA-03"})
    assert scored_ids(s, 0) == [] and s["rdeck"][-1] == "WA-03"
    assert legal(s) == [{"type": "burst", "rift": "FI-08", "via": "power", "grant": 0}, SKIP]
    s2 = shift_and_activate("FI-08", "Fire", scored={0: [("WA-03", 1)]})
    s2 = do(s2, SKIP)  # not paid: no burst-step power
    assert scored_ids(s2, 0) == ["WA-03"] and s2["turn"]["grants"] == [] and s2["turn"]["step"] == "refresh"


def test_force_burst_moves_an_opponents_rift_to_their_score_pile_A12():
    s = explore_and_activate("FI-06", "Fire", grid=FIRE_LINE,
                             explored={0: [("FI-02", 1)], 1: [("WA-02", 1), ("WA-03", 2), ("SP-01", 1)]})
    assert legal(s) == [{"type": "force_burst", "rift": "WA-02"}, SKIP]  # worth 3 only; a Venture never is
    s = do(s, {"type": "force_burst", "rift": "WA-02"})
    assert scored_ids(s, 1) == ["WA-02"] and s["scored"][1][0]["rot"] == 1
    # it was not my burst: the Fire line still lets me burst my own rift (A12)
    assert {"type": "burst", "rift": "FI-02", "via": "line"} in legal(s)


def test_burst_step_power_is_your_burst_4_3():
    s = shift_and_activate("FI-04", "Fire", grid=FIRE_LINE, explored={0: [("FI-02", 2), ("WA-02", 1)]})
    moves = legal(s)
    assert {"type": "burst", "rift": "FI-02", "via": "power", "grant": 0} in moves
    assert {"type": "burst", "rift": "FI-02", "via": "line"} in moves
    assert not any(m.get("rift") == "WA-02" for m in moves)  # Fire only, and no Water line
    s = do(s, {"type": "burst", "rift": "FI-02", "via": "power", "grant": 0})
    assert s["turn"]["step"] == "refresh"  # no line burst after a power burst


def test_extra_burst_allows_a_second_burst_with_a_line_9_3():
    s = shift_and_activate("ST-04", "Storm", grid=FIRE_LINE, explored={0: [("FI-02", 1), ("FI-03", 2)]})
    s = do(s, {"type": "burst", "rift": "FI-02", "via": "line"})
    assert legal(s) == [{"type": "burst", "rift": "FI-03", "via": "line"}, SKIP]
    s = do(s, {"type": "burst", "rift": "FI-03", "via": "line"})
    assert scored_ids(s, 0) == ["FI-02", "FI-03"] and s["turn"]["step"] == "refresh"


def test_draw_takes_from_the_deck_top_9_3():
    s = explore_and_activate("WI-02", "Wind", deck_top=["LI-01"])  # draw(1); flip(1)
    assert legal(s) == [{"type": "draw", "n": 1}, SKIP]
    s = do(s, {"type": "draw", "n": 1})
    assert "LI-01" in hand_of(s, 0) and legal(s)[0] == {"type": "flip", "slot": 0}


def test_search_takes_matching_cards_and_orders_the_rest_to_the_bottom_9_3():
    s = explore_and_activate("WA-04", "Water", deck_top=["WA-01", "FI-02", "WA-03"])  # search(3, Water, 1)
    assert legal(s) == [{"type": "search"}, SKIP]
    log, before = [], s
    s = do(s, {"type": "search"}, log=log)
    assert G.view(s, 0)["searching"]["cards"][0]["id"] == "WA-01" and G.view(s, 1)["searching"]["cards"] is None
    look = [e for e in log if e["type"] == "look"][0]
    assert G.redact_event(look, 1)["cards"] is None
    assert words_of(before, log, 1)[log.index(look)] == "Player 1 looks at the top 3 cards of the rift deck."
    assert legal(s) == [{"type": "take", "card": "WA-01"}, {"type": "take", "card": "WA-03"}, SKIP]
    s = do(s, {"type": "take", "card": "WA-03"})
    assert legal(s) == [{"type": "bottom", "card": "WA-01"}, {"type": "bottom", "card": "FI-02"}, SKIP]
    s = do(s, {"type": "bottom", "card": "FI-02"})  # the last one follows by itself
    assert "WA-03" in hand_of(s, 0) and s["rdeck"][-2:] == ["FI-02", "WA-01"] and not s["limbo"]


def test_tuck_from_hand_face_up_beneath_this_rift_9_3():
    s = explore_and_activate("LI-02", "Life", hands={0: ["LI-02", "FI-02", "WA-01"]})
    assert legal(s) == [{"type": "tuck", "card": "FI-02"}, {"type": "tuck", "card": "WA-01"}, SKIP]
    s = do(s, {"type": "tuck", "card": "FI-02"})
    assert rift(s, "LI-02")["beneath"] == [{"id": "FI-02", "face": "up", "by": 0}]
    assert G.view(s, 1)["seats"][0]["explored"][0]["beneath"][0]["name"] == "Cinder Reach"


def test_tuck_from_the_deck_top_face_down_is_seen_by_placer_and_host_owner_H7():
    s = explore_and_activate("LI-05", "Life", deck_top=["ST-03"])
    assert legal(s) == [{"type": "tuck_top"}, SKIP]
    log, before = [], s
    s = do(s, {"type": "tuck_top"}, log=log)
    assert G.view(s, 0)["seats"][0]["explored"][0]["beneath"][0]["id"] == "ST-03"
    assert G.view(s, 1)["seats"][0]["explored"][0]["beneath"][0]["id"] is None
    assert G.view(s, None)["seats"][0]["explored"][0]["beneath"][0]["id"] is None
    tuck = [e for e in log if e["type"] == "tuck"][0]
    assert G.redact_event(tuck, 1)["card"] is None
    assert words_of(before, log, 1)[log.index(tuck)] == (
        "Player 1 puts a face-down card from the top of the rift deck face down beneath Heartwood Circle.")
    assert "Lightning Forge" in words_of(before, log, 0)[log.index(tuck)]


def test_tuck_an_explored_rift_sends_its_beneath_cards_to_the_bottom_and_mandatory_has_no_skip_9_3():
    s = explore_and_activate("FI-01", "Fire", explored={0: [("WA-02", 1, [("LI-01", "up")])]})
    # Burn Memory: tuck!(explored, you, other): a single choice and mandatory, so it happened at once
    assert rift(s, "FI-01")["beneath"] == [{"id": "WA-02", "face": "up", "by": 0}]
    assert s["rdeck"][-1] == "LI-01" and explored_ids(s, 0) == ["FI-01"]
    s = explore_and_activate("FI-01", "Fire", explored={0: [("WA-02", 1), ("WA-03", 0)]})
    assert legal(s) == [{"type": "tuck", "card": "WA-02"}, {"type": "tuck", "card": "WA-03"}]  # no skip (!)


def test_cost_then_happens_only_if_paid_in_full_9_3():
    s = explore_and_activate("FI-03", "Fire", hands={0: ["FI-03", "WA-01"]}, explored={1: [("WA-02", 1)]})
    assert legal(s) == [{"type": "discard", "card": "WA-01"}, SKIP]
    s = do(s, {"type": "discard", "card": "WA-01"})
    assert legal(s) == [{"type": "discard", "card": "WA-02"}, SKIP]  # worth 3, an opponent's
    s = do(s, {"type": "discard", "card": "WA-02"})
    assert explored_ids(s, 1) == []
    s = explore_and_activate("FI-03", "Fire", hands={0: ["FI-03", "WA-01"]}, explored={1: [("WA-02", 1)]})
    s = do(s, SKIP)
    assert explored_ids(s, 1) == ["WA-02"] and not s["stack"]


def test_choose_resolves_exactly_one_option_9_3():
    s = explore_and_activate("SP-01", "Water")  # choose{grow Fire | grow Water}
    assert legal(s) == [{"type": "choose", "option": 0}, {"type": "choose", "option": 1}, SKIP]
    s = do(s, {"type": "choose", "option": 1})
    assert legal(s) == [{"type": "grow", "slot": 4}, SKIP]  # NO_LINE hides Water at slot 4 only
    s = do(s, {"type": "grow", "slot": 4})
    assert up_face(s["grid"][4]) == "Water" and not s["stack"]


def test_mandatory_step_must_be_done_A19():
    s = explore_and_activate("WI-08", "Wind", hands={0: ["WI-08", "FI-02"]})  # draw(2); discard!(hand, 1)
    assert legal(s) == [{"type": "draw", "n": 2}, {"type": "draw", "n": 1}, SKIP]
    s = do(s, {"type": "draw", "n": 2})
    moves = legal(s)
    assert SKIP not in moves and len(moves) == 3 and all(m["type"] == "discard" for m in moves)


def test_protect_stops_other_players_powers_but_not_the_owners_9_3():
    s = explore_and_activate("FI-02", "Fire", explored={1: [("EA-04", 0)]})  # Bedrock Hollow, worth 0
    assert not s["stack"] and explored_ids(s, 1) == ["EA-04"]
    s = explore_and_activate("WA-01", "Water", explored={1: [("EA-04", 0)]})
    assert explored_ids(s, 1) == ["EA-04"]
    s = explore_and_activate("FI-06", "Fire", explored={1: [("EA-04", 1)]})
    assert scored_ids(s, 1) == []
    s = explore_and_activate("LI-07", "Life", explored={0: [("EA-04", 1)]})  # return(you, other)
    assert legal(s) == [{"type": "return", "rift": "EA-04"}, SKIP]


def test_st06_stormcall_spire_bursts_only_storm_rifts_accepted_balance_change():
    """rules/riftwalker.md "Balance changes accepted after self-play": ST-06 bursts only Storm rifts
    worth 7 (it was any element: its owner won 60.8 % of greedy self-play games, 47.6 % after)."""
    assert CARDS.rifts["ST-06"].power == ({"op": "burst_step", "el": "Storm", "worth": 7},)
    assert any(change.startswith("ST-06 Stormcall Spire") for change in json.loads(DATA_FILE.read_text())["changes_from_rules"])
    assert "burst one of your Storm rifts worth 7 without a line" in words.power_text(CARDS.rifts["ST-06"])
    s = shift_and_activate("ST-06", "Storm", grid=NO_LINE,
                           explored={0: [("ST-02", 2), ("FI-02", 2), ("SP-01", 2), ("ST-03", 1)]})
    # Storm and worth 7 only: not the Fire rift, not the Venture at 5, not the Storm rift at 3
    assert legal(s) == [{"type": "burst", "rift": "ST-02", "via": "power", "grant": 0}, SKIP]
    s = do(s, {"type": "burst", "rift": "ST-02", "via": "power", "grant": 0})
    assert scored_ids(s, 0) == ["ST-02"] and s["turn"]["step"] == "refresh"  # it was the turn's burst
