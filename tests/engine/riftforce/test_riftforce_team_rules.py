"""Team play for 3 and 4 players (issue 7): the draft (§9), the six locations and zones, the
turn-order card and opening elementals (§10, Q5), zone scoring, the shared team score, teammate
activation, hand privacy between teammates, and the end of the game."""

from __future__ import annotations

import json

import pytest

import engine
from engine.riftforce.cards import ALL_GUILDS, deck_for

from .modes import play_moves, team_board
from .scenario import GAME, sentences, types

CHECK = {"type": "check"}


def started(players, seed=1):
    events = GAME.start(players, {"mode": "team"}, seed)
    return engine.replay(GAME, events), events


def draft_through(s):
    order, evs = [], []
    while s["phase"] == "draft":
        order.append(s["turn"])
        s, e = play_moves(s, GAME.legal_moves(s, s["turn"])[0])
        evs += e
    return s, order, evs


def seed_with_start(team):
    """A seed whose 4-player toss gives the start to `team`."""
    return next(seed for seed in range(50) if GAME.start(4, {"mode": "team"}, seed)[1]["first"] == team)


# ---- options ------------------------------------------------------------------------------------------

def test_team_options_and_player_counts():
    """§9-§10 / issue 7: mode team takes 3 or 4 players and always the 18-guild pool."""
    for players, options in [(2, {"mode": "team"}), (5, {"mode": "team"}), (1, {"mode": "team"}),
                             (3, {"mode": "team", "guilds": "base"}), (4, {"mode": "team", "x": 1}),
                             (3, {}), (4, {"mode": "teams"})]:
        with pytest.raises(engine.IllegalMove) as err:
            GAME.start(players, options, 1)
        assert err.value.code == "bad_options"
    assert GAME.start(3, {"mode": "team"}, 1)[0]["options"] == {"mode": "team", "guilds": "all"}
    assert GAME.start(4, {"mode": "team", "guilds": "all"}, 1)[0]["players"] == 4


# ---- §9 draft -----------------------------------------------------------------------------------------

def test_draft_three_players_lone_player_four_guilds_team_three():
    """§9 (3 players): 1 random each, 6 + 3 shown, picks in player order skipping full players;
    the lone player ends with 4 guilds (36 cards), each team member with 3 (27 cards)."""
    s, events = started(3, seed=4)
    d = events[1]
    assert len(d["dealt"]) == 3 and len(d["offer"]) == 9 and d["removed"] == []
    assert len(set(d["dealt"] + d["offer"])) == 12 and set(d["dealt"] + d["offer"]) <= set(ALL_GUILDS)
    s, order, evs = draft_through(s)
    assert order == [0, 1, 2, 1, 0, 1, 2]  # positions 1-4 cycled; full players skipped
    assert [len(g) for g in s["guilds"]] == [3, 4, 3]
    assert len(types(evs, "draft_end")[0]["removed"]) == 2
    assert [len(deck_for(g)) for g in s["guilds"]] == [27, 36, 27]


def test_draft_four_players_three_guilds_each():
    """§9 (4 players): 6 + 4 shown, 2 picks each in player order, 2 left over."""
    s, events = started(4, seed=seed_with_start(1))
    assert len(events[1]["offer"]) == 10
    s, order, evs = draft_through(s)
    assert order == [1, 2, 3, 0, 1, 2, 3, 0]
    assert all(len(g) == 3 for g in s["guilds"])
    assert len(types(evs, "draft_end")[0]["removed"]) == 2


# ---- §10 setup: zones, openers, turn order --------------------------------------------------------------

def test_three_player_setup_lone_player_opens_both_zones_team_starts():
    """§10 (3 players): six locations (green 1-3, grey 4-6); 7 cards each; the lone player puts the
    top two cards of their pile at the middle of the green zone, then of the grey zone; the team
    starts (position 1 = seat 0)."""
    s, _ = started(3, seed=2)
    s, _, evs = draft_through(s)
    assert len(s["board"]) == 6
    decks = {e["seat"]: e["order"] for e in types(evs, "deck")}
    openers = types(evs, "enter")
    assert [(e["seat"], e["loc"], e["from"]) for e in openers] == [(1, 1, "deck"), (1, 4, "deck")]
    assert [e["card"] for e in openers] == decks[1][7:9]
    assert [len(h) for h in s["hand"]] == [7, 7, 7]
    assert s["order"] == [0, 1, 2, 1] and s["turn"] == 0 and s["pos"] == 0
    assert s["zones"] == [[0, 1, 2], [0, 1, 2, 3, 4, 5], [3, 4, 5]]


