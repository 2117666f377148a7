"""What the player page makes once instead of on every use (issue #27), said the same as before: the
time zone form's options (zones.options) and a person's default row (store.person_of with People)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from jinja2 import Environment

from service import store
from service.store.models import Person
from service.store.rows import People
from service.views import zones

# The template's loop before the options were made in Python.
LOOP = Environment(autoescape=True).from_string(
    '{% for name, label in nearby %}<option value="{{ name }}"{% if name == zone %} selected{% endif %}>'
    "{{ label }}</option>{% endfor %}")


@pytest.mark.parametrize("zone", ["UTC", "Europe/Kyiv", "Asia/Taipei", "America/Argentina/Buenos_Aires",
                                  "Asia/Kolkata", "Etc/GMT+5", "Australia/Lord_Howe"])
@pytest.mark.parametrize("now", [datetime(2026, 1, 10, 8, 30, tzinfo=UTC), datetime(2026, 7, 4, 23, 59, tzinfo=UTC)])
def test_the_zone_options_are_the_templates_loop(zone, now):
    assert str(zones.options(zone, now)) == LOOP.render(nearby=zones.nearby(zone, now), zone=zone)
    assert f'<option value="{zone}" selected>' in zones.options(zone, now)


def test_a_default_person_is_made_once_per_people_and_is_not_among_the_stored():
    stored = Person(email="ana@example.com", time_zone="Europe/Kyiv")
    people = People({"ana@example.com": stored})
    assert store.person_of(None, "Ana@Example.com", people) is stored  # type: ignore[arg-type]
    first = store.person_of(None, "bo@example.com", people)  # type: ignore[arg-type]
    assert first.email == "bo@example.com" and first.time_zone == "UTC"
    assert store.person_of(None, "bo@example.com", people) is first  # type: ignore[arg-type]
    assert people.get("bo@example.com") is None and list(people) == ["ana@example.com"]  # bounced.py's "stored"
    other = People()
    assert store.person_of(None, "bo@example.com", other) is not first  # type: ignore[arg-type]
    plain = {"ana@example.com": stored}
    assert store.person_of(None, "bo@example.com", plain) is not store.person_of(None, "bo@example.com", plain)  # type: ignore[arg-type]


def test_the_seats_and_their_people_in_one_statement_are_players_of_and_people_of(app):
    import sqlalchemy as sa

    from service.people import identity
    from service.play import new_game
    from service.store import get_engine, read_session, write_session
    from service.store.models import Player, utcnow

    game_id = new_game("riftforce", [("Ann", "Ann@Example.org"), ("Bob", "bob@example.org")], seed=5)
    identity.set_time_zone("ann@example.org", "Europe/Kyiv", utcnow())

    def both() -> tuple[list, list, dict, dict]:
        with read_session(get_engine()) as session:
            players, people = store.seats_and_people(session, game_id)
            apart = store.players_of(session, game_id), store.people_of(session, [p.email for p in players])
            return players, apart[0], people, apart[1]

    players, alone, people, apart = both()
    assert [p.id for p in players] == [p.id for p in alone] and people == apart and isinstance(people, People)
    assert list(people) == ["ann@example.org"] and people["ann@example.org"].time_zone == "Europe/Kyiv"
    with write_session(get_engine()) as session:  # a key not its address's: its people read by address
        session.execute(sa.update(Player).where(Player.game_id == game_id, Player.seat == 0)
                        .values(address_key="someone@else.example"))
    players, alone, people, apart = both()
    assert people == apart and list(people) == ["ann@example.org"]


@pytest.mark.parametrize("move", [
    {"type": "play", "card": "fire-5", "location": 3},
    {"type": "say", "text": "<b>\"Ann's\" & Bo</b> — 植物 ✓", "n": [1, 2.5, None, True], "z": {"b": 1, "a": 2}},
])
def test_a_moves_form_value_is_tojson_forceescape_and_made_once(app, move):
    from flask import render_template_string

    from service.views.positions import LegalMove

    legal = LegalMove(move, "label")
    with app.test_request_context("/"):
        written = render_template_string("{{ legal.move|tojson|forceescape }}", legal=legal)
        assert render_template_string("{{ legal|move_value }}", legal=legal) == written
        made = legal.value_html
        assert made == written and render_template_string("{{ legal|move_value }}", legal=legal) == written
        assert legal.value_html is made
    assert legal == LegalMove(move, "label")  # (the value made is not part of what a move is)
