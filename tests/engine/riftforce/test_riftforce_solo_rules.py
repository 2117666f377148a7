"""Solo play against the trainer (issue 7): setup (§11), the plan pile (order, face up, recycling),
bot placement (Q10), control and attack plans, bot eligibility, the player's choices for the
trainer (Q6), every challenge level's bot ability and both & ends, trainer scoring, the end (Q11)."""

from __future__ import annotations

import json
import random

import pytest

import engine
from engine.riftforce import solo
from engine.riftforce.cards import ALL_GUILDS, GUILD_NAME

from .modes import play_moves, solo_board
from .scenario import GAME, sentences, types

CHECK = {"type": "check"}
# One attack plan (at location 3, data loc 2) that starts with each number.
PLAN_FOR = {5: "A3a", 6: "A3b", 7: "A3c"}  # 5-5-7, 6-6-5, 7-5-5


def rows(**stacks):
    """Five stacks from keyword args l0..l4."""
    return [list(stacks.get(f"l{i}", [])) for i in range(5)]


def trainer_board(number, stars, me, bots, damage=None, amp=None, plan=None, **kw):
    """A solo board where the top plan is an attack plan starting with `number`."""
    return solo_board(me=me, bots=bots, hand=["fire-5d"], damage=damage, amp=amp,
                      stars={str(number): stars}, plans=[plan or PLAN_FOR[number]] + ["C1"], **kw)


def trainer_turn(number, stars, me, bots, damage=None, amp=None, moves=(), plan=None, **kw):
    """The player checks (drawing nothing), then the trainer carries out one attack plan."""
    s = trainer_board(number, stars, me, bots, damage=damage, amp=amp, plan=plan, **kw)
    return play_moves(s, CHECK, *moves)


def dealt(events, card):
    return sum(e["amount"] for e in types(events, "damage") if e["card"] == card)


# ---- options and setup ---------------------------------------------------------------------------------

NAMED = ["crystal", "shadow", "acid", "lava"]


def test_solo_options_are_checked():
    """§11 / issue 7: solo is 1 player; stars 1-4 per number as strings; & = number 5|6|7 and end A|B;
    trainer_guilds = "choose" (the default), "random" or 4 different guilds; team/solo always use
    all 18 guilds."""
    bad = [(2, {"mode": "solo"}), (1, {}), (1, {"mode": "solo", "guilds": "base"}),
           (1, {"mode": "solo", "stars": {"5": 5}}), (1, {"mode": "solo", "stars": {"8": 1}}),
           (1, {"mode": "solo", "stars": {"5": True}}), (1, {"mode": "solo", "and": {"number": 4, "end": "A"}}),
           (1, {"mode": "solo", "and": {"number": 5, "end": "C"}}), (1, {"mode": "solo", "and": 5}),
           (1, {"mode": "solo", "trainer_guilds": ["fire", "fire", "ice", "air"]}),
           (1, {"mode": "solo", "trainer_guilds": ["fire", "ice", "air"]}),
           (1, {"mode": "solo", "trainer_guilds": ["fire", "ice", "air", "nope"]}),
           (1, {"mode": "solo", "trainer_guilds": "mine"}), (1, {"mode": "solo", "trainer_guilds": ["random"]}),
           (1, {"mode": "solo", "trainer_guilds": None}), (1, {"mode": "solo", "speed": 2})]
    for players, options in bad:
        with pytest.raises(engine.IllegalMove) as err:
            GAME.start(players, options, 1)
        assert err.value.code == "bad_options", options
    opts = GAME.start(1, {"mode": "solo"}, 1)[0]["options"]
    assert opts == {"mode": "solo", "guilds": "all", "stars": {"5": 1, "6": 1, "7": 1}, "and": None,
                    "trainer_guilds": "choose"}
    for standing in ("choose", "random", NAMED):
        assert GAME.start(1, {"mode": "solo", "trainer_guilds": standing}, 1)[0]["options"]["trainer_guilds"] == standing


def keep(s, guilds=None, seed=0):
    """The player keeps `guilds` (default: the first 4 on offer); returns (state, events of the last pick)."""
    guilds = guilds or s["draft"]["offer"][:4]
    evs = []
    for g in guilds:
        s, evs = play_moves(s, {"type": "pick", "guild": g}, seed=seed)
    return s, evs


def start(options=None, seed=9):
    return engine.replay(GAME, GAME.start(1, {"mode": "solo", **(options or {})}, seed))


def test_the_six_offered_come_from_all_eighteen_and_the_trainer_has_no_guild_before_the_keep():
    """§11 setup: "Shuffle all 18 summoners and draw 6 at random": nothing is set aside for the
    trainer first, whatever the standing choice (named guilds may be offered too)."""
    offered = set()
    for seed in range(60):
        for options in ({}, {"trainer_guilds": NAMED}):
            draft = GAME.start(1, {"mode": "solo", **options}, seed)[1]
            assert draft["type"] == "draft" and "trainer" not in draft and len(set(draft["offer"])) == 6
            offered |= set(draft["offer"]) & set(NAMED) if options else set(draft["offer"])
    assert offered == set(ALL_GUILDS)


