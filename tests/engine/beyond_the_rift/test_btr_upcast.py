"""Rules version 3's event shapes and the upcast of versions 1 and 2 (engine/beyond_the_rift/upcast.py):
events are facts, and an old event, upcast, reads the same from the state."""

from __future__ import annotations

import json

import pytest

from engine.beyond_the_rift.content import CONTENT
from engine.beyond_the_rift.upcast import PROSE, STEPS, reason_code

from .helpers import G, finish, greedy_chooser, new, playout


def test_an_activation_step_upcast_from_its_text_reads_the_same_text_in_every_scenario():
    """Version 2 wrote a step's text; version 3 its place (column, index).  Upcast takes the first place
    of that text for that enemy type; words read the text at that place in the game's own scenario."""
    for sc in CONTENT.scenarios.values():
        rows = dict(sc["rows"])
        for typ, cells in sc["rows"]:
            for cell in cells:
                for step in cell:
                    col, i = STEPS[(typ, step["text"])]
                    assert rows[typ][col - 1][i]["text"] == step["text"], (sc["id"], typ, step["text"])


@pytest.mark.parametrize("sentence,code", [
    ("the Response deck ran out", {"reason": "response_deck"}),
    ("the Wound supply ran out", {"reason": "wound_supply"}),
    ("Threat reached 10", {"reason": "threat"}),
    ("Isolde Marr died", {"reason": "hero_died", "hero": "isolde"}),
    ("Brannoc Vey, Oathbound died", {"reason": "hero_died", "hero": "brannoc"}),
    ("Orc Huntmaster is defeated", {"reason": "boss_defeated"}),
    ("the way out is open", {"reason": "way_out_open"}),
    ("the road is clear", {"reason": "road_clear"}),
    ("something new", {"reason": "something new"}),
])
def test_old_result_reasons_become_codes(sentence, code):
    assert reason_code(sentence) == code


def test_an_old_death_names_the_hero_and_the_replay_finds_the_seat():
    s, _ = new(2, heroes=["brannoc", "isolde"])
    old = {"type": "result", "result": {"outcome": "loss", "reason": "Isolde Marr died", "round": 2}}
    event = G.upcast(old, "2")
    assert event["result"] == {"outcome": "loss", "reason": "hero_died", "round": 2, "hero": "isolde"}
    assert G.describe_event(event, None, s) == "The heroes lose: Isolde Marr died."
    after = G.apply(s, event)
    assert G.result(after)["reason"] == "hero_died" and G.result(after)["seat"] == 1


def test_rules_version_3_events_carry_no_names_or_sentences():
    """Every event of a few playouts: no display-name field, no string with a space in it (sentences)
    outside the setup state (which holds the scenario's content ids only)."""
    for scenario, n, seed in (("tutorial", 2, 3), ("old-friends-1", 3, 4), ("old-friends-3", 4, 5)):
        _, log = playout(n, scenario, seed, greedy_chooser)
        for ev in log[1:]:
            assert not PROSE & set(ev), ev
            assert not (ev["type"] in ("terrain_in", "terrain_out", "board_action") and "name" in ev)
            assert "text" not in ev
            strings = [x for x in _strings(ev) if " " in x]
            assert not strings, (ev, strings)


def _strings(x):
    if isinstance(x, str):
        yield x
    elif isinstance(x, dict):
        for v in x.values():
            yield from _strings(v)
    elif isinstance(x, list):
        for v in x:
            yield from _strings(v)


def test_the_enemy_phase_without_enemies_notes_why():
    s, _ = new(1, defense_modes=["auto"])
    s["enemies"] = []
    s["piles"]["enemy"] = []
    s, ev = finish(s)
    assert {"type": "note", "why": "no_enemies"} in ev
    assert G.upcast({"type": "note", "text": "no_enemies"}, "2") == {"type": "note", "why": "no_enemies"}
    assert json.loads(json.dumps(ev)) == ev
