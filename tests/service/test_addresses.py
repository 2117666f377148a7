"""Players' addresses are checked on every way in (the form, the command line, new_game itself, which a
campaign's follow-up calls) with email-validator: what a player really types is accepted and stored
normalized, what cannot receive mail is refused with a message that says why, and nothing is sent."""

from __future__ import annotations

import pytest
from sqlmodel import select

import engine
from service.errors import Invalid
from service.mail import addresses
from service.play import new_game
from service.store import get_engine, read_session
from service.store.models import Player
from tests.service import toygame
from tests.service.helpers import outbox_rows
from tests.web.test_start_form import post


@pytest.mark.parametrize("typed, stored", [
    ("ann@example.org", "ann@example.org"),
    ("Ann.Lee+riftpost@Example.ORG", "Ann.Lee+riftpost@example.org"),  # the domain has no case
    ("o'brien@mail.example.co.uk", "o'brien@mail.example.co.uk"),
    ("ann@bücher.example", "ann@bücher.example"),
    ("ann@xn--bcher-kva.example", "ann@bücher.example"),  # one domain, one stored form
    ("x@example.com", "x@example.com"),
])
def test_what_players_type_is_accepted_and_normalized(typed, stored):
    assert addresses.normalized(typed) == stored


@pytest.mark.parametrize("typed, why", [
    ("ann", "An email address must have an @-sign."),
    ("ann@localhost", "It should have a period."),  # the embedded default's sender, not a player's inbox
    ("ann@x", "It should have a period."),
    ("ann@printer.local", "special-use or reserved name"),
    ("ann@example.test", "special-use or reserved name"),
    ("ann@example..org", "two periods in a row"),
    ("ann smith@example.org", "invalid character"),
    ("a@b@example.org", "invalid character"),
    ("анна@example.org", "Internationalized characters before the @-sign are not supported"),
    ('"ann"@example.org', "Quoting the part before the @-sign is not allowed"),
])
def test_what_cannot_receive_mail_is_refused_saying_why(typed, why):
    with pytest.raises(Invalid) as refused:
        addresses.normalized(typed)
    assert refused.value.message.startswith(f"{typed!r} is not an email address. ")
    assert why in refused.value.message


def test_the_form_refuses_an_address_that_cannot_receive_mail(client):
    status, said = post(client, game=toygame.NAME, email0="ann@localhost", email1="bob@example.org")
    assert status == 422 and said == ["'ann@localhost' is not an email address. The part after the @-sign is not "
                                      "valid. It should have a period."]
    assert outbox_rows() == []


def test_the_form_stores_the_normalized_address_and_compares_normalized(client, app):
    status, _ = post(client, game=toygame.NAME, email0="Ann@EXAMPLE.org", email1="bob@example.org")
    assert status in (302, 303)
    with read_session(get_engine()) as session:
        assert {p.email for p in session.exec(select(Player))} == {"Ann@example.org", "bob@example.org"}
    status, said = post(client, game=toygame.NAME, email0="ann@xn--bcher-kva.example", email1="ann@bücher.example")
    assert said == ["ann@bücher.example is entered for players 1 and 2; each player needs an address of their own."]


def test_the_command_line_refuses_an_address_that_cannot_receive_mail(app):
    result = app.test_cli_runner().invoke(args=["new-game", toygame.NAME, "ann@example.org", "bob@printer.local"])
    assert result.exit_code != 0 and "'bob@printer.local' is not an email address." in result.output
    assert outbox_rows() == []


def test_new_game_itself_refuses_and_normalizes_for_every_caller(app):
    """A campaign's next game (service/play/followups.py) passes the addresses stored with the last one
    straight to new_game: the check there covers it, and every way in that may come."""
    with pytest.raises(engine.IllegalMove) as refused:
        new_game(toygame.NAME, [("Ann", "ann@x"), ("Bob", "bob@example.org")], {"target": 60}, seed=1)
    assert refused.value.code == "bad_options" and "'ann@x' is not an email address." in refused.value.reason
    assert outbox_rows() == []
    game_id = new_game(toygame.NAME, [("", "Ann@Example.ORG"), ("Bob", "bob@example.org")], {"target": 60}, seed=1)
    with read_session(get_engine()) as session:
        players = session.exec(select(Player).where(Player.game_id == game_id).order_by(Player.seat)).all()
    assert [(p.name, p.email) for p in players] == [("Ann", "Ann@example.org"), ("Bob", "bob@example.org")]
