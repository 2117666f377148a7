"""Issue #26, the Riftforce board: every word of it in the reader's language.

A duel, a team game of 4 (its draft too) and a solo game, each read in Ukrainian and in Traditional
Chinese: the player page, the spectator page and the history page, the turn email (its HTML and its
plain part, each with the board) at the draft and in play, and the finished game's email, hold no
English word but names (the players', the game's: `english_words` of test_no_english.py, the NAMES
idea).  Nothing is taken out by markup: the board is not marked English any more, and its HTML part
says so (no `lang="en"` around it).  The browser test draws the player page at 375 and 1280 px in both
languages: it fits and axe finds nothing (RIFTPOST_SHOTS=folder keeps the screenshots)."""

from __future__ import annotations

import os
import re
from email.message import EmailMessage

import pytest

import engine
from service import store
from service.mail import compose
from service.people import languages
from service.play import ending, new_game
from service.store import get_engine, read_session
from service.store.models import Outbox, utcnow
from tests.consent import preconsent
from tests.i18n.test_no_english import HEADERS, english_words, get
from tests.i18n.test_pages_words import player_path
from tests.people.home_helpers import ANN, BO, CY, DI
from tests.riftforce_helpers import fast
from tests.service.helpers import outbox_rows
from tests.turns import drive

RULES = engine.get("riftforce")
PEOPLE = {"duel": [ANN, BO], "team": [ANN, BO, CY, DI], "solo": [ANN]}
OPTIONS = {"duel": {}, "team": {"mode": "team"}, "solo": {"mode": "solo"}}
# Names: the players', the game's own (its title is a name in every language: docs/i18n.md), and the keys
# the history's key help names as they are printed on a keyboard ("Page Up", "Home")
NAMES = {"Ann", "Bo", "Cy", "Di", "Riftforce", "Riftpost", "Rift", "Page", "Up", "Down", "Home", "End"}
CYRILLIC = re.compile(r"[\u0400-\u04ff]")
CJK = re.compile(r"[\u4e00-\u9fff]")
SCRIPT = {"uk": CYRILLIC, "zh_Hant": CJK}
URL = re.compile(r"https?://\S+")
WORD = re.compile(r"[A-Za-z][A-Za-z'’]*")


def shown_english(html: str) -> list[str]:
    """English words a reader sees on a page or an HTML part: its text and read-aloud attributes, ids
    with digits in them ("Q7", a house rule's number) and names aside."""
    return sorted({w for w in english_words(re.sub(r"\b\w*\d\w*\b", " ", html), set()) if w not in NAMES})


def plain_english(text: str) -> list[str]:
    text = re.sub(r"\b\w*\d\w*\b", " ", URL.sub(" ", text))
    return sorted({w for w in WORD.findall(text) if w not in NAMES and not (w.isupper() and len(w) <= 5)})


def board(html: str) -> str:
    found = re.search(r'(?s)<div class="board rf-[a-z]+".*', html)
    assert found, "no Riftforce board"
    return found.group(0)


def email_of(game_id: int, seat: int, *kinds: str) -> EmailMessage:
    """The newest email of one of `kinds` to `seat`, rendered as the worker renders it (the reader's language)."""
    with read_session(get_engine()) as session:
        player = next(p for p in store.players_of(session, game_id) if p.seat == seat)
        row = [r for r in outbox_rows(game_id) if r.player_id == player.id and r.kind in kinds][-1]
        return compose.build(session, session.get(Outbox, row.id))


def game_in(mode: str, language: str) -> int:
    people = PEOPLE[mode]
    preconsent(*(address for _, address in people))
    for _, address in people:
        languages.choose(address, language, utcnow())
    return new_game("riftforce", people, OPTIONS[mode], seed=7, deadline_hours=48)


def check_email(message: EmailMessage, language: str, what: str) -> None:
    html = message.get_body(("html",)).get_content()
    plain = message.get_body(("plain",)).get_content()
    part = board(html)
    assert SCRIPT[language].search(part), what
    assert 'lang="en"' not in html, f"{what}: still marked English"
    assert shown_english(html) == [], f"{what} (HTML)"
    assert plain_english(plain) == [], f"{what} (plain):\n{plain}"