def test_after_the_keep_the_player_chooses_the_trainers_4_from_the_14_not_kept():
    """§11 setup: "From all the remaining guilds, the trainer gets any 4 (the player's choice)":
    once 4 are kept (and not before) the player is asked for the trainer's guilds, one at a time,
    among the 14 not kept, the 2 offered and set aside first; the fourth completes the setup:
    separate piles, a bot at each of the 5 locations, 7 cards, you go first."""
    s = start()
    offer = s["draft"]["offer"][:]
    assert GAME.legal_moves(s, 0) == [{"type": "pick", "guild": g} for g in offer]
    for g in offer[:3]:
        s, _ = play_moves(s, {"type": "pick", "guild": g})
        assert {m["type"] for m in GAME.legal_moves(s, 0)} == {"pick"}
    s, evs = play_moves(s, {"type": "pick", "guild": offer[3]})
    asked = types(evs, "trainer_draft")[0]
    assert (asked["how"], asked["given"]) == ("choose", []) and not types(evs, "draft_end")
    not_kept = [g for g in ALL_GUILDS if g not in offer[:4]]
    assert asked["offer"] == offer[4:] + [g for g in not_kept if g not in offer]
    assert GAME.legal_moves(s, 0) == [{"type": "give", "guild": g} for g in asked["offer"]]
    assert s["phase"] == "draft" and GAME.to_act(s) == [0]
    coach = [offer[5], "music", offer[4], "magnet"]
    for g in coach[:3]:
        s, evs = play_moves(s, {"type": "give", "guild": g})
        assert not types(evs, "draft_end") and {"type": "give", "guild": g} not in GAME.legal_moves(s, 0)
    s, evs = play_moves(s, {"type": "give", "guild": coach[3]})
    assert s["guilds"] == [offer[:4], coach] and types(evs, "draft_end")[0]["removed"] == []
    bots = [e for e in types(evs, "enter") if e["seat"] == 1]
    assert [e["loc"] for e in bots] == [0, 1, 2, 3, 4] and all(e["from"] == "deck" for e in bots)
    assert len(s["hand"][0]) == 7 and s["hand"][1] == [] and len(s["deck"][1]) == 31
    assert s["turn"] == 0 and s["phase"] == "play" and GAME.to_act(s) == [0]


def test_the_trainer_can_get_a_guild_offered_to_the_player_and_not_kept():
    """§11: the trainer's 4 come "from all the remaining guilds", the 2 offered and set aside among them."""
    s, _ = keep(start(seed=4))
    aside = s["draft"]["offer"][:]
    assert len(aside) == 2
    s, _ = play_moves(s, *({"type": "give", "guild": g} for g in aside))
    while s["phase"] == "draft":
        s, _ = play_moves(s, GAME.legal_moves(s, 0)[-1])
    assert set(aside) <= set(s["guilds"][1]) and not set(s["guilds"][0]) & set(s["guilds"][1])


def test_random_trainer_guilds_are_drawn_after_the_keep_from_the_14_not_kept():
    """Standing choice "random": no decision is asked; the 4 come at random from the 14 not kept,
    drawn with the move that completes the keep, so the 2 set aside may be among them."""
    aside_drawn = 0
    for seed in range(40):
        s = start({"trainer_guilds": "random"}, seed)
        offer = s["draft"]["offer"][:]
        kept = offer[seed % 3: seed % 3 + 4]  # a different keep per seed
        s, evs = keep(s, kept, seed)
        assert GAME.turn(s).phase == "play"  # no decision asked
        drawn = types(evs, "trainer_draft")[0]
        assert drawn["how"] == "random" and len(set(drawn["given"])) == 4
        assert not set(drawn["given"]) & set(kept) and s["guilds"] == [kept, drawn["given"]]
        aside_drawn += bool(set(drawn["given"]) & (set(offer) - set(kept)))
    assert 0 < aside_drawn < 40  # 4 of 14 with 2 set aside: about half the games give the trainer one


def test_named_trainer_guilds_are_given_after_the_keep_even_one_offered_and_not_kept():
    """Standing choice, 4 named guilds: given once the player kept 4, with no decision asked, a
    named guild that was offered and set aside included."""
    for seed in range(30):
        s = start({"trainer_guilds": NAMED}, seed)
        offer = s["draft"]["offer"]
        kept = [g for g in offer if g not in NAMED][:4]
        if len(kept) < 4 or not set(offer) & set(NAMED):
            continue
        s, evs = keep(s, kept)
        given = types(evs, "trainer_draft")[0]
        assert (given["how"], given["given"]) == ("named", NAMED)
        assert s["guilds"][1] == NAMED and s["phase"] == "play"
        return
    pytest.fail("no seed offered a named guild with 4 others to keep")


