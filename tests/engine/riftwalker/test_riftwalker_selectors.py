"""Selector variants of §9.3 that our 52 cards do not use, checked by swapping a card's power for the
test: a real card list may use them, and it must work by editing data only (H10)."""

from dataclasses import replace

import pytest

from engine.riftwalker.cards import CARDS, CardDataError, parse

from ._helpers import FIRE_LINE, NO_LINE, G, arrange, do, explored_ids, hand_of, legal, new_state, scored_ids

SKIP = {"type": "skip"}


@pytest.fixture
def power(monkeypatch):
    def set_power(cid, steps):
        monkeypatch.setitem(CARDS.rifts, cid, replace(CARDS.rifts[cid], power=tuple(steps)))
    return set_power


def activate(card, element, players=3, **kw):
    kw.setdefault("grid", NO_LINE)
    kw.setdefault("hands", {0: [card, "LI-07", "LI-08"]})
    s = arrange(new_state(players), step="rift", element=element, **kw)
    return do(s, {"type": "explore", "card": card}, {"type": "activate", "rift": card})


def test_discard_each_opponents_rift_chosen_by_the_active_player_9_3(power):
    power("FI-02", [{"op": "discard", "zone": "explored", "whose": "each_opp", "n": 1}])
    s = activate("FI-02", "Fire", explored={1: [("WA-01", 0), ("WA-02", 1)], 2: [("WA-03", 0)]})
    assert G.to_act(s) == [0] and legal(s) == [{"type": "discard", "card": "WA-01"},
                                               {"type": "discard", "card": "WA-02"}, SKIP]
    s = do(s, {"type": "discard", "card": "WA-02"})
    assert legal(s) == [{"type": "discard", "card": "WA-03"}, SKIP]  # next opponent in turn order
    s = do(s, {"type": "discard", "card": "WA-03"})
    assert explored_ids(s, 1) == ["WA-01"] and explored_ids(s, 2) == [] and not s["stack"]


def test_an_opponent_named_by_the_active_player_chooses_their_own_discard_A16_A17(power):
    power("FI-02", [{"op": "discard", "zone": "hand", "whose": "opp", "n": 1}])
    s = activate("FI-02", "Fire", hands={0: ["FI-02", "LI-07"], 1: ["WA-01", "WA-02"], 2: []})
    assert legal(s) == [{"type": "target", "seat": 1}, SKIP]  # seat 2 has nothing to discard
    s = do(s, {"type": "target", "seat": 1})
    assert G.to_act(s) == [1] and G.legal_moves(s, 1) == [{"type": "discard", "card": "WA-01"},
                                                         {"type": "discard", "card": "WA-02"}]
    s = do(s, {"type": "discard", "card": "WA-02"})
    assert hand_of(s, 1) == ["WA-01"] and G.to_act(s) == [0]


def test_el_this_matches_the_elements_of_the_resolving_card_9_3(power):
    power("SP-01", [{"op": "shift", "whose": "you", "el": "this", "other": True}])
    s = activate("SP-01", "Water", explored={0: [("FI-02", 0), ("WA-02", 0), ("EA-02", 0)]})
    assert legal(s) == [{"type": "shift", "rift": "FI-02"}, {"type": "shift", "rift": "WA-02"}, SKIP]


def test_a_burst_step_power_that_still_needs_a_line_9_3(power):
    power("FI-04", [{"op": "burst_step", "el": "Water", "line": True}])
    s = activate("FI-04", "Fire", grid=FIRE_LINE, explored={0: [("WA-02", 1), ("FI-02", 1)]})
    assert legal(s) == [{"type": "burst", "rift": "FI-02", "via": "line"}, SKIP]  # no Water line


def test_shift_an_opponents_rift_and_tuck_an_opponents_rift_9_3(power):
    power("FI-02", [{"op": "shift", "whose": "opp"},
                    {"op": "tuck", "src": "explored", "whose": "opp", "n": 1, "face": "down"}])
    s = activate("FI-02", "Fire", players=2, explored={1: [("WA-01", 0), ("WA-02", 2)]})
    assert legal(s) == [{"type": "shift", "rift": "WA-01"}, SKIP]
    s = do(s, {"type": "shift", "rift": "WA-01"})
    s = do(s, {"type": "tuck", "card": "WA-02"})
    assert explored_ids(s, 1) == ["WA-01"] and G.view(s, 1)["seats"][0]["explored"][0]["beneath"][0]["id"] is None
    assert G.view(s, 0)["seats"][0]["explored"][0]["beneath"][0]["id"] == "WA-02"
    assert scored_ids(s, 1) == []


def test_each_opp_is_only_for_discard_9_3():
    import json

    from engine.riftwalker.cards import DATA_FILE
    doc = json.loads(DATA_FILE.read_text())
    doc["rift_cards"][1]["power"] = [{"op": "return", "whose": "each_opp"}]
    with pytest.raises(CardDataError, match="FI-02"):
        parse(doc)
