"""Scoring and tie-breaks (§6, H4) and the bonus conditions of §9.3 (H6)."""

import json

from engine.riftwalker import scoring

from ._helpers import FIRE_LINE, NO_LINE, G, arrange, do, new_state


def over(players=2, scored=None, explored=None):
    s = arrange(new_state(players), grid=NO_LINE, scored=scored or {}, explored=explored or {})
    s["over"] = True
    s["end"] = {"by": 0, "reason": "score", "left": []}
    return s


def test_highest_total_wins_6():
    res = G.result(over(scored={0: [("WA-01", 2)], 1: [("WA-02", 1), ("WA-03", 1)]}))
    assert res["points"] == [7, 6] and res["winners"] == [0] and res["decided_by"] == "points"
    assert res["scores"] == {"0": 7, "1": 6}
    assert json.loads(json.dumps(res)) == res  # string keys survive a JSON round trip


def test_tie_break_1_most_rifts_burst_6():
    s = over(scored={0: [("WA-01", 1), ("SP-01", 1), ("SP-02", 1)], 1: [("WA-03", 2)]})
    res = G.result(s)
    assert res["points"] == [7, 7] and res["bursts"] == [3, 1]
    assert res["winners"] == [0] and res["decided_by"] == "bursts"


def test_tie_break_1_counts_rift_cards_not_cards_beneath_6_proposal():
    # seat 1: Seedvault Grove at 7 holding 1 card (+1) = 8 from one rift; seat 0: 3 + 3 + 2 from three
    s = over(scored={0: [("WA-01", 1), ("WA-02", 1), ("SP-01", 1)],
                     1: [("LI-02", 2, [("LI-01", "up"), ("LI-03", "up")])]})
    res = G.result(s)
    assert res["points"] == [8, 9]
    s = over(scored={0: [("WA-01", 1), ("WA-02", 1), ("SP-01", 1)], 1: [("LI-02", 2, [("LI-01", "up")])]})
    res = G.result(s)
    assert res["points"] == [8, 8] and res["bursts"] == [3, 1] and res["winners"] == [0]


def test_tie_break_2_highest_explored_value_without_bonus_6():
    s = over(scored={0: [("WA-01", 2)], 1: [("WA-03", 2)]},
             explored={0: [("FI-02", 1)], 1: [("FI-03", 2), ("FI-01", 0)]})
    res = G.result(s)
    assert res["points"] == [7, 7] and res["explored_value"] == [3, 7]
    assert res["winners"] == [1] and res["decided_by"] == "explored"


def test_still_tied_players_share_the_win_H4():
    s = over(players=3, scored={0: [("WA-01", 2)], 1: [("WA-03", 2)], 2: [("WA-02", 1)]},
             explored={0: [("FI-02", 1)], 1: [("FI-03", 1)]})
    res = G.result(s)
    assert res["winners"] == [0, 1] and res["decided_by"] == "shared"


def test_bonus_is_added_at_the_end_for_the_orientation_burst_6():
    # Wildfire Steppe: +1/+2 if at least 2 *other* Fire rifts in the score pile
    s = over(scored={0: [("FI-05", 2), ("FI-02", 1), ("FI-03", 1)], 1: [("FI-04", 1)]})
    assert G.result(s)["breakdown"][0][0] == {"id": "FI-05", "value": 7, "bonus": 2}
    s = over(scored={0: [("FI-05", 1), ("FI-02", 1), ("WA-03", 1)]})
    assert G.result(s)["breakdown"][0][0]["bonus"] == 0


def test_bonus_per_card_beneath_with_cap_and_beneath_cards_go_with_a_burst_H6_A7():
    s = arrange(new_state(), step="burst", element="Fire", grid=FIRE_LINE,
                explored={0: [("LI-02", 1, [("WA-01", "up"), ("WA-02", "up"), ("WA-03", "up"), ("WA-04", "up")])]})
    s = arrange(s, step="burst", element="Life", grid=[("Life", "Wind"), ("Life", "Fire"), ("Life", "Storm"),
                                                         ("Storm", "Earth"), ("Earth", "Water"), ("Water", "Wind"),
                                                         ("Wind", "Fire"), ("Fire", "Water"), ("Storm", "Water")])
    s = do(s, {"type": "burst", "rift": "LI-02", "via": "line"})
    assert len(s["scored"][0][0]["beneath"]) == 4
    s["over"] = True
    assert G.result(s)["breakdown"][0][0] == {"id": "LI-02", "value": 3, "bonus": 3}  # +1 each, max 3


def test_per_score_distinct_elements_and_most_burst_bonuses_9_3():
    orchard = over(scored={0: [("LI-04", 2), ("LI-01", 1), ("LI-02", 1), ("SP-03", 1), ("LI-03", 1)]})
    assert G.result(orchard)["breakdown"][0][0]["bonus"] == 6  # +2 per other Life rift, at most 3
    archive = over(scored={0: [("WI-07", 1), ("FI-02", 1), ("SP-01", 1), ("LI-01", 1)]})
    assert G.result(archive)["breakdown"][0][0]["bonus"] == 2  # Wind, Fire, Water (Venture), Life = 4
    archive = over(scored={0: [("WI-07", 1), ("FI-02", 1), ("SP-04", 1)]})
    assert G.result(archive)["breakdown"][0][0]["bonus"] == 0  # Shadowlands adds no element
    crown = over(scored={0: [("ST-08", 2), ("FI-02", 1)], 1: [("WA-01", 1), ("WA-02", 1)]})
    assert G.result(crown)["breakdown"][0][0]["bonus"] == 3  # ties for most rifts burst count
    crown = over(scored={0: [("ST-08", 2)], 1: [("WA-01", 1), ("WA-02", 1)]})
    assert G.result(crown)["breakdown"][0][0]["bonus"] == 0


def test_explored_rifts_and_cards_beneath_score_nothing_6():
    s = over(explored={0: [("FI-02", 2, [("WA-01", "up")])]})
    assert G.result(s)["points"] == [0, 0]
    assert scoring.result(arrange(new_state(), grid=NO_LINE)) is None  # not over yet
