"""Views, redaction and words (issue 6 `view`, DESIGN.md hidden information, H7) and whole-turn orders (H9)."""

import json
import random

import pytest

import engine
from engine.riftwalker import words
from engine.riftwalker.cards import CARDS

from ._helpers import FIRE_LINE, NO_LINE, G, arrange, do, new_state, words_of


def test_view_shows_public_things_to_all_and_a_hand_only_to_its_owner_H7():
    s = arrange(new_state(3), grid=FIRE_LINE, hands={1: ["FI-02", "WA-01", "SP-04"]},
                explored={0: [("LI-05", 1, [("ST-03", "down", 0)])]}, scored={2: [("WA-02", 2)]})
    for seat in (None, 0, 1, 2):
        v = G.view(s, seat)
        json.dumps(v)
        assert len(v["grid"]) == 9 and v["grid"][0]["up"] == "Fire" and v["grid"][0]["down"] == "Wind"
        assert v["lines"] == [{"element": "Fire", "slots": [0, 1, 2]}]
        assert v["element_deck"]["size"] == 6 and len(v["element_deck"]["top"]["faces"]) == 2
        assert v["rift_deck"]["size"] == len(s["rdeck"])
        assert [x.get("hand") is not None for x in v["seats"]] == [seat == i for i in range(3)]
        assert v["seats"][2]["score_pile"][0]["value"] == 7 and v["seats"][0]["explored"][0]["rot"] == 1
        hidden = v["seats"][0]["explored"][0]["beneath"][0]
        assert (hidden["id"] == "ST-03") == (seat == 0)  # H7: placer / host owner only
        text = G.render_text(v)
        assert "*1 Fire  [Wind]" in text and "Lines of three: Fire (slots 1, 2, 3)." in text and "Heartwood Circle" in text
        assert ("Shadowlands" in text) == (seat == 1)
        assert ("Lightning Forge" in text) == (seat == 0)
        assert "rdeck" not in json.dumps(v)
        for c in s["rdeck"]:
            assert c not in json.dumps(v)  # no deck order, no hidden id


def test_spectator_and_other_players_never_see_hidden_cards_in_events_H7():
    rng = random.Random(9)
    s = new_state(3, seed=9)
    log = G.start(3, {}, 9)
    for _ in range(600):
        if G.result(s):
            break
        seat = G.to_act(s)[0]
        new = G.play(s, seat, rng.choice(G.legal_moves(s, seat)), rng)
        log += new
        for e in new:
            s = G.apply(s, e)
    state = None
    for e in log:
        for viewer in (None, 0, 1, 2):
            r = G.redact_event(e, viewer)
            text = G.describe_event(e, viewer, state) or ""
            if e["type"] == "setup":
                assert r["rdeck"] is None and len(r["edeck"]) == 1
            if e["type"] in ("deal", "draw", "look") and viewer != e["seat"]:
                assert r["cards"] is None
                assert not any(CARDS.rifts[c].name in text for c in e["cards"]
                               if CARDS.rifts[c].name not in ("Venture",))
            if e["type"] == "discard" and e["zone"] == "hand" and viewer != e["owner"]:
                assert r["card"] is None and CARDS.rifts[e["card"]].name not in text
            if e["type"] == "tuck" and e["face"] == "down" and e["src"] != "explored" \
                    and viewer not in (e["seat"], e["host_owner"]):
                assert r["card"] is None
        state = G.apply(state, e)


def test_describe_event_gives_sentences_and_none_for_bookkeeping_decision_4():
    events = G.start(2, {}, 1)
    texts = words_of(None, events, 0)
    assert texts[0].startswith("A 2-player game") and texts[-1] is None  # the control event
    assert "You are dealt" in texts[1] or "You are dealt" in texts[2]


def test_the_view_says_what_is_pending_as_data_and_words_make_the_sentence():
    s = arrange(new_state(3), grid=NO_LINE)
    v = G.view(s, None)
    assert v["pending"] is None and words.pending_text(v) == "Player 1: Element step"
    s = arrange(new_state(3), step="rift", element="Water", grid=NO_LINE,
                hands={0: ["WA-07", "LI-08", "EA-08"], 1: ["FI-02", "FI-03"], 2: ["ST-01", "ST-02"]})
    s = do(s, {"type": "explore", "card": "WA-07"})
    v = G.view(s, 2)
    assert v["pending"] == {"seat": 0, "rift": None, "op": "_offer", "rules": "activate Flooded Causeway",
                            "step_message": {"key": "step.offer", "args": {"card": {"card": "WA-07"}}}}
    s = do(s, {"type": "activate", "rift": "WA-07"}, {"type": "do"})
    v = G.view(s, 2)
    assert v["pending"]["seat"] == 1 and v["pending"]["rift"] == "WA-07" and v["pending"]["op"] == "discard"
    assert words.pending_text(v) == "Flooded Causeway: Player 2 chooses a card to discard"
    text = " ".join(line.strip() for line in G.render_text(v).splitlines())  # long lines wrap
    assert "Now: Flooded Causeway: Player 2 chooses a card to discard (waiting for Player 2)." in text


