"""Webhook bodies in their owner's language (issue #26): the turn email's twin says its `text` and the
game's `title` in the webhook owner's setting (English without one), through a real receiver on
loopback; the JSON keys are the same in every language, and so is the signed shape."""

from __future__ import annotations

import re

import pytest

from service.mail import outbox, webhooks
from service.people import channels, languages
from service.play import new_game
from service.store.models import utcnow
from tests.consent import preconsent
from tests.people.test_channels_webhooks import LOOPBACK, receiver, webhook_rows  # noqa: F401 - a fixture

PLAYERS = [("Ann", "ann@example.org"), ("Bo", "bo@example.org")]
SCRIPT = {"uk": re.compile(r"[\u0400-\u04ff]"), "zh_Hant": re.compile(r"[\u4e00-\u9fff]")}
NAMES = {"Ann", "Bo", "Riftforce", "Riftpost", "UTC"}


def english_words(text: str) -> list[str]:
    text = re.sub(r"https?://\S+", " ", text)
    return sorted({w for w in re.findall(r"[A-Za-z][A-Za-z']*", text) if w not in NAMES})


@pytest.fixture
def local(app):
    app.config["WEBHOOK_ALLOW_NETWORKS"] = LOOPBACK
    preconsent(*[email for _, email in PLAYERS])
    return app


def _first_turn_body(receiver, language: str | None, shape: str = "generic"):
    """Bo (who picks first in a Riftforce duel) has a webhook; his language is `language` (None: none
    chosen).  The body his first turn's twin delivers."""
    if language is not None:
        languages.choose("bo@example.org", language, utcnow())
    channels.add_webhook("bo@example.org", receiver.url, shape)
    game_id = new_game("riftforce", PLAYERS, seed=3)
    (twin,) = [row for row in webhook_rows(game_id) if row.kind == "turn"]
    assert outbox.deliver(twin.id) == "sent"
    return receiver.got[-1].json, game_id


@pytest.mark.parametrize("language", ["uk", "zh_Hant"])
def test_a_webhooks_body_is_in_its_owners_language(local, receiver, language):
    body, game_id = _first_turn_body(receiver, language)
    assert set(body) == {"kind", "game", "seat", "text", "due"} and set(body["game"]) == {"id", "title", "url"}
    assert body["kind"] == "turn" and body["seat"] == 1 and body["game"]["id"] == game_id
    assert SCRIPT[language].search(body["text"]) and english_words(body["text"]) == [], body["text"]
    assert english_words(body["game"]["title"]) == [], body["game"]["title"]


@pytest.mark.parametrize("language", ["uk", "zh_Hant"])
def test_a_discord_webhooks_content_is_in_its_owners_language(local, receiver, language):
    body, _ = _first_turn_body(receiver, language, "discord")
    assert set(body) == {"content", "allowed_mentions"}
    assert SCRIPT[language].search(body["content"]) and english_words(body["content"]) == [], body["content"]


def test_a_webhooks_body_stays_english_without_a_setting(local, receiver):
    body, _ = _first_turn_body(receiver, None)
    assert body["text"].startswith("Ann invited you to a game of Riftforce. Your turn."), body["text"]
    assert body["game"]["title"] == "Riftforce"
    assert not any(script.search(body["text"] + body["game"]["title"]) for script in SCRIPT.values())


@pytest.mark.parametrize("language", ["uk", "zh_Hant"])
def test_the_test_message_is_in_the_given_language(language):
    said = webhooks.test_message("http://riftpost.test/settings/channels", language)["text"]
    assert SCRIPT[language].search(said) and english_words(said) == [], said
    assert "http://riftpost.test/settings/channels" in said
    assert webhooks.test_message("http://x.test/s")["text"].startswith("A test from Riftpost: this webhook")
