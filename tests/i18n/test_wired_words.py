"""Issue #26, the wiring: the game's words come out in the reader's language wherever a page or an email
shows them.  One Riftforce duel, Ann reading Ukrainian and Bo Traditional Chinese: each one's turn email
(its first line, the lines of what happened since, the choices, the subject) and their game page and
history speak their language, with no English word but names; a Riftwalker and a Beyond the Rift page
in Ukrainian; the JSON API keeps English unless the request asks (machine clients: docs/i18n.md).  The browser test draws the
Riftforce page and a turn email at 375 px in both languages, axe-clean (RIFTPOST_SHOTS=folder keeps
the screenshots)."""

from __future__ import annotations

import os
import re
from email.message import EmailMessage

import pytest

from service import store
from service.mail import compose
from service.people import languages
from service.play import new_game
from service.store import get_engine, read_session
from service.store.models import Outbox, utcnow
from tests.consent import preconsent
from tests.i18n.test_no_english import HEADERS, english_words, get
from tests.i18n.test_pages_words import player_path
from tests.people.home_helpers import ANN, BO, CY
from tests.service.helpers import outbox_rows
from tests.turns import drive, not_drafting

NAMES = {"Ann", "Bo", "Cy", "Riftforce", "Riftwalker", "Riftpost", "Beyond", "the", "Rift", "UTC"}
WORD = re.compile(r"[A-Za-z][A-Za-z'’]*")
CYRILLIC = re.compile(r"[\u0400-\u04ff]")
CJK = re.compile(r"[\u4e00-\u9fff]")
SCRIPT = {"uk": CYRILLIC, "zh_Hant": CJK}
URL = re.compile(r"https?://\S+")


def page_english(html: str, allowed: set[str]) -> list[str]:
    """English words a reader sees in `html`; ids with digits in them ("T1a", "E2": cards' and enemies'
    ids, names) are not words."""
    return english_words(re.sub(r"\b\w*\d\w*\b", " ", html), allowed)


def english(text: str) -> list[str]:
    return sorted({w for w in WORD.findall(URL.sub(" ", text)) if w not in NAMES and not (w.isupper() and len(w) <= 5)})


@pytest.fixture
def duel(app):
    """A Riftforce duel past its draft, Ann (seat 0) reading Ukrainian, Bo (seat 1) Traditional Chinese."""
    preconsent(ANN[1], BO[1])
    languages.choose(ANN[1], "uk", utcnow())
    languages.choose(BO[1], "zh_Hant", utcnow())
    game_id = new_game("riftforce", [ANN, BO], seed=5, deadline_hours=48)
    _game, _state, seat = drive(game_id, not_drafting)
    # A few plays more, so that each reader's turn email tells the other's turn.
    for _ in range(2):
        _game, _state, seat = drive(game_id, lambda state, s, legal, before=seat: s != before)
    return game_id


def last_turn_email(game_id: int, seat: int) -> EmailMessage:
    """The newest turn email to `seat`, rendered as the worker renders it (the reader's language)."""
    with read_session(get_engine()) as session:
        player = next(p for p in store.players_of(session, game_id) if p.seat == seat)
        row = [r for r in outbox_rows(game_id) if r.player_id == player.id and r.kind == "turn"][-1]
        return compose.build(session, session.get(Outbox, row.id))


def since_and_choices(plain: str) -> tuple[list[str], list[str]]:
    """The plain part's lines of what happened since ("- ...") and its choices ("1. ...")."""
    lines = plain.splitlines()
    since = [line[2:] for line in lines if line.startswith("- ")]
    choices = [re.sub(r"^\d+\. ", "", line) for line in lines if re.match(r"^\d+\. \S", line) and "http" not in line]
    return since, choices


