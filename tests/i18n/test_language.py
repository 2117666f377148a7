"""Whose language a page speaks (issue #26, service/web/language.py): the person's setting, the
signed-out browser's choice, Accept-Language, English; never a link's token or query; the setting on
the settings page, the sign-in page and its JSON twin; CLDR plurals."""

from __future__ import annotations

import re

import pytest
import sqlalchemy as sa
from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header

from service import lang
from service.people import languages
from service.store.db import get_engine
from service.store.models import PersonLanguage
from service.views.times import span_words
from service.web.language import from_header
from tests.people.helpers import send_csrf_header, sign_in_as
from tests.people.signin_helpers import ANN, Browser, app, client, game, mailed, press, signin_path  # noqa: F401
from tests.web.pages import csrf_token, text

UK, ZH = {"Accept-Language": "uk-UA,uk;q=0.9,en;q=0.5"}, {"Accept-Language": "zh-TW,zh;q=0.9"}


def html_lang(page: str) -> str:
    found = re.search(r'<html lang="([^"]+)"', page)
    assert found, page[:200]
    return found.group(1)


@pytest.mark.parametrize(("header", "language"), [
    ("uk-UA,uk;q=0.9,en;q=0.8", "uk"),
    ("uk", "uk"),
    ("zh-TW,zh;q=0.9,en;q=0.8", "zh_Hant"),
    ("zh-HK", "zh_Hant"),
    ("zh-Hant-CN", "zh_Hant"),  # the script said outright wins over the region
    ("zh-Hant", "zh_Hant"),
    ("zh-CN,zh;q=0.9,en;q=0.8,en-US;q=0.7", "en"),  # Simplified: English, listed, comes first
    ("zh-CN", "zh_Hant"),  # ... but Traditional before nothing at all
    ("zh", "zh_Hant"),
    ("fr-FR,fr;q=0.9,uk;q=0.5", "uk"),
    ("en-GB,uk;q=0.9", "en"),
    ("uk;q=0.2,zh-TW;q=0.8", "zh_Hant"),  # by weight, not order
    ("ru-RU,ru;q=0.9", None),  # never Ukrainian from Russian: English
    ("uk;q=0", None),
    ("*", "en"),
    ("", None),
])
def test_accept_language_picks_the_best_of_the_three_languages(header, language):
    assert from_header(parse_accept_header(header, LanguageAccept)) == language


def test_a_signed_out_page_speaks_the_browsers_language_without_a_cookie_and_says_it_varies(client):
    for headers, tag, words in ((UK, "uk", "Увійти"), (ZH, "zh-Hant", "登入"), ({}, "en", "Sign in"),
                                ({"Accept-Language": "ru"}, "en", "Sign in")):
        answer = client.get("/signin", headers=headers)
        page = text(answer)
        assert html_lang(page) == tag and words in page
        assert "Accept-Language" in answer.headers["Vary"] and answer.headers["Content-Language"] == tag
        with client.session_transaction() as session:  # the header's choice is made anew each time
            assert "lang" not in session  # (the cookie the page sets is the CSRF token's)


def test_a_link_or_a_query_never_sets_the_language(client):
    """The language is never in a link: ?lang=, ?language= and the path are ignored, a GET changes nothing."""
    for path in ("/signin?lang=uk", "/signin?language=zh_Hant", "/?locale=uk"):
        assert html_lang(text(client.get(path))) == "en"
    assert client.get("/language?language=uk").status_code == 405  # only a POST chooses
    assert html_lang(text(client.get("/signin"))) == "en"


def test_the_sign_in_page_offers_the_languages_and_the_choice_holds_for_this_browser(client):
    page = text(client.get("/signin", headers=UK))
    for name in ("English", "Українська", "繁體中文"):
        assert f">{name}</button>" in page
    answer = client.post("/language", data={"csrf_token": csrf_token(page), "language": "zh_Hant", "next": "/signin"})
    assert answer.status_code == 303 and answer.headers["Location"] == "/signin"
    page = text(client.get("/signin", headers=UK))  # the choice made beats the header
    assert html_lang(page) == "zh-Hant" and "寄給我登入連結" in page