def test_q17_a_named_guild_the_player_kept_is_replaced_by_the_players_choice():
    """House rule Q17: a named guild the player kept cannot be given; the other named guilds are
    given at once and the player chooses the rest from the guilds not kept."""
    for seed in range(60):
        s = start({"trainer_guilds": NAMED}, seed)
        offer = s["draft"]["offer"]
        named_offered = [g for g in offer if g in NAMED]
        others = [g for g in offer if g not in NAMED]
        if not named_offered or len(others) < 3:
            continue
        kept = [named_offered[0]] + others[:3]
        s, evs = keep(s, kept)
        given = types(evs, "trainer_draft")[0]
        rest = [g for g in NAMED if g != named_offered[0]]
        assert (given["how"], given["given"]) == ("named", rest) and not types(evs, "draft_end")
        assert s["draft"]["trainer"] == rest
        choices = [m["guild"] for m in GAME.legal_moves(s, 0)]
        assert set(choices) == set(ALL_GUILDS) - set(kept) - set(rest) and len(choices) == 11
        said = GAME.describe_event(given, 0, s)
        assert said.endswith(f"; {GUILD_NAME[named_offered[0]]} was kept, so you choose 1 more from "
                             f"the guilds not kept."), said
        s, evs = play_moves(s, {"type": "give", "guild": choices[0]})
        assert s["guilds"][1] == rest + [choices[0]] and s["phase"] == "play"
        return
    pytest.fail("no seed offered a named guild")


def test_the_trainers_guilds_decision_in_views_words_text_and_timeouts():
    """The decision after the keep as players meet it: the view's `draft` (what may still be given,
    what the trainer has), what is asked, each choice's label, the sentences for the player and a
    spectator, the plain-text board, and the timeout's choice (the first set aside)."""
    s = start(seed=5)
    before = s
    assert "you choose the trainer's 4 guilds from the 14 not kept" in GAME.render_text(GAME.view(s, 0))
    s, evs = keep(s)
    aside = s["draft"]["offer"]
    v = GAME.view(s, 0)
    assert [g["id"] for g in v["draft"]["trainer_offer"]] == s["draft"]["trainer_offer"]
    assert v["draft"]["trainer"] == [] and json.loads(json.dumps(v)) == v
    text = GAME.render_text(v)
    assert "Your turn: choose the trainer's guilds from those not kept (0 of 4 so far)." in text
    assert "Guilds that may go to the trainer" in text and "Summoners on offer" not in text
    assert GAME.default_move(s, 0) == {"type": "give", "guild": aside[0]}
    assert GAME.describe_move({"type": "give", "guild": "acid"}, s) == "Give Acid to the trainer"
    said = [line for line in sentences(before, evs, 0) if line]
    assert said[-1] == "Now you choose the trainer's 4 guilds from the 14 not kept."
    assert sentences(before, evs, None)[-1] == "Now the player chooses the trainer's 4 guilds from the 14 not kept."
    s2, evs = play_moves(s, GAME.legal_moves(s, 0)[1])
    g = types(evs, "give")[0]["guild"]
    assert sentences(s, evs, 0) == [f"You gave {GUILD_NAME[g]} to the trainer."]
    assert sentences(s, evs, None) == [f"Player 1 gave {GUILD_NAME[g]} to the trainer."]
    assert GAME.seats_affected(types(evs, "give")[0], s) == [0]
    assert GAME.view(s2, 0)["last_action"] == f"You gave {GUILD_NAME[g]} to the trainer."
    line = next(x for x in GAME.render_text(GAME.view(s2, 0)).splitlines() if x.strip().startswith("The trainer "))
    assert line.split() == ["The", "trainer", GUILD_NAME[g], "(1", "of", "4)"]


def test_q17_when_the_player_kept_all_4_named_guilds_the_player_chooses_all_4():
    """House rule Q17 at its edge: the 4 named guilds were offered and kept, so none can be given
    and the player chooses the trainer's 4 from the 14 not kept."""
    offer = GAME.start(1, {"mode": "solo"}, 3)[1]["offer"]
    s = start({"trainer_guilds": offer[:4]}, 3)
    s, evs = keep(s, offer[:4])
    given = types(evs, "trainer_draft")[0]
    assert (given["how"], given["given"]) == ("named", []) and len(GAME.legal_moves(s, 0)) == 14
    assert GAME.describe_event(given, 0, s).startswith("The trainer gets none of the guilds named at setup;")


# ---- the plan pile ------------------------------------------------------------------------------------

def test_plan_pile_runs_three_attack_plans_then_a_control_plan_five_times():
    """§11: 5 stacks of 3 shuffled attack plans, a control plan on each, piled and turned face up."""
    for seed in range(10):
        pile = solo.plan_pile(random.Random(seed))
        kinds = [solo.PLANS[p]["kind"] for p in pile]
        assert kinds == (["attack"] * 3 + ["control"]) * 5
        assert sorted(pile) == sorted(solo.PLANS)


