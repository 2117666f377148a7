"""Issue #26, Beyond the Rift's last English words (docs/i18n.md "What remains"), in Ukrainian and
Traditional Chinese, English as it was:

- the HTML board's "Item to place" (a reward prompt) names each of the item's cards with its rules text
  in the reader's language (beyond_the_rift_text.card_words, as the text board says it);
- the follow-up offer's stash choices do the same;
- a "choose" prompt's options that are not cards are worded: a hero by seat, an enemy and a door by id
  and name, an ally by name, "any target"; an amount's numbers stay numbers;
- the WHEN lines of a hand-typed plan say their conditions in words, not as the plan's keys."""

from __future__ import annotations

import html
import re

import pytest
from flask import render_template
from flask_babel import force_locale

import engine
from engine.beyond_the_rift.content import CONTENT
from engine.beyond_the_rift.words import card_text
from engine.messages import Message
from service import lang
from service.games.beyond_the_rift import ADAPTER
from service.games.beyond_the_rift_text import card_words
from service.views.wording import Wording
from tests.i18n.test_no_english import HEADERS, get
from tests.i18n.test_no_english_beyond_the_rift import SCRIPT, shown_english
from tests.i18n.test_pages_words import player_path
from tests.web.test_beyond_campaign_equip import lost_game, offer_section
from tests.web.test_board_beyond import NAMES, TEMPLATE, sampler_view

LANGUAGES = ("uk", "zh_Hant")
ITEM = next(iter(CONTENT.items))  # an item with cards of more than one kind would do as well


def draw(app, view: dict, language: str, seat: int = 0) -> str:
    names = {s: name for s, (name, _) in enumerate(NAMES)}
    with app.test_request_context(), force_locale(language):
        board = render_template(
            TEMPLATE,
            view=view,
            seat=seat,
            names=names,
            email=False,
            over=None,
            rules=None,
            game=None,
            words=Wording("beyond-the-rift", language, seat, names),
            language=language,
            **ADAPTER.board_words(view),
        )
    return html.unescape(re.sub(r"<[^>]+>", " ", board))


def rewarding(view: dict, item: str) -> dict:
    """The view with seat 0 asked where `item` goes (as engine/beyond_the_rift/views.py shows it)."""
    d = CONTENT.items[item]
    view["prompt"] = {
        "kind": "reward",
        "seats": [0],
        "item": {
            "id": item,
            "name": d["name"],
            "part": d["part"],
            "cards": [{"name": c["name"], "count": c["count"], "text": card_text(c)} for c in d["cards"]],
        },
    }
    return view


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_item_to_place_names_its_cards_rules_in_the_readers_language(app, language):
    board = draw(app, rewarding(sampler_view(), ITEM), language)
    words = Wording("beyond-the-rift", language)
    line = next(ln for ln in board.splitlines() if words.term("item", ITEM) in ln and ":" in ln)
    for c in CONTENT.items[ITEM]["cards"]:
        said = card_words(c, words, lang.speaker(language)[0])
        assert said in line and SCRIPT[language].search(said), (said, line)
        assert card_text(c) not in line
    assert shown_english(line) == [], shown_english(line)


def test_the_item_to_place_keeps_its_english(app):
    board = draw(app, rewarding(sampler_view(), ITEM), "en")
    for c in CONTENT.items[ITEM]["cards"]:
        assert f"{c['count']}x {c['name']} ({card_text(c)})" in board


def choice(board: str, language: str, kind: str) -> str:
    """What the board's "Your choice" line offers."""
    gettext = lang.speaker(language)[0]
    head = gettext("Your choice (%(kind)s):", kind=gettext(kind))
    line = next(ln for ln in board.splitlines() if head in ln)
    return line.split(head, 1)[1].strip()


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_prompts_targets_are_worded_and_its_numbers_stay_numbers(app, language):
    view = sampler_view()
    door = next(t for t in view["terrain"] if t["door"])
    view["prompt"] = {"kind": "choose", "seats": [0], "options": [1, "any", "E2", door["id"], "ally:TR11a"]}
    said = choice(draw(app, view, language), language, "choose a target")
    words = Wording("beyond-the-rift", language)
    hero = view["heroes"][1]
    assert said.startswith(words.term("hero", f"{hero['hero']}/{hero['side']}")), said
    enemy = next(e for e in view["enemies"] if e["id"] == "E2")
    assert f"E2 {words.card_named(enemy['name'])}" in said, said
    assert f"{door['id']} {words.card_named(words.term('terrain', door['name']))}" in said, said
    assert words.card_named("Hunting Hound") in said and "ally:" not in said, said
    assert not re.search(r"\bany\b", said) and not re.search(r"(?<!\w)1(?!\w)", said), said
    assert shown_english(said) == [], shown_english(said)

    view["prompt"] = {"kind": "amount", "seats": [0], "options": [1, 2, 3]}
    assert re.fullmatch(r"1\s*\S\s*2\s*\S\s*3\s*\S?", choice(draw(app, view, language), language, "choose an amount"))


def test_a_prompts_options_keep_their_english(app):
    view = sampler_view()
    view["prompt"] = {"kind": "choose", "seats": [0], "options": [1, "any", "E2"]}
    assert re.search(r"Your choice \(choose\):\s*1, any, E2\.", draw(app, view, "en"))


def when_said(language: str) -> str:
    """The WHEN lines of a hand-typed plan as the board's standing orders say them."""
    rules = engine.get("beyond-the-rift")
    state = None
    for event in rules.start(1, {}, 1):
        state = rules.evolve(state, event)
    enemy = next(iter(CONTENT.enemies.values()))["name"]
    state["heroes"][0]["plan"]["when"] = [
        {"if": {"attack_at_least": 3, "enemy": enemy}, "margin": 1},
        {"if": {"damage_at_least": 3}, "margin": 2},
        {"if": {}, "margin": 0},
    ]
    said = next(o for o in rules.view(state, 0)["orders_said"] if o["key"] == "when")
    return Wording("beyond-the-rift", language).arg(Message.from_json(said["value"]))


def test_the_when_lines_keep_their_english():
    enemy = next(iter(CONTENT.enemies.values()))["name"]
    assert when_said("en") == (
        f"attack_at_least 3, enemy {enemy}: attack + 1; damage_at_least 3: attack + 2; any: attack + 0"
    )


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_when_lines_say_their_conditions_in_words(language):
    said = when_said(language)
    words = Wording("beyond-the-rift", language)
    assert "_at_least" not in said and "enemy" not in said and "any" not in said, said
    assert words.card(next(iter(CONTENT.enemies))) in said, said
    lines = re.split(r"[;；]", said)
    assert len(lines) == 3 and all(SCRIPT[language].search(line) for line in lines), said


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_follow_ups_stash_choices_name_their_cards_rules(app, client, language):
    game_id = lost_game()
    page = get(client, player_path(game_id, 0), headers=HEADERS[language]).get_data(as_text=True)
    offer = offer_section(page)
    words = Wording("beyond-the-rift", language)
    choices = dict(re.findall(r'<option value="([\w-]+)">([^<]*)</option>', offer))
    stash = {k: v for k, v in choices.items() if k in CONTENT.items}
    assert stash, offer
    for item, said in stash.items():
        said = html.unescape(said)
        for c in CONTENT.items[item]["cards"]:
            assert card_words(c, words, lang.speaker(language)[0]) in said, (item, said)
        assert shown_english(said) == [], shown_english(said)
