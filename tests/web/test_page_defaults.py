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