@pytest.mark.parametrize(("seat", "language"), [(0, "uk"), (1, "zh_Hant")])
def test_each_players_turn_email_tells_the_game_in_their_language(duel, seat, language):
    message = last_turn_email(duel, seat)
    plain = message.get_body(("plain",)).get_content()
    html = message.get_body(("html",)).get_content()
    since, choices = since_and_choices(plain)
    assert since and choices, plain
    for line in [*since, *choices, plain.splitlines()[0]]:
        assert SCRIPT[language].search(line), line
        assert english(line) == [], line
    # The subject's "vs" too; the since lines are not marked English any more (nor the choices).
    assert english(message["Subject"]) == [], message["Subject"]
    assert 'class="since"' in html and 'class="since" lang="en"' not in html
    assert re.search(r'<a class="choice"[^>]*>1\. [^<]*' + SCRIPT[language].pattern, html)


def test_the_english_render_of_the_same_row_is_english(duel):
    with read_session(get_engine()) as session:
        player = next(p for p in store.players_of(session, duel) if p.seat == 0)
        row = [r for r in outbox_rows(duel) if r.player_id == player.id and r.kind == "turn"][-1]
        message = compose.build(session, session.get(Outbox, row.id), locale="en")
    since, choices = since_and_choices(message.get_body(("plain",)).get_content())
    assert since and not any(CYRILLIC.search(line) for line in since + choices)
    assert " vs " in message["Subject"]


@pytest.mark.parametrize(("seat", "language"), [(0, "uk"), (1, "zh_Hant")])
def test_the_game_page_and_history_speak_the_readers_language(client, duel, seat, language):
    path = player_path(duel, seat)
    page = get(client, path, headers=HEADERS[language]).get_data(as_text=True)
    heading = re.search(r"<h1>([^<]*)", page).group(1)
    assert SCRIPT[language].search(heading) and english(heading) == [], heading
    recent = re.search(r'(?s)<section aria-labelledby="recent-h">(.*?)</section>', page).group(1)
    assert SCRIPT[language].search(recent) and page_english(recent, set()) == [], recent
    history = get(client, path + "/history", headers=HEADERS[language]).get_data(as_text=True)
    lines = re.search(r'(?s)<ol class="hist-lines">(.*?)</ol>', history).group(1)
    assert SCRIPT[language].search(lines) and page_english(lines, set()) == [], lines
    spectator = get(client, f"/games/{duel}", headers=HEADERS[language]).get_data(as_text=True)
    recent = re.search(r'(?s)<section aria-labelledby="recent-h">(.*?)</section>', spectator).group(1)
    assert SCRIPT[language].search(recent) and page_english(recent, set()) == [], recent


def test_the_choices_on_the_page_are_in_the_readers_language(client, duel):
    with read_session(get_engine()) as session:
        seat = store.get_game(session, duel).to_act[0]
    language = "uk" if seat == 0 else "zh_Hant"
    page = get(client, player_path(duel, seat), headers=HEADERS[language]).get_data(as_text=True)
    labels = re.findall(r'(?s)<label class="choice">(.*?)</label>', page)
    assert labels
    for label in labels:
        assert page_english(label, set()) == [], label


def test_the_json_api_words_in_english_unless_the_request_asks(client, duel):
    """Machine clients read English (no Accept-Language: curl, most HTTP libraries); a request that names
    a language (the page's composer names the page's) gets the labels in it; `text` (move_text) is the
    same in both (docs/i18n.md)."""
    with read_session(get_engine()) as session:
        seat = store.get_game(session, duel).to_act[0]
        person = (ANN if seat == 0 else BO)[1]
    token = player_path(duel, seat).removeprefix("/p/")
    # Not even the person's own setting (Ann: Ukrainian, Bo: Chinese) changes a program's English.
    plain = get(client, f"/api/play/{token}").get_json()["decisions"]
    assert languages.language_of(person) in ("uk", "zh_Hant")
    assert plain and not any(CYRILLIC.search(d["label"]) or CJK.search(d["label"]) for d in plain)
    asked = get(client, f"/api/play/{token}", headers=HEADERS["uk"]).get_json()["decisions"]
    assert all(CYRILLIC.search(d["label"]) for d in asked)
    assert [d["text"] for d in asked] == [d["text"] for d in plain]
    assert [d["move"] for d in asked] == [d["move"] for d in plain]
    spectator = get(client, f"/api/games/{duel}", headers=HEADERS["uk"])
    assert spectator.status_code == 200


