"""One spelling of an address (issue #21, item 5): never-email, bounce marks, vacations and "fresh links
to all my games" compare the address's key (service/store/inboxes.py), so VIC@example.org is the inbox
of vic@example.org; a +tag is the same inbox to the caps, never for delivery."""

from __future__ import annotations

import sqlalchemy as sa

from service import links
from service.mail import outbox
from service.play import new_game
from service.store import get_engine, read_session, write_session
from service.store.inboxes import key, limit_key
from service.store.models import Deadline, Person, Player, utcnow
from tests.consent import preconsent
from tests.service import toygame
from tests.service.helpers import outbox_rows
from tests.web.pages import csrf_token, text


def _seats(game_id: int) -> list[Player]:
    with read_session(get_engine()) as session:
        return list(session.execute(sa.select(Player).where(Player.game_id == game_id).order_by(Player.seat)).scalars())


def test_the_key_folds_case_and_the_limit_key_drops_a_tag():
    assert key(" VIC@Example.ORG ") == "vic@example.org"
    assert key("Vic+Games@example.org") == "vic+games@example.org"
    assert limit_key("Vic+Games@Example.org") == "vic@example.org"
    assert key("ann@xn--bcher-kva.example") == key("Ann@Bücher.example")


def test_never_for_vic_blocks_every_spelling_of_the_inbox(app, client, sink):
    app.config["SMTP_URL"] = sink.url
    preconsent("ann@example.org", "vic@example.org")
    new_game(toygame.NAME, [("Ann", "ann@example.org"), ("Vic", "vic@example.org")], seed=1)
    never = client.post(f"/never/{links.never_email_token('vic@example.org')}", data={"List-Unsubscribe": "One-Click"})
    assert never.status_code == 200
    game_id = new_game(toygame.NAME, [("Ann", "ann@example.org"), ("Vic", "VIC@example.org")], seed=2)
    vic = _seats(game_id)[1]
    rows = [r for r in outbox_rows(game_id) if r.player_id == vic.id]
    assert rows and [outbox.deliver(r.id) for r in rows] == ["skipped"] * len(rows)
    assert {r.skip_reason for r in outbox_rows(game_id) if r.player_id == vic.id} == {"never_email"}


def test_a_bounce_mark_holds_for_every_spelling(app, sink):
    app.config["SMTP_URL"] = sink.url
    preconsent("ann@example.org", "pc@example.org")
    with write_session(get_engine()) as session:
        who = session.get(Person, "pc@example.org")
        who.bounced_at, who.bounce_status = utcnow(), "5.1.1"
        session.add(who)
    game_id = new_game(toygame.NAME, [("Ann", "ann@example.org"), ("Pc", "PC@Example.org")], seed=1)
    pc = _seats(game_id)[1]
    assert [outbox.deliver(r.id) for r in outbox_rows(game_id) if r.player_id == pc.id] == ["undeliverable"]


def test_a_vacation_stops_the_clock_of_every_spelling(app):
    from service.people import vacations as people

    preconsent("ann@example.org", "vic@example.org")
    game_id = new_game(toygame.NAME, [("Vic", "VIC@example.org"), ("Ann", "ann@example.org")], seed=1,
                       deadline_hours=48)
    people.start_vacation("vic@example.org", utcnow())
    with read_session(get_engine()) as session:
        (row,) = session.execute(sa.select(Deadline).where(Deadline.game_id == game_id)).scalars().all()
    assert row.due_at is None and row.remaining_seconds is not None


def test_fresh_links_to_all_my_games_end_the_links_of_every_spelling(app, client):
    preconsent("ann@example.org", "pc@example.org")
    first = new_game(toygame.NAME, [("Ann", "ann@example.org"), ("Pc", "PC@example.org")], seed=1)
    second = new_game(toygame.NAME, [("Ann", "ann@example.org"), ("Pc", "pc@example.org")], seed=2)
    upper, lower = _seats(first)[1], _seats(second)[1]
    token = links.player_token(lower.id, lower.row_key)
    page = text(client.get(f"/p/{token}"))
    asked = client.post(f"/p/{token}/fresh-link", data={"csrf_token": csrf_token(page), "scope": "all"})
    assert asked.status_code == 200
    assert client.get(f"/p/{links.player_token(upper.id, upper.row_key)}").status_code == 410
    assert client.get(f"/p/{links.player_token(upper.id, upper.row_key, 1)}").status_code == 200


def test_mail_goes_to_exactly_what_was_typed(app, sink):
    app.config["SMTP_URL"] = sink.url
    preconsent("ann@example.org", "vic@example.org")
    game_id = new_game(toygame.NAME, [("Ann", "ann@example.org"), ("Vic", "Vic+Games@example.org")], seed=1)
    with read_session(get_engine()) as session:
        stored = session.execute(sa.select(Player.email, Player.address_key).where(
            Player.game_id == game_id, Player.seat == 1)).one()
    assert tuple(stored) == ("Vic+Games@example.org", "vic+games@example.org")


def test_a_signed_in_address_plays_the_seats_of_every_spelling(app, client):
    from tests.people.helpers import sign_in_as

    preconsent("ann@example.org", "pc@example.org")
    first = new_game(toygame.NAME, [("Ann", "ann@example.org"), ("Pc", "PC@example.org")], seed=1)
    second = new_game(toygame.NAME, [("Ann", "ann@example.org"), ("Pc", "pc@example.org")], seed=2)
    sign_in_as(client, "Pc@Example.org")
    for game_id in (first, second):
        answer = client.get(f"/api/me/games/{game_id}")
        assert answer.status_code == 200 and answer.get_json()["seat"] == 1, game_id
