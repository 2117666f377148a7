"""The "game started" page (issue #22, item 9): the browser that started the game is told where its
seat's link went and that nobody else is emailed until the address is confirmed; any other visitor of
the same URL reads nothing about the addresses, and no page gives a seat's link."""

from __future__ import annotations

from tests.consent import preconsent
from tests.service import toygame
from tests.web.pages import START_FORM, csrf_token, text


def _start(client, email0: str) -> str:
    page = text(client.get(START_FORM))
    posted = client.post("/games/new", data={"csrf_token": csrf_token(page), "game": toygame.NAME,
                                             "name0": "Ann", "email0": email0, "name1": "Bo",
                                             "email1": "bo@example.org"})
    assert posted.status_code == 303
    return posted.headers["Location"]


def test_the_created_page_tells_the_creators_browser_only(app, client):
    created = _start(client, "ann@example.org")
    mine = text(client.get(created))
    assert "We emailed you (ann@example.org) a link to your seat" in mine
    assert "Nobody else is emailed about this game until then" in mine
    assert "/p/" not in mine  # never the seat's link: the form's poster has not shown the address is theirs
    stranger = app.test_client()
    theirs = text(stranger.get(created))
    assert stranger.get(created).status_code == 200
    assert "ann@example.org" not in theirs and "We emailed you" not in theirs and "/p/" not in theirs


def test_the_words_are_the_same_whether_or_not_the_address_played_here(app, client):
    preconsent("old@example.org")
    verified = text(client.get(_start(client, "old@example.org")))
    fresh = text(client.get(_start(client, "new@example.org")))

    def words(page: str) -> str:
        return page.split("We emailed you")[1].split("</p>")[0].replace("old@", "X@").replace("new@", "X@")

    assert words(verified) == words(fresh) and "/p/" not in verified