def test_next_plan_is_public_in_the_view_but_the_pile_order_is_redacted():
    """§11: the pile lies face up, so the next plan is public (view); the order below the top is
    not shown (redacted `plans` event); Q7: the placeholder deck is marked in the view and log."""
    events = GAME.start(1, {"mode": "solo"}, 3)
    s = engine.replay(GAME, events)
    v = GAME.view(s, 0)
    assert v["plan"]["next"]["id"] == s["plans"][0] and v["plan"]["placeholder"] is True
    plans = events[2]
    assert plans["type"] == "plans" and plans["placeholder"] is True
    assert GAME.redact_event(plans, 0)["order"] is None
    assert "placeholder" in GAME.describe_event(plans, 0, engine.replay(GAME, events[:2]))


def test_plan_discard_is_turned_over_in_the_same_order_when_the_pile_runs_out():
    """§11: after the last plan the discard pile is turned face up without shuffling."""
    pile = solo.plan_pile(random.Random(4))
    s = solo_board(hand=["fire-5d"], plans=pile)  # no bots and no elementals: nobody scores
    for _ in range(20):
        s, evs = play_moves(s, CHECK)
    assert types(evs, "plans_recycled") and s["plans"] == pile and s["plan_discard"] == []
    assert s["plans_done"] == 20


# ---- bot placement, control plans, attack plans ----------------------------------------------------------

def test_plan_places_a_bot_at_its_location_and_control_scores_controlled_locations():
    """§11: first 1 bot from the trainer's pile at the plan's location (at the back); a control
    plan gives the trainer 1 RF per location with a bot and none of your elementals."""
    s = solo_board(me=rows(l1=["fire-5a"]), bots=rows(l0=["ice-5a"], l1=["ice-5b"], l2=["ice-6a"]),
                   hand=["fire-5d"], bot_deck=["plant-7a"], plans=["C3", "A1a"])
    s, evs = play_moves(s, CHECK)
    enter = types(evs, "enter")[0]
    assert (enter["seat"], enter["card"], enter["loc"]) == (1, "plant-7a", 2)
    assert s["board"][2][1] == ["ice-6a", "plant-7a"]
    score = types(evs, "score")[-1]
    assert (score["seat"], score["points"], score["reason"]) == (1, 2, "control")
    assert s["plan_discard"] == ["C3"] and s["plans"] == ["A1a"]


def test_empty_bot_pile_reshuffles_the_trainer_discard_or_skips_placement():
    """Q10: an empty trainer pile is refilled from its discard; with no bot at all none is placed."""
    s = solo_board(hand=["fire-5d"], plans=["C1", "C2"])
    s["discard"][1] = ["ice-5a"]
    s, evs = play_moves(s, CHECK)
    assert types(evs, "reshuffle")[0]["seat"] == 1 and s["board"][0][1] == ["ice-5a"]
    s, evs = play_moves(s, CHECK)
    assert not types(evs, "enter")


def test_attack_plan_activates_one_bot_per_number_each_once_and_the_new_bot_may_act():
    """§11: for each number in turn 1 bot of that number acts if possible; each bot at most once
    per plan; the bot just placed may act (rulebook example)."""
    s = solo_board(me=rows(l2=["water-6a", "air-6a", "earth-6a", "fire-6a"]),
                   hand=["fire-5d"], bot_deck=["ice-5a"], plans=["A3a"])  # 5-5-7 at location 3
    s, evs = play_moves(s, CHECK)
    acts = types(evs, "activated")
    assert [e["card"] for e in acts] == ["ice-5a"]  # the second 5 has no other bot; no 7 at all
    assert acts[0]["challenge"] == "5-1" and dealt(evs, "water-6a") == 2


def test_bot_must_damage_one_of_your_elementals_to_be_eligible():
    """§11: only a bot that would put damage on ≥1 of your elementals may act; else the number is
    skipped (a 5★ bot alone at its location does nothing)."""
    _, evs = trainer_turn(5, 1, me=rows(l4=["water-6a"]), bots=rows(l2=["ice-5a"], l4=["ice-5b"]))
    assert [e["card"] for e in types(evs, "activated")] == ["ice-5b"]
    _, evs = trainer_turn(5, 1, me=rows(l3=["water-6a"]), bots=rows(l2=["ice-5a"]))
    assert types(evs, "activated") == []
    # 7★ strikes adjacent locations: eligible with nothing of yours at its own location.
    _, evs = trainer_turn(7, 1, me=rows(l3=["water-6a"]), bots=rows(l2=["ice-7a"]))
    assert [e["card"] for e in types(evs, "activated")] == ["ice-7a"]


