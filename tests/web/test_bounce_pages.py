"""Bounced mail on the player pages: the other players are told (by name, never the address), the
player is told and may ask to be emailed again."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlmodel import select

from service import links
from service.mail import bounces, outbox
from service.play import new_game
from service.store import get_engine, read_session, write_session
from service.store.models import Person, Player, utcnow
from tests.consent import preconsent
from tests.service import bounce_samples as samples
from tests.service import toygame
from tests.service.helpers import outbox_rows, play_one
from tests.web.pages import csrf_token, move_values, text

PLAYERS = [("Ann", "ann@example.org"), ("Bo", "bo@example.org"), ("Cy", "cy@example.org")]


@pytest.fixture(autouse=True)
def consented(app):
    """These tests are about bounces: the addresses accepted Riftpost's emails before."""
    preconsent(*(email for _, email in PLAYERS))


def seats(game_id: int) -> list[Player]:
    with read_session(get_engine()) as session:
        return list(session.exec(select(Player).where(Player.game_id == game_id).order_by(Player.seat)))


def page(client, player: Player) -> str:
    response = client.get(f"/p/{links.player_token(player.id, player.row_key)}")
    assert response.status_code == 200
    return text(response)


def bounce(app, sink, email: str) -> None:
    """A real hard bounce of the first email sent to `email`."""
    app.config.update(SMTP_URL=sink.url, BOUNCE_ADDRESS="bounces@riftpost.test")
    row = next(r for r in outbox_rows() if _email_of(r.player_id) == email)
    assert outbox.deliver(row.id) == "sent"
    rcpt = bounces.return_path(row.id, row.row_key)
    assert "undeliverable" in bounces.receive(samples.gmail(rcpt), rcpt)


def _email_of(player_id: int) -> str:
    with read_session(get_engine()) as session:
        return session.get(Player, player_id).email


def test_the_other_players_see_whose_mail_bounces_and_never_the_address(app, client, sink):
    game_id = new_game(toygame.NAME, PLAYERS, {"target": 30}, seed=4)
    ann, bo, cy = seats(game_id)
    assert "bounces" not in page(client, ann)
    bounce(app, sink, "bo@example.org")
    for reader in (ann, cy):
        shown = page(client, reader)
        assert ("Mail to Bo bounces (the address does not exist); they will not hear from us when it is "
                "their turn.") in shown
        assert "bo@example.org" not in shown
    while bo.seat not in seats_to_act(game_id):
        play_one(game_id)
    assert "Mail to Bo bounces (the address does not exist); they may not know it is their turn." in page(client, ann)


def seats_to_act(game_id: int) -> list[int]:
    from tests.service.helpers import current

    game, _ = current(game_id)
    return game.to_act


def test_the_notice_goes_when_the_mark_is_cleared(app, client, sink):
    game_id = new_game(toygame.NAME, PLAYERS, {"target": 30}, seed=4)
    ann, _, _ = seats(game_id)
    bounce(app, sink, "bo@example.org")
    assert "Mail to Bo bounces" in page(client, ann)
    bounces.clear("bo@example.org")
    assert "Mail to Bo bounces" not in page(client, ann)


def test_the_player_is_told_and_may_ask_to_be_emailed_again(app, client, sink):
    game_id = new_game(toygame.NAME, PLAYERS, {"target": 30}, seed=4)
    ann, bo, _ = seats(game_id)
    bounce(app, sink, "bo@example.org")
    shown = page(client, bo)
    assert "Email to you bounces" in shown and "the address does not exist" in shown
    assert "Mail to Bo bounces" not in shown  # that is the others' line
    url = f"/p/{links.player_token(bo.id, bo.row_key)}/mail-again"
    assert client.post(url, data={}).status_code == 400  # no CSRF token: refused
    with read_session(get_engine()) as session:
        assert session.get(Person, "bo@example.org").bounced_at is not None
    response = client.post(url, data={"csrf_token": csrf_token(shown)})
    assert response.status_code == 303
    after = page(client, bo)
    assert "We will email you again" in after and "Email to you bounces" not in after
    with read_session(get_engine()) as session:
        who = session.get(Person, "bo@example.org")
        assert who.bounced_at is None and who.bounces_cleared_at is not None
    # And the next email to Bo goes out again.
    while bo.seat not in seats_to_act(game_id):
        play_one(game_id)
    turn = [r for r in outbox_rows(game_id) if r.player_id == bo.id and r.kind == "turn"][-1]
    assert outbox.deliver(turn.id) == "sent"


def test_a_move_through_the_page_does_not_clear_the_mark(app, client, sink):
    game_id = new_game(toygame.NAME, PLAYERS, {"target": 30}, seed=4)
    ann, _, _ = seats(game_id)
    bounce(app, sink, "ann@example.org")
    shown = page(client, ann)
    response = client.post(f"/p/{links.player_token(ann.id, ann.row_key)}/move",
                           data={"csrf_token": csrf_token(shown), "seq": str(seats_seq(game_id)),
                                 "move": move_values(shown)[0]})
    assert response.status_code == 303
    assert "Email to you bounces" in page(client, ann)


def seats_seq(game_id: int) -> int:
    from tests.service.helpers import current

    return current(game_id)[0].seq


def test_an_old_mark_is_dated_on_the_page(app, client, sink):
    game_id = new_game(toygame.NAME, PLAYERS, {"target": 30}, seed=4)
    _, bo, _ = seats(game_id)
    bounce(app, sink, "bo@example.org")
    with write_session(get_engine()) as session:
        who = session.get(Person, "bo@example.org")
        who.bounced_at = utcnow() - timedelta(days=40)
        session.add(who)
    assert f"since {(utcnow() - timedelta(days=40)):%d %b %Y}" in page(client, bo)
