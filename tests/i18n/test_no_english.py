"""Issue #26's check for the first set of pages (the layout, the start page signed out, the sign-in
pages, the signed-in home and the hidden games, the account settings): rendered in Ukrainian and
Traditional Chinese they hold no English word outside an allowed list.

Allowed: the names (Riftpost, the games' titles, "Rift", the players', English as a language's own
name, the name the person gave an API token), addresses, abbreviations in capitals (API, UTC, EET), the time-zone identifiers of the zone
list, and what <code> shows (an HTTP header).  Everything else a page says is checked: the games'
summaries, modes and player counts on the start page, and a row's players ("Ann проти Bo"), its mode
and its result words ("Ви перемогли 12–7") on the home page, which the adapters word in the reader's
language."""

from __future__ import annotations

import html
import re
from datetime import UTC, datetime

import pytest

from service import links
from service.games import every
from service.people import languages, tokens, vacations
from service.store.db import get_engine
from tests.conftest import app_on
from tests.people.helpers import sign_in_as
from tests.people.home_helpers import ANN
from tests.people.test_home_games import every_kind
from tests.web.pages import csrf_token, text

HEADERS = {"uk": {"Accept-Language": "uk-UA,uk;q=0.9"}, "zh_Hant": {"Accept-Language": "zh-TW,zh;q=0.9"}}
# (Kyiv and Taipei: the cities of the time-zone field's example, beside their zone identifiers)
NAMES = {"Riftpost", "Rift", "Riftforce", "Riftwalker", "English", "Ann", "Bo", "Cy", "Di", "Eve", "Kyiv", "Taipei"}
TOKEN_NAME = "bot"  # a name the person typed: shown as typed
WORD = re.compile(r"[A-Za-z][A-Za-z'’]*")
VISIBLE_ATTRIBUTES = re.compile(r'\s(?:aria-label|placeholder|title|alt)="([^"]*)"')


def get(client, path: str, **kw):
    """A request with an app context of its own, as a server gives it (see tests/people/test_home_games.py)."""
    with client.application.app_context():
        return client.get(path, **kw)


def post(client, path: str, **kw):
    with client.application.app_context():
        return client.post(path, **kw)


def game_titles() -> set[str]:
    """The games' names ("Beyond the Rift"): names, as the players' are."""
    return {adapter.rules.title or adapter.name for adapter in every()}


def english_words(page: str, allowed_texts: set[str]) -> list[str]:
    """The English words a reader sees on `page` (its text and its read-aloud attributes), once the
    allowed texts are taken out."""
    page = re.sub(r"(?s)<(script|style|code)\b.*?</\1>", " ", page)
    page = re.sub(r'<input[^>]*type="hidden"[^>]*>', " ", page)
    page = re.sub(r'(?s)<select id="time_zone".*?</select>', " ", page)  # time-zone identifiers
    page = re.sub(r"<strong>[A-Za-z_]+(?:/[A-Za-z_ -]+)*</strong>", " ", page)  # the zone's name
    shown = " ".join(VISIBLE_ATTRIBUTES.findall(page)) + " " + re.sub(r"<[^>]+>", " ", page)
    shown = html.unescape(shown)
    for allowed in sorted(allowed_texts, key=len, reverse=True):
        shown = shown.replace(allowed, " ")
    shown = re.sub(r"[\w.+-]+@[\w-]+\.[\w.]+", " ", shown)  # addresses
    shown = re.sub(r"\b[A-Za-z_]+/[A-Za-z_]+\b", " ", shown)  # zone ids in the field's example
    return [word for word in WORD.findall(shown)
            if word not in NAMES and not (word.isupper() and len(word) <= 5)]