def test_player_chooses_which_eligible_bot_acts():
    """§11 / Q6: when several bots qualify, you choose (a follow-up move of seat 0)."""
    s, evs = trainer_turn(5, 1, me=rows(l0=["water-6a"], l4=["air-6a"]),
                          bots=rows(l0=["ice-5a"], l4=["ice-5b"]))
    assert s["pending"]["kind"] == "plan"
    moves = GAME.legal_moves(s, 0)
    assert moves == [{"type": "bot", "card": "ice-5a"}, {"type": "bot", "card": "ice-5b"}]
    assert GAME.default_move(s, 0) == moves[0]
    assert "Location 5" not in GAME.describe_move(moves[1], s) and "acts" in GAME.describe_move(moves[1], s)
    s, evs = play_moves(s, moves[1])
    # ice-5b first (your choice); the plan's second 5 is then the only one left: ice-5a.
    assert [e["card"] for e in types(evs, "activated")] == ["ice-5b", "ice-5a"]
    assert s["pending"] is None and s["turn"] == 0


# ---- the 12 challenge levels and the & card (§11 table) ---------------------------------------------------

def test_5_one_star_first_elemental():
    """§11 5★: 2 damage to your first elemental here."""
    _, evs = trainer_turn(5, 1, me=rows(l2=["water-6a", "air-6a"]), bots=rows(l2=["ice-5a"]))
    assert dealt(evs, "water-6a") == 2 and dealt(evs, "air-6a") == 0


def test_5_two_stars_last_elemental_repeat_once_on_a_kill():
    """§11 5★★: 2 damage to your last elemental; if that destroys it, once more (new last, Q1)."""
    s, evs = trainer_turn(5, 2, me=rows(l2=["water-6a", "air-5a", "earth-5a"]), bots=rows(l2=["ice-5a"]),
                          damage={"earth-5a": 3, "air-5a": 3})
    assert [e["card"] for e in types(evs, "destroyed")] == ["earth-5a", "air-5a"]
    assert dealt(evs, "water-6a") == 0  # the repeat happens once only
    assert s["score"][1] == 2


def test_5_three_stars_first_and_second():
    """§11 5★★★: 2 damage to your first and 1 to your second; Q1: after a kill, the new second."""
    _, evs = trainer_turn(5, 3, me=rows(l2=["water-6a", "air-6a", "earth-6a"]), bots=rows(l2=["ice-5a"]))
    assert (dealt(evs, "water-6a"), dealt(evs, "air-6a"), dealt(evs, "earth-6a")) == (2, 1, 0)
    _, evs = trainer_turn(5, 3, me=rows(l2=["air-5a", "water-6a", "earth-6a"]), bots=rows(l2=["ice-5a"]),
                          damage={"air-5a": 3})
    assert (dealt(evs, "water-6a"), dealt(evs, "earth-6a")) == (0, 1)


def test_5_four_stars_most_damaged_player_breaks_ties():
    """§11 5★★★★: 2 damage to your most-damaged elemental here; Q6: you pick among ties."""
    s, evs = trainer_turn(5, 4, me=rows(l2=["water-6a", "air-6a", "earth-6a"]), bots=rows(l2=["ice-5a"]),
                          damage={"water-6a": 1, "air-6a": 2, "earth-6a": 2})
    assert GAME.legal_moves(s, 0) == [{"type": "target", "card": "air-6a"}, {"type": "target", "card": "earth-6a"}]
    assert "Choose which of your equally damaged" in GAME.view(s, 0)["pending"]["ask"]["prompt"]
    s, evs = play_moves(s, {"type": "target", "card": "earth-6a"})
    assert dealt(evs, "earth-6a") == 2
    _, evs = trainer_turn(5, 4, me=rows(l2=["water-6a", "air-6a"]), bots=rows(l2=["ice-5a"]),
                          damage={"air-6a": 1})
    assert dealt(evs, "air-6a") == 2  # a single most-damaged elemental: no question


def test_6_one_star_last_elemental():
    """§11 6★: 3 damage to your last elemental here."""
    _, evs = trainer_turn(6, 1, me=rows(l2=["water-6a", "air-6a"]), bots=rows(l2=["ice-6a"]))
    assert (dealt(evs, "water-6a"), dealt(evs, "air-6a")) == (0, 3)


def test_6_two_stars_pull_from_an_adjacent_location_player_picks_the_side():
    """§11 6★★: 3 damage to your first elemental at one adjacent location, then pull it to the bot
    (like Plant); Q6: you pick the side, among those with an elemental of yours."""
    s, evs = trainer_turn(6, 2, me=rows(l1=["water-6a"], l3=["air-6a", "earth-6a"]), bots=rows(l2=["ice-6a"]))
    assert GAME.legal_moves(s, 0) == [{"type": "aim", "loc": 1}, {"type": "aim", "loc": 3}]
    s, evs = play_moves(s, {"type": "aim", "loc": 3})
    assert dealt(evs, "air-6a") == 3 and s["board"][2][0] == ["air-6a"] and s["board"][3][0] == ["earth-6a"]
    s, evs = trainer_turn(6, 2, me=rows(l3=["air-5a"]), bots=rows(l2=["ice-6a"]), damage={"air-5a": 2})
    assert types(evs, "destroyed") and not types(evs, "move")  # a destroyed target is not pulled