def test_the_language_choice_refuses_a_foreign_next_and_an_unknown_language(client):
    page = text(client.get("/signin"))
    for bad in ("//evil.example/x", "https://evil.example/", "/\\evil.example"):
        answer = client.post("/language", data={"csrf_token": csrf_token(page), "language": "uk", "next": bad})
        assert answer.status_code == 303 and answer.headers["Location"] == "/"
    answer = client.post("/language", data={"csrf_token": csrf_token(page), "language": "ru"})
    assert answer.status_code == 400 and "Українська" in text(answer)
    assert client.post("/language", data={"language": "uk"}).status_code == 400  # no CSRF token


def test_a_language_chosen_signed_out_becomes_the_persons_at_sign_in_unless_they_chose_one(client, sink, game):
    page = text(client.get("/signin"))
    client.post("/language", data={"csrf_token": csrf_token(page), "language": "uk"})
    message = mailed(sink, client, ANN[1])
    assert press(client, signin_path(message)).status_code == 303
    assert languages.language_of(ANN[1]) == "uk"
    page = text(client.get("/settings", headers=ZH))  # the person's setting beats the header
    assert html_lang(page) == "uk" and "Налаштування" in page
    other = Browser(client.application, client.response_wrapper, use_cookies=True)
    page = text(other.get("/signin"))
    other.post("/language", data={"csrf_token": csrf_token(page), "language": "zh_Hant"})
    assert press(other, signin_path(mailed(sink, other, ANN[1]))).status_code == 303
    assert languages.language_of(ANN[1]) == "uk"  # a setting made is never overwritten by a sign-in


def test_the_settings_page_sets_the_persons_language_and_its_json_twin_reads_and_sets_it(client):
    sign_in_as(client, ANN[1])
    page = text(client.get("/settings"))
    assert 'id="language-h"' in page and '<option value="uk" lang="uk">Українська</option>' in page
    answer = client.post("/settings/language", data={"csrf_token": csrf_token(page), "language": "zh-Hant"})
    assert answer.status_code == 303
    page = text(client.get("/settings", headers=UK))
    assert html_lang(page) == "zh-Hant" and "Riftpost 現在用繁體中文和你溝通。" in page
    assert client.get("/api/me/language").get_json() == {"language": "zh_Hant", "chosen": True,
                                                          "languages": ["en", "uk", "zh_Hant"]}
    assert client.post("/api/me/language", json={"language": "uk"}).status_code == 403  # no CSRF header
    send_csrf_header(client)
    assert client.post("/api/me/language", json={"language": "uk"}).get_json()["language"] == "uk"
    for bad in ({"language": "ru"}, {"language": 7}, ["uk"], None):
        answer = client.post("/api/me/language", json=bad)
        assert answer.status_code == 400 and answer.get_json()["status"] == 400
    assert client.post("/settings/language", data={"csrf_token": csrf_token(page), "language": "<b>"}).status_code == 400
    with get_engine().connect() as conn:
        assert conn.execute(sa.select(PersonLanguage.person, PersonLanguage.language)).all() == [(ANN[1], "uk")]


def test_the_language_setting_needs_a_signed_in_person(client):
    page = text(client.get("/signin"))
    assert client.post("/settings/language", data={"csrf_token": csrf_token(page), "language": "uk"}).status_code == 401
    assert client.get("/api/me/language").status_code == 401


def test_ukrainian_plurals_follow_cldr_one_few_many():
    """Ukrainian has three forms: 1 and 21 one, 2 (and 22-24) few, 5 (and 11-14, 25...) many."""
    uk = lang.translations("uk")
    said = {n: uk.ngettext("%(num)d day", "%(num)d days", n) % {"num": n} for n in (1, 2, 5, 11, 21, 22)}
    assert said == {1: "1 день", 2: "2 дні", 5: "5 днів", 11: "11 днів", 21: "21 день", 22: "22 дні"}
    assert [span_words(hours * 3600, "uk") for hours in (1, 2, 5, 21)] == ["1 година", "2 години", "5 годин", "21 година"]
    assert [span_words(days * 86400, "uk") for days in (2, 5, 21)] == ["2 дні", "5 днів", "21 день"]
    assert span_words(5 * 86400, "zh_Hant") == "5 天" and span_words(5 * 86400) == "5 days"