def check_pages(client, game_id: int, seat: int, language: str, what: str) -> None:
    headers = HEADERS[language]
    path = player_path(game_id, seat)
    for name, url in (
        ("player page", path),
        ("spectator page", f"/games/{game_id}"),
        ("history page", path + "/history"),
    ):
        page = get(client, url, headers=headers).get_data(as_text=True)
        assert SCRIPT[language].search(board(page)), f"{what}: {name}"
        assert shown_english(page) == [], f"{what}: {name}"


def in_play(state: dict, seat: int, legal: list[dict]) -> bool:
    """Past the draft, a few actions in, with a last action to tell."""
    return (
        state["phase"] == "play"
        and sum(state["actions"]) >= 4
        and state["last"] is not None
        and state["last"]["action"] not in ("pick", "give")
    )


@pytest.mark.parametrize("language", ["uk", "zh_Hant"])
@pytest.mark.parametrize("mode", ["duel", "team", "solo"])
def test_the_riftforce_board_speaks_the_readers_language(app, client, mode, language):
    game_id = game_in(mode, language)
    game, state, seat = drive(game_id, lambda state, s, legal: True)
    assert state["phase"] == "draft"
    what = f"{mode} in {language}, the draft"
    check_email(email_of(game_id, seat, "turn", "invite"), language, what)
    check_pages(client, game_id, seat, language, what)

    game, state, seat = drive(game_id, in_play, policy=fast)
    what = f"{mode} in {language}, in play"
    check_email(email_of(game_id, seat, "turn"), language, what)
    check_pages(client, game_id, seat, language, what)

    with pytest.raises(AssertionError, match="ended"):
        drive(game_id, lambda state, s, legal: False, policy=fast, limit=2000)
    ending.record_end(game_id, utcnow())  # what the worker does after the final move
    what = f"{mode} in {language}, finished"
    check_email(email_of(game_id, 0, "game_over"), language, what)
    check_pages(client, game_id, 0, language, what)
    # after the end, the history shows every hand (cards in words, or each seat's text board)
    page = get(client, player_path(game_id, 0) + "/history?view=all", headers=HEADERS[language]).get_data(as_text=True)
    hands = re.search(r'(?s)<section aria-labelledby="hands-h">(.*?)</section>', page).group(1)
    assert SCRIPT[language].search(hands) and shown_english(hands) == [], hands


def test_english_readers_keep_english(app, client):
    """The same board for an English reader: English words, no Cyrillic or CJK."""
    preconsent(ANN[1], BO[1])
    game_id = new_game("riftforce", [ANN, BO], seed=7)
    _game, _state, seat = drive(game_id, in_play, policy=fast)
    page = get(client, player_path(game_id, seat)).get_data(as_text=True)
    part = board(page)
    assert "Your decision:" in part and "Last action:" in part
    assert not CYRILLIC.search(part) and not CJK.search(part)


# ---- in a browser: the player page at 375 and 1280 px ------------------------------------------------

SHOTS = os.environ.get("RIFTPOST_SHOTS")


@pytest.mark.browser
@pytest.mark.parametrize("language", ["uk", "zh_Hant"])
@pytest.mark.parametrize("mode", ["duel", "team", "solo"])
def test_the_riftforce_player_page_fits_in_every_language(live, context, page, mode, language):
    from tests.web import looks
    from tests.web.looks import DESKTOP, PHONE

    with live.app_context():
        game_id = game_in(mode, language)
        _game, _state, seat = drive(game_id, in_play, policy=fast)
        path = player_path(game_id, seat)
    context.set_extra_http_headers({"Accept-Language": HEADERS[language]["Accept-Language"]})
    for size, width in ((PHONE, 375), (DESKTOP, 1280)):
        page.set_viewport_size(size)
        page.goto(live.config["BASE_URL"] + path)
        assert page.locator("html").get_attribute("lang") == language.replace("_", "-")
        assert SCRIPT[language].search(page.locator(".board").first.inner_text())
        looks.assert_fits(page)
        looks.assert_accessible(page)
        if SHOTS:
            page.screenshot(path=f"{SHOTS}/rf-{mode}-{language}-{width}.png", full_page=True)
            page.locator(".board").first.screenshot(path=f"{SHOTS}/rf-board-{mode}-{language}-{width}.png")