def test_6_three_stars_push_to_an_adjacent_location():
    """§11 6★★★: 3 damage to your first elemental here, then push it to an adjacent location
    (you pick; from an end location there is only one)."""
    s, _ = trainer_turn(6, 3, me=rows(l2=["water-6a"]), bots=rows(l2=["ice-6a"]))
    assert GAME.legal_moves(s, 0) == [{"type": "push", "loc": 1}, {"type": "push", "loc": 3}]
    s, evs = play_moves(s, {"type": "push", "loc": 1})
    assert s["board"][1][0] == ["water-6a"] and s["damage"]["water-6a"] == 3
    s, evs = trainer_turn(6, 3, me=rows(l0=["water-6a"]), bots=rows(l0=["ice-6a"]), plan="A1b")
    assert s["board"][1][0] == ["water-6a"] and s["pending"] is None


def test_6_four_stars_first_elemental_marked_unverified():
    """§11 6★★★★ / Q8: 3 damage to your first elemental here, shown as unverified."""
    s, evs = trainer_turn(6, 4, me=rows(l2=["water-6a", "air-6a"]), bots=rows(l2=["ice-6a"]))
    assert (dealt(evs, "water-6a"), dealt(evs, "air-6a")) == (3, 0)
    challenges = GAME.view(s, 0)["trainer"]["challenges"]
    assert [c["unverified"] for c in challenges] == [False, True, False]
    assert "[unverified]" in GAME.render_text(GAME.view(s, 0))


def test_7_one_star_first_elemental_at_each_adjacent_location():
    """§11 7★: 2 damage to your first elemental at each adjacent location (not here)."""
    _, evs = trainer_turn(7, 1, me=rows(l1=["water-6a"], l2=["fire-6a"], l3=["air-6a", "earth-6a"]),
                          bots=rows(l2=["ice-7a"]))
    assert [dealt(evs, c) for c in ("water-6a", "fire-6a", "air-6a", "earth-6a")] == [2, 0, 2, 0]


def test_7_two_stars_first_and_last_a_lone_elemental_takes_it_once():
    """§11 7★★: 2 damage each to your first and last; Q6: a lone elemental takes 2, not 4."""
    _, evs = trainer_turn(7, 2, me=rows(l2=["water-6a", "air-6a", "earth-6a"]), bots=rows(l2=["ice-7a"]))
    assert [dealt(evs, c) for c in ("water-6a", "air-6a", "earth-6a")] == [2, 0, 2]
    _, evs = trainer_turn(7, 2, me=rows(l2=["water-6a"]), bots=rows(l2=["ice-7a"]))
    assert dealt(evs, "water-6a") == 2


def test_7_three_stars_first_then_each_other():
    """§11 7★★★: 3 damage to your first elemental here and 1 to each other one here."""
    _, evs = trainer_turn(7, 3, me=rows(l2=["water-6a", "air-6a", "earth-6a"]), bots=rows(l2=["ice-7a"]))
    assert [dealt(evs, c) for c in ("water-6a", "air-6a", "earth-6a")] == [3, 1, 1]


def test_7_four_stars_five_damage_to_the_last():
    """§11 7★★★★: 5 damage to your last elemental here."""
    _, evs = trainer_turn(7, 4, me=rows(l2=["water-6a", "air-6a"]), bots=rows(l2=["ice-7a"]))
    assert [dealt(evs, c) for c in ("water-6a", "air-6a")] == [0, 5]


def test_and_end_a_moves_the_bot_where_it_deals_most_then_acts():
    """§11 & end A / Q6: "move this bot to any other location, then …": the bot goes where its
    challenge deals the most damage (ties: lowest index); it is eligible if some destination
    would let it damage even with nothing of yours at its own location."""
    s, evs = trainer_turn(7, 2, me=rows(l3=["water-6a"], l4=["air-6a", "earth-6a"]), bots=rows(l2=["ice-7a"]),
                          amp={"number": 7, "end": "A"})
    move = types(evs, "move")[0]
    assert (move["card"], move["seat"], move["to"]) == ("ice-7a", 1, 4)
    assert [dealt(evs, c) for c in ("water-6a", "air-6a", "earth-6a")] == [0, 2, 2]
    _, evs = trainer_turn(5, 1, me=rows(l1=["water-6a"], l3=["air-6a"]), bots=rows(l2=["ice-5a"]),
                          amp={"number": 5, "end": "A"})
    assert types(evs, "move")[0]["to"] == 1  # equal damage: the lowest index


