"""Issue #26, the service's remaining words: the `/api/play` POST's `played` labels in the request's
Accept-Language (English without it), a system event's reason and unknown kind in the reader's
language, and `merge_lines` merging Ukrainian and Chinese lines at the message level (docs/i18n.md
"Translated so far, and what remains")."""

from __future__ import annotations

import re

import pytest

from service import store
from service.people import languages
from service.play import new_game
from service.store import get_engine, read_session
from service.store.models import utcnow
from tests.consent import preconsent
from tests.i18n.test_no_english import HEADERS, get, post
from tests.i18n.test_pages_words import player_path
from tests.people.home_helpers import ANN, BO
from tests.turns import drive, not_drafting

CYRILLIC = re.compile(r"[\u0400-\u04ff]")
CJK = re.compile(r"[\u4e00-\u9fff]")
SCRIPT = {"uk": CYRILLIC, "zh_Hant": CJK}


@pytest.fixture
def duel(app):
    """A Riftforce duel past its draft, Ann reading Ukrainian, Bo Traditional Chinese (their settings)."""
    preconsent(ANN[1], BO[1])
    languages.choose(ANN[1], "uk", utcnow())
    languages.choose(BO[1], "zh_Hant", utcnow())
    game_id = new_game("riftforce", [ANN, BO], seed=5, deadline_hours=48)
    drive(game_id, not_drafting)
    return game_id


def _play_first_decision(client, game_id: int, headers: dict[str, str]) -> list[dict]:
    with read_session(get_engine()) as session:
        seat = store.get_game(session, game_id).to_act[0]
    token = player_path(game_id, seat).removeprefix("/p/")
    shown = get(client, f"/api/play/{token}").get_json()
    move = shown["decisions"][0]["move"]
    answer = post(client, f"/api/play/{token}", json={"seq": shown["seq"], "moves": [move]}, headers=headers)
    assert answer.status_code == 200, answer.get_data(as_text=True)
    return answer.get_json()["played"]


@pytest.mark.parametrize("language", ["uk", "zh_Hant"])
def test_the_api_posts_played_labels_are_in_the_requests_language(client, duel, language):
    played = _play_first_decision(client, duel, HEADERS[language])
    assert played and all(SCRIPT[language].search(p["label"]) for p in played), played


def test_the_api_posts_played_labels_stay_english_without_the_header(client, duel):
    """A program sends no Accept-Language: English, even for a person whose setting is another language."""
    played = _play_first_decision(client, duel, {})
    assert played and not any(CYRILLIC.search(p["label"]) or CJK.search(p["label"]) for p in played), played
    assert all(re.search(r"[A-Za-z]", p["label"]) for p in played)
