"""Riftwalker's answers to the contract methods whose meaning is the game's to say: whose turn it is
and its number (the service sends "your turn" emails and starts clocks from it), the move notation,
the seats an event affects, the scores a spectator sees, the result and the options."""

from __future__ import annotations

import doctest
import json
import random

import pytest

import engine
import engine.riftwalker

from ._helpers import FIRE_LINE, GREEDY, NO_LINE, G, arrange, do, new_state

SKIP = {"type": "skip"}


# ---- turn() ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_turn_number_is_the_count_of_turn_events_and_the_seat_is_the_active_player(players):
    rng = random.Random(players)
    log = G.start(players, {}, players)
    state = engine.replay(G, log)
    assert G.turn(state) == engine.Turn(1, "element", (state["first"],))  # the setup's first turn is 1
    while not state["over"]:
        seat = G.to_act(state)[0]
        new = G.play(state, seat, GREEDY(state, seat, G.legal_moves(state, seat), rng), None)
        state = engine.replay(G, new, state)
        log += new
        turn = G.turn(state)
        begun = [e for e in log if e["type"] == "turn"]
        assert turn.number == len(begun) == begun[-1]["number"]
        if not state["over"]:
            assert turn.seats == (begun[-1]["seat"],) == (state["turn"]["seat"],)
            assert turn.phase in ("element", "rift", "burst", "refresh")
    assert G.turn(state) == engine.Turn(len(begun), "over", ())


def test_an_opponents_forced_discard_is_not_a_new_turn_flooded_causeway():
    s = arrange(new_state(3), seat=0, step="rift", element="Water", grid=NO_LINE, number=7,
                hands={0: ["WA-07", "LI-08", "EA-08"], 1: ["FI-02", "FI-03"], 2: ["ST-01", "ST-02"]})
    s = do(s, {"type": "explore", "card": "WA-07"}, {"type": "activate", "rift": "WA-07"}, {"type": "do"})
    assert G.to_act(s) == [1]  # Player 2 picks their own discard...
    assert G.turn(s) == engine.Turn(7, "rift", (0,))  # ...inside Player 1's turn, which goes on
    s = do(s, {"type": "discard", "card": "FI-02"})
    assert G.to_act(s) == [2] and G.turn(s) == engine.Turn(7, "rift", (0,))
    s = do(s, {"type": "discard", "card": "ST-01"})
    assert G.to_act(s) == [0] and G.turn(s).number == 7


def test_the_phase_is_the_step_of_the_turn_4():
    s = arrange(new_state(), grid=NO_LINE, hands={0: ["FI-02", "WA-02", "EA-02"]})
    assert G.turn(s).phase == "element"
    s = do(s, G.legal_moves(s, 0)[9])  # take the top element card: still the element step
    assert s["turn"]["step"] == "element_place" and G.turn(s).phase == "element"
    s = arrange(new_state(), step="rift", element="Fire", grid=FIRE_LINE,
                hands={0: ["FI-02", "WA-02", "EA-02"]}, explored={0: [("FI-03", 1)]})
    assert G.turn(s).phase == "rift"
    s = do(s, {"type": "explore", "card": "FI-02"})
    assert G.turn(s).phase == "rift"  # the offer to activate belongs to the rift step
    s = do(s, SKIP)
    assert G.turn(s).phase == "burst"
    s = do(s, SKIP)
    assert G.turn(s).phase == "refresh"
    s = do(s, {"type": "done"})
    assert G.turn(s) == engine.Turn(6, "element", (1,))


# ---- moves as text -------------------------------------------------------------------------------------


def test_the_package_docstring_examples_run():
    assert doctest.testmod(engine.riftwalker).failed == 0


