"""The Riftforce board's cards and guild chips drawn in Python (service/games/riftforce_tiles.py) are
byte for byte what the Jinja macros they replace drew (templates/games/riftforce/_parts.html before
issue #27, kept below), for every guild, damage, mark, owner, tile or card, page or email and
language; and everything from the words is escaped."""

from __future__ import annotations

import itertools

import pytest
from flask import render_template_string
from markupsafe import Markup, escape

from engine.riftforce.cards import ALL_GUILDS
from engine.riftforce.messages import damage
from service.games.riftforce_tiles import Tiles, html
from service.views.wording import Wording
from service.web import language

# The macros as templates/games/riftforce/_parts.html had them (their comments left out).
OLD = """
{%- set in_email = email is defined and email -%}
{%- set sprite = url_for('static', filename='board/riftforce-icons.svg') -%}
{%- macro icon(id) -%}
{%- if not in_email %}<svg class="icon" aria-hidden="true"><use href="{{ sprite }}#{{ id }}"></use></svg>{% endif -%}
{%- endmacro -%}
{%- macro card(c, short=false, classes="", own=none, whose=none) -%}
{%- set name = words.term("guild", c.guild) -%}
{%- set said -%}{{ words.card(c.id) }}{% if c.damage %}{{ _(", ") }}{{ words(damage(c.damage)) }}{% endif %}{% if whose %}{{ _(", ") }}{{ whose }}{% endif %}{% if "tired" in classes %}{{ _(", ") }}{{ _("activated this turn") }}{% elif "chosen" in classes %}{{ _(", ") }}{{ _("acting now") }}{% endif %}{%- endset -%}
<span class="{{ "tile" if short else "card" }} g-{{ c.guild }}{% if classes %} {{ classes }}{% endif %}" role="img" aria-label="{{ said }}">
{{- icon(c.guild) }}
{%- if short and not in_email %}<span class="s">{{ words.term("letters", c.guild) }}</span><span class="n">{{ name }}</span>
{%- else %}{{ words.term("letters", c.guild) if short else name }}{% endif %} {{ c.number -}}
{%- if c.damage %} <span class="dmg">−{{ c.damage }}</span>{% endif -%}
{%- if own %}<span class="own">&thinsp;|{{ own }}</span>{% endif -%}
{%- if "tired" in classes %}<span class="done">✓</span>{% endif -%}
</span>
{%- endmacro -%}
{%- macro guild(g) -%}
{%- set name = words.term("guild", g.id) -%}
<span class="card g-{{ g.id }}" role="img" aria-label="{{ name }}">{{ icon(g.id) }}{{ name }}</span>
{%- endmacro -%}
{%- macro stack(cards, up, marks, tags=none, whose=none) -%}
{%- if cards -%}
{%- for c in (cards|reverse if up else cards) -%}
{{ card(c, short=true, classes=marks.get(c.id, ""), own=tags[c.owner] if tags else none, whose=whose(c.owner) if whose else none) }}
{%- endfor -%}
{%- else %}<span class="muted">{{ _("empty") }}</span>{% endif -%}
{%- endmacro -%}
{%- macro abilities(summoners) -%}
<ul class="abilities">{% for g in summoners %}<li>{{ guild(g) }} {{ words.term("ability", g.id) }}</li>{% endfor %}</ul>
{%- endmacro -%}
"""
NEW = """
{%- set in_email = email is defined and email -%}
{%- set sprite = url_for('static', filename='board/riftforce-icons.svg') -%}
{%- set tiles = card_tiles(words, in_email, sprite, {"comma": _(", "), "activated": _("activated this turn"),
                                                      "acting": _("acting now"), "empty": _("empty")}) -%}
"""
# What each drawing is asked: [the old macro call, the new call] over `cards`, `marks`, `tags`.
CALLS = [
    ("{% for c in cards %}{{ card(c) }}|{% endfor %}", "{% for c in cards %}{{ tiles.card(c) }}|{% endfor %}"),
    ("{{ stack(cards, true, marks) }}", "{{ tiles.stack(cards, true, marks) }}"),
    ("{{ stack(cards, false, marks, tags, whose) }}", "{{ tiles.stack(cards, false, marks, tags, whose) }}"),
    ("{{ stack([], false, marks) }}", "{{ tiles.stack([], false, marks) }}"),
    ("{% for c in cards %}{{ card(c) }} {% endfor %}", "{{ tiles.hand(cards) }}"),
    ("{% for g in guilds %}{{ guild(g) }} {% endfor %}", "{% for g in guilds %}{{ tiles.guild(g) }} {% endfor %}"),
    ("{{ abilities(guilds) }}", "{{ tiles.abilities(guilds) }}"),
    ("{{ icon('back') }}", "{{ tiles.icon('back') }}"),
]
WHOSE = """{%- macro whose(s) -%}{% if s == 0 %}{{ _("yours") }}{% else %}{{ _("%(name)s’s", name=names.get(s) or _("player %(n)s", n=s + 1)) }}{% endif %}{%- endmacro -%}"""


