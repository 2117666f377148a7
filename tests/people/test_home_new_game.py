"""The signed-in home's address book (service/people/address_book.py): "New game with Bo" opens the
start form with Bo's seat filled by a reference, never by Bo's address; the server turns the reference
into the address only for the person it was made for and only for someone they played with.  On
SQLite and PostgreSQL, the emails through a real SMTP sink."""

from __future__ import annotations

import html
import re

import pytest
import sqlalchemy as sa
from itsdangerous import URLSafeTimedSerializer

from service import links, store
from service.mail import outbox
from service.play import new_game
from service.store import read_session
from service.store.db import get_engine
from service.store.inboxes import key
from service.store.models import Player
from tests.conftest import app_on
from tests.consent import preconsent
from tests.people.helpers import sign_in_as
from tests.people.home_helpers import ANN, BO, CY, finish
from tests.people.test_home_games import get, post
from tests.service.helpers import outbox_rows
from tests.web.pages import csrf_token, text

ZED = ("Zed", "zed@example.org")
ADDRESS = re.compile(r"[\w.+-]+@[\w-]+\.[\w.]+")


@pytest.fixture
def app(tmp_path, backend_url, sink):
    with app_on(tmp_path, backend_url, SMTP_URL=sink.url) as app:
        preconsent(ANN[1], BO[1], CY[1], ZED[1])
        finish(new_game("riftforce", [ANN, BO], {}, seed=1), {"winners": [0], "scores": {"0": 12, "1": 7}})
        new_game("riftforce", [CY, ZED], {}, seed=2)  # Ann never sat with Zed
        yield app


@pytest.fixture
def ann(app):
    client = app.test_client()
    sign_in_as(client, ANN[1])
    return client


def seat_of(email: str) -> Player:
    with read_session(get_engine()) as session:
        return session.execute(sa.select(Player).where(Player.email == email).order_by(Player.id)).scalars().first()


def addresses(page: str) -> set[str]:
    return set(ADDRESS.findall(html.unescape(page)))


def bo_form(client) -> str:
    """Ann's way from her home to the Riftforce form with Bo: the home's link, the game list's."""
    home = text(get(client, "/"))
    found = re.search(r'<a href="([^"]+)">New game with Bo</a>', home)
    assert found, "no 'New game with Bo' on the home page"
    games = text(get(client, html.unescape(found.group(1))))
    to_form = re.search(r'href="(/games/new/riftforce\?[^"]*co=[^"]+)"', games)
    assert to_form, "the game list lost the co-player"
    return text(get(client, html.unescape(to_form.group(1))))


def reference(page: str, row: int = 1) -> str:
    found = re.search(rf'name="ref{row}" value="([^"]+)"', page)
    assert found, "no reference in the form"
    return html.unescape(found.group(1))


def start(client, page: str, **rows: str):
    data = {"csrf_token": csrf_token(page), "game": "riftforce", "deadline": "72", **rows}
    return post(client, "/games/new", data=data)


def test_the_home_page_and_the_start_form_never_show_a_co_players_address(ann):
    home = text(get(ann, "/"))
    form = bo_form(ann)
    ref = reference(form)
    assert addresses(home) == set()  # not even in the links' tokens (their payload is readable)
    assert addresses(form) == {ANN[1]}  # her own seat, filled for her: nobody else's
    assert re.search(r'name="email0"[^>]*value="ann@example.org"', form)
    assert 'name="name1" value="Bo"' in form and 'name="email1"' not in form
    _, payload = URLSafeTimedSerializer("any").loads_unsafe(ref)
    assert "@" not in str(payload) and "@" not in ref