@pytest.mark.parametrize("start_team", [0, 1])
def test_four_player_setup_toss_alternating_order_openers_at_positions_2_to_4(start_team):
    """§10 / Q5 (4 players): a toss picks the starting team; positions alternate teams (S1, the
    opponent across, S1's teammate, the last opponent); positions 1-2 sit at the green zone, 3-4 at
    the grey; positions 2, 3, 4 put their top card at the middle of their zone."""
    s, _ = started(4, seed=seed_with_start(start_team))
    s, _, evs = draft_through(s)
    order = [0, 1, 2, 3] if start_team == 0 else [1, 2, 3, 0]
    assert s["order"] == order and s["turn"] == order[0]
    assert [e["seat"] for e in types(evs, "enter")] == order[1:]
    assert [e["loc"] for e in types(evs, "enter")] == [1, 4, 4]
    assert s["zones"][order[0]] == s["zones"][order[1]] == [0, 1, 2]
    assert s["zones"][order[2]] == s["zones"][order[3]] == [3, 4, 5]
    assert [len(h) for h in s["hand"]] == [7, 7, 7, 7]


def test_turn_order_three_players_lone_player_acts_at_positions_2_and_4():
    """§10 (3 players): positions 1→2→3→4 are seats 0, 1, 2, 1, then back to 1."""
    s = team_board(3)
    seen = []
    for _ in range(8):
        seen.append(s["turn"])
        s, _ = play_moves(s, CHECK)
    assert seen == [0, 1, 2, 1, 0, 1, 2, 1]
    assert s["actions"] == [2, 4, 2]


def test_turn_order_four_players_alternates_teams():
    """§10 / Q5 (4 players): teams alternate, 1→2→3→4 then position 1 again."""
    s = team_board(4, order=[1, 2, 3, 0])
    seen = []
    for _ in range(5):
        seen.append(s["turn"])
        s, _ = play_moves(s, CHECK)
    assert seen == [1, 2, 3, 0, 1]


def test_play_on_any_of_six_locations_and_runs_cross_the_zone_border():
    """§10: play at any of the 6 locations whatever your zone; the last green and first grey
    locations are adjacent (Q5), so a 2-card run may straddle them."""
    s = team_board(4, hands=[["fire-5a", "fire-6a"], [], [], []])
    assert {m["loc"] for m in GAME.legal_moves(s, 0) if m["type"] == "play"} == set(range(6))
    s, _ = play_moves(s, {"type": "play", "card": "fire-5a", "loc": 2})
    assert {"type": "play", "card": "fire-6a", "loc": 3} in GAME.legal_moves(s, 0)
    s, _ = play_moves(s, {"type": "play", "card": "fire-6a", "loc": 3})
    assert s["board"][2][0] == ["fire-5a"] and s["board"][3][0] == ["fire-6a"]
    assert s["turn"] == 1  # no third card in hand: the play ended by itself, position 2 acts


# ---- §10 Check & Draw by zone, shared score ----------------------------------------------------------

def _controlled_everywhere():
    # Team 0 alone at every location (a teammate's card counts for control, Q5).
    return [[["fire-5a"], ["earth-5a"], ["water-5a"], ["crystal-5a"], ["air-5a"], ["star-5a"]],
            [[] for _ in range(6)]]


def test_check_scores_only_the_zone_in_front_of_a_team_member():
    """§10: a team member's Check & Draw scores only the 3 locations of their zone; control counts
    the whole team's side (Q5); the RF goes to the team's shared score."""
    s = team_board(4, sides=_controlled_everywhere())
    s, evs = play_moves(s, CHECK)  # seat 0, green zone
    assert [(e["team"], e["points"]) for e in types(evs, "score")] == [(0, 3)]
    assert s["score"] == [3, 0]
    assert GAME.view(s, 2)["scores"] == [3, 0, 3, 0]  # the partner sees the same shared score


def test_check_lone_player_scores_all_six_locations():
    """§10 (3 players): the lone player checks all 6 locations."""
    sides = [[[] for _ in range(6)], [["ice-5a"], ["ice-5b"], ["ice-5c"], ["plant-5a"], [], ["light-5a"]]]
    s = team_board(3, sides=sides, pos=1)
    s, evs = play_moves(s, CHECK)
    assert [(e["team"], e["points"]) for e in types(evs, "score")] == [(1, 5)]


