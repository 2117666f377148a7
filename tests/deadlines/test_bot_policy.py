"""Bot seats in the service, and the "a bot plays for you" timeout policy (service/play/bots.py)."""

from __future__ import annotations

import random

import pytest
from sqlmodel import select

import engine
from service import names, store
from service.errors import Invalid
from service.play import bots, new_game
from service.play.startform import parse_players
from service.store import get_engine, read_session
from service.store.models import Event, Game, Outbox, Player
from tests.consent import preconsent
from tests.deadlines.helpers import T0, sweep


def _state(game_id):
    with read_session(get_engine()) as session:
        game = session.get(Game, game_id)
        state, _ = store.load_state(session, game)
        return game, state


def test_a_bot_seat_has_no_address_and_gets_no_email(app):
    preconsent("ann@example.org")
    game_id = new_game("riftforce", [("Ann", "ann@example.org"), ("", "bot:strong")], seed=3)
    with read_session(get_engine()) as session:
        seats = {p.seat: p for p in session.exec(select(Player).where(Player.game_id == game_id))}
        mailed = {row.player_id for row in session.exec(select(Outbox).where(Outbox.game_id == game_id))}
    assert seats[1].name == "Bot (strong)" and seats[1].email == "" and bots.level_of(seats[1]) == "strong"
    assert mailed == {seats[0].id}


def test_a_bot_seat_is_shown_by_its_own_name_which_nobody_can_type(app):
    """Bots are named "Bot (normal)" (issue #25) on every page, email and JSON: the name filter that
    strips a typed name's punctuation leaves the service's own names as they are, and refuses them typed."""
    preconsent("ann@example.org")
    game_id = new_game("riftforce", [("Ann", "ann@example.org"), ("", "bot:easy")], seed=3)
    with read_session(get_engine()) as session:
        seats = list(session.exec(select(Player).where(Player.game_id == game_id)))
    assert store.seat_names(seats) == {0: "Ann", 1: "Bot (easy)"}
    assert names.name_problem("Bot (easy)") is not None
    assert names.player_name("Bot (easy) www.x.example", 1) == "Bot easy www x example"


def test_the_creators_page_says_nothing_of_invitations_for_a_bot_seat(app, client):
    """A bot has no address, so nothing asks it to join: the creator's page (the invitation notes,
    service/views/invitations.py) never says a bot has "not answered an earlier invitation"."""
    from service.views import invitations
    from tests import tokens

    preconsent("ann@example.org")
    game_id = new_game("riftforce", [("Ann", "ann@example.org"), ("", "bot:normal")], seed=3)
    with read_session(get_engine()) as session:
        seats = sorted(session.exec(select(Player).where(Player.game_id == game_id)), key=lambda p: p.seat)
        assert invitations.notes(session, seats) == {} and invitations.notes(session, seats, fresh=True) == {}
    page = client.get(f"/p/{tokens.page(seats[0])}").get_data(as_text=True)
    assert "invitation" not in page.lower(), page


def test_bot_seats_as_typed(app):
    assert parse_players(["ann@example.org", "bot", "Zed=bot:easy", "bot"]) == [
        ("", "ann@example.org"), ("", "bot:normal"), ("Zed", "bot:easy"), ("", "bot:normal")]
    with pytest.raises(Invalid, match="bot:LEVEL"):
        parse_players(["ann@example.org", "bot:godlike"])
    with pytest.raises(engine.IllegalMove, match="Seat 1 must be a person"):
        new_game("riftforce", [("", "bot"), ("Ann", "ann@example.org")])


def test_the_bot_task_plays_once_per_position(app):
    preconsent("ann@example.org")
    game_id = new_game("riftforce", [("", "bot:easy"), ("", "bot:easy")], seed=5)
    game, _ = _state(game_id)
    seat, seq = game.to_act[0], game.seq
    assert bots.play(game_id, seat, seq) == "played"
    assert bots.play(game_id, seat, seq) == "stale"  # a duplicate task: the position moved on
    game, _ = _state(game_id)
    assert game.seq > seq


def test_the_bot_policy_plays_the_timed_out_seat_and_the_person_plays_on(app):
    """At the deadline the bot plays the seat's turn (the move the bot chooses from the seat's view,
    recorded as a timeout); the person's next turn is theirs again: the seat never became a bot."""
    preconsent("ann@example.org", "bob@example.org")
    players = [("Ann", "ann@example.org"), ("Bob", "bob@example.org")]
    game_id = new_game("riftforce", players, seed=9, deadline_hours=24, policy="bot", now=T0)
    game, state = _state(game_id)
    seat, seq, secret = game.to_act[0], game.seq, game.secret
    expected = bots.choose(engine.get("riftforce"), state, seat, secret, seq, bots.STAND_IN)
    sweep(25)
    with read_session(get_engine()) as session:
        first = session.exec(select(Event).where(Event.game_id == game_id, Event.seq == seq + 1)).one()
        seats = list(session.exec(select(Player).where(Player.game_id == game_id)))
    assert first.kind == "timeout" and first.actor == seat
    game, _ = _state(game_id)
    assert game.seq > seq
    assert all(bots.level_of(p) is None for p in seats)  # still people's seats
    # the move played is the bot's: replaying it from the position gives the same first event
    rules = engine.get("riftforce")
    assert rules.play(state, seat, expected, random.Random(0))[0]["type"] == first.type