def test_short_forms_of_every_kind_of_move():
    s = arrange(new_state(3), step="rift", element="Water", grid=NO_LINE)
    cases = {
        "flip 1": {"type": "flip", "slot": 0}, "grow 9": {"type": "grow", "slot": 8},
        "put 5": {"type": "put", "slot": 4}, "swap 2": {"type": "swap", "slot": 1},
        "swap-with 3": {"type": "swap_with", "slot": 2}, "place Storm": {"type": "place", "element": "Storm"},
        "explore FI-02": {"type": "explore", "card": "FI-02"}, "shift WA-03": {"type": "shift", "rift": "WA-03"},
        "activate EA-05": {"type": "activate", "rift": "EA-05"}, "return WI-01": {"type": "return", "rift": "WI-01"},
        "force-burst WA-02": {"type": "force_burst", "rift": "WA-02"},
        "discard LI-01": {"type": "discard", "card": "LI-01"}, "tuck ST-03": {"type": "tuck", "card": "ST-03"},
        "take WA-01": {"type": "take", "card": "WA-01"}, "bottom FI-05": {"type": "bottom", "card": "FI-05"},
        "target 2": {"type": "target", "seat": 1}, "choose 1": {"type": "choose", "option": 0},
        "draw 2": {"type": "draw", "n": 2}, "burst FI-02": {"type": "burst", "rift": "FI-02", "via": "line"},
        "skip": SKIP, "done": {"type": "done"}, "do": {"type": "do"}, "search": {"type": "search"},
        "tuck-top": {"type": "tuck_top"},
    }
    for text, move in cases.items():
        assert G.move_text(s, 0, move) == text
        assert G.parse_move(s, 0, text) == move


def test_reading_is_forgiving_about_case_separators_and_card_names():
    s = arrange(new_state(), step="rift", element="Water", grid=NO_LINE, hands={0: ["SP-01", "WA-02", "EA-02"]})
    assert G.parse_move(s, 0, "  FLIP 3 ") == {"type": "flip", "slot": 2}
    assert G.parse_move(s, 0, "force_burst wa-02") == {"type": "force_burst", "rift": "WA-02"}
    assert G.parse_move(s, 0, "Explore Burn Memory") == {"type": "explore", "card": "FI-01"}
    # three cards are called Venture: the name reads when one of them is a legal move of that kind
    assert G.parse_move(s, 0, "explore venture") == {"type": "explore", "card": "SP-01"}
    with pytest.raises(engine.IllegalMove) as caught:
        G.parse_move(s, 0, "shift venture")
    assert caught.value.code == "unreadable"


def test_a_burst_step_power_burst_names_the_rift_that_granted_it():
    s = arrange(new_state(), step="rift", element="Fire", grid=FIRE_LINE,
                hands={0: ["WA-08", "LI-08", "EA-08"]}, explored={0: [("FI-04", 0), ("FI-02", 2)]})
    s = do(s, {"type": "shift", "rift": "FI-04"}, {"type": "activate", "rift": "FI-04"})
    by_power = {"type": "burst", "rift": "FI-02", "via": "power", "grant": 0}
    assert by_power in G.legal_moves(s, 0)
    assert G.move_text(s, 0, by_power) == "burst FI-02 by FI-04"
    assert G.parse_move(s, 0, "burst Cinder Reach by kindled spire") == by_power
    assert G.parse_move(s, 0, "burst FI-02") == {"type": "burst", "rift": "FI-02", "via": "line"}
    with pytest.raises(engine.IllegalMove) as caught:
        G.parse_move(s, 0, "burst FI-02 by ST-06")  # no power of Stormcall Spire is ready
    assert caught.value.code == "unreadable"


def test_every_move_also_reads_in_the_generic_form_and_orders_use_it_H9():
    s = arrange(new_state(), grid=NO_LINE)
    assert G.parse_move(s, 0, "flip slot=4") == {"type": "flip", "slot": 4}
    order = {"type": "order", "steps": [{"type": "flip", "slot": 8}, {"type": "skip"}]}
    text = G.move_text(s, 0, order)
    assert text.startswith("order steps=") and G.parse_move(s, 0, text) == order
    odd = {"type": "flip", "slot": "0"}  # not a legal move, but its text still reads back
    assert G.parse_move(s, 0, G.move_text(s, 0, odd)) == odd


