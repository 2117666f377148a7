"""Beyond the Rift worded from messages (service/views/wording.py, issue #26): English as the sentences
said it before, a golden history in English, Ukrainian and Traditional Chinese, CLDR plurals, "you" for
the reader's hero, and the catalog check's hold on the game's domain."""

from __future__ import annotations

import os
import re
import shutil
import sys
from pathlib import Path

import pytest
from babel.messages.pofile import read_po, write_po

import engine
from engine.beyond_the_rift import messages as GAME_MESSAGES
from engine.beyond_the_rift import words
from engine.messages import Count, Seat, Term, msg
from service.games.beyond_the_rift_catalog import CATALOG
from service.views.sentences import event_sentence, move_words, named
from service.views.wording import Wording
from tests.engine.beyond_the_rift.test_btr_messages import playout

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
import check_catalogs

GAME = engine.get("beyond-the-rift")
GOLDEN = Path(__file__).parent / "golden"
NAMES = {0: "Ana", 1: "Bo", 2: "Cy", 3: "Di"}


def test_english_is_what_the_sentences_said_but_an_ally_is_named():
    """Every event and a sample of the moves of random games (1-4 heroes, every scenario), for every
    reader, worded from messages, against the engine's old sentences with names put in by `named`."""
    seen, changed = set(), set()
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
            old = words.describe_move(move, before)
            new = move_words(GAME, move, before)
            if "ally:" in old:  # an ally was its id ("Choose ally:TR11a"), it is its card now
                old = re.sub(r"ally:(\w+)", lambda found: f"the ally {CATALOG.card_names[found.group(1)[:-1]]}", old)
                changed.add(old)
            assert new == old, move
    assert len(seen) > 30


def _history(language: str, viewer: int = 0) -> list[str]:
    """A seeded game of two heroes (the tutorial), as seat 0 reads it."""
    _, events, _ = playout(5, steps=60, heroes=2, scenario="tutorial")
    names = {0: "Ana", 1: "Bo"}
    return [text for before, seat, event in events
            if (text := event_sentence(GAME, event, "move", seat, viewer, before, names, language))]


@pytest.mark.parametrize("language", ["en", "uk", "zh_Hant"])
def test_a_golden_history_in_each_language(language):
    got = "\n".join(_history(language)) + "\n"
    path = GOLDEN / f"beyond_the_rift_{language}.txt"
    if os.environ.get("RIFTPOST_REGOLD"):
        path.parent.mkdir(exist_ok=True)
        path.write_text(got)
    assert got == path.read_text()


@pytest.mark.parametrize("language", ["uk", "zh_Hant"])
def test_no_english_words_outside_names(language):
    """Every event of games of each scenario and 1-4 heroes, and the moves offered, for every reader."""
    lines = []
    for seed in range(4):
        state, events, offered = playout(seed, steps=400)
        lines += [text for before, seat, event in events for viewer in [None, *range(state["n"])]
                  if (text := event_sentence(GAME, event, "move", seat, viewer, before, NAMES, language))]
        lines += [move_words(GAME, move, before, NAMES, 0, language) for before, move in offered]
    assert len(lines) > 1000
    for line in lines:
        rest = re.sub(r"\b(Ana|Bo|Cy|Di)\b", "", line)
        assert not re.search(r"[A-Za-z]{2,}", rest), line


@pytest.mark.parametrize(("n", "cards", "heroes", "limit"), [
    (1, "1 карту", "1 героєм", "1 карта"), (2, "2 карти", "2 героями", "2 карти"),
    (5, "5 карт", "5 героями", "5 карт"), (21, "21 карту", "21 героєм", "21 карта")])
def test_ukrainian_plurals_for_1_2_5_21(n, cards, heroes, limit):
    """CLDR's three Ukrainian forms (one: 1, 21; few: 2; many: 5) for the engine's counted messages."""
    uk = Wording("beyond-the-rift", "uk", reader=None)
    hero = Term("hero", "brannoc/standard")
    assert uk(msg("event.draw", actor=Seat(0), who=hero, count=Count(n))) == f"Браннок Вей бере {cards}."
    assert uk(msg("event.setup", count=Count(n))) == f"Починається новий сценарій з {heroes}."
    assert uk(msg("value.cards", count=Count(n))) == limit
    english = Wording("beyond-the-rift", "en")
    assert [english(msg("event.setup", count=Count(k))) for k in (1, 2)] == [
        "A new scenario begins with 1 hero.", "A new scenario begins with 2 heroes."]


@pytest.mark.parametrize(("language", "own", "other"), [
    ("en", "You play Firebolt.", "Isolde Marr plays Firebolt."),
    ("uk", "Ви розігруєте «Вогняна стріла».", "Ізольда Марр розігрує «Вогняна стріла»."),
    ("zh_Hant", "你打出《火焰箭》。", "伊索德·瑪爾 打出《火焰箭》。"),
])
def test_a_hero_is_you_for_its_own_reader_and_its_name_for_the_others(language, own, other):
    state = engine.replay(GAME, GAME.start(2, {"scenario": "tutorial", "heroes": ["isolde", "brannoc"]}, 1))
    firebolt = next(cid for cid, did in state["cards"].items() if CATALOG.card_names[did] == "Firebolt")
    play = {"type": "play", "seat": 0, "card": firebolt}
    assert event_sentence(GAME, play, "move", 0, 0, state, NAMES, language) == own
    assert event_sentence(GAME, play, "move", 0, 1, state, NAMES, language) == other
    assert event_sentence(GAME, play, "move", 0, None, state, NAMES, language) == other


def test_a_hidden_draw_is_a_count_for_the_others_in_every_language():
    state = engine.replay(GAME, GAME.start(2, {"scenario": "tutorial", "heroes": ["isolde", "brannoc"]}, 1))
    draw = {"type": "draw", "seat": 1, "cards": state["heroes"][1]["hand"][:2]}
    names = [CATALOG.card_names[GAME_MESSAGES.card(c).id] for c in draw["cards"]]
    assert event_sentence(GAME, draw, "move", 1, 1, state, NAMES) == f"You draw {', '.join(names)}."
    for language, said in (("en", "Brannoc Vey draws 2 cards."), ("uk", "Браннок Вей бере 2 карти."),
                           ("zh_Hant", "布蘭諾克·維 抽 2 張卡。")):
        assert event_sentence(GAME, draw, "move", 1, 0, state, NAMES, language) == said


def test_the_check_fails_on_a_missing_translation_and_on_a_key_without_english(tmp_path, monkeypatch):
    shutil.copytree(check_catalogs.CATALOGS, tmp_path, dirs_exist_ok=True)
    monkeypatch.setattr(check_catalogs, "CATALOGS", tmp_path)
    path = tmp_path / "zh_Hant" / "LC_MESSAGES" / "beyond_the_rift.po"
    with open(path, "rb") as po:
        catalog = read_po(po, locale="zh_Hant")
    catalog.delete("{who} plays {card}.", context="event.play")
    catalog.delete("Firebolt", context="card")
    with open(path, "wb") as po:
        write_po(po, catalog)
    _, found = check_catalogs.game_problems()
    assert sorted(found) == [
        "zh_Hant: missing 'beyond_the_rift card: Firebolt' (make i18n-update, then translate it)",
        "zh_Hant: missing 'beyond_the_rift event.play: {who} plays {card}.' (make i18n-update, then translate it)"]
    assert check_catalogs.key_problems(GAME.message_keys | {"event.new"}, CATALOG) == [
        "beyond_the_rift: the engine's message 'event.new' has no English (service/games/*_catalog.py)"]
