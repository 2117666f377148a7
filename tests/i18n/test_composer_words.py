"""The step composer's count of choices in the page's language (issue #26): a step may have any number
of choices, so the page hands static/composer.js the phrase per CLDR plural category and the script
asks the browser's Intl.PluralRules which one a count takes (service/web/play.py `plural_forms`)."""

from __future__ import annotations

import pytest
from babel import Locale

from service.web.play import composer_words


@pytest.mark.parametrize(("language", "expected"), [
    ("en", {"one": "{n} choice", "other": "{n} choices"}),
    ("uk", {"one": "{n} варіант", "few": "{n} варіанти", "many": "{n} варіантів"}),
    ("zh-Hant", {"other": "{n} 個選擇"}),
])
def test_a_steps_choices_are_counted_in_the_pages_language_by_cldr_category(app, language, expected):
    with app.test_request_context("/", headers={"Accept-Language": language}):
        forms = composer_words()["choices"]
    assert forms == expected


@pytest.mark.parametrize(("n", "form"), [(1, "варіант"), (2, "варіанти"), (5, "варіантів"), (21, "варіант"),
                                         (22, "варіанти"), (111, "варіантів")])
def test_ukrainian_counts_take_the_form_their_cldr_category_names(n, form):
    # what Intl.PluralRules("uk").select(n) answers is CLDR's rule, the same Babel applies here
    forms = {"one": "варіант", "few": "варіанти", "many": "варіантів"}
    assert forms[Locale.parse("uk").plural_form(n)] == form