def test_check_grey_member_scores_grey_zone_only():
    """§10: the member at the grey zone scores locations 4-6 only (3 players: seat 2)."""
    sides = _controlled_everywhere()
    sides[1][0] = ["ice-5a"]  # the green zone is contested at location 1 (irrelevant for grey)
    s = team_board(3, sides=sides, pos=2)
    s, evs = play_moves(s, CHECK)
    assert types(evs, "score")[0]["points"] == 3
    assert GAME.view(s, 2)["players"][2]["controls"] == [3, 4, 5]


# ---- §10 activation of a teammate's elementals ----------------------------------------------------------

def test_number_option_activates_teammate_elementals_symbol_option_only_own():
    """§10: with the number option you may also activate your teammate's elementals of that
    number; the symbol option covers only your own guilds."""
    sides = [[["fire-5a"], ["earth-5a"], ["earth-6a"], [], [], []], [[] for _ in range(6)]]
    s = team_board(4, sides=sides, hands=[["fire-5b", "water-6a"], [], [], []])
    s, _ = play_moves(s, {"type": "activate", "card": "fire-5b"})
    offered = {m["card"] for m in GAME.legal_moves(s, 0) if m["type"] == "activate_elemental"}
    assert offered == {"fire-5a", "earth-5a"}  # own Fire 5 (both options), partner's Earth 5
    s, evs = play_moves(s, {"type": "activate_elemental", "card": "earth-5a"})
    assert s["pending"]["by"] == ["number"]
    assert types(evs, "activated")[0]["seat"] == 0


def test_symbol_option_never_reaches_a_teammate():
    """§10: discarding a card whose number no ally shares: only your own symbol matches count."""
    sides = [[["fire-7a"], ["earth-6a"], [], [], [], []], [[] for _ in range(6)]]
    s = team_board(4, sides=sides, hands=[["fire-5a", "water-6a"], [], [], []])
    s, _ = play_moves(s, {"type": "activate", "card": "fire-5a"})
    offered = {m["card"] for m in GAME.legal_moves(s, 0) if m["type"] == "activate_elemental"}
    assert offered == {"fire-7a"}


def test_teammate_fire_hits_ally_behind_and_kill_scores_the_other_team_to_owner_pile():
    """Q5: a teammate's elementals are allies (Fire's self-hit reaches them); the opposing team
    scores the kill; a destroyed card goes to its owner's discard pile."""
    sides = [[["fire-5a", "earth-5a"], [], [], [], [], []], [["ice-5a"], [], [], [], [], []]]
    s = team_board(4, sides=sides, hands=[["fire-5b"], [], [], []], damage={"earth-5a": 4})
    s, evs = play_moves(s, {"type": "activate", "card": "fire-5b"},
                        {"type": "activate_elemental", "card": "fire-5a"})
    hit = [e for e in types(evs, "damage") if e["card"] == "earth-5a"][0]
    assert hit["seat"] == 2 and hit["by_seat"] == 0  # the partner's card, hit by seat 0's Fire
    assert s["discard"][2][-1] == "earth-5a" and "earth-5a" not in s["discard"][0]
    assert [(e["team"], e["points"]) for e in types(evs, "score")] == [(1, 1)]


def test_music_capture_in_team_play_belongs_to_the_captor():
    """§8 Music + Q3 + Q5: the captured card joins the capturing seat's team side and belongs to
    that seat (its later discard goes to the captor's pile)."""
    sides = [[[] for _ in range(6)], [["music-5a"], [], [], [], [], []]]
    sides[0][0] = ["fire-5a"]
    start = team_board(4, sides=sides, hands=[[], ["ice-5a"], [], ["music-6a"]], pos=3,
                       damage={"fire-5a": 3})
    s, evs = play_moves(start, {"type": "activate", "card": "music-6a"},
                        {"type": "activate_elemental", "card": "music-5a"})
    cap = types(evs, "captured")[0]
    assert cap["seat"] == 3 and cap["owner"] == 0
    assert s["board"][1][1] == ["fire-5a"] and s["captor"] == {"fire-5a": 3}
    assert GAME.view(s, 3)["locations"][1]["sides"][1][0]["owner"] == 3
    words = sentences(start, evs, 0)[evs.index(cap)]
    assert words == "Player 4's Music 5 captured your Fire 5."
    assert GAME.seats_affected(cap, s) == [0, 3]


# ---- §10 end ------------------------------------------------------------------------------------------