def test_and_end_b_heals_the_most_damaged_bot_then_acts():
    """§11 & end B / Q6: remove 1 damage from the most-damaged bot (ties: lowest location, then
    front-most), then the challenge; only bots of the chosen number get it."""
    s, evs = trainer_turn(5, 1, me=rows(l2=["water-6a"]),
                          bots=rows(l0=["plant-5a"], l2=["ice-5a"], l3=["ice-6a", "plant-6a"]),
                          damage={"plant-5a": 1, "ice-6a": 2, "plant-6a": 2}, amp={"number": 5, "end": "B"})
    heal = types(evs, "heal")[0]
    assert (heal["card"], heal["amount"], heal["seat"]) == ("ice-6a", 1, 1)
    assert dealt(evs, "water-6a") == 2
    _, evs = trainer_turn(5, 1, me=rows(l2=["water-6a"]), bots=rows(l2=["ice-5a"], l3=["ice-6a"]),
                          damage={"ice-6a": 2}, amp={"number": 7, "end": "B"})
    assert types(evs, "heal") == []


# ---- trainer scoring -----------------------------------------------------------------------------------

def test_trainer_scores_one_per_kill_two_for_your_crystal():
    """§11: the trainer gains 1 RF per elemental of yours a bot destroys; a Crystal of yours gives
    +1 (I: its ability is intact); a bot has no Shadow bonus and no Acid zero."""
    s, evs = trainer_turn(7, 2, me=rows(l2=["crystal-5a", "water-6a"]), bots=rows(l2=["shadow-7a"]),
                          damage={"crystal-5a": 3, "water-6a": 4}, guilds=["crystal", "water", "air", "earth"],
                          trainer=["shadow", "plant", "light", "ice"])
    assert [(e["seat"], e["points"]) for e in types(evs, "score")] == [(1, 2), (1, 1)]
    assert s["discard"][0] == ["crystal-5a", "water-6a"]


def test_destroying_a_crystal_bot_gives_no_bonus_but_your_shadow_bonus_counts():
    """§11: a Crystal bot gives you no bonus; your own Shadow's kill bonus still counts."""
    s = solo_board(me=rows(l2=["earth-6a"]), bots=rows(l2=["crystal-5a"], l3=["ice-5a"]),
                   hand=["earth-5a", "shadow-5b"], damage={"crystal-5a": 3, "ice-5a": 4},
                   guilds=["earth", "shadow", "air", "water"], trainer=["crystal", "ice", "plant", "light"],
                   plans=["C1"])
    s["board"][4][0] = ["shadow-5a"]
    s, evs = play_moves(s, {"type": "activate", "card": "earth-5a"},
                        {"type": "activate_elemental", "card": "earth-6a"})
    assert [(e["seat"], e["points"]) for e in types(evs, "score") if e["reason"] == "kill"] == [(0, 1)]
    s["plans"] = ["C1"]
    s, evs = play_moves(s, {"type": "activate", "card": "shadow-5b"},
                        {"type": "activate_elemental", "card": "shadow-5a"}, {"type": "move_to", "loc": 3})
    assert [(e["seat"], e["points"]) for e in types(evs, "score") if e["reason"] == "kill"] == [(0, 2)]
    assert [e["pile"] for e in types(evs, "destroyed")] == [1]  # bots go to the trainer's discard


# ---- the end (§11, Q11) -------------------------------------------------------------------------------

def test_player_reaching_twelve_still_gets_the_plan_carried_out_then_the_game_ends():
    """§11: if you trigger the end, the current trainer plan is still carried out in full; then you
    win with more RF."""
    s = solo_board(me=rows(l0=["water-6a"], l1=["air-6a"]), bots=rows(l1=["ice-5a"]), hand=["fire-5d"],
                   score=(11, 3), plans=["A2a", "C1"])
    s, evs = play_moves(s, CHECK)
    kinds = [e["type"] for e in evs]
    assert kinds.index("plan") < kinds.index("game_over") and types(evs, "activated")
    assert GAME.result(s) == {"scores": {"0": 12}, "trainer": 3, "winners": [0],
                              "reason": "score", "actions": [1], "plans": 1}
    assert GAME.public_scores(GAME.view(s, None)) == {0: 12}  # the trainer is not a seat


def test_trainer_reaching_twelve_finishes_the_plan_then_ends():
    """Q11: if the trainer reaches 12, the current plan is finished; the game then ends."""
    start = solo_board(me=rows(l2=["water-5a", "air-6a"]), bots=rows(l2=["ice-5a", "ice-5b"]),
                       hand=["fire-5d"], score=(4, 11), damage={"water-5a": 3}, plans=["A3a", "C1"])
    s, evs = play_moves(start, CHECK, {"type": "bot", "card": "ice-5a"})
    kills = [e for e in types(evs, "score") if e["seat"] == 1]
    assert kills[0]["total"] == 12
    assert len(types(evs, "activated")) == 2  # the plan's second 5 still acted after the trigger
    assert GAME.result(s)["winners"] == [] and GAME.result(s)["trainer"] == 12
    assert "the trainer wins" in sentences(start, evs, 0)[-1]


