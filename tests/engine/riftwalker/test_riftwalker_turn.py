"""The four steps of a turn (§4) and the timeout default (H8)."""

import pytest

import engine
from engine.riftwalker.state import lines

from ._helpers import FIRE_LINE, NO_LINE, G, arrange, do, hand_of, legal, new_state, rift, scored_ids


def test_element_step_is_mandatory_flip_or_place_4_1():
    s = arrange(new_state(), grid=NO_LINE)
    moves = legal(s)
    assert {"type": "skip"} not in moves  # §4.1: the element step cannot be skipped
    assert [m for m in moves if m["type"] == "flip"] == [{"type": "flip", "slot": i} for i in range(9)]
    top = s["edeck"][0]
    from engine.riftwalker.cards import CARDS
    assert [m for m in moves if m["type"] == "place"] == [{"type": "place", "element": f}
                                                          for f in CARDS.element_cards[top]]


def test_flip_uses_the_face_that_was_up_before_A1():
    s = arrange(new_state(), grid=NO_LINE, hands={0: ["FI-02", "WA-02", "EA-02"]})
    s = do(s, {"type": "flip", "slot": 0})  # Wind up, Fire beneath
    assert s["turn"]["element"] == "Wind"  # A1
    from engine.riftwalker.state import up_face
    assert up_face(s["grid"][0]) == "Fire"


def test_place_takes_the_top_card_either_face_and_sends_the_replaced_one_to_the_bottom_4_1():
    s = arrange(new_state(), grid=NO_LINE, hands={0: ["FI-02", "WA-02", "EA-02"]})
    top, replaced = s["edeck"][0], s["grid"][4][0]
    from engine.riftwalker.cards import CARDS
    face = CARDS.element_cards[top][1]
    s = do(s, {"type": "place", "element": face})
    assert legal(s) == [{"type": "put", "slot": i} for i in range(9)]
    s = do(s, {"type": "put", "slot": 4})
    assert s["grid"][4] == [top, 1] and s["edeck"][-1] == replaced
    assert len(s["grid"]) == 9 and len(s["edeck"]) == 6
    assert s["turn"]["element"] == face


def test_explore_needs_a_matching_rift_and_is_one_action_A3():
    s = arrange(new_state(), step="rift", element="Fire", grid=NO_LINE,
                hands={0: ["FI-02", "FI-05", "WA-02"]}, explored={0: [("FI-07", 1)]})
    moves = legal(s)
    assert {"type": "explore", "card": "FI-02"} in moves and {"type": "explore", "card": "FI-05"} in moves
    assert {"type": "explore", "card": "WA-02"} not in moves  # wrong element (§4.2)
    assert {"type": "shift", "rift": "FI-07"} in moves and {"type": "skip"} in moves
    s = do(s, {"type": "explore", "card": "FI-05"})
    # the only follow-up is the optional activation: no second explore or shift (A3)
    assert legal(s) == [{"type": "activate", "rift": "FI-05"}, {"type": "skip"}]
    assert rift(s, "FI-05")["rot"] == 0  # §1: a new rift is worth 0


def test_shift_turns_one_step_and_a_twice_shifted_rift_cannot_shift_4_2():
    s = arrange(new_state(), step="rift", element="Water", grid=NO_LINE,
                hands={0: ["FI-02", "FI-05", "EA-02"]}, explored={0: [("WA-02", 0), ("WA-03", 2), ("SP-01", 1)]})
    moves = legal(s)
    assert {"type": "shift", "rift": "WA-02"} in moves
    assert {"type": "shift", "rift": "WA-03"} not in moves  # already shifted twice
    assert {"type": "shift", "rift": "SP-01"} in moves  # a Venture shifts with either element
    s = do(s, {"type": "shift", "rift": "SP-01"}, {"type": "skip"})
    assert rift(s, "SP-01")["rot"] == 2 and G.view(s, 0)["seats"][0]["explored"][2]["value"] == 5  # 0/2/5


def test_activation_is_optional_4_2():
    s = arrange(new_state(), step="rift", element="Storm", grid=NO_LINE, hands={0: ["ST-02", "FI-05", "EA-02"]})
    s = do(s, {"type": "explore", "card": "ST-02"}, {"type": "skip"})
    assert s["turn"]["step"] in ("burst", "refresh") and not s["stack"]
    grid_before = [g[:] for g in s["grid"]]
    assert s["grid"] == grid_before


def test_burst_needs_a_line_and_a_rift_worth_more_than_0_4_3():
    s = arrange(new_state(), step="burst", element="Fire", grid=FIRE_LINE,
                explored={0: [("FI-02", 1), ("FI-05", 0), ("WA-02", 2)]})
    assert lines(s) == ["Fire"]
    moves = legal(s)
    assert moves == [{"type": "burst", "rift": "FI-02", "via": "line"}, {"type": "skip"}]
    s = do(s, moves[0])
    assert scored_ids(s, 0) == ["FI-02"] and s["scored"][0][0]["rot"] == 1  # keeps its orientation
    assert s["turn"]["step"] == "refresh"  # one burst per turn


