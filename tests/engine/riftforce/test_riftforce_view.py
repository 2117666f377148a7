"""What people see (issue 2, "view" and "text rendering"): views hide hands and deck orders,
spectators see public facts only, events are redacted and told per viewer from the state they
happened in, moves are worded; house rule Q16 for the base draft."""

from __future__ import annotations

import json

import engine
from engine.riftforce.words import RIFT_HEADING

from .scenario import CHECK, GAME, A, D, P, board, do


def mid_game():
    s = board(me=[["fire-5a"], [], ["water-6a"], [], []], foe=[["ice-5a"], [], [], ["plant-7a"], []],
              hand=["fire-6a", "water-5a"], foe_hand=["ice-6a", "ice-7a"], deck=["air-5a", "air-6a"],
              foe_deck=["plant-5a"], discard=["earth-5a", "earth-6a"], damage={"ice-5a": 2},
              score=(3, 4))
    return s


def test_view_has_the_listed_parts_and_only_own_hand():
    """View: own hand, both sides with damage, scores, pile sizes, discard tops, summoners, whose
    turn, last action in words; never the opponent's hand or any deck order."""
    s = mid_game()
    v = GAME.view(s, 0)
    assert [c["id"] for c in v["hand"]] == ["fire-6a", "water-5a"]
    assert v["locations"][0]["sides"][1][0] == {"id": "ice-5a", "guild": "ice", "name": "Ice",
                                                "number": 5, "damage": 2}
    assert v["scores"] == [3, 4] and v["turn"] == 0
    p0, p1 = v["players"]
    assert (p0["hand_count"], p0["deck_count"], p0["discard_count"]) == (2, 2, 2)
    assert p0["discard_top"]["id"] == "earth-6a" and p1["discard_top"] is None
    assert [g["id"] for g in p0["summoners"]] == ["fire", "water", "air", "earth"]
    assert p0["controls"] == [2] and p1["controls"] == [3]
    text = json.dumps(v)
    for hidden in ("ice-6a", "ice-7a", "air-5a", "air-6a", "plant-5a", "earth-5a"):
        assert f'"{hidden}"' not in text
    s, _ = do(s, P("fire-6a", 0))  # water-5a cannot follow: the play ends by itself
    assert GAME.view(s, 1)["last_action"] == "Opponent played Fire 6 at location 1."
    assert GAME.view(s, 0)["last_action"] == "You played Fire 6 at location 1."
    assert GAME.view(s, None)["last_action"] == "Player 1 played Fire 6 at location 1."
    assert "pending" in v and "legal_moves" not in v


def test_spectator_view_is_public_only():
    """View for seat None: no hand at all."""
    v = GAME.view(mid_game(), None)
    assert v["hand"] is None and v["seat"] is None
    text = json.dumps(v)
    for hidden in ("fire-6a", "water-5a", "ice-6a", "ice-7a"):
        assert f'"{hidden}"' not in text


def test_draft_view_hides_the_unseen_removed_summoner():
    """§3: the removed summoner is unseen by everyone, in the view and in redacted events."""
    events = GAME.start(2, {"guilds": "base"}, 9)
    s = engine.replay(GAME, events)
    removed = events[1]["removed"][0]
    for viewer in (0, 1, None):
        v = GAME.view(s, viewer)
        assert v["phase"] == "draft" and len(v["draft"]["offer"]) == 7
        assert removed not in json.dumps(v)
        assert GAME.redact_event(events[1], viewer)["removed"] is None
        assert "GUILD DRAFT" in GAME.render_text(v)


def _names(guild):
    return (f'"{guild}"', guild.capitalize())


