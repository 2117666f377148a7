"""Beyond the Rift worded from messages (service/views/wording.py, issue #26): English as the sentences
said it before, a golden history in English, Ukrainian and Traditional Chinese, CLDR plurals, "you" for
the reader's hero, and the catalog check's hold on the game's domain."""

from __future__ import annotations

import engine
from engine.beyond_the_rift import words
from service.views.sentences import event_sentence, move_words, named
from tests.engine.beyond_the_rift.test_btr_messages import playout

GAME = engine.get("beyond-the-rift")
NAMES = {0: "Ana", 1: "Bo", 2: "Cy", 3: "Di"}


def test_english_is_what_the_sentences_said():
    """Every event and a sample of the moves of random games (1-4 heroes, every scenario), for every
    reader, worded from messages, against the engine's old sentences with names put in by `named`."""
    seen = set()
    for seed in range(16):
        state, events, offered = playout(seed)
        names = NAMES if seed % 2 else None
        for before, seat, event in events:
            for viewer in [None, *range(state["n"])]:
                old = named(words.describe_event(GAME.redact_event(event, viewer), viewer, before) or "",
                            names, viewer) or None
                new = event_sentence(GAME, event, "move", seat, viewer, before, names)
                assert old == new, (event, viewer)
                seen.add(event["type"])
        for before, move in offered:
            assert move_words(GAME, move, before) == words.describe_move(move, before), move
    assert len(seen) > 30