def test_the_line_stays_for_the_next_player_4_3():
    s = arrange(new_state(), step="burst", element="Fire", grid=FIRE_LINE,
                explored={0: [("FI-02", 1)], 1: [("FI-03", 2)]}, hands={0: ["WA-01", "WA-02", "WA-03"]})
    s = do(s, {"type": "burst", "rift": "FI-02", "via": "line"}, {"type": "done"})
    s = do(s, {"type": "place", "element": G.legal_moves(s, 1)[9]["element"]}, {"type": "put", "slot": 8})
    if s["turn"]["step"] == "rift":
        s = do(s, {"type": "skip"})
    assert {"type": "burst", "rift": "FI-03", "via": "line"} in legal(s)


def test_a_0_point_rift_never_bursts_4_3_proposal():
    s = arrange(new_state(), step="burst", element="Fire", grid=FIRE_LINE, explored={0: [("FI-02", 0)]},
                hands={0: ["WA-01", "WA-02", "WA-03"]})
    assert s["turn"]["step"] == "refresh"  # nothing could burst, so the burst step passed


def test_refresh_discards_to_the_bottom_in_order_and_draws_up_to_3_4_4():
    s = arrange(new_state(), step="refresh", element="Fire", grid=NO_LINE, hands={0: ["WA-01", "WA-02", "WA-03"]})
    top2 = s["rdeck"][:2]
    s = do(s, {"type": "discard", "card": "WA-02"}, {"type": "discard", "card": "WA-01"})
    assert s["rdeck"][-2:] == ["WA-02", "WA-01"]  # chosen order, no discard pile
    s = do(s, {"type": "done"})
    assert hand_of(s, 0) == ["WA-03"] + top2
    assert s["turn"]["seat"] == 1


def test_no_hand_limit_H3():
    s = arrange(new_state(), step="refresh", element="Fire", grid=NO_LINE,
                hands={0: ["WA-01", "WA-02", "WA-03", "WA-04", "WA-05"]})
    deck = len(s["rdeck"])
    s = do(s, {"type": "done"})
    assert len(hand_of(s, 0)) == 5 and len(s["rdeck"]) == deck  # keeps 5, draws nothing


def test_short_deck_draws_what_is_there_4_4():
    s = arrange(new_state(), step="refresh", element="Fire", grid=NO_LINE, hands={0: ["WA-01"]})
    keep = s["rdeck"][:1]
    s["hands"][1].extend(s["rdeck"][1:])
    del s["rdeck"][1:]
    s = do(s, {"type": "done"})
    assert hand_of(s, 0) == ["WA-01"] + keep and s["exhausted"]


def test_skips_are_explicit_and_forced_steps_resolve_by_themselves_decision_1():
    s = arrange(new_state(), step="rift", element="Fire", grid=NO_LINE, hands={0: ["WA-01", "WA-02", "WA-03"]})
    # nothing to explore or shift: the rift step and burst resolve; the refresh choice remains
    assert s["turn"]["step"] == "refresh"
    assert legal(s)[-1] == {"type": "done"}
    s = arrange(new_state(), step="rift", element="Fire", grid=NO_LINE, hands={0: ["FI-02", "WA-02", "WA-03"]})
    assert legal(s) == [{"type": "explore", "card": "FI-02"}, {"type": "skip"}]


def test_default_move_H8():
    s = arrange(new_state(), grid=NO_LINE, hands={0: ["FI-02", "WA-02", "EA-02"]})
    assert G.default_move(s, 0) == {"type": "flip", "slot": 0}
    s = arrange(new_state(), step="rift", element="Fire", grid=NO_LINE, hands={0: ["FI-02", "WA-02", "EA-02"]})
    assert G.default_move(s, 0) == {"type": "skip"}
    s = arrange(new_state(), step="burst", element="Fire", grid=FIRE_LINE, explored={0: [("FI-02", 1)]})
    assert s["turn"]["step"] == "burst" and G.default_move(s, 0) == {"type": "skip"}
    s = arrange(new_state(), step="refresh", element="Fire", grid=NO_LINE, hands={0: ["FI-02"]})
    assert G.default_move(s, 0) == {"type": "done"}
    # inside a power: decline what is optional
    s = arrange(new_state(), step="rift", element="Storm", grid=NO_LINE, hands={0: ["ST-02", "WA-02", "EA-02"]})
    s = do(s, {"type": "explore", "card": "ST-02"})
    assert G.default_move(s, 0) == {"type": "skip"}
    s = do(s, {"type": "activate", "rift": "ST-02"})
    assert G.default_move(s, 0) == {"type": "skip"}
    with pytest.raises(engine.IllegalMove):
        G.default_move(s, 1)


def test_default_move_is_always_legal_H8():
    import random
    rng = random.Random(3)
    for players in (2, 3, 4):
        s = new_state(players, seed=players)
        for _ in range(400):
            if G.result(s):
                break
            seat = G.to_act(s)[0]
            assert G.default_move(s, seat) in G.legal_moves(s, seat)
            for e in G.play(s, seat, rng.choice(G.legal_moves(s, seat)), None):
                s = G.apply(s, e)


def test_every_legal_move_has_words_decision_4():
    s = arrange(new_state(), step="rift", element="Fire", grid=FIRE_LINE,
                hands={0: ["FI-02", "FI-05", "WA-02"]}, explored={0: [("FI-07", 1)]})
    for m in legal(s):
        text = G.describe_move(m, s)
        assert text and "{" not in text
        assert G.describe_move(m)