def test_q16_base_draft_dealt_summoner_is_known_only_to_its_player_until_the_draft_ends():
    """House rule Q16: in the base draft each player's dealt summoner is known only to that player
    until the draft ends (view, redacted draft event, its sentence, the text board); then every
    summoner in play is public; the removed summoner is never shown."""
    events = GAME.start(2, {"guilds": "base"}, 9)
    setup = engine.replay(GAME, events[:1])
    s = engine.replay(GAME, events)
    dealt, removed = events[1]["dealt"], events[1]["removed"][0]
    for viewer in (0, 1, None):
        v = GAME.view(s, viewer)
        shown = (json.dumps(v) + GAME.render_text(v) + json.dumps(GAME.redact_event(events[1], viewer))
                 + GAME.describe_event(events[1], viewer, setup))
        for seat, guild in enumerate(dealt):
            visible = seat == viewer
            assert v["draft"]["dealt"][seat] == (guild if visible else None)
            assert v["draft"]["picks"][seat] == ([guild] if visible else [])
            assert all((name in shown) == visible for name in _names(guild)), (viewer, guild)
        assert not any(name in shown for name in _names(removed))
    assert GAME.describe_event(events[1], 0, setup).startswith(
        f"Draft: you got {dealt[0].capitalize()}, opponent got a summoner you will see when the "
        "draft ends; on offer: ")
    assert "GUILD DRAFT" in GAME.render_text(GAME.view(s, 1))
    while s["phase"] == "draft":
        s, _ = do(s, GAME.legal_moves(s, s["turn"])[0])
    for viewer in (0, 1, None):
        v = GAME.view(s, viewer)
        assert [p["summoners"][0]["id"] for p in v["players"]] == dealt  # public from now on
        assert removed not in json.dumps(v)


def test_q16_leaves_the_beyond_draft_dealt_summoners_public():
    """Q16 is about the base draft: the Beyond 2-player draft (§9) keeps its dealt summoners public."""
    events = GAME.start(2, {"guilds": "all"}, 9)
    s = engine.replay(GAME, events)
    for viewer in (0, 1, None):
        assert GAME.view(s, viewer)["draft"]["dealt"] == events[1]["dealt"]
        assert GAME.redact_event(events[1], viewer) == events[1]


def test_redact_event_hides_other_draws_and_all_deck_orders():
    """Redaction: the other player's drawn cards and every pile order are removed."""
    draw = {"type": "draw", "seat": 1, "cards": ["ice-5a", "ice-6a"], "count": 2}
    assert GAME.redact_event(draw, 0)["cards"] is None
    assert GAME.redact_event(draw, None)["cards"] is None
    assert GAME.redact_event(draw, 1)["cards"] == ["ice-5a", "ice-6a"]
    assert draw["cards"] == ["ice-5a", "ice-6a"]  # the original is untouched
    deck = {"type": "deck", "seat": 0, "order": ["fire-5a"], "count": 1}
    assert GAME.redact_event(deck, 0)["order"] is None
    shuffle = {"type": "reshuffle", "seat": 0, "order": ["fire-5a"], "count": 1}
    assert GAME.redact_event(shuffle, 0)["order"] is None


def test_describe_event_per_viewer_reveals_nothing_hidden():
    """describe_event: one sentence per event from the viewer's side, worded from the state before
    the event; None for bookkeeping."""
    s = board(me=[["fire-5a", "water-5a"], [], [], [], []], foe=[["ice-5a"], [], [], [], []])
    draw = {"type": "draw", "seat": 1, "cards": ["ice-5a", "ice-6a", "ice-7a"], "count": 3}
    assert GAME.describe_event(draw, 1, s) == "You drew 3 cards: Ice 5, Ice 6 and Ice 7."
    assert GAME.describe_event(GAME.redact_event(draw, 0), 0, s) == "Opponent drew 3 cards."
    assert GAME.describe_event(draw, 0, s) == "Opponent drew 3 cards."
    assert GAME.describe_event({"type": "pending", "pending": None}, 0, s) is None
    hit = {"type": "damage", "card": "ice-5a", "seat": 1, "amount": 3, "by": "fire-5a", "by_seat": 0}
    assert GAME.describe_event(hit, 0, s) == "Your Fire 5 dealt 3 damage to opponent's Ice 5."
    assert GAME.describe_event(hit, 1, s) == "Opponent's Fire 5 dealt 3 damage to your Ice 5."
    own = {"type": "damage", "card": "water-5a", "seat": 0, "amount": 1, "by": "fire-5a", "by_seat": 0}
    assert GAME.describe_event(own, 0, s) == "Your Fire 5 dealt 1 damage to your own Water 5."
    assert GAME.describe_event(own, 1, s) == "Opponent's Fire 5 dealt 1 damage to their own Water 5."
    assert GAME.describe_event({"type": "score", "seat": 0, "points": 2, "total": 5,
                                "reason": "check"}, None, s) == \
        "Player 1 gained 2 Riftforce for controlled locations (now 5)."
    assert GAME.describe_event(GAME.start(2, {}, 1)[0], 0, None) is None  # the setup: no state yet