def test_end_at_twelve_finishes_the_round_then_ends():
    """§10: reaching 12 triggers the end; the round is finished through position 4; most RF wins."""
    sides = _controlled_everywhere()
    s = team_board(4, sides=sides, score=(10, 5))
    s, _ = play_moves(s, CHECK)  # team 0 reaches 13 at position 1
    assert s["ending"] and s["phase"] == "play"
    s, _ = play_moves(s, CHECK, CHECK)
    assert s["phase"] == "play" and s["pos"] == 3
    s, evs = play_moves(s, CHECK)
    over = types(evs, "game_over")[0]
    assert over["scores"] == [16, 5] and over["winners"] == [0, 2]
    r = GAME.result(s)
    assert r["scores"] == {"0": 16, "1": 5, "2": 16, "3": 5}
    assert r["teams"] == [{"team": 0, "seats": [0, 2], "score": 16},
                          {"team": 1, "seats": [1, 3], "score": 5}]


def test_tie_at_the_end_of_the_round_plays_another_round():
    """§10: on a tie at the end of the round, full rounds are played until it breaks at a round end."""
    s = team_board(3, score=(12, 12), ending=True, pos=3)
    s, evs = play_moves(s, CHECK)
    assert not types(evs, "game_over") and s["pos"] == 0
    sides = [[[] for _ in range(6)], [["ice-5a"], [], [], [], [], []]]
    s["board"] = [[list(a), list(b)] for a, b in zip(sides[0], sides[1])]
    s, evs = play_moves(s, CHECK, CHECK)  # the lone player (position 2) scores 1
    assert s["score"] == [12, 13] and s["phase"] == "play"
    s, evs = play_moves(s, CHECK, CHECK)
    assert types(evs, "game_over")[0]["winners"] == [1]


# ---- hand privacy between teammates -------------------------------------------------------------------

def test_views_never_show_a_teammate_hand():
    """§10 (talk rules): no view shows a teammate's hand; only counts."""
    hands = [["fire-5a"], ["ice-5a"], ["earth-5a", "star-6a"], ["shadow-7a"]]
    s = team_board(4, hands=hands, decks=[["water-5a"], [], ["crystal-5a"], []])
    for viewer in (0, 1, 2, 3, None):
        v = GAME.view(s, viewer)
        text = json.dumps(v) + GAME.render_text(v)
        for seat, hand in enumerate(hands):
            for c in hand:
                assert (f'"{c}"' in text) == (seat == viewer)
        assert "water-5a" not in text and "crystal-5a" not in text
    assert GAME.view(s, 0)["players"][2]["hand_count"] == 2


def test_redacted_events_hide_a_teammate_draw_and_words_tell_what_the_partner_did():
    """§10 (no revealing your hand) / issue 7: a teammate's drawn cards are redacted;
    describe_event tells the partner's action
    in words (for the partner email) without naming hidden cards."""
    start = team_board(4, hands=[["fire-5a"], [], ["earth-5a"], []], decks=[[], [], ["star-6a"], []],
                       pos=2, sides=[[[], [], [], [], [], ["crystal-5a"]], [[] for _ in range(6)]])
    s, evs = play_moves(start, CHECK)  # seat 2 scores and draws star-6a
    draw = types(evs, "draw")[0]
    assert GAME.redact_event(draw, 0)["cards"] is None and GAME.redact_event(draw, 2)["cards"] == ["star-6a"]
    words = sentences(start, evs, 0, redact=True)
    assert "Player 3 drew 1 card." in words  # the service names the partner there
    assert not any("Star" in w for w in words if w)
    assert "Your team gained 1 Riftforce for controlled locations (now 1)." in words
    assert sentences(start, evs, 2, redact=True)[evs.index(draw)] == "You drew 1 card: Star 6."
    assert GAME.view(s, 0)["last_action"].startswith("Player 3 checked: scored ")
    assert GAME.view(s, 1)["last_action"].startswith("Player 3 checked: scored ")