@pytest.mark.parametrize("text", ["flip", "flip one", "flip 0", "flip 1 2", "place Aether", "explore",
                                  "explore Nowhere", "skip now", "jump 3", "burst", "draw 0"])
def test_text_that_spells_no_move_is_unreadable(text):
    s = arrange(new_state(), grid=NO_LINE)
    with pytest.raises(engine.IllegalMove) as caught:
        G.parse_move(s, 0, text)
    assert caught.value.code == "unreadable"


# ---- seats affected, scores, result, options --------------------------------------------------------


def test_seats_affected_are_the_actor_the_owner_and_the_host_owner():
    assert G.seats_affected({"type": "discard", "seat": 0, "zone": "hand", "owner": 2, "card": "FI-02",
                             "beneath": []}, None) == [0, 2]
    assert G.seats_affected({"type": "tuck", "seat": 1, "src": "deck_top", "card": "WA-01", "host": "LI-05",
                             "host_owner": 3, "face": "down", "owner": None}, None) == [1, 3]
    assert G.seats_affected({"type": "turn", "seat": 2, "number": 9, "final": False}, None) == [2]
    assert G.seats_affected({"type": "game_over"}, None) == []


def test_public_scores_are_the_score_piles_then_the_final_points_with_bonus_6():
    s = arrange(new_state(), grid=NO_LINE, scored={0: [("FI-05", 2), ("FI-02", 1), ("FI-03", 1)],
                                                   1: [("WA-01", 1)]})
    assert G.public_scores(G.view(s, None)) == {0: 13, 1: 3}  # bonus is added only at the end
    s["over"] = True
    s["end"] = {"by": 0, "reason": "score", "left": []}
    assert G.public_scores(G.view(s, None)) == {0: 15, 1: 3}  # Wildfire Steppe: +2 at 7


def test_the_result_has_the_shared_shape_and_keeps_the_tie_breaks_6():
    s = arrange(new_state(3), grid=NO_LINE, scored={0: [("WA-01", 2)], 1: [("WA-03", 2)], 2: [("WA-02", 1)]},
                explored={0: [("FI-02", 1)], 1: [("FI-03", 1)]})
    s["over"] = True
    s["end"] = {"by": 2, "reason": "deck", "left": []}
    res = G.result(s)
    assert res["scores"] == {"0": 7, "1": 7, "2": 3} and res["winners"] == [0, 1]
    assert res["points"] == [7, 7, 3] and res["bursts"] == [1, 1, 1] and res["explored_value"] == [3, 3, 0]
    assert res["decided_by"] == "shared" and res["end_reason"] == "deck" and res["triggered_by"] == 2
    assert json.loads(json.dumps(res)) == res


def test_there_are_no_options():
    assert G.options_schema()["properties"] == {} and G.options_schema()["additionalProperties"] is False
    with pytest.raises(engine.IllegalMove) as caught:
        G.start(2, {"variant": "x"}, 1)
    assert caught.value.code == "bad_options"


def test_both_timeout_policies_play_the_h8_default_H8():
    """The contract's "skip" policy (a legal skip where there is one, else the default) gives the same
    moves as H8's default, so Riftwalker keeps the contract's timeout_move."""
    rng = random.Random(5)
    state = engine.replay(G, G.start(3, {}, 5))
    for _ in range(300):
        if state["over"]:
            break
        seat = G.to_act(state)[0]
        assert G.timeout_move(state, seat, "skip") == G.timeout_move(state, seat, "auto") == G.default_move(state, seat)
        state = engine.replay(G, G.play(state, seat, GREEDY(state, seat, G.legal_moves(state, seat), rng), None), state)
