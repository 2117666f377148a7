"""Moves as text (notation.py), the seats an event affects, the options schema."""

from __future__ import annotations

import doctest

import pytest

import engine
import engine.beyond_the_rift

from .helpers import G, clear_enemies, hand, new, place, play


def test_the_package_docstring_examples_hold():
    result = doctest.testmod(engine.beyond_the_rift, verbose=False)
    assert result.attempted >= 4 and result.failed == 0


@pytest.mark.parametrize("text,move", [
    ("attack BV01a", {"type": "attack", "card": "BV01a"}),
    ("attack bv01a mode 2 nopledge", {"type": "attack", "card": "BV01a", "mode": 1, "nopledge": True}),
    ("discard-ap BV12a", {"type": "discard_ap", "card": "BV12a"}),
    ("discard ap BV12a", {"type": "discard_ap", "card": "BV12a"}),
    ("Done Final", {"type": "done_final"}),
    ("no aid", {"type": "no_aid"}),
    ("spend 7", {"type": "spend", "n": 7}),
    ("spend", {"type": "spend"}),
    ("choose E1", {"type": "choose", "value": "E1"}),
    ("choose isolde", {"type": "choose", "value": 1}),
    ("choose any", {"type": "choose", "value": "any"}),
    ("option 2", {"type": "option", "value": 1}),
    ("mode ask-if", {"type": "mode", "mode": "ask_if"}),
    ("set margin 4", {"type": "setting", "key": "margin", "value": 4}),
    ("set heavy_margin off", {"type": "setting", "key": "heavy_margin", "value": None}),
    ("set use_wounds yes", {"type": "setting", "key": "use_wounds", "value": True}),
    ("set maxspend half", {"type": "setting", "key": "maxspend", "value": "half"}),
    ("set aid BV03 for isolde", {"type": "setting", "key": "aid", "value": {"to": 1, "card": "BV03"}}),
    ("set tiebreak first:isolde", {"type": "setting", "key": "tiebreak", "value": "first:1"}),
    ("set recover_fatigue always", {"type": "setting", "key": "recover_fatigue", "value": "always"}),
    ("recover F07", {"type": "recover", "card": "F07"}),
    ("reward it-longbow equip isolde", {"type": "reward", "item": "IT-LONGBOW", "to": "equip", "seat": 1}),
    ("reward IT-BOOTS return", {"type": "reward", "item": "IT-BOOTS", "to": "return"}),
    ("pledge BV01b to Isolde", {"type": "pledge", "card": "BV01b", "to": 1}),
    ("play card=BV05a mode=1", {"type": "play", "card": "BV05a", "mode": 1}),  # the generic form
    ('{"type": "draw"}', {"type": "draw"}),
])
def test_texts_spell_moves(text, move):
    s, _ = new(2)
    assert G.parse_move(s, 0, text) == move


@pytest.mark.parametrize("text", ["fly", "attack", "done now", "pledge BV01a isolde", "choose", "spend lots",
                                  "set", "set aid BV03", "reward IT-BOOTS keep", "dance card=1", "option x"])
def test_junk_is_unreadable(text):
    s, _ = new(2)
    with pytest.raises(engine.IllegalMove) as caught:
        G.parse_move(s, 0, text)
    assert caught.value.code == "unreadable"


def test_every_legal_move_of_a_defense_prompt_has_its_own_text():
    s, _ = new(2, heroes=["brannoc", "osric"], defense_modes=["ask", "ask"])
    clear_enemies(s)
    s["piles"]["enemy"] = []
    place(s, "C2", 0)
    hand(s, 0, "BV03", "BV03", "W01", ap=6)
    hand(s, 1, "FO03", ap=6)
    s["heroes"][1]["status"] = "done"
    s, _ = play(s, 0, {"type": "done"})
    assert s["prompt"]["kind"] == "defense"
    for seat in (0, 1):
        moves = G.legal_moves(s, seat)
        texts = [G.move_text(s, seat, mv) for mv in moves]
        assert len(set(texts)) == len(texts)
        assert all(G.parse_move(s, seat, t) == mv for t, mv in zip(texts, moves))


def test_seats_affected_are_the_heroes_acting_or_acted_on():
    s, _ = new(3)
    assert G.seats_affected({"type": "draw", "seat": 1, "cards": ["BV01a"]}, s) == [1]
    assert G.seats_affected({"type": "enemy_attack", "enemy": "E1", "hero": 2, "ally": None, "attack": 5,
                             "defense": 3, "hit": True}, s) == [2]
    assert G.seats_affected({"type": "enemy_move", "enemy": "E1", "area": 0, "why": "engage"}, s) == [0]
    assert G.seats_affected({"type": "enemy_move", "enemy": "E1", "area": -1, "why": "disengage"}, s) == []
    assert G.seats_affected({"type": "persist", "card": "FO07a", "area": 1, "owner": 0, "ally": None,
                             "bonus": 2}, s) == [0, 1]
    assert G.seats_affected({"type": "reward", "seat": 0, "item": "IT-BOOTS", "to": "legs", "on": 1}, s) == [0, 1]
    assert G.seats_affected({"type": "threat", "threat": 4, "delta": 1}, s) == []
    s["heroes"][2]["area"].append({"card": "TR20a", "ally": {}, "bonus": None, "att": [], "tmp": []})
    assert G.seats_affected({"type": "attach", "to": "ally:TR20a", "card": "W01", "from": "wound"}, s) == [2]
    assert G.seats_affected({"type": "result", "result": {"outcome": "loss", "reason": "threat", "round": 3}},
                            s) == [0, 1, 2]


def test_options_schema_lists_every_option_start_accepts():
    from engine.beyond_the_rift.setup import OPTION_KEYS

    schema = G.options_schema()
    assert set(schema["properties"]) == OPTION_KEYS
    assert schema["properties"]["scenario"]["enum"] == ["tutorial", "old-friends-1", "old-friends-2", "old-friends-3"]
    plan = schema["properties"]["plans"]["items"]["properties"]
    assert plan["recover_fatigue"]["default"] == "ask" and plan["rewards"]["default"] == "auto"


def test_no_teams_and_no_scores_to_chart():
    s, _ = new(3)
    assert G.teams(s) == [] and G.public_scores(G.view(s, None)) is None