def test_partner_play_is_described_and_spectators_see_player_numbers():
    """§10 / issue 7 (partners are told what their partner did): "Player 1 played ..." for everyone
    but the player themself, the teammate included (the service names the player there: issue 22's
    "Your partner" hid the partner's name); the boards mark the partner "(your partner)"."""
    start = team_board(4, hands=[["fire-5a"], [], [], []])
    s, evs = play_moves(start, {"type": "play", "card": "fire-5a", "loc": 4})
    enter = types(evs, "enter")[0]
    assert "mode" not in enter  # the state says it is team play (rules_version 2)
    assert GAME.describe_event(enter, 2, start) == "Player 1 played Fire 5 at location 5."
    assert GAME.describe_event(enter, 1, start) == "Player 1 played Fire 5 at location 5."
    assert GAME.describe_event(enter, None, start) == "Player 1 played Fire 5 at location 5."
    assert GAME.describe_event(enter, 0, start) == "You played Fire 5 at location 5."
    text = GAME.render_text(GAME.view(s, 2))
    assert "\n  4 grey   Player 2 & Player 4  empty\n" in text
    assert "  Player 1, your partner (position 1, checks the green zone)" in text
    assert "Turn order: 1 Player 1 (your partner), 2 Player 2, 3 You, 4 Player 4" in text
    named = GAME.render_text(GAME.view(s, 2), {0: "Ann", 1: "Bob", 2: "Cat", 3: "Dan"})
    assert "Score: You & Ann (your team) 0, Bob & Dan 0" in named
    assert "  5 grey   Bob & Dan  empty\n           You & Ann  Fire 5 [A]\n" in named and "[A] Ann, [B] Bob, [C] You, [D] Dan" in named
    assert "  Ann, your partner (position 1, checks the green zone)" in named
    assert "Last action: Ann played Fire 5 at location 5." in named
    assert "Turn order: 1 Ann (your partner), 2 Bob, 3 You, 4 Dan" in named
    assert "your partner" not in named.replace("Ann, your partner", "").replace("Ann (your partner)", "")


# ---- Q14, turns, teams, scores ------------------------------------------------------------------------

def test_q14_stalemate_with_zones_ends_team_play():
    """House rule Q14 in team play: nobody holds a card off the board and no seat's Check & Draw
    can score (control is counted by zone), so the game ends there; most RF wins, its team."""
    sides = [[["fire-5a"], [], [], [], [], []], [["ice-5a"], [], [], [], [], []]]
    s = team_board(4, sides=sides, score=(2, 5), discards=[[], [], [], []])
    s, evs = play_moves(s, CHECK)
    over = types(evs, "game_over")[0]
    assert over["reason"] == "stalemate" and over["winners"] == [1, 3]
    assert GAME.result(s)["scores"] == {"0": 2, "1": 5, "2": 2, "3": 5}


def test_teams_are_seats_0_and_2_against_1_and_3_or_the_lone_seat_1():
    """§10 / Q5: teams(state) lists the seats playing as one side; the lone player of 3 is none."""
    assert GAME.teams(team_board(4)) == [[0, 2], [1, 3]]
    assert GAME.teams(team_board(3)) == [[0, 2]]


def test_turns_begin_with_each_draft_pick_and_each_position_of_the_turn_order():
    """turn(): every pick that hands the draft on and every position's action begins a new turn;
    a Play's further cards are follow-ups of the same turn."""
    s, _ = started(3, seed=4)
    numbers = [GAME.turn(s).number]
    while s["phase"] == "draft":
        s, _ = play_moves(s, GAME.legal_moves(s, s["turn"])[0])
        numbers.append(GAME.turn(s).number)
    assert numbers == list(range(1, 9))  # 7 picks; the last one hands over to the first action
    assert GAME.turn(s) == engine.Turn(8, "play", (0,))
    s = team_board(4, hands=[["fire-5a", "fire-5b"], [], [], []])
    before = GAME.turn(s).number
    s, _ = play_moves(s, {"type": "play", "card": "fire-5a", "loc": 0})
    assert GAME.turn(s).number == before and GAME.turn(s).seats == (0,)
    s, _ = play_moves(s, {"type": "end_play"})
    assert GAME.turn(s).number == before + 1 and GAME.turn(s).seats == (1,)


def test_team_scores_name_their_seats_and_public_scores_give_each_seat_its_team_score():
    """A team's Riftforce is its seats' (public_scores from the spectator view; seats_affected
    marks both members of a scoring team of 4, the lone seat 1 of a team of 3)."""
    start = team_board(4, sides=_controlled_everywhere(), score=(2, 1))
    s, evs = play_moves(start, CHECK)
    assert GAME.public_scores(GAME.view(s, None)) == {0: 5, 1: 1, 2: 5, 3: 1}
    assert GAME.seats_affected(types(evs, "score")[0], start) == [0, 2]
    sides = [[[] for _ in range(6)], [["ice-5a"], [], [], [], [], []]]
    s3 = team_board(3, sides=sides, pos=1)
    _, evs = play_moves(s3, CHECK)
    assert GAME.seats_affected(types(evs, "score")[0], s3) == [1]