def test_a_riftwalker_and_a_beyond_the_rift_page_in_ukrainian(app, client):
    preconsent(ANN[1], BO[1], CY[1])
    walker = new_game("riftwalker", [ANN, BO, CY], {}, seed=4, deadline_hours=48)
    drive(walker, lambda state, seat, legal: len(state.get("log", [])) > 3 or seat == 1)
    beyond = new_game("beyond-the-rift", [ANN, BO], seed=3)
    for game_id in (walker, beyond):
        with read_session(get_engine()) as session:
            seat = store.get_game(session, game_id).to_act[0]
        path = player_path(game_id, seat)
        page = get(client, path, headers=HEADERS["uk"]).get_data(as_text=True)
        heading = re.search(r"<h1>([^<]*)", page).group(1)
        assert english(heading) == [], heading
        labels = re.findall(r'(?s)<label class="choice">(.*?)</label>', page)
        assert labels, game_id
        for label in labels:
            assert page_english(label, set()) == [], label
        recent = re.search(r'(?s)<section aria-labelledby="recent-h">(.*?)</section>', page)
        if recent:
            assert CYRILLIC.search(recent.group(1)) and page_english(recent.group(1), set()) == [], recent.group(1)
        history = get(client, path + "/history", headers=HEADERS["uk"]).get_data(as_text=True)
        lines = re.search(r'(?s)<ol class="hist-lines">(.*?)</ol>', history).group(1)
        assert CYRILLIC.search(lines) and page_english(lines, set()) == [], lines


# ---- in a browser: the Riftforce page and a turn email at 375 px ------------------------------------------

SHOTS = os.environ.get("RIFTPOST_SHOTS")


@pytest.mark.browser
@pytest.mark.parametrize("language", ["uk", "zh_Hant"])
def test_the_riftforce_page_and_a_turn_email_fit_a_phone(live, context, page, language):
    from tests.web import looks
    from tests.web.looks import PHONE

    with live.app_context():
        preconsent(ANN[1], BO[1])
        seat_language = {0: "uk", 1: "zh_Hant"}
        for seat, person in enumerate((ANN, BO)):
            languages.choose(person[1], seat_language[seat], utcnow())
        game_id = new_game("riftforce", [ANN, BO], seed=5, deadline_hours=48)
        _game, _state, seat = drive(game_id, not_drafting)
        _game, _state, seat = drive(game_id, lambda state, s, legal, before=seat: s != before)
        reader = next(s for s, lang_ in seat_language.items() if lang_ == language)
        message = last_turn_email(game_id, reader)
        path = player_path(game_id, reader)
    context.set_extra_http_headers({"Accept-Language": HEADERS[language]["Accept-Language"]})
    page.set_viewport_size(PHONE)
    page.goto(live.config["BASE_URL"] + path)
    assert page.locator("html").get_attribute("lang") == language.replace("_", "-")
    looks.assert_fits(page)
    looks.assert_accessible(page)
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/wired-player-{language}-375.png", full_page=True)
    if SHOTS:
        with open(f"{SHOTS}/wired-email-{language}.html", "w", encoding="utf-8") as out:
            out.write(message.get_body(("html",)).get_content())
    # A blank page of its own: the site's Content-Security-Policy would block the email's inline styles.
    page.goto("about:blank")
    page.set_content(message.get_body(("html",)).get_content())
    assert page.locator("html").get_attribute("lang") == language.replace("_", "-")
    assert SCRIPT[language].search(page.locator("ul.since").inner_text())
    looks.assert_fits(page)
    looks.assert_accessible(page)
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/wired-email-{language}-375.png", full_page=True)
