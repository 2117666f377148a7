"""Contract-level checks of this game (the shared suite, tests/engine/test_contract.py, runs the rest):
registration, content validation, views and redaction, move words, copies, refusals."""

from __future__ import annotations

import copy
import json

import pytest

import engine
from engine.beyond_the_rift import content as content_mod
from engine.beyond_the_rift.activation import ActivationError, parse_cell
from engine.beyond_the_rift.content import CONTENT, ContentError, _check_card

from .helpers import G, clear_enemies, hand, new, of, place, playout


def test_registered_under_its_name():
    assert engine.get("beyond-the-rift") is G and "beyond-the-rift" in engine.names()
    assert (G.min_players, G.max_players) == (1, 4)


def test_rule_1_1_components_the_content_pack_has_the_documented_counts():
    assert sorted(CONTENT.hero_ids) == ["brannoc", "isolde", "osric", "tamsin"]
    assert sum(e["copies"] for e in CONTENT.enemies.values()) == 42
    assert len(CONTENT.response) == 42 and sum(r["sigil"] for r in CONTENT.response) == 6
    assert len(CONTENT.wounds) == 18 and len(CONTENT.fatigue) == 12
    assert sum(t["copies"] for t in CONTENT.terrain.values()) == 16
    assert len(CONTENT.items) == 8
    assert set(CONTENT.scenarios) == {"tutorial", "old-friends-1", "old-friends-2", "old-friends-3"}


def test_content_validation_gives_clear_errors():
    bad = {"id": "X1", "name": "Bad", "count": 1, "modes": [{"type": "attack", "primary": None, "secondary": None,
                                                              "value": {"n": 1, "q": 0}, "range": 1}]}
    with pytest.raises(ContentError, match=r"X1.*primary or a secondary"):
        _check_card(bad, "card X1")
    with pytest.raises(ContentError, match="unknown effect op"):
        _check_card({"id": "X2", "name": "Bad", "count": 1, "modes": [
            {"type": "special", "cost": 1, "range": 1, "effects": [{"op": "explode"}]}]}, "card X2")
    with pytest.raises(ContentError, match="range must be 1 or 2"):
        _check_card({"id": "X3", "name": "Bad", "count": 1, "modes": [{"type": "ap", "cost": 0, "value": 1,
                                                                     "range": 3}]}, "card X3")
    with pytest.raises(ActivationError, match="unknown enemy"):
        parse_cell("Support Orc Wizard", CONTENT.enemy_names, CONTENT.families)
    with pytest.raises(ActivationError, match="cannot read"):
        parse_cell("Dance wildly", CONTENT.enemy_names, CONTENT.families)
    assert parse_cell("Attack (most cards in hand) / Engage", CONTENT.enemy_names, CONTENT.families)[0]["do"][
        "and"][0] == {"op": "attack", "priority": "most_cards"}


def test_broken_scenario_file_is_rejected(monkeypatch):
    real = content_mod._load

    def fake(name):
        data = copy.deepcopy(real(name))
        if name == "scenarios.json":
            data["scenarios"][0]["activation"][0][1] = "Summon Cultist"  # a family cannot be summoned
        return data

    monkeypatch.setattr(content_mod, "_load", fake)
    with pytest.raises(ContentError, match=r"tutorial.*summon needs an enemy name"):
        content_mod.Content()


def test_spectator_view_has_no_hand_and_hand_view_only_its_own():
    s, _ = new(2)
    spec = G.view(s, None)
    assert "hand" not in spec and json.dumps(spec)
    mine = G.view(s, 0)
    assert [c["card"] for c in mine["hand"]] == s["heroes"][0]["hand"]
    text = json.dumps(mine)
    for c in s["heroes"][1]["hand"]:
        assert f'"{c}"' not in text
    txt = G.render_text(mine)
    assert "Your hand" in txt and "Hero phase" in txt and "AP" in txt


def test_redaction_hides_other_hands_and_deck_orders():
    events = G.start(2, {}, 5)
    setup = G.redact_event(events[0], 0)
    assert isinstance(setup["state"]["heroes"][1]["hand"], int) and isinstance(setup["state"]["heroes"][0]["deck"], int)
    assert isinstance(setup["state"]["piles"]["response"], int)
    draws = of(events, "draw")
    other = [e for e in draws if e["seat"] == 1][0]
    assert G.redact_event(other, 0)["cards"] == 1
    before = engine.replay(G, events[:events.index(other)])
    line = G.describe_event(other, 0, before)
    assert other["cards"][0] not in line and "draws 1 card" in line
    assert G.describe_event(other, 1, before).startswith("You draw")
    # the setup's card and owner maps name only cards in view: the others come into view as they move
    assert not set(setup["state"]["cards"]) & set(events[0]["state"]["heroes"][1]["deck"])
    assert G.describe_event(events[0], None, None).startswith("A new scenario begins with 2 hero")


def test_describe_move_names_cards_and_enemies():
    s, _ = new(1)
    clear_enemies(s)
    e = place(s, "C2", 0)
    (c,) = hand(s, 0, "BV01", ap=5)
    words = {G.describe_move(mv, s) for mv in G.legal_moves(s, 0)}
    assert "Attack with Longsword Cut" in words and f"Disengage Cultist Zealot {e}" in words
    assert G.describe_move({"type": "done"}).startswith("End my turn")


def test_copy_state_is_independent_and_equal():
    state, _ = playout(2, "old-friends-2", 4)
    c = G.copy_state(state)
    assert c == state
    c["heroes"][0]["hand"].append("X")
    c["piles"]["response"].clear()
    c["owner"]["Z"] = 0
    assert c != state and "X" not in state["heroes"][0]["hand"] and "Z" not in state["owner"]


def test_illegal_moves_are_refused_with_codes():
    s, _ = new(1)
    for bad in ({"type": "fly"}, {"type": "attack", "card": "nope"}, "done", {"type": "done", "extra": 1}):
        with pytest.raises(engine.IllegalMove) as err:
            G.play(s, 0, bad, None)
        assert err.value.code == "illegal"
    with pytest.raises(engine.IllegalMove) as err:
        G.play(s, 3, {"type": "done"}, None)
    assert err.value.code == "not_your_turn"
    s["result"] = {"outcome": "loss", "reason": "x", "round": 1}
    with pytest.raises(engine.IllegalMove) as err:
        G.play(s, 0, {"type": "done"}, None)
    assert err.value.code == "game_over"


def test_view_says_what_the_party_waits_on():
    s, _ = new(2)
    assert G.view(s, None)["waiting_on"] == {"kind": "hero_phase", "default_deadline_hours": 48}
    clear_enemies(s)
    place(s, "C1", 0)
    (c,) = hand(s, 0, "BV01", ap=5)
    s["terrain"] = []
    from .helpers import play

    s, _ = play(s, 0, {"type": "attack", "card": c})
    v = G.view(s, 1)
    assert v["waiting_on"]["kind"] == "attack_window" and v["attack"]["fixed_total"] == 3
    assert "Attack in progress" in G.render_text(v)