def test_describe_move_gives_button_words():
    """describe_move: English words for every kind of move."""
    s = mid_game()
    assert GAME.describe_move(P("fire-6a", 2), s) == "Play Fire 6 at location 3"
    assert GAME.describe_move(D("water-5a"), s) == "Activate: discard Water 5"
    assert GAME.describe_move(CHECK, s) == "Check & Draw (score 1, draw 4)"
    s2, _ = do(s, D("fire-6a"))
    assert GAME.describe_move(A("fire-5a"), s2) == "Activate Fire 5 (first at location 1)"
    assert GAME.describe_move({"type": "done"}, s2) == "Activate nothing (the discard alone)"
    w = board(me=[[], [], ["water-5a"], [], []], hand=["water-6a"])
    w, _ = do(w, D("water-6a"), A("water-5a"))
    assert [GAME.describe_move(m, w) for m in GAME.legal_moves(w, 0)] == \
        ["Move Water 5 to location 2", "Move Water 5 to location 4"]
    assert GAME.describe_move({"type": "pick", "guild": "thunderbolt"}) == "Pick Thunderbolt"
    assert GAME.describe_move("junk") == "junk"


def test_render_text_shows_locations_stacks_scores_and_hand():
    """Text rendering: the five locations, one aligned line per stack (front first, with damage),
    scores, whose turn and what is asked, each player's piles, the hand; players named when the
    service gives the names, "You" for the viewer."""
    text = GAME.render_text(GAME.view(mid_game(), 0))
    lines = text.splitlines()
    assert lines[0] == "Riftforce. Score: You 3, Opponent 4 (the end is triggered at 12)."
    assert lines[1] == "Your turn: Play, Activate, or Check & Draw."
    rift = lines[lines.index(RIFT_HEADING) + 1:][:10]
    assert rift == ["  1  Opponent  Ice 5 (2 damage)", "     You       Fire 5",
                    "  2  Opponent  empty", "     You       empty",
                    "  3  Opponent  empty", "     You       Water 6",
                    "  4  Opponent  Plant 7", "     You       empty",
                    "  5  Opponent  empty", "     You       empty"]
    assert "You: 3 Riftforce, control 3; 2 in hand, 2 in the draw pile, 2 discarded (top Earth 6)." in lines
    assert "Your hand (2): Fire 6, Water 5" in lines
    assert "Ice 6" not in text
    spectator = GAME.render_text(GAME.view(mid_game(), None))
    assert "Your hand" not in spectator and "Score: Player 1 3, Player 2 4" in spectator
    named = GAME.render_text(GAME.view(mid_game(), None), {0: "Ann", 1: "Bob"})
    assert "Score: Ann 3, Bob 4" in named and "Ann to play: Play, Activate, or Check & Draw." in named
    assert "  1  Bob  Ice 5 (2 damage)\n     Ann  Fire 5\n" in named
    assert "Bob: 4 Riftforce, controls 4; 2 in hand, 1 in the draw pile, 0 discarded." in named
    assert "Player" not in named and "Opponent" not in named
    mine = GAME.render_text(GAME.view(mid_game(), 1), {0: "Ann", 1: "Bob"})
    assert "Score: You 4, Ann 3" in mine and "Ann to play" in mine and "Bob" not in mine