@pytest.mark.parametrize("language", ["uk", "zh_Hant"])
def test_the_first_pages_signed_out_hold_no_english(language, client):
    headers = HEADERS[language]
    allowed = game_titles()
    pages = {
        "start": text(client.get("/", headers=headers)),
        "sign-in": text(client.get("/signin", headers=headers)),
        "sign-in link": text(client.get(f"/signin/{links.signin_token(1, 'n' * 16)}", headers=headers)),
        "needs sign-in": text(client.get("/settings", headers=headers)),
    }
    page = pages["sign-in"]
    pages["mailed"] = text(client.post("/signin", data={"csrf_token": csrf_token(page), "email": "x@example.org"},
                                       headers=headers))
    pages["bad address"] = text(client.post("/signin", data={"csrf_token": csrf_token(page), "email": "nope"},
                                            headers=headers))
    pages["bad code"] = text(client.post("/signin/code", data={"csrf_token": csrf_token(page), "email": "x@example.org",
                                                              "code": "1"}, headers=headers))
    for name, page in pages.items():
        assert f'<html lang="{language.replace("_", "-")}">' in page, name
        assert english_words(page, allowed) == [], name


@pytest.mark.parametrize("language", ["uk", "zh_Hant"])
def test_the_first_pages_signed_in_hold_no_english(language, tmp_path, backend_url):
    with app_on(tmp_path, backend_url) as app:
        games = every_kind()
        client = app.test_client()
        sign_in_as(client, ANN[1])
        languages.choose(ANN[1], language, datetime.now(UTC))
        tokens.create(ANN[1], TOKEN_NAME, datetime.now(UTC))
        page = text(get(client, "/"))
        post(client, f"/me/games/{games['won']}/hide", data={"csrf_token": csrf_token(page)})
        pages = {"home": text(get(client, "/")), "hidden": text(get(client, "/me/games/hidden")),
                 "settings": text(get(client, "/settings"))}
        # (before "never email me", which declines the invitation waiting: its row leaves the list)
        allowed = game_titles() | {TOKEN_NAME}
        vacations.start_vacation(ANN[1], datetime.now(UTC))
        pages["on vacation"] = text(get(client, "/settings"))
        post(client, "/settings/emails", data={"csrf_token": csrf_token(page), "emails": "never"})
        pages["never email"] = text(get(client, "/settings"))
        for co in ("Bo", "Cy", "Di"):
            assert co in pages["home"]
    assert 'class="my-game"' in pages["home"] and 'class="my-game"' in pages["hidden"]
    assert "data-time=\"vacation-until\"" in pages["on vacation"] and "data-time=\"never-email\"" in pages["never email"]
    for name, page in pages.items():
        assert f'<html lang="{language.replace("_", "-")}">' in page, name
        assert english_words(page, allowed) == [], name


def test_the_check_sees_an_english_word_left_on_a_page():
    page = '<html lang="uk"><p>Ваші ігри</p><button aria-label="Hide Riftforce #3">Приховати</button><code>Bearer</code></html>'
    assert english_words(page, {"Riftforce #3"}) == ["Hide"]
    assert english_words('<p title="Sign in">Увійти як Ann, ann@example.org, UTC</p>', set()) == ["Sign", "in"]


def test_the_start_page_reads_the_persons_language_in_its_one_statement(tmp_path, backend_url):
    """With a language chosen, GET / signed in still makes one SELECT (service/web/home.py): the
    setting is read with the games, and the page and its rows speak it."""
    import sqlalchemy as sa

    with app_on(tmp_path, backend_url) as app:
        every_kind()
        client = app.test_client()
        sign_in_as(client, ANN[1])
        languages.choose(ANN[1], "uk", datetime.now(UTC))
        statements: list[str] = []

        def listen(*args):
            statements.append(args[2])

        sa.event.listen(get_engine(), "before_cursor_execute", listen)
        try:
            page = text(get(client, "/", headers=HEADERS["zh_Hant"]))
        finally:
            sa.event.remove(get_engine(), "before_cursor_execute", listen)
    assert len([s for s in statements if s.lstrip().upper().startswith("SELECT")]) == 1, statements
    assert '<html lang="uk">' in page and "Ваш хід" in page and "Чекають на інших" in page
