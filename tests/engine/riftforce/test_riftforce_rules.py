"""Scenario tests for the rules of the duel: setup and draft (§3, §9), the three actions (§4),
destruction and scoring (§5), the end (§6, Q4), house rules Q12/Q13, options and illegal moves."""

from __future__ import annotations

import random

import pytest

import engine
from engine.riftforce.cards import ALL_GUILDS, BASE_GUILDS, deck_for

from .scenario import CHECK, DONE, END, GAME, MV, A, D, P, board, dmg, do, legal, stack, types


def started(guilds="base", seed=3):
    events = GAME.start(2, {"guilds": guilds}, seed)
    return engine.replay(GAME, events), events


def draft_through(s, seed=0):
    """Pick the first offered guild until the draft ends; returns (state, all events)."""
    evs = []
    while s["phase"] == "draft":
        s, e = do(s, GAME.legal_moves(s, s["turn"])[0], seed=seed)
        evs += e
    return s, evs


# ---- §3 setup and draft --------------------------------------------------------------------------

def test_base_draft_one_removed_unseen_one_dealt_each_seven_shown():
    """§3 step 1: 10 base summoners; 1 removed unseen, 1 dealt to each player, 7 face up."""
    s, events = started("base")
    d = events[1]
    assert len(d["removed"]) == 1 and len(d["dealt"]) == 2 and len(d["offer"]) == 7
    assert sorted(d["removed"] + d["dealt"] + d["offer"]) == sorted(BASE_GUILDS)
    assert GAME.to_act(s) == [d["first"]]
    assert GAME.legal_moves(s, d["first"]) == [{"type": "pick", "guild": g} for g in d["offer"]]
    assert GAME.legal_moves(s, 1 - d["first"]) == []


def test_base_draft_alternate_picks_to_four_last_removed_first_picker_starts():
    """§3 steps 1-6: alternate picks until each has 4, the last summoner removed, 36-card decks,
    7-card hands, the second player's top card at the middle location, first picker starts."""
    s, events = started("base", seed=11)
    first = events[1]["first"]
    order = []
    while s["phase"] == "draft":
        order.append(s["turn"])
        s, evs = do(s, GAME.legal_moves(s, s["turn"])[-1])
    assert order == [first, 1 - first] * 3
    end = types(evs, "draft_end")[0]
    assert len(end["removed"]) == 1 and end["start"] == first
    assert all(len(g) == 4 for g in s["guilds"]) and not set(s["guilds"][0]) & set(s["guilds"][1])
    second = 1 - first
    opening = types(evs, "enter")[0]
    deck_event = [e for e in types(evs, "deck") if e["seat"] == second][0]
    assert opening["seat"] == second and opening["loc"] == 2 and opening["from"] == "deck"
    assert opening["card"] == deck_event["order"][7]  # the top card after the 7-card hand
    assert len(s["hand"][0]) == len(s["hand"][1]) == 7
    assert len(s["deck"][first]) == 29 and len(s["deck"][second]) == 28
    assert sorted(deck_event["order"]) == sorted(deck_for(s["guilds"][second]))
    assert s["turn"] == first == s["start"] and s["phase"] == "play"


def test_beyond_draft_one_random_each_eight_shown_two_left():
    """§9 (2 players): all 18 guilds, 1 random each, 6 + 2 shown, 3 picks each, 2 left over."""
    s, events = started("all", seed=5)
    d = events[1]
    assert d["removed"] == [] and len(d["dealt"]) == 2 and len(d["offer"]) == 8
    assert set(d["dealt"] + d["offer"]) <= set(ALL_GUILDS)
    s, evs = draft_through(s)
    assert len(types(evs, "draft_end")[0]["removed"]) == 2
    assert all(len(g) == 4 for g in s["guilds"])


def test_options_and_player_count_are_checked():
    """Options: guilds base|all only; exactly 2 players (team and solo modes are not offered)."""
    for players, options in [(3, {}), (1, {}), (2, {"guilds": "some"}), (2, {"speed": 1}),
                             (2, {"mode": "team"}), (2, "base"), (True, {})]:
        with pytest.raises(engine.IllegalMove) as err:
            GAME.start(players, options, 1)
        assert err.value.code == "bad_options"
    assert GAME.start(2, None, 1)[0]["options"] == {"guilds": "base"}
    assert GAME.start(2, {"mode": "duel", "guilds": "all"}, 1)[0]["options"] == {"guilds": "all"}


# ---- §4A Play -----------------------------------------------------------------------------------------