def test_a_whole_turn_as_one_order_with_a_condition_H9():
    s = arrange(new_state(), grid=FIRE_LINE, hands={0: ["WA-01", "WA-02", "WA-03"]},
                explored={0: [("FI-02", 1)]})
    order = {"type": "order", "steps": [
        {"type": "flip", "slot": 8},  # Storm up: use Storm
        {"if": {"line": "Fire"}, "then": [{"type": "burst", "rift": "FI-02", "via": "line"}],
         "else": [{"type": "skip"}]},
        {"type": "discard", "card": "WA-01"},
        {"type": "done"},
    ]}
    events = G.play(s, 0, order, None)
    for e in events:
        s = G.apply(s, e)
    assert [r["id"] for r in s["scored"][0]] == ["FI-02"] and s["turn"]["seat"] == 1
    assert s["rdeck"][-1] == "WA-01"


def test_an_order_stops_at_its_first_illegal_step_and_the_rest_is_asked_step_by_step_H9():
    s = arrange(new_state(), grid=NO_LINE, hands={0: ["WA-01", "WA-02", "WA-03"]}, explored={0: [("FI-02", 1)]})
    order = {"type": "order", "steps": [
        {"type": "flip", "slot": 8},
        {"type": "burst", "rift": "FI-02", "via": "line"},  # no line: illegal, so the order stops
        {"type": "done"},
    ]}
    events = G.play(s, 0, order, None)
    for e in events:
        s = G.apply(s, e)
    assert s["turn"]["seat"] == 0 and s["turn"]["step"] == "refresh"
    with pytest.raises(engine.IllegalMove):
        G.play(s, 0, {"type": "order", "steps": [{"type": "flip", "slot": 0}]}, None)
    with pytest.raises(engine.IllegalMove):
        G.play(s, 0, {"type": "order", "steps": "nope"}, None)


JUNK = [None, 3, "flip", [], {}, {"type": "flip"}, {"type": "flip", "slot": 9}, {"type": "flip", "slot": -1},
        {"type": "flip", "slot": "0"}, {"type": "flip", "slot": True}, {"type": "flip", "slot": 0.0},
        {"type": "flip", "slot": 0, "extra": 1}, {"type": "skip"}, {"type": "done"}, {"type": "nope"},
        {"type": "explore", "card": "FI-02"}, {"type": "order"}, {"type": "order", "steps": [None]},
        {"type": "place", "element": "Aether"}]


@pytest.mark.parametrize("move", JUNK, ids=[json.dumps(m) for m in JUNK])
def test_junk_moves_are_rejected_with_illegal_move_decision_1(move):
    s = arrange(new_state(), grid=NO_LINE, hands={0: ["FI-02", "WA-02", "EA-02"]})
    before = json.dumps(s, sort_keys=True)
    with pytest.raises(engine.IllegalMove):
        G.play(s, 0, move, None)
    with pytest.raises(engine.IllegalMove):
        G.play(s, 1, {"type": "flip", "slot": 0}, None)  # not seat 1's decision
    assert json.dumps(s, sort_keys=True) == before


def test_start_rejects_bad_player_counts_and_options_3():
    for players in (1, 5, 0, "2"):
        with pytest.raises(engine.IllegalMove) as err:
            G.start(players, {}, 1)
        assert err.value.code == "bad_options"
    with pytest.raises(engine.IllegalMove):
        G.start(2, {"variant": "x"}, 1)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_3(players):
    events = G.start(players, {}, 123)
    assert events == G.start(players, {}, 123)  # the seed decides everything
    s = engine.replay(G, events)
    assert len(s["grid"]) == 9 and len(s["edeck"]) == 6
    assert all(len(h) == 3 for h in s["hands"]) and len(s["rdeck"]) == 52 - 3 * players
    assert s["turn"]["seat"] == s["first"] and G.to_act(s) == [s["first"]]


def test_first_player_random_and_clockwise_H2():
    firsts = {engine.replay(G, G.start(4, {}, seed))["first"] for seed in range(40)}
    assert firsts == {0, 1, 2, 3}
    faces = {tuple(x[1] for x in engine.replay(G, G.start(2, {}, seed))["grid"]) for seed in range(5)}
    assert len(faces) > 1  # §3 PROPOSAL: random faces
    s = arrange(new_state(3), seat=2, step="refresh", element="Fire", grid=NO_LINE,
                hands={2: ["FI-02", "WA-01", "WA-02"]})
    s = do(s, {"type": "done"})
    assert s["turn"]["seat"] == 0  # seat order wraps around
