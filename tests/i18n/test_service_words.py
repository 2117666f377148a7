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


# ---- a system event's words ----------------------------------------------------------------------------


@pytest.mark.parametrize("language", ["uk", "zh_Hant"])
def test_a_system_events_reason_and_an_unknown_kind_are_in_the_readers_language(language):
    from service.views.sentences import system_sentence

    for payload in (
        {"type": "cancelled", "reason": "no_players"},
        {"type": "abandoned", "reason": "no players"},
        {"type": "some_new_kind"},
        {"type": "cancelled", "reason": "a_code_not_known"},
    ):
        line = system_sentence(payload, None, 0, {0: "Ann"}, language)
        assert SCRIPT[language].search(line) and not re.search(r"[A-Za-z]", line), (payload, line)


def test_a_system_events_words_stay_english_in_english():
    from service.views.sentences import system_sentence

    assert (
        system_sentence({"type": "cancelled", "reason": "no_players"}, None, 0)
        == "The game was cancelled (no players)."
    )
    assert (
        system_sentence({"type": "cancelled", "reason": "lost_cards"}, None, 0)
        == "The game was cancelled (lost cards)."
    )
    assert system_sentence({"type": "some_new_kind"}, None, 0) == "Some new kind."


# ---- merge_lines in every language ---------------------------------------------------------------------

CARD_NAMES = {"uk": re.compile(r"«[^»]+»"), "zh_Hant": re.compile(r"「[^」]+」")}
JOINER = {"uk": " і ", "zh_Hant": "和"}


def _since(message) -> list[str]:
    return [line[2:] for line in message.get_body(("plain",)).get_content().splitlines() if line.startswith("- ")]


@pytest.mark.parametrize("language", ["uk", "zh_Hant"])
def test_a_turn_of_three_plays_is_one_merged_line_in_the_readers_language(duel, language):
    """Three cards played at one location are one line ("Ann викладає «Рослина 5», «Рослина 5» і «Рослина 6» на
    території 1."), merged at the message level as English merges its words."""
    from service.mail import compose
    from service.play import handle
    from service.store.models import Outbox
    from tests.service.helpers import current, outbox_rows
    from tests.turns import three_card_play

    game, state = current(duel)
    seat = game.to_act[0]
    moves = three_card_play(state, seat, game.secret, game.seq)
    assert len(moves) == 3
    handle(duel, seat, moves, game.seq)
    with read_session(get_engine()) as session:
        other = next(p for p in store.players_of(session, duel) if p.seat != seat)
        row = [r for r in outbox_rows(duel) if r.player_id == other.id and r.kind == "turn"][-1]
        english = _since(compose.build(session, session.get(Outbox, row.id), locale="en"))
        said = _since(compose.build(session, session.get(Outbox, row.id), locale=language))
    plays = [line for line in said if len(CARD_NAMES[language].findall(line)) == 3]
    assert len(plays) == 1 and JOINER[language] in plays[0], said
    assert len(said) == len(english), (said, english)
    merged_english = [line for line in english if " played " in line]
    assert len(merged_english) == 1 and " and " in merged_english[0], english  # English as before


def _wording(language: str):
    from service.views.wording import Wording

    return Wording("riftforce", language, 0, {0: "Ann", 1: "Bo"})


@pytest.mark.parametrize(
    ("language", "times"),
    [("uk", {2: "2 рази", 5: "5 разів", 21: "21 раз"}), ("zh_Hant", {2: "2 次", 5: "5 次", 21: "21 次"})],
)
def test_one_message_said_again_and_again_is_counted_in_the_readers_plural(language, times):
    from engine.messages import Card, Seat, msg
    from service.views.sentences import Worded, merge_lines

    line = msg("event.discard", actor=Seat(1), card=Card("fire-5a"))
    for count, words in times.items():
        merged = merge_lines([Worded(_wording(language), line) for _ in range(count)], language)
        assert len(merged) == 1 and words in merged[0], merged
        assert merged[0].startswith(str(Worded(_wording(language), line)).rstrip(".\u3002"))


@pytest.mark.parametrize("language", ["uk", "zh_Hant"])
def test_lines_of_other_players_or_counts_are_not_merged(language):
    from engine.messages import Card, Count, Seat, msg
    from service.views.sentences import Worded, merge_lines

    wording = _wording(language)
    others = [
        Worded(wording, msg("event.discard", actor=Seat(1), card=Card("fire-5a"))),
        Worded(wording, msg("event.discard", actor=Seat(0), card=Card("fire-6a"))),
    ]
    assert merge_lines(others, language) == others
    counts = [
        Worded(wording, msg("event.draw", actor=Seat(1), count=Count(2))),
        Worded(wording, msg("event.draw", actor=Seat(1), count=Count(3))),
    ]
    assert merge_lines(counts, language) == counts
    assert merge_lines(["a.", "a."], language) == ["a.", "a."]  # words without their message: as they are