def test_a_game_started_from_the_address_book_emails_the_co_player_at_their_address(ann, sink):
    form = bo_form(ann)
    before = {row.id for row in outbox_rows()}
    answer = start(ann, form, name0="Ann", email0=ANN[1], name1="Bo", ref1=reference(form))
    assert answer.status_code == 303, text(answer)
    game_id = int(re.search(r"/games/(\d+)/created", answer.headers["Location"]).group(1))
    with read_session(get_engine()) as session:
        seats = store.players_of(session, game_id)
    assert [(p.name, p.email, p.consent) for p in seats] == [("Ann", ANN[1], ""), ("Bo", BO[1], "")]
    new = [row for row in outbox_rows() if row.id not in before]
    # Ann signed in and is verified: her seat is emailed at once, no "did you start this?" (consent.py)
    assert {row.player_id for row in new} == {seat.id for seat in seats}
    assert "invitation" not in {row.kind for row in new}
    sent = len(sink.messages())
    for row in new:
        outbox.deliver(row.id)
    to = [message["To"] for message in sink.messages()[sent:]]
    assert any(BO[1] in each for each in to) and any(ANN[1] in each for each in to)


def test_the_form_sent_back_keeps_the_reference_and_names_the_co_player_not_the_address(ann):
    form = bo_form(ann)
    ref = reference(form)
    answer = start(ann, form, email0=ANN[1], name1="Bo", ref1=ref, name2="Bo again", ref2=ref, game="riftwalker")
    page = text(answer)
    assert answer.status_code == 422
    assert "Bo is entered for players 2 and 3; each player needs an address of their own." in html.unescape(page)
    assert addresses(page) == {ANN[1]} and reference(page, 1) == ref and reference(page, 2) == ref


def forged(ref: str) -> str:
    payload = URLSafeTimedSerializer("any").loads_unsafe(ref)[1]
    return URLSafeTimedSerializer("not our secret", salt=f"{links.CO_PLAYER}:{key(ANN[1])}").dumps(payload)


@pytest.mark.parametrize("spoil", [
    lambda ref: ref[:-3] + ("AAA" if not ref.endswith("AAA") else "BBB"),  # tampered
    forged,  # signed with another secret
])
def test_a_tampered_or_forged_reference_is_refused_with_a_clear_message(ann, spoil):
    form = bo_form(ann)
    bad = spoil(reference(form))
    before = len(outbox_rows())
    for answer in (start(ann, form, email0=ANN[1], name1="Bo", ref1=bad),
                   get(ann, f"/games/new/riftforce?co={bad}")):
        assert answer.status_code == 400
        assert "not valid for you" in text(answer)
        assert BO[1] not in text(answer)
    assert len(outbox_rows()) == before


def test_another_persons_reference_is_refused(app, ann):
    bo = app.test_client()
    sign_in_as(bo, BO[1])  # Bo's own home names Ann: his reference is his, not Ann's
    home = text(get(bo, "/"))
    bos = html.unescape(re.search(r'href="[^"]*co=([^"&]+)"[^>]*>New game with Ann<', home).group(1))
    sign_in_as(bo, ANN[1])
    form = text(get(bo, "/games/new/riftforce"))
    answer = start(bo, form, email0=ANN[1], name1="Ann?", ref1=bos)
    assert answer.status_code == 400 and "made for someone else" in text(answer)


def test_a_reference_to_someone_you_never_played_with_is_refused(ann):
    form = text(get(ann, "/games/new/riftforce"))
    zed = seat_of(ZED[1])
    before = len(outbox_rows())
    for ref in (links.co_player_token(key(ANN[1]), zed.id, zed.row_key),  # Ann's, but naming a stranger
                links.co_player_token(key(ANN[1]), seat_of(BO[1]).id, "wrong-key")):  # a seat's key not its own
        answer = start(ann, form, email0=ANN[1], name1="Zed", ref1=ref)
        assert answer.status_code == 403
        assert "only with someone you played with" in text(answer) and ZED[1] not in text(answer)
    assert len(outbox_rows()) == before


def test_a_reference_needs_a_signed_in_person(app, ann):
    form = bo_form(ann)
    ref = reference(form)
    stranger = app.test_client()
    page = text(get(stranger, "/games/new/riftforce"))
    assert 'value="ann@example.org"' not in page  # the own-seat prefill is for the signed-in only
    assert start(stranger, page, email0=CY[1], name1="Bo", ref1=ref).status_code == 401
    assert get(stranger, f"/games/new/riftforce?co={ref}").status_code == 401