def test_play_first_card_any_location_and_new_cards_go_to_the_back():
    """§4A / §1: a played elemental goes to the last position of its side."""
    s = board(me=[["fire-5a"], [], [], [], []], hand=["water-5a", "ice-7a"])
    moves = legal(s)
    assert sum(m["type"] == "play" for m in moves) == 2 * 5
    s, _ = do(s, P("water-5a", 0))
    assert stack(s, 0, 0) == ["fire-5a", "water-5a"]


def test_play_further_cards_share_number_or_symbol():
    """§4A: 1-3 cards all sharing a number or all sharing a symbol."""
    s = board(hand=["fire-5a", "fire-6a", "water-5a", "water-6a", "earth-7a"])
    s, _ = do(s, P("fire-5a", 2))
    cards = {m["card"] for m in legal(s) if m["type"] == "play"}
    assert cards == {"fire-6a", "water-5a"}
    s, _ = do(s, P("fire-6a", 2))
    cards = {m["card"] for m in legal(s) if m["type"] == "play"}
    assert cards == set()  # fire-5 + fire-6 share only the symbol; no Fire left
    assert s["turn"] == 1  # no legal continuation: the play ended by itself


def test_play_same_location_or_adjacent_run_never_split():
    """§4A: all at one location, or one per location on adjacent locations (no 2+1 split)."""
    s = board(hand=["fire-5a", "fire-5b", "fire-5c", "fire-5d"])
    s1, _ = do(s, P("fire-5a", 2))
    assert {m["loc"] for m in legal(s1) if m["type"] == "play"} == {1, 2, 3}
    same, _ = do(s1, P("fire-5b", 2))
    assert {m["loc"] for m in legal(same) if m["type"] == "play"} == {2}
    run, _ = do(s1, P("fire-5b", 3))
    assert {m["loc"] for m in legal(run) if m["type"] == "play"} == {1, 4}
    with pytest.raises(engine.IllegalMove):
        do(run, P("fire-5c", 3))  # 2+1 split
    run, _ = do(run, P("fire-5c", 1))
    assert [stack(run, l, 0) for l in (1, 2, 3)] == [["fire-5c"], ["fire-5a"], ["fire-5b"]]
    assert run["turn"] == 1  # 3 cards: the play is complete


def test_play_three_at_one_location_in_chosen_order_and_end_play():
    """§4A: at one location in any order; the player may stop after 1 or 2 cards."""
    s = board(hand=["fire-7a", "water-7a", "ice-7a"])
    s, _ = do(s, P("ice-7a", 4), P("fire-7a", 4), P("water-7a", 4))
    assert stack(s, 4, 0) == ["ice-7a", "fire-7a", "water-7a"]
    s2 = board(hand=["fire-7a", "water-7a"])
    s2, ev = do(s2, P("fire-7a", 0), END)
    assert s2["turn"] == 1 and s2["hand"][0] == ["water-7a"]
    assert s2["last"] == {"seat": 0, "action": "play", "cards": ["fire-7a"], "locs": [0]}


def test_identical_cards_are_one_decision():
    """§4A (identical cards allowed): copies of one card are offered once, by the first id."""
    s = board(hand=["fire-5b", "fire-5a", "fire-6a"])
    plays = [m for m in legal(s) if m["type"] == "play"]
    assert {m["card"] for m in plays} == {"fire-5b", "fire-6a"}
    s, _ = do(s, P("fire-5b", 1))
    assert P("fire-5a", 1) in legal(s)  # the other copy may follow


# ---- §4B Activate ---------------------------------------------------------------------------------------

def test_activate_number_or_symbol_never_mixed_each_once_up_to_three():
    """§4B: discard, then up to 3 own elementals sharing its number, or its symbol; no mixing;
    each at most once."""
    me = [["fire-5a"], ["fire-6a"], ["water-5a"], ["earth-6a"], ["water-6a", "fire-7a"]]
    s = board(me=me, hand=["fire-6b"], foe=[["ice-5a"], [], [], [], []])
    s, _ = do(s, D("fire-6b"))
    offered = {m["card"] for m in legal(s) if m["type"] == "activate_elemental"}
    assert offered == {"fire-5a", "fire-6a", "earth-6a", "water-6a", "fire-7a"}
    s, _ = do(s, A("fire-6a"))  # shares both: both options stay open
    offered = {m["card"] for m in legal(s) if m["type"] == "activate_elemental"}
    assert offered == {"fire-5a", "earth-6a", "water-6a", "fire-7a"}
    s, _ = do(s, A("earth-6a"))  # number: symbol option closed
    offered = {m["card"] for m in legal(s) if m["type"] == "activate_elemental"}
    assert offered == {"water-6a"}
    s, ev = do(s, A("water-6a"))
    assert s["turn"] == 1  # 3 activated: done by itself
    assert [e["card"] for e in types(ev, "activated")] == ["water-6a"]


