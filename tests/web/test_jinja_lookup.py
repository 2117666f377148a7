"""`a.b` in the web's templates on a plain dict (service/web/jinja_lookup.py): found by key without
Jinja's attribute-first try (an AttributeError raised and caught for each, ~700 a Riftforce page:
issue #27), and every lookup answers what Jinja's own answers."""

from __future__ import annotations

from collections import OrderedDict

import jinja2
from flask import render_template_string


def test_a_dicts_key_is_read_without_jinjas_attribute_first_lookup(app, monkeypatch):
    asked = []
    real = jinja2.Environment.getattr
    monkeypatch.setattr(jinja2.Environment, "getattr", lambda env, obj, name: asked.append(name) or real(env, obj, name))
    with app.test_request_context():
        assert render_template_string("{{ c.guild }} {{ c.number }}", c={"guild": "fire", "number": 6}) == "fire 6"
    assert asked == []


def test_every_lookup_answers_as_jinjas_own(app):
    page = ("{{ d.guild }}|{{ d.missing is undefined }}|{{ d.items is callable }}|{{ d.get('guild') }}|"
            "{{ o.guild }}|{{ s.upper() }}|{{ d.keys()|list|length }}")
    context = dict(d={"guild": "fire", "items": "not a method", "keys": 1}, o=OrderedDict(guild="ice"), s="ab")
    with app.test_request_context():
        ours = render_template_string(page, **context)
    plain = jinja2.Environment(autoescape=True).from_string(page).render(**context)
    assert ours == plain == "fire|True|True|fire|ice|AB|3"
