"""The adapters' start words below the web (issue #26): a mode's player count, its title and an
inviter's rated modes are message ids, worded in the reader's language where they are said; their
English stays as it was."""

from __future__ import annotations

import pytest

from service import lang
from service.games import adapter, every
from service.games.base import count_words
from service.views.profile import Profile

SAID = {
    "en": ("2 players", "3 or 4 players", "1 to 4 players", "1 player", "Team play", "1500 in Riftforce duel"),
    "uk": ("2 гравці", "3 або 4 гравці", "від 1 до 4 гравців", "1 гравець", "Командна гра", "1500 у Riftforce, дуель"),
    "zh_Hant": ("2 位玩家", "3 或 4 位玩家", "1 到 4 位玩家", "1 位玩家", "團隊", "Riftforce 對決"),
}


@pytest.mark.parametrize("language", ["en", "uk", "zh_Hant"])
def test_counts_modes_and_rated_modes_in_each_language(language):
    two, three_four, up_to_four, one, team, rated = SAID[language]
    assert lang.in_language(count_words((2,)), language) == two
    assert lang.in_language(count_words((3, 4)), language) == three_four
    assert lang.in_language(count_words((1, 2, 3, 4)), language) == up_to_four
    assert lang.in_language(count_words((1,)), language) == one
    assert lang.in_language(adapter("riftforce").mode("team").title, language) == team
    duel = adapter("riftforce").mode("duel")
    profile = Profile(
        per_game=[("Riftforce", 3)],
        played=3,
        finished=3,
        recent=3,
        timeouts=0,
        median_move=None,
        ratings=((lang.Words(duel.rated), 1500, 3),),
    )
    assert rated in profile.line("Ann", language)


def test_the_english_is_as_before():
    """What the adapters said before their words became message ids (the command line, logs, JSON)."""
    assert [str(count_words(p)) for p in ((1,), (2,), (3, 4), (2, 3, 4))] == [
        "1 player",
        "2 players",
        "3 or 4 players",
        "2 to 4 players",
    ]
    duel = adapter("riftforce").mode("duel")
    assert Profile([], 1, 1, 1, 0, None, ((lang.Words(duel.rated), 1500, 3),)).public()["ratings"] == [
        {"game": "Riftforce duel", "rating": 1500, "games": 3}
    ]
    for found in every():  # every summary and mode has its translation in both languages
        for language in ("uk", "zh_Hant"):
            texts = [t for t in (found.summary, *(m.summary for m in found.modes())) if t]
            texts += [m.title for m in found.modes()] if len(found.modes()) > 1 else []
            for text in texts:
                assert lang.in_language(text, language) != text, (found.name, language, text)


@pytest.mark.parametrize(
    ("language", "games", "ratings"),
    [
        ("en", "Riftforce 3, Riftwalker 2", "1500 in Riftforce duel, 1480 in Riftforce team play"),
        ("uk", "Riftforce 3 і Riftwalker 2", " і "),
        ("zh_Hant", "Riftforce 3和Riftwalker 2", "和"),
    ],
)
def test_a_profiles_lists_are_joined_by_the_languages_pattern(language, games, ratings):
    """An inviter's games and ratings: English as before, the others by CLDR's list (no ASCII ", " in Chinese)."""
    rf = adapter("riftforce")
    profile = Profile(
        per_game=[("Riftforce", 3), ("Riftwalker", 2)],
        played=5,
        finished=5,
        recent=5,
        timeouts=0,
        median_move=None,
        ratings=((lang.Words(rf.mode("duel").rated), 1500, 3), (lang.Words(rf.mode("team").rated), 1480, 2)),
    )
    line = profile.line("Ann", language)
    assert games in line and ratings in line.split(games)[-1]
    if language == "zh_Hant":
        assert ", " not in line
