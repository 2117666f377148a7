"""Reaction windows no card of our pack uses yet (section 2.1: before_enemy_attack, after_enemy_hit,
end_phase) and the `mod` op on enemies and allies.  The cards here are test-only definitions added to
the content for one test, the way a real card list would add them as data."""

from __future__ import annotations

import pytest

from engine.beyond_the_rift import model as m
from engine.beyond_the_rift.content import CONTENT

from .helpers import G, clear_enemies, decisions, finish, hand, new, of, place, play, responses

CARDS = {
    "XBRACE": {"window": "before_enemy_attack", "cost": 1, "range": 2,
               "effects": [{"op": "mod", "stat": "attack", "n": -2, "target": "attacker", "dur": "this_attack"}]},
    "XBREATH": {"window": "after_enemy_hit", "cost": 0, "range": 2,
                "effects": [{"op": "heal_wound", "n": 1, "target": "hero"}]},
    "XVIGIL": {"window": "end_phase", "cost": 0, "range": 1, "effects": [{"op": "gain_ap", "n": 2, "target": "self"}]},
    "XDUSK": {"window": "end_phase", "cost": 0, "range": 1,
              "effects": [{"op": "mod", "stat": "defense", "n": -1, "target": "own_area_enemy", "dur": "this_round"}]},
}


@pytest.fixture(autouse=True)
def test_cards(monkeypatch):
    for cid, mode in CARDS.items():
        monkeypatch.setitem(CONTENT.cards, cid, {"id": cid, "name": cid.title(), "kind": "hero", "count": 1,
                                                 "modes": [{"type": "reaction", **mode}]})
    monkeypatch.setitem(CONTENT.cards, "XWARD", {
        "id": "XWARD", "name": "Ward", "kind": "hero", "count": 1,
        "modes": [{"type": "special", "cost": 0, "range": 2,
                   "effects": [{"op": "mod", "stat": "defense", "n": 2, "target": "hero", "dur": "this_round"}]}]})


def give_test_card(s, seat, defid):
    cid = defid + "a"
    s["cards"][cid] = defid
    s["owner"][cid] = seat
    s["heroes"][seat]["hand"].append(cid)
    return cid


def _setup(modes, plans=None):
    s, _ = new(len(modes), heroes=["brannoc", "isolde", "tamsin"][:len(modes)], defense_modes=modes,
               plans=plans or [{}] * len(modes))
    clear_enemies(s)
    s["piles"]["enemy"] = []
    return s


def test_window_before_enemy_attack_by_react_line_and_this_attack_mod_expires():
    s = _setup(["auto", "auto"], plans=[{}, {"react": ["XBRACE"]}])
    z = place(s, "C2", 0)  # attack 4
    hand(s, 0, ap=0)
    hand(s, 1, ap=3)
    brace = give_test_card(s, 1, "XBRACE")  # Isolde reacts for Brannoc at range 2
    responses(s, 1, 1)
    s, ev = finish(s)
    (atk,) = of(ev, "enemy_attack")
    assert atk["attack"] == 4 - 2 + 1
    assert [e["window"] for e in of(ev, "play") if e.get("window")] == ["before_enemy_attack"]
    assert brace in s["heroes"][1]["discard"] and m.enemy_stat(s, m.enemy(s, z), "attack") == 4  # expired


@pytest.mark.parametrize("answer", ["react", "pass", "timeout"])
def test_window_before_enemy_attack_asks_a_hero_in_ask_mode(answer):
    s = _setup(["auto", "ask"])
    place(s, "C2", 0)
    hand(s, 0, ap=0)
    hand(s, 1, ap=3)
    brace = give_test_card(s, 1, "XBRACE")
    responses(s, 1, 1)
    s, _ = finish(s)
    assert s["prompt"]["kind"] == "react" and s["prompt"]["window"] == "before_enemy_attack"
    assert G.to_act(s) == [1] and decisions(s, 1) == [{"type": "react", "card": brace}, {"type": "pass"}]
    assert G.view(s, 1)["waiting_on"]["kind"] == "reaction"
    move = G.default_move(s, 1) if answer == "timeout" else {"type": answer, "card": brace} if answer == "react" \
        else {"type": "pass"}
    s, ev = play(s, 1, move)
    (atk,) = of(ev, "enemy_attack")
    assert atk["attack"] == (4 - 2 + 1 if answer == "react" else 4 + 1)  # no REACT line: the timeout passes


def test_window_after_enemy_hit_heals_the_wound_just_taken():
    s = _setup(["auto", "auto"], plans=[{"maxspend": 0, "else": "nothing"}, {"react": ["XBREATH"]}])
    place(s, "C2", 0)
    hand(s, 0, ap=0)
    hand(s, 1, ap=0)
    give_test_card(s, 1, "XBREATH")
    responses(s, 1, 4)
    s, ev = finish(s)
    (atk,) = of(ev, "enemy_attack")
    (took,) = of(ev, "take")
    assert atk["hit"] and took["seat"] == 0
    (healed,) = of(ev, "heal")
    assert healed["seat"] == 0 and healed["card"] == took["card"] and took["card"] in s["piles"]["wound_discard"]


