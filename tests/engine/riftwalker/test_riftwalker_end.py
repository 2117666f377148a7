"""End of game (§7): the trigger, exactly one last turn for each other player, the odd end games, H5."""

import pytest

from engine.riftwalker.state import THRESHOLD

from ._helpers import FIRE_LINE, NO_LINE, G, arrange, do, new_state

FILLER = ["WA-01", "WA-02", "WA-03", "WA-04", "WA-05", "WA-06", "WA-07", "WA-08"]


def finish_turn(s, log=None):
    """Play timeout defaults (H8) until the turn passes; returns the state."""
    seat = s["turn"]["seat"]
    while not s["over"] and s["turn"]["seat"] == seat:
        who = G.to_act(s)[0]
        s = do(s, G.default_move(s, who), log=log)
    return s


def seats_of_turns(s):
    seats = []
    while not s["over"]:
        seats.append(s["turn"]["seat"])
        s = finish_turn(s)
    return seats, s


@pytest.mark.parametrize("players", [2, 3, 4])
def test_enough_bursts_trigger_the_end_and_each_other_player_gets_one_last_turn_7(players):
    need = THRESHOLD[players]  # 7 / 6 / 5 (§7)
    assert need == {2: 7, 3: 6, 4: 5}[players]
    s = arrange(new_state(players), seat=0, step="burst", element="Fire", grid=FIRE_LINE,
                explored={0: [("FI-02", 1)]}, scored={0: [(c, 1) for c in FILLER[:need - 1]]},
                hands={0: ["LI-01", "LI-02", "LI-03"]})
    s = do(s, {"type": "burst", "rift": "FI-02", "via": "line"}, {"type": "done"})
    assert s["end"]["by"] == 0 and s["end"]["reason"] == "score"
    seats, s = seats_of_turns(s)
    assert seats == list(range(1, players))  # the trigger's player gets none
    assert G.result(s)["triggered_by"] == 0


@pytest.mark.parametrize("players", [2, 3, 4])
def test_one_short_does_not_trigger_7(players):
    need = THRESHOLD[players]
    s = arrange(new_state(players), seat=0, step="burst", element="Fire", grid=FIRE_LINE,
                explored={0: [("FI-02", 1)]}, scored={0: [(c, 1) for c in FILLER[:need - 2]]},
                hands={0: ["LI-01", "LI-02", "LI-03"]})
    s = do(s, {"type": "burst", "rift": "FI-02", "via": "line"}, {"type": "done"})
    assert s["end"]["by"] is None and s["turn"]["seat"] == 1


def _empty_deck_but(s, keep, seat_for_rest=1):
    s["hands"][seat_for_rest].extend(s["rdeck"][keep:])
    del s["rdeck"][keep:]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_an_exhausted_rift_deck_triggers_the_end_7(players):
    s = arrange(new_state(players), seat=players - 1, step="refresh", element="Fire", grid=NO_LINE,
                hands={players - 1: ["LI-01"]})
    _empty_deck_but(s, 2, seat_for_rest=0)
    s = do(s, {"type": "done"})  # draws the last 2 cards
    assert s["exhausted"] and s["end"] == {"by": players - 1, "reason": "deck", "left": list(range(1, players - 1))}
    seats, s = seats_of_turns(s)
    assert seats == list(range(players - 1)) and G.result(s)["end_reason"] == "deck"


def test_cards_discarded_into_the_empty_deck_do_not_extend_the_game_but_can_be_drawn_H5():
    s = arrange(new_state(3), seat=0, step="refresh", element="Fire", grid=NO_LINE,
                hands={0: ["LI-01"], 2: ["LI-02"]})
    _empty_deck_but(s, 2, seat_for_rest=1)
    s = do(s, {"type": "done"})
    assert s["end"]["by"] == 0 and not s["rdeck"]
    # seat 1's last turn: discard two cards into the empty deck
    while not (s["turn"]["step"] == "refresh" and not s["stack"]):
        s = do(s, G.default_move(s, G.to_act(s)[0]))
    give = s["hands"][1][:2]
    s = do(s, {"type": "discard", "card": give[0]}, {"type": "discard", "card": give[1]}, {"type": "done"})
    assert s["rdeck"] == give and s["exhausted"] and s["turn"]["seat"] == 2
    s = finish_turn(s)  # seat 2 draws them back during its last turn
    assert set(give) <= set(s["hands"][2]) and s["over"]


def test_exhaustion_by_a_search_counts_H5():
    s = arrange(new_state(), step="rift", element="Water", grid=NO_LINE, hands={0: ["WA-04", "LI-01", "LI-02"]})
    _empty_deck_but(s, 2)
    s = do(s, {"type": "explore", "card": "WA-04"}, {"type": "activate", "rift": "WA-04"}, {"type": "search"})
    assert s["exhausted"]  # the deck held 0 cards for a moment, even though the rest go back
    s = do(s, {"type": "skip"})
    s = finish_turn(s)
    assert s["end"]["by"] == 0 and s["end"]["reason"] == "deck"


def test_a_forced_burst_does_not_trigger_on_your_turn_only_at_the_end_of_the_opponents_odd_end_game_7():
    need = THRESHOLD[2]
    s = arrange(new_state(2), seat=0, step="rift", element="Fire", grid=NO_LINE,
                hands={0: ["FI-06", "LI-01", "LI-02"]}, explored={1: [("FI-02", 1)]},
                scored={1: [(c, 1) for c in FILLER[:need - 1]]})
    s = do(s, {"type": "explore", "card": "FI-06"}, {"type": "activate", "rift": "FI-06"},
           {"type": "force_burst", "rift": "FI-02"})
    assert len(s["scored"][1]) == need
    s = finish_turn(s)
    assert s["end"]["by"] is None and s["turn"]["seat"] == 1
    s = finish_turn(s)  # at the end of seat 1's own turn it still has enough
    assert s["end"] == {"by": 1, "reason": "score", "left": []} and s["turn"]["seat"] == 0
    s = finish_turn(s)
    assert s["over"]


def test_the_game_ends_only_once_7_proposal():
    need = THRESHOLD[3]
    s = arrange(new_state(3), seat=0, step="burst", element="Fire", grid=FIRE_LINE,
                explored={0: [("FI-02", 1)], 1: [("FI-03", 1)]},
                scored={0: [(c, 1) for c in FILLER[:need - 1]], 1: [(c, 1) for c in ["LI-01", "LI-02", "LI-03",
                                                                                     "LI-04", "LI-05"]]},
                hands={0: ["ST-01", "ST-02", "ST-03"]})
    s = do(s, {"type": "burst", "rift": "FI-02", "via": "line"}, {"type": "done"})
    assert s["end"]["left"] == [2] and s["turn"]["seat"] == 1
    # seat 1 also reaches 6 in its last turn: nothing changes
    while not (s["turn"]["step"] == "burst" and not s["stack"]):
        s = do(s, G.default_move(s, 1) if s["turn"]["step"] != "element" else {"type": "flip", "slot": 8})
    s = do(s, {"type": "burst", "rift": "FI-03", "via": "line"})
    s = finish_turn(s)
    assert len(s["scored"][1]) == need and s["end"]["by"] == 0 and s["turn"]["seat"] == 2
    s = finish_turn(s)
    assert s["over"]
