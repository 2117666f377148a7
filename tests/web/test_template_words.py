"""The templates' gettext (service/web/template_words.py): the reader's catalog is found once a
request, not once a word (issue #27, the player page's CPU), and a language forced or changed during
the request (force_locale: an email's, a just-chosen language's; refresh) is still the one said."""

from __future__ import annotations

import flask_babel
from flask import render_template_string
from flask_babel import force_locale, refresh

from service import store
from service.play import new_game
from service.store import get_engine, write_session
from service.web import template_words
from tests import tokens
from tests.service import toygame

WORDS = "{{ _('Change') }}|{{ ngettext('%(num)d day', '%(num)d days', 3) }}|{% trans %}Change{% endtrans %}"


def test_a_player_page_asks_flask_babel_for_the_catalog_a_few_times_not_once_a_word(client, monkeypatch):
    game_id = new_game(toygame.NAME, [("Ann", "a@example.org"), ("Bob", "b@example.org")], seed=4)
    with write_session(get_engine()) as session:
        player_id = [p for p in store.players_of(session, game_id) if p.seat == 0][0].id
    asked = []
    real = flask_babel.get_translations
    counted = lambda: asked.append(1) or real()  # noqa: E731
    monkeypatch.setattr(flask_babel, "get_translations", counted)  # what Flask-Babel's template lambdas ask
    monkeypatch.setattr(template_words, "get_translations", counted)
    client.get(f"/p/{tokens.page(player_id)}", headers={"Accept-Language": "uk"})  # warm: templates compiled
    asked.clear()
    page = client.get(f"/p/{tokens.page(player_id)}", headers={"Accept-Language": "uk"})
    assert page.status_code == 200
    assert 'lang="uk"' in page.text
    assert len(asked) <= 2, len(asked)  # (Flask-Babel's own template callables: one a word, ~100 here)


def test_the_templates_words_follow_force_locale_and_refresh_within_a_request(app):
    with app.test_request_context(headers={"Accept-Language": "uk"}):
        ukrainian = render_template_string(WORDS)
        assert ukrainian.split("|")[0] == "Змінити"
        with force_locale("zh_Hant"):
            chinese = render_template_string(WORDS)
        assert chinese.split("|")[0] not in ("Change", "Змінити")
        assert render_template_string(WORDS) == ukrainian  # back to the reader's once the forced one ends
        with force_locale("en"):
            assert render_template_string(WORDS) == "Change|3 days|Change"
        refresh()
        assert render_template_string(WORDS) == ukrainian


def test_the_templates_words_are_escaped_as_jinja_newstyle_gettext_escapes_them(app):
    with app.test_request_context():
        said = render_template_string("{{ _('%(name)s left', name='<b>') }}")
        assert said == "&lt;b&gt; left"
        assert render_template_string("{{ _('100%% sure') }}|{{ _('<i>') }}") == "100% sure|<i>"  # a msgid is markup


def test_a_placeholder_may_be_named_as_the_functions_own_parameters(app):
    """Jinja's own gettext takes its text positionally only: a word's placeholders named `string`,
    `plural`, `singular` or `context` are the word's, not a second value for the text (a 500 else)."""
    with app.test_request_context():
        assert render_template_string("{{ _('a %(string)s', string='b') }}") == "a b"
        assert render_template_string("{% trans string='b' %}a {{ string }}{% endtrans %}") == "a b"
        assert render_template_string(
            "{{ ngettext('%(num)d %(plural)s', '%(num)d %(plural)ss', 2, plural='day') }}") == "2 days"
        assert render_template_string("{{ pgettext('c', 'x %(context)s %(singular)s', singular='s') }}") == "x c s"