def test_activate_zero_elementals_is_allowed():
    """Q12: Activate may discard and activate nothing."""
    s = board(me=[["fire-5a"], [], [], [], []], hand=["fire-6a", "ice-7a"])
    s, ev = do(s, D("fire-6a"), DONE)
    assert s["discard"][0] == ["fire-6a"] and s["turn"] == 1 and not types(ev, "activated")
    s2 = board(hand=["ice-7a"])
    s2, _ = do(s2, D("ice-7a"))  # nothing could be activated: finished without asking
    assert s2["turn"] == 1 and s2["last"]["activated"] == []


def test_activate_resolves_each_fully_before_the_next():
    """§4B: one elemental's ability resolves completely (including its choices) before the next."""
    s = board(me=[["water-5a"], [], ["water-5b"], [], []], foe=[["ice-7a"], [], [], [], []],
              hand=["water-6a"])
    s, _ = do(s, D("water-6a"), A("water-5b"))
    assert {m["type"] for m in legal(s)} == {"move_to"}  # no other activation before the move


def test_activated_elemental_destroyed_earlier_cannot_be_activated():
    """§4B / §5: an elemental destroyed by an earlier activation is gone (Fire kills the ally behind)."""
    s = board(me=[["fire-5a", "fire-6a"], [], [], [], []], hand=["fire-7a"], damage={"fire-6a": 5})
    s, _ = do(s, D("fire-7a"), A("fire-5a"))
    assert s["turn"] == 1 and "fire-6a" in s["discard"][0]


# ---- §4C Check & Draw ----------------------------------------------------------------------------------

def test_check_only_below_seven_scores_controlled_locations_and_draws_to_seven():
    """§4C: only with fewer than 7 in hand; 1 RF per location with own elementals and no enemy."""
    full = board(hand=[f"fire-5{c}" for c in "abcd"] + ["fire-6a", "fire-6b", "fire-6c"])
    assert CHECK not in legal(full)
    me = [["water-5a"], ["water-5b"], [], ["water-5c"], []]
    foe = [[], ["ice-5a"], ["ice-5b"], [], []]
    s = board(me=me, foe=foe, hand=["fire-5a"], deck=["fire-5b", "fire-5c", "fire-5d", "fire-6a",
                                                         "fire-6b", "fire-6c", "fire-7a", "fire-7b"])
    s, ev = do(s, CHECK)
    assert s["score"] == [2, 0] and len(s["hand"][0]) == 7 and s["deck"][0] == ["fire-7a", "fire-7b"]
    assert s["last"]["scored"] == 2 and s["last"]["drew"] == 6


def test_check_reshuffles_discard_and_empty_piles_draw_what_exists():
    """§4C (reshuffle when the pile runs out) and Q13 (both empty: draw what exists, no penalty)."""
    s = board(hand=[], deck=["fire-5a"], discard=["fire-5b", "fire-5c"])
    s, ev = do(s, CHECK)
    assert [e["type"] for e in ev if e["type"] in ("draw", "reshuffle")] == ["draw", "reshuffle", "draw"]
    assert sorted(s["hand"][0]) == ["fire-5a", "fire-5b", "fire-5c"] and s["discard"][0] == []
    assert s["turn"] == 1


# ---- §5 damage and destruction ------------------------------------------------------------------------

def test_destroyed_goes_to_owners_discard_extra_damage_lost_one_rf():
    """§5: destroyed at damage >= number; to its owner's discard, tokens back; excess is lost."""
    s = board(me=[["crystal-5a"], [], [], [], []], foe=[["ice-5a", "ice-6a"], [], [], [], []],
              hand=["crystal-6a"], damage={"ice-5a": 3})
    s, ev = do(s, D("crystal-6a"), A("crystal-5a"))
    assert s["discard"][1] == ["ice-5a"] and "ice-5a" not in s["damage"]
    assert dmg(s, "ice-6a") == 0 and s["score"] == [1, 0]


# ---- §6 end of game ----------------------------------------------------------------------------------------

def test_end_triggered_by_first_player_gives_second_one_more_action():
    """§6: the first player reaches 12; the second player takes one more action; then it ends."""
    s = board(me=[["water-5a"], [], [], [], []], hand=["fire-5a"], foe_hand=["ice-5a"], score=(11, 3))
    s, _ = do(s, CHECK)
    assert s["score"] == [12, 3] and s["ending"] and s["turn"] == 1 and GAME.result(s) is None
    s, _ = do(s, CHECK)
    r = GAME.result(s)
    assert r["winners"] == [0] and r["scores"] == {"0": 12, "1": 3} and GAME.to_act(s) == []


