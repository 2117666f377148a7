"""Riftwalker worded from messages (service/views/wording.py, issue #26): English as the sentences said it
before, a golden history in English, Ukrainian and Traditional Chinese, CLDR plurals, reader-relative
seats, and the catalog check's hold on the game's domain."""

from __future__ import annotations

import os
import re
import shutil
import sys
from pathlib import Path

import pytest
from babel.messages.pofile import read_po, write_po

import engine
from engine.messages import Count, Seat, msg
from engine.riftwalker import words
from service.views.sentences import event_sentence, move_words, named, played_words
from service.views.wording import Wording
from tests.engine.riftwalker.test_riftwalker_messages import playout

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
import check_catalogs

GAME = engine.get("riftwalker")
GOLDEN = Path(__file__).parent / "golden"
NAMES = {0: "Ana", 1: "Bo", 2: "Cy"}


def test_english_is_what_the_sentences_said_except_the_readers_own_turn_and_a_plural():
    """Every event and move of random games, for every reader, worded from messages, against the engine's
    old sentences with names put in by regular expressions (words.py is kept for the text board)."""
    changed = set()
    for seed in range(8):
        state, events, offered = playout(seed)
        names = NAMES if seed % 2 else None
        for before, seat, event in events:
            for viewer in [None, *range(state["players"])]:
                old = named(words.describe_event(event, viewer, before) or "", names, viewer) or None
                new = event_sentence(GAME, event, "move", seat, viewer, before, names)
                if old != new:
                    changed.add(event["type"])
                    if event["type"] == "turn":  # the reader's own turn: "Turn 4: your turn."
                        assert event["seat"] == viewer and new.endswith(("your turn.", "you take a last turn.")), new
                    else:  # "1 more rift(s)" has a plural now
                        assert event["type"] == "grant" and old.replace("rift(s)", "rift" if event["extra"] == 1
                                                                        else "rifts") == new, (old, new)
        for before, move in offered:
            assert move_words(GAME, move, before) == words.describe_move(move, before)
    assert "turn" in changed


def _history(language: str, viewer: int = 0) -> list[str]:
    _, events, _ = playout(4, steps=80)
    names = {0: "Ana", 1: "Bo"}
    return [text for before, seat, event in events
            if (text := event_sentence(GAME, event, "move", seat, viewer, before, names, language))]


@pytest.mark.parametrize("language", ["en", "uk", "zh_Hant"])
def test_a_golden_history_in_each_language(language):
    got = "\n".join(_history(language)) + "\n"
    path = GOLDEN / f"riftwalker_{language}.txt"
    if os.environ.get("RIFTPOST_REGOLD"):
        path.parent.mkdir(exist_ok=True)
        path.write_text(got)
    assert got == path.read_text()


@pytest.mark.parametrize("language", ["uk", "zh_Hant"])
def test_no_english_words_outside_names(language):
    lines = _history(language)
    _, _, offered = playout(4, steps=80)
    lines += [move_words(GAME, move, state, {0: "Ana", 1: "Bo"}, 0, language) for state, move in offered]
    for line in lines:
        rest = re.sub(r"\b(Ana|Bo|Riftwalker)\b", "", line)
        assert not re.search(r"[A-Za-z]{2,}", rest), line


def test_ukrainian_plurals_for_1_2_5_21_cards():
    wording = Wording("riftwalker", "uk", reader=None, names={0: "Ана"})
    said = {n: wording(msg("event.draw", actor=Seat(0), count=Count(n))) for n in (1, 2, 5, 21)}
    assert said == {1: "Ана бере 1 карту.", 2: "Ана бере 2 карти.", 5: "Ана бере 5 карт.", 21: "Ана бере 21 карту."}
    english = Wording("riftwalker", "en", names={0: "Ana"})
    assert [english(msg("event.draw", actor=Seat(0), count=Count(n))) for n in (1, 2)] == \
        ["Ana draws 1 card.", "Ana draws 2 cards."]


@pytest.mark.parametrize(("language", "own", "other"), [
    ("en", "Turn 3: your turn.", "Turn 3: Ana's turn."),
    ("uk", "Хід 3: ваш хід.", "Хід 3: ходить Ana."),
    ("zh_Hant", "第 3 回合：輪到你。", "第 3 回合：輪到 Ana。"),
])
def test_a_seat_is_you_for_its_own_reader_and_a_name_for_the_others(language, own, other):
    turn = {"type": "turn", "seat": 0, "number": 3}
    assert event_sentence(GAME, turn, "move", 0, 0, None, NAMES, language) == own
    assert event_sentence(GAME, turn, "move", 0, 1, None, NAMES, language) == other
    assert event_sentence(GAME, turn, "move", 0, None, None, NAMES, language) == other
    assert event_sentence(GAME, turn, "move", 0, None, None, None, "en") == "Turn 3: Player 1's turn."


def test_a_partner_is_named_and_your_partner_only_without_a_name():
    """Issue #22 item 9: players read their partner's name; "your partner" only where no name is known."""
    explore = msg("event.explore", actor=Seat(0), card=engine.messages.Card("FI-01"))
    assert Wording("riftwalker", "en", reader=1, names=NAMES, partners={0})(explore) == \
        f"{NAMES[0]} explores Burn Memory."
    assert Wording("riftwalker", "en", reader=1, names=None, partners={0})(explore) == "Your partner explores Burn Memory."


def test_a_stored_move_is_worded_for_its_reader_and_an_old_rows_words_stay():
    stored = {"message": msg("move.target", seat=Seat(1)).to_json()}
    assert played_words(stored, "riftwalker", NAMES, 0, "uk") == "Вибрати: Bo"
    assert played_words("Choose Player 2", "riftwalker", NAMES, 0, "uk") == "Choose Player 2"


def test_the_check_fails_on_a_missing_translation_and_on_a_key_without_english(tmp_path, monkeypatch):
    shutil.copytree(check_catalogs.CATALOGS, tmp_path, dirs_exist_ok=True)
    monkeypatch.setattr(check_catalogs, "CATALOGS", tmp_path)
    path = tmp_path / "uk" / "LC_MESSAGES" / "riftwalker.po"
    with open(path, "rb") as po:
        catalog = read_po(po, locale="uk")
    catalog.delete("{actor} explores {card}.", context="event.explore")
    with open(path, "wb") as po:
        write_po(po, catalog)
    _, found = check_catalogs.game_problems()
    assert found == ["uk: missing 'riftwalker event.explore: {actor} explores {card}.' (make i18n-update, then translate it)"]
    from service.games import adapter

    catalog_en = adapter("riftwalker").catalog
    assert check_catalogs.key_problems(GAME.message_keys | {"event.new"}, catalog_en) == [
        "riftwalker: the engine's message 'event.new' has no English (service/games/*_catalog.py)"]
