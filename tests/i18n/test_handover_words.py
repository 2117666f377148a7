"""Issue #26: a seat handover's votes (service/play/handover.py, made below the web as marked `Words`) on the
voters' pages, the vote's flash and its refusal, in the reader's language; the "Give the seat to a bot"
button is left out once the reader voted for a bot, whatever the language (the panel compares the words
it shows, both in the reader's language)."""

from __future__ import annotations

import re

import pytest

from tests.deadlines.test_seat_handover import ANN, BOB, CY, EVE, Table, app, client, vote  # noqa: F401
from tests.i18n.test_no_english import HEADERS, english_words

# The players' names, the invited address as pages show it.
ALLOWED = {"Ann", "Bob", "Cy", "e***@example.org"}
BOT_BUTTON = {"uk": "Віддати місце ботові (звичайний)", "zh_Hant": "把座位交給機器人（普通）"}


def _panel(page: str) -> str:
    return " ".join(re.findall(r'(?s)<section class="notice handover".*?</section>', page))


def _flashes(page: str) -> str:
    return " ".join(re.findall(r'(?s)<p class="notice"[^>]*role="status"[^>]*>.*?</p>', page))


@pytest.mark.parametrize("language", ["uk", "zh_Hant"])
def test_the_votes_their_flash_and_refusal_are_in_the_readers_language(language, app, client):
    headers = HEADERS[language]
    table = Table([ANN, BOB, CY], dropped=1)
    table.until_timeouts(2)
    ann, cy = table.token(0), table.token(2)
    page = client.get(f"/p/{ann}", headers=headers).get_data(as_text=True)
    assert BOT_BUTTON[language] in _panel(page)
    voted = client.post(f"/p/{ann}/handover", headers=headers, data={
        "csrf_token": re.search(r'name="csrf_token" value="([^"]+)"', page).group(1), "seat": "1", "choice": "bot"})
    assert voted.status_code == 303
    page = client.get(f"/p/{ann}", headers=headers).get_data(as_text=True)
    flash, panel = _flashes(page), _panel(page)
    assert flash and english_words(flash, ALLOWED) == [], flash
    assert english_words(panel, ALLOWED) == [], panel
    assert BOT_BUTTON[language] not in panel  # her vote is the bot: no second button for it
    assert vote(client, cy, 1, "person", address=EVE, name="Eve").status_code == 303
    page = client.get(f"/p/{cy}", headers=headers).get_data(as_text=True)
    panel = _panel(page)
    assert "e***@example.org" in panel and english_words(panel, ALLOWED) == [], panel
    # A refusal made below the web (a proposal no longer open), in the reader's language.
    refused = client.post(f"/p/{cy}/handover", headers=headers, data={
        "csrf_token": re.search(r'name="csrf_token" value="([^"]+)"', page).group(1), "seat": "1",
        "choice": "same:9"})
    assert refused.status_code == 422
    problem = re.search(r'(?s)<p class="problem"[^>]*>(.*?)</p>', refused.get_data(as_text=True)).group(1)
    assert english_words(problem, ALLOWED) == [], problem