def test_end_triggered_by_second_player_ends_at_once():
    """§6: if the second player (no start marker) reaches 12, the game ends after that action."""
    s = board(foe=[["ice-5a"], [], [], [], []], foe_hand=["ice-6a"], score=(5, 11), turn=1, start=0)
    s, ev = do(s, CHECK)
    assert GAME.result(s)["winners"] == [1] and types(ev, "game_over")


def test_tie_adds_a_pair_of_actions_until_broken():
    """§6: tied at the end of the round: each takes one more action, then check again."""
    s = board(me=[["water-5a"], [], [], [], []], foe=[[], ["ice-5a"], [], [], []],
              hand=["fire-5a"], foe_hand=["ice-6a"], score=(11, 11))
    s, _ = do(s, CHECK)
    s, _ = do(s, CHECK)  # 12-12: tie, go on
    assert GAME.result(s) is None and s["turn"] == 0
    s, _ = do(s, CHECK)
    s, _ = do(s, D("ice-6a"), DONE)  # the opponent scores nothing this time
    assert GAME.result(s)["winners"] == [0] and s["score"] == [13, 12]


def test_score_reaching_12_on_the_opponents_turn_triggers_the_end():
    """Q4: RF gained on the other player's turn (an own Fire destroying an ally) triggers the end;
    the game then ends after the second player's action."""
    s = board(me=[["fire-5a", "water-5a"], [], [], [], []], hand=["fire-6a"],
              damage={"water-5a": 4}, score=(3, 11), foe_hand=["ice-5a"])
    s, _ = do(s, D("fire-6a"), A("fire-5a"))
    assert s["score"] == [3, 12] and s["ending"] and GAME.result(s) is None
    s, _ = do(s, CHECK)
    assert GAME.result(s)["winners"] == [1]


def test_q14_stalemate_ends_the_game_when_nothing_can_change():
    """House rule Q14: no card off the board for anyone and no location controlled means only empty
    Check & Draws remain; the game ends there (even after an action of the start player: the
    equal-actions rule does not apply), most RF wins."""
    s = board(me=[["fire-5a"], [], [], [], []], foe=[["ice-5a"], [], [], [], []], hand=[], score=(4, 2))
    s, ev = do(s, CHECK)
    r = GAME.result(s)
    assert r["reason"] == "stalemate" and r["winners"] == [0] and r["actions"] == [1, 0]


def test_q14_stalemate_tie_stands_with_both_players_winning():
    """House rule Q14: a stalemate with equal Riftforce is a tie; both seats are winners."""
    s = board(me=[["fire-5a"], [], [], [], []], foe=[["ice-5a"], [], [], [], []], hand=[], score=(3, 3))
    s, _ = do(s, CHECK)
    assert GAME.result(s) == {"scores": {"0": 3, "1": 3}, "winners": [0, 1], "reason": "stalemate",
                              "actions": [1, 0]}


# ---- moves from the wrong seat, junk, stale ------------------------------------------------------------

def test_illegal_and_junk_moves_are_rejected_with_codes():
    """Contract: anything not legal raises engine.IllegalMove with a stable code; state untouched."""
    s = board(me=[["fire-5a"], [], [], [], []], hand=["fire-6a", "fire-7a"])
    before = GAME.copy_state(s)
    rng = random.Random(1)
    cases = [
        (1, P("fire-6a", 0), "not_your_turn"),
        (0, "play", "bad_move"),
        (0, {"card": "fire-6a"}, "bad_move"),
        (0, {"type": 3}, "bad_move"),
        (0, {"type": "play", "card": "fire-6a", "loc": 5}, "illegal"),
        (0, {"type": "play", "card": "fire-6a", "loc": "1"}, "illegal"),
        (0, {"type": "play", "card": "ice-6a", "loc": 1}, "illegal"),
        (0, {"type": "play", "card": "fire-6a", "loc": 1, "x": 1}, "illegal"),
        (0, {"type": "done"}, "illegal"),
        (0, {"type": "pick", "guild": "fire"}, "illegal"),
        (0, {"type": "activate_elemental", "card": "fire-5a"}, "illegal"),
        (True, P("fire-6a", 0), "not_your_turn"),
        (None, P("fire-6a", 0), "not_your_turn"),
        (0, {"type": "play", "card": ["x"], "loc": {}}, "illegal"),
    ]
    for seat, move, code in cases:
        with pytest.raises(engine.IllegalMove) as err:
            GAME.play(s, seat, move, rng)
        assert err.value.code == code, (move, err.value.code)
    assert s == before
    over = board(hand=[], score=(1, 0))
    over, _ = do(over, CHECK)
    with pytest.raises(engine.IllegalMove) as err:
        GAME.play(over, 0, CHECK, rng)
    assert err.value.code == "game_over"