def test_tie_plays_on_until_a_round_ends_untied():
    """§11 / Q11: on a tie, full rounds (your action + 1 plan) continue until it breaks."""
    s = solo_board(hand=["fire-5d"], score=(12, 12), ending=True, plans=["C1", "A1a"],
                   me=rows(l4=["water-6a"]), bots=rows(l0=["ice-5a"]))
    s, evs = play_moves(s, CHECK)  # you score location 5, the trainer's control plan location 1
    assert s["score"] == [13, 13] and s["phase"] == "play"
    s, evs = play_moves(s, CHECK)  # you score again; the attack plan finds nothing to hit
    assert s["score"] == [14, 13] and GAME.result(s)["winners"] == [0]


def test_solo_view_text_and_words():
    """§11 / Q7 views: the trainer (score, guilds, challenges, &), the next plan (placeholder
    deck marked); words for the trainer's actions."""
    start = trainer_board(5, 1, me=rows(l2=["water-6a"]), bots=rows(l2=["ice-5a"]),
                          amp={"number": 5, "end": "B"})
    s, evs = play_moves(start, CHECK)
    v = GAME.view(s, 0)
    assert v["mode"] == "solo" and len(v["players"]) == 1 and v["scores"] == [0, 0]
    assert v["trainer"]["and"]["end"] == "B" and v["plan"]["next"]["id"] == "C1"
    assert v["plan"]["last"]["id"] == "A3a"
    text = GAME.render_text(v)
    assert "THE TRAINER" in text and "Next plan (placeholder plan deck)" in text
    words = sentences(start, evs, 0)
    assert "The trainer carries out its plan: attack 5-5-7: a bot at location 3, then a bot of each number in turn." in words
    assert "The trainer's bot Ice 5 dealt 2 damage to your Water 6." in words
    assert GAME.view(s, None)["hand"] is None
    assert json.loads(json.dumps(v)) == v


# ---- turns and the seats an event affects -------------------------------------------------------------

def test_turns_in_solo_the_keep_picks_are_one_turn_and_each_action_after_the_plan_another():
    """turn(): the 4 keep picks and the 4 guilds given to the trainer are one turn (the same seat
    decides on: one email asks for all of them); after the trainer's plan ran inside the player's
    move, the player's next action is a new turn; choices made for the plan (which bot acts) are
    follow-ups of the same turn."""
    s = engine.replay(GAME, GAME.start(1, {"mode": "solo"}, 2))
    numbers = [GAME.turn(s).number]
    while s["phase"] == "draft":
        s, _ = play_moves(s, GAME.legal_moves(s, 0)[0])
        numbers.append(GAME.turn(s).number)
    assert numbers == [1] * 8 + [2] and GAME.turn(s).seats == (0,)
    s = solo_board(me=rows(l0=["water-6a"], l4=["air-6a"]), bots=rows(l0=["ice-5a"], l4=["ice-5b"]),
                   hand=["fire-5d"], stars={"5": 1}, plans=["A3a", "C1"])
    before = GAME.turn(s).number
    s, _ = play_moves(s, CHECK)
    assert s["pending"]["kind"] == "plan" and GAME.turn(s).number == before  # the plan asks
    s, _ = play_moves(s, {"type": "bot", "card": "ice-5a"})
    assert s["pending"] is None and GAME.turn(s) == engine.Turn(before + 1, "play", (0,))
    s, _ = play_moves(s, CHECK)
    assert GAME.turn(s).number == before + 2


def test_the_trainer_is_not_a_seat_in_seats_affected():
    """seats_affected: a bot's damage to your elemental touches you; your damage to a bot, the
    trainer's piles and score touch no seat (the trainer is seat 1 of the state, not a player)."""
    s, evs = trainer_turn(5, 1, me=rows(l2=["water-6a"]), bots=rows(l2=["ice-5a"]),
                          bot_deck=["plant-7a"])
    hit = types(evs, "damage")[0]
    assert hit["by_seat"] == 1 and "trainer_side" not in hit  # a fact: the state knows the mode
    assert GAME.seats_affected(hit, s) == [0]
    assert [GAME.seats_affected(e, s) for e in types(evs, "enter")] == [[]]
    assert GAME.teams(s) == []
    s = solo_board(me=rows(l0=["crystal-5a"]), bots=rows(l0=["ice-5a"], l3=["plant-5a"]),
                   hand=["crystal-6a"], damage={"ice-5a": 1}, guilds=["crystal", "water", "air", "earth"],
                   plans=["C1"])
    _, evs = play_moves(s, {"type": "activate", "card": "crystal-6a"},
                        {"type": "activate_elemental", "card": "crystal-5a"})
    assert [GAME.seats_affected(e, s) for e in types(evs, "damage") + types(evs, "destroyed")] == [[0], []]
    assert [GAME.seats_affected(e, s) for e in types(evs, "score")] == [[0], []]  # yours, the trainer's
