"""Issue #26: one word for Riftforce's trainer in each language, the game catalog's ("訓練師", "тренер"), in
the messages domain (the pages' and emails' chrome) as in the riftforce domain (the board and the game's
words): every message that names the trainer says it with that word."""

from __future__ import annotations

import re

import pytest
from babel.messages.pofile import read_po

from service import lang

TRAINER = {"uk": "тренер", "zh_Hant": "訓練師"}


def said(language: str, domain: str) -> list[tuple[str, str]]:
    """(msgid, each translation) of the domain's messages naming the trainer."""
    with open(lang.CATALOGS / language / "LC_MESSAGES" / f"{domain}.po", "rb") as po:
        catalog = read_po(po)
    found = []
    for message in catalog:
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        if message.id and any(re.search(r"(?i)\btrainer", i) for i in ids):
            strings = message.string if isinstance(message.string, tuple) else (message.string,)
            found += [(ids[0], string) for string in strings]
    return found


@pytest.mark.parametrize("language", sorted(TRAINER))
@pytest.mark.parametrize("domain", ["messages", "riftforce"])
def test_the_trainer_has_the_game_catalogs_word_everywhere(language, domain):
    messages = said(language, domain)
    assert messages  # both domains name the trainer
    assert [(i, s) for i, s in messages if TRAINER[language] not in s.lower()] == []