def test_loosely_equal_moves_are_recorded_as_the_engine_offered_them():
    """Contract (JSON events): 2.0 == 2 and True == 1 in Python; the events still carry ints."""
    s = board(hand=["fire-6a", "fire-7a"])
    for loc in (2.0, True):
        _, ev = do(s, {"type": "play", "card": "fire-6a", "loc": loc})
        enter = types(ev, "enter")[0]
        assert type(enter["loc"]) is int and enter["loc"] == int(loc)


def test_default_move_is_check_then_end_play_or_done():
    """Timeout policy: Check & Draw if legal; inside Play end it; inside Activate "done"."""
    s = board(hand=["fire-5a", "fire-5b"])
    assert GAME.default_move(s, 0) == CHECK
    s2, _ = do(s, P("fire-5a", 0))
    assert GAME.default_move(s2, 0) == END
    s3 = board(me=[["fire-5a"], [], [], [], []], hand=["fire-6a"])
    s3, _ = do(s3, D("fire-6a"))
    assert GAME.default_move(s3, 0) == DONE
    full = board(hand=[f"fire-5{c}" for c in "abcd"] + ["fire-6a", "fire-6b", "fire-6c"])
    assert GAME.default_move(full, 0) == P("fire-5a", 0)
    with pytest.raises(engine.IllegalMove):
        GAME.default_move(s, 1)
    draft, _ = started("base")
    first = draft["turn"]
    assert GAME.default_move(draft, first) == {"type": "pick", "guild": draft["draft"]["offer"][0]}


def test_timeout_skip_policy_ends_a_play_or_activate_and_else_checks():
    """timeout_move: "skip" ends a Play or an Activate in progress (pass_types), and a turn that
    cannot be skipped gets the "auto" choice, Check & Draw."""
    s = board(hand=["fire-5a", "fire-5b"])
    assert GAME.timeout_move(s, 0, "skip") == GAME.timeout_move(s, 0, "auto") == CHECK
    s2, _ = do(s, P("fire-5a", 0))
    assert GAME.timeout_move(s2, 0, "skip") == END


# ---- turns, teams, scores (the engine contract) ---------------------------------------------------------

def test_turn_counts_draft_picks_and_actions_not_follow_up_decisions():
    """turn(): 1 at the first draft pick; every pick that hands the draft on and every action's
    `turn` begin a new turn; further cards of a Play, elementals of an Activate and choices inside
    an ability are the same turn."""
    s, _ = started("base", seed=11)
    first = s["turn"]
    assert GAME.turn(s) == engine.Turn(1, "draft", (first,))
    s, _ = do(s, GAME.legal_moves(s, first)[0])
    assert GAME.turn(s) == engine.Turn(2, "draft", (1 - first,))
    s, _ = draft_through(s)
    assert GAME.turn(s) == engine.Turn(7, "play", (first,))  # 6 picks, then the first action
    s = board(me=[["water-5a"], [], [], [], []], hand=["fire-5a", "fire-5b", "water-6a"])
    n = GAME.turn(s).number
    s, _ = do(s, P("fire-5a", 2))
    assert GAME.turn(s) == engine.Turn(n, "play", (0,))  # a further card may follow
    s, _ = do(s, END)
    assert GAME.turn(s) == engine.Turn(n + 1, "play", (1,))
    s = board(me=[["water-5a"], [], [], [], []], hand=["water-6a"])
    n = GAME.turn(s).number
    s, _ = do(s, D("water-6a"), A("water-5a"))  # Water asks nothing: location 2 is its only way
    assert GAME.turn(s).number == n + 1
    s = board(me=[[], ["water-5a"], [], [], []], hand=["water-6a"])
    n = GAME.turn(s).number
    s, _ = do(s, D("water-6a"), A("water-5a"))
    assert s["pending"]["ask"]["what"] == "move_to" and GAME.turn(s) == engine.Turn(n, "play", (0,))
    s, _ = do(s, MV(2))
    assert GAME.turn(s) == engine.Turn(n + 1, "play", (1,))


def test_duel_has_no_teams_and_public_scores_by_seat():
    s = board(score=(3, 5))
    assert GAME.teams(s) == []
    assert GAME.public_scores(GAME.view(s, None)) == {0: 3, 1: 5}