def every_card() -> list[dict]:
    """A card of every guild and number, with and without damage, of every owner."""
    cards = []
    for n, (guild, number, hurt) in enumerate(itertools.product(ALL_GUILDS, (5, 6, 7), (0, 1, 3))):
        card = {"id": f"{guild}-{number}{'ab'[n % 2]}", "guild": guild, "number": number, "owner": n % 4}
        if hurt or n % 3:
            card["damage"] = hurt
        cards.append(card)
    return cards


def draw(calls: str, words, email: bool, head: str, **more) -> str:
    cards = every_card()
    marks = {cards[1]["id"]: "tired", cards[4]["id"]: "chosen", cards[7]["id"]: "tired"}
    return render_template_string(head + WHOSE + calls, words=words, email=email, damage=damage,
                                  card_tiles=Tiles, cards=cards, marks=marks, tags={0: "A", 1: "B<", 2: "C", 3: "D"},
                                  names={1: "Bo & <i>", 2: "Cy"}, guilds=[{"id": g} for g in ALL_GUILDS], **more)


@pytest.mark.parametrize("email", [False, True], ids=["page", "email"])
@pytest.mark.parametrize("reader", ["en", "uk", "zh_Hant"])
def test_the_cards_and_guilds_are_the_macros_own_html(app, reader, email):
    words = Wording("riftforce", reader, 0, {0: "Ann", 1: "Bo"})
    with app.test_request_context("/", headers={"Accept-Language": {"zh_Hant": "zh-TW"}.get(reader, reader)}):
        assert language.current() == reader
        for old, new in CALLS:
            before, after = draw(old, words, email, OLD), draw(new, words, email, NEW)
            assert after == before, (old, new)
            assert len(before) > 20 or (email and "icon" in old)  # (no icons in an email)


class Hostile:
    """Game words that try to break out of an attribute and inject markup."""

    def term(self, kind: str, word: str) -> str:
        return f'<b x="{kind}">\'{word}&'

    def card(self, cid: str) -> str:
        return f'"><script>{cid}</script>'

    def __call__(self, message) -> str:
        return "<img src=x onerror=alert(1)>"


def test_everything_from_the_words_is_escaped_as_the_macros_escaped_it(app):
    with app.test_request_context("/"):
        for old, new in CALLS:
            before, after = draw(old, Hostile(), False, OLD), draw(new, Hostile(), False, NEW)
            assert after == before, (old, new)
            assert "<script>" not in after and "<b " not in after and "<img" not in after
        card = Tiles(Hostile(), False, "/s.svg?a=1&b=2", {"comma": Markup(", "), "activated": "x", "acting": "y",
                                                          "empty": "<none>"}).card(
            {"id": "fire-5a", "guild": 'fire"', "number": 5, "damage": 1}, short=True, classes='tired"', own="<A>")
        assert 'g-fire&#34; tired&#34;"' in card and "&lt;A&gt;" in card and "s.svg?a=1&amp;b=2#fire&#34;" in card


@pytest.mark.parametrize("value", ["plain", "<&>'\"", "a & b", "", "“quotes” ’", 7, None, Markup("<b>kept</b>")])
def test_html_escapes_as_markupsafe_does(value):
    assert html(value) == str(escape(value))