def test_window_after_enemy_hit_not_on_a_miss():
    s = _setup(["auto", "auto"], plans=[{}, {"react": ["XBREATH"]}])
    place(s, "C1", 0)
    hand(s, 0, ap=20)
    hand(s, 1, ap=0)
    breath = give_test_card(s, 1, "XBREATH")
    responses(s, 1, 1)
    s, ev = finish(s)
    assert not of(ev, "enemy_attack")[0]["hit"] and breath in s["heroes"][1]["hand"]


def test_window_end_phase_plays_react_lines_only():
    s = _setup(["ask"], plans=[{"react": ["XVIGIL"]}])
    vigil = give_test_card(s, 0, "XVIGIL")
    s, ev = finish(s)
    end_at = next(i for i, e in enumerate(ev) if e["type"] == "phase" and e["phase"] == "end")
    # no prompt even in ask mode (the end phase is automatic): the REACT line plays it
    assert [e.get("window") for e in ev[end_at:] if e["type"] == "play"] == ["end_phase"]
    assert of(ev[end_at:], "ap")[-1]["delta"] == 2 and vigil in s["heroes"][0]["discard"]
    assert s["phase"] == "hero" and s["round"] == 2 and s["prompt"] is None


def test_op_mod_on_an_ally_lasts_the_round():
    s, _ = new(2, heroes=["osric", "brannoc"], defense_modes=["auto", "auto"])
    clear_enemies(s)
    s["piles"]["enemy"] = []
    (gs,) = hand(s, 0, "FO12", ap=5)
    s, _ = play(s, 0, {"type": "play", "card": gs})
    s, _ = play(s, 0, {"type": "choose", "value": 0})
    ward = give_test_card(s, 1, "XWARD")
    s, _ = play(s, 1, {"type": "play", "card": ward})
    before = s
    s, ev = play(s, 1, {"type": "choose", "value": "ally:" + gs})
    ally = s["heroes"][0]["area"][0]
    assert m.ally_stat(s, ally, "defense") == 5 and of(ev, "stat_mod")
    assert "Defense +2 this round for an ally" in G.describe_event(of(ev, "stat_mod")[0], None, before)
    s, _ = play(s, 1, {"type": "done"})
    s, _ = play(s, 0, {"type": "done"})
    assert m.ally_stat(s, s["heroes"][0]["area"][0], "defense") == 3  # cleared in the end phase


def test_window_end_phase_modifiers_for_this_round_end_with_the_round():
    """An end-phase reaction comes before the round's modifiers end, so its "this round" lasts no longer."""
    s = _setup(["auto"], plans=[{"react": ["XDUSK"]}])
    z = place(s, "C1", 0)
    hand(s, 0, ap=20)
    give_test_card(s, 0, "XDUSK")
    responses(s, 2, 1)  # Acolyte column 2: Attack / Engage
    s, ev = finish(s)
    assert of(ev, "stat_mod") and m.enemy(s, z)["tmp"] == [] and s["round"] == 2


def test_an_ally_dies_when_its_health_bonus_ends():
    s, _ = new(1, heroes=["osric"], defense_modes=["auto"])
    clear_enemies(s)
    s["piles"]["enemy"] = []
    (gs,) = hand(s, 0, "FO12", ap=5)
    s, _ = play(s, 0, {"type": "play", "card": gs})  # Guardian Spirit, health 3
    ally = s["heroes"][0]["area"][0]
    ally["tmp"].append({"stat": "health", "n": 1, "dur": "this_round"})
    for w in ("W01", "W02", "W03"):  # health 3 + 1 - 3 = 1: alive until the bonus ends
        s["piles"]["wound"].remove(w)
        ally["att"].append({"card": w, "mods": None, "until": None})
    s, ev = play(s, 0, {"type": "done"})
    assert [e["why"] for e in of(ev, "persist_gone")] == ["ally_dies"] and s["heroes"][0]["area"] == []


def test_rule_1_19_end_phase_effects_resolve_hero_by_hero_in_tiebreak_order():
    """1.19 / A38 / 3.6: hero-card end-phase effects resolve in the party's TIEBREAK order, each hero's
    before the next hero's: with Isolde first, her end-phase Reaction resolves before Tamsin's hound
    attacks, where the allies of every hero used to go first."""
    s, _ = new(2, heroes=["tamsin", "isolde"], defense_modes=["auto", "auto"], plans=[{}, {"react": ["XVIGIL"]}],
               party={"tiebreak": "first:1"})
    clear_enemies(s)
    s["piles"]["enemy"] = []
    (hound,) = hand(s, 0, "TR11", ap=5)
    s, _ = play(s, 0, {"type": "play", "card": hound})
    e = place(s, "C1", 0)
    hand(s, 1, ap=0)
    give_test_card(s, 1, "XVIGIL")
    responses(s, 1, 4, 1, 1, 1, 1, 1, 1)
    s, _ = play(s, 1, {"type": "done"})
    s, ev = play(s, 0, {"type": "done"})
    end_at = next(i for i, x in enumerate(ev) if x["type"] == "phase" and x["phase"] == "end")
    order = [x["type"] for x in ev[end_at:] if x["type"] in ("ally_attack", "play")]
    assert order == ["play", "ally_attack"], order
    assert of(ev, "ally_attack")[0]["enemy"] == e
