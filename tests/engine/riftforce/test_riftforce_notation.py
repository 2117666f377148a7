"""Moves as text (engine/riftforce/notation.py): what each move looks like, and the kinder spellings
read back (any case, no "@", no copy letter when only one card fits, the generic key=value form).
Every legal move's round trip is the shared contract suite's."""

from __future__ import annotations

import pytest

import engine

from .scenario import GAME, board


def text(move, s=None):
    return GAME.move_text(s or board(), 0, move)


def read(words, s=None, seat=0):
    return GAME.parse_move(s or board(), seat, words)


@pytest.mark.parametrize("move,written", [
    ({"type": "pick", "guild": "thunderbolt"}, "pick thunderbolt"),
    ({"type": "give", "guild": "acid"}, "give acid"),
    ({"type": "play", "card": "fire-5a", "loc": 2}, "play fire-5a @3"),
    ({"type": "end_play"}, "end"),
    ({"type": "activate", "card": "ice-6b"}, "discard ice-6b"),
    ({"type": "activate_elemental", "card": "ice-6a"}, "activate ice-6a"),
    ({"type": "done"}, "done"),
    ({"type": "check"}, "check"),
    ({"type": "move_to", "loc": 3}, "move @4"),
    ({"type": "aim", "loc": 1}, "aim @2"),
    ({"type": "place", "loc": 0}, "place @1"),
    ({"type": "push", "loc": 4}, "push @5"),
    ({"type": "target", "card": "fire-7a"}, "target fire-7a"),
    ({"type": "heal", "card": "water-6c"}, "heal water-6c"),
    ({"type": "bot", "card": "ice-5a"}, "bot ice-5a"),
])
def test_every_kind_of_move_has_a_short_text_that_reads_back(move, written):
    assert text(move) == written
    assert read(written) == move


def test_kinder_spellings_are_read():
    """Any case, "@" left out, the move type's own name, a card without its copy letter when only
    one card of that guild and number can be chosen, and kit's key=value form."""
    s = board(hand=["fire-5b", "fire-5c", "water-6a"])
    assert read("PLAY Fire 5 @3", s) == {"type": "play", "card": "fire-5b", "loc": 2}
    assert read("play fire-5 3", s) == {"type": "play", "card": "fire-5b", "loc": 2}
    assert read("discard water6", s) == {"type": "activate", "card": "water-6a"}
    assert read("end_play") == {"type": "end_play"} and read("move_to 2") == {"type": "move_to", "loc": 1}
    assert read("play card=fire-5a loc=2") == {"type": "play", "card": "fire-5a", "loc": 2}


def test_a_card_without_its_copy_letter_must_name_one_card():
    """Two Fire 5s on the board that may both be activated: "activate fire 5" is ambiguous."""
    s = board(me=[["fire-5a"], ["fire-5b"], [], [], []], hand=["fire-6a"])
    s = GAME.apply(s, {"type": "pending", "pending": {
        "kind": "activate", "seat": 0, "discarded": "fire-6c", "activated": [],
        "by": ["number", "symbol"], "ask": None}})
    with pytest.raises(engine.IllegalMove) as caught:
        read("activate fire 5", s)
    assert caught.value.code == "unreadable" and "fire-5a or fire-5b" in caught.value.reason
    assert read("activate fire-5b", s) == {"type": "activate_elemental", "card": "fire-5b"}


@pytest.mark.parametrize("junk", ["", "fly @2", "play fire-5a", "play @3", "move", "move @0",
                                  "pick dragon", "check now", "target", "heal nobody-5a",
                                  "play fire-9a @2"])
def test_junk_is_unreadable(junk):
    with pytest.raises(engine.IllegalMove) as caught:
        read(junk)
    assert caught.value.code == "unreadable"
