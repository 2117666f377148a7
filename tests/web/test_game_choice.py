"""Issue #22 item 6: the game is chosen first.  The start page and GET /games/new list the games, each
with its line, its player counts, its rules and a way to its own form; a game's form shows only its
modes and the chosen mode's options (the rest folded under "More options"); a mode's button brings
the same form back in that mode with what was typed; mistakes come back with the input kept; an
unknown game is a 404 that names the games; each game's rules in short at /rules/<game>, linked from
the form and from every page of a game."""

from __future__ import annotations

import html
import re

import pytest

from service.games import adapter as game_adapter
from service.games import every
from service.play import new_game
from tests import tokens
from tests.i18n.test_no_english import HEADERS, get
from tests.service import toygame
from tests.service.helpers import current, outbox_rows
from tests.web.pages import START_FORM, csrf_token, start_form, text

GAMES = ["riftforce", "riftwalker", "beyond-the-rift"]
# What a rules page must tell, by game: its setup, a turn, how to win, its modes.
RULES_WORDS = {
    "riftforce": [
        "Setup",
        "A turn: exactly one action",
        "Play",
        "Activate",
        "Check &amp; Draw",
        "12 Riftforce",
        "Duel (2 players)",
        "Team play (3 or 4 players)",
        "Solo (1 player, against the trainer)",
        "fewer than 7",
    ],
    "riftwalker": [
        "Setup",
        "A turn, in four steps",
        "Element",
        "Rift",
        "Burst",
        "Refresh",
        "3 by 3 grid",
        "7, 6 or 5 rifts",
    ],
    "beyond-the-rift": [
        "Setup",
        "A round, in five phases",
        "Heroes",
        "Enemies",
        "Quest",
        "Draw",
        "End",
        "How to win, how to lose",
        "Old Friends",
        "threat",
    ],
}


def visible(page: str) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page)))


@pytest.mark.parametrize("url", ["/", "/games/new"])
def test_the_games_are_listed_with_their_line_player_counts_rules_and_form(client, url):
    page = text(client.get(url))
    assert 'name="email0"' not in page  # no form yet: the game first
    for adapter in every():
        title = adapter.rules.title or adapter.name
        assert f'<h2 id="game-{adapter.name}">{title}</h2>' in page
        assert f'href="{start_form(adapter.name)}"' in page
    words = visible(page)
    for game in GAMES:
        adapter = next(a for a in every() if a.name == game)
        assert adapter.summary and adapter.summary in words
        assert f'href="/rules/{game}"' in page
    assert "Duel: 2 players; Team play: 3 or 4 players; Solo: 1 player." in words
    assert "2 to 4 players." in words and "1 to 4 players." in words
    assert f'href="/rules/{toygame.NAME}"' not in page  # a game without a summary links none


def test_a_link_naming_the_game_leads_to_its_form(client):
    answer = client.get("/games/new?game=riftforce&mode=solo")
    assert answer.status_code == 302 and answer.headers["Location"].endswith("/games/new/riftforce?mode=solo")


def test_a_games_form_shows_only_its_modes_and_options_with_the_rest_folded(client):
    duel = text(client.get("/games/new/riftforce"))
    assert "<h1>Start Riftforce</h1>" in duel and 'href="/rules/riftforce"' in duel
    folded = duel[duel.index('<details class="advanced">') : duel.index("</details>")]
    assert 'name="policy"' in folded and 'name="deadline"' not in folded
    assert "Beyond the Rift" not in visible(duel) and 'name="btr_scenario"' not in duel
    walker = text(client.get("/games/new/riftwalker"))
    assert 'name="show_mode"' not in walker and 'name="mode"' not in walker  # one way to play: no mode buttons
    assert 'name="guilds"' not in walker and 'name="stars5"' not in walker
    beyond = text(client.get("/games/new/beyond-the-rift"))
    assert 'name="btr_scenario"' in beyond and 'name="btr_hero3"' in beyond and 'name="guilds"' not in beyond
    # Its free options have no field of their own: the KEY=VALUE box, folded.
    folded = beyond[beyond.index('<details class="advanced">') : beyond.index("</details>")]
    assert 'name="options"' in folded
    solo = text(client.get("/games/new/riftforce?mode=solo"))
    folded = solo[solo.index('<details class="advanced">') : solo.index("</details>")]
    assert 'name="and_number"' in folded and 'name="stars5"' not in folded and 'name="stars5"' in solo
    # Enter in a field submits with the form's first button: the hidden "Start", never a mode's.
    assert solo.index('<button type="submit" hidden') < solo.index('name="show_mode"')


def test_an_unknown_game_is_a_404_that_names_the_games(client):
    for url in ("/games/new/chess", "/rules/chess"):
        answer = client.get(url)
        assert answer.status_code == 404, url
        words = visible(text(answer))
        assert "No such game" in words and "There is no game called “chess” here." in words
        assert "Riftforce" in words and "Riftwalker" in words and "Beyond the Rift" in words
        assert 'href="/games/new"' in text(answer)
    toy = client.get(f"/rules/{toygame.NAME}")
    assert toy.status_code == 404 and "has no rules summary here yet" in text(toy)


@pytest.mark.parametrize("game", GAMES)
def test_each_game_has_a_rules_page_with_its_key_words(client, game):
    answer = client.get(f"/rules/{game}")
    assert answer.status_code == 200
    page = text(answer)
    for word in RULES_WORDS[game]:
        assert word in page, word
    assert f'href="{start_form(game)}"' in page


# The same rules in the reader's language (issue #26): a word of each language's own template, by game.
RULES_SAID = {
    ("riftforce", "uk"): ["Захопити території й взяти карти", "12 сил розлому", "Соло (1 гравець, проти тренера)"],
    ("riftforce", "zh_Hant"): ["檢查並抽牌", "12 點裂隙之力", "單人（1 位玩家，對抗訓練師）"],
    ("riftwalker", "uk"): ["Вітер, Вогонь, Життя, Буря, Земля й Вода", "сіткою 3 на 3", "Підрив"],
    ("riftwalker", "zh_Hant"): ["空氣、火、生命、閃電、土和水", "3 × 3 的矩陣", "爆破"],
    ("beyond-the-rift", "uk"): ["«Вихід через бічні двері»", "Фаза ворогів", "Зоні завдання"],
    ("beyond-the-rift", "zh_Hant"): ["「從側門脫身」", "敵人階段", "任務區"],
}


def rules_text(page: str) -> str:
    return re.search(r'(?s)<div class="rules-text">(.*?)</div><!-- rules-text -->', page).group(1)


def markup(page: str) -> list[str]:
    """The rules text's tags, in order (its words left out): one structure in every language."""
    return re.findall(r"</?[a-z0-9]+", rules_text(page))


@pytest.mark.parametrize(("game", "language"), sorted(RULES_SAID))
def test_a_rules_page_is_in_the_readers_language_with_the_english_ones_markup(client, game, language):
    english = text(get(client, f"/rules/{game}"))
    answer = get(client, f"/rules/{game}", headers=HEADERS[language])
    assert answer.status_code == 200
    page = text(answer)
    for words in RULES_SAID[(game, language)]:
        assert words in page, words
    for words in RULES_WORDS[game][1:]:  # the English prose is gone ("Setup" is a heading, translated too)
        assert words not in rules_text(page), words
    assert markup(page) == markup(english)
    if language == "zh_Hant":  # no line break of the template between two Chinese characters (a space on the page)
        assert not re.search(r"[\u3000-\u9fff\uff00-\uffef]\s+[\u3000-\u9fff\uff00-\uffef]", rules_text(page))


def test_a_rules_template_without_the_readers_language_is_shown_in_english(client, app, monkeypatch, tmp_path):
    (tmp_path / "toy").mkdir()
    (tmp_path / "toy" / "rules.html").write_text("<p>Toss the coin.</p>")
    monkeypatch.setattr(app.jinja_loader, "searchpath", [*app.jinja_loader.searchpath, str(tmp_path)])
    monkeypatch.setattr(game_adapter(toygame.NAME), "rules_template", "toy/rules.html", raising=False)
    answer = get(client, f"/rules/{toygame.NAME}", headers=HEADERS["uk"])
    assert answer.status_code == 200
    assert "<p>Toss the coin.</p>" in rules_text(text(answer)) and '<html lang="uk">' in text(answer)


def test_the_pages_of_a_game_link_its_rules(client, app):
    game_id = new_game("riftforce", [("Ann", "ann@example.org"), ("Bob", "bob@example.org")], seed=3)
    for url in (f"/p/{tokens.page(1)}", f"/games/{game_id}"):
        assert '<a href="/rules/riftforce">The rules of Riftforce</a>' in text(client.get(url)), url


def _form(client, **fields) -> dict[str, str]:
    return {"csrf_token": csrf_token(text(client.get(START_FORM))), "game": "riftforce", **fields}


def test_a_modes_button_shows_that_mode_with_what_was_typed_and_starts_nothing(client):
    typed = {
        "name0": "Ann",
        "email0": "ann@example.org",
        "name1": "Bob",
        "email1": "bob@example.org",
        "name2": "Cy",
        "email2": "cy@example.org",
        "deadline": "24",
    }
    answer = client.post("/games/new", data=_form(client, mode="team", show_mode="solo", **typed))
    assert answer.status_code == 200
    page = text(answer)
    assert 'name="mode" value="solo"' in page and 'name="stars5"' in page
    for key, value in typed.items():  # every typed row is kept, the rows beyond solo's one included
        assert f'name="{key}"' in page and f'value="{value}"' in page, key
    back = client.post("/games/new", data=_form(client, mode="solo", show_mode="duel", **typed))
    assert back.status_code == 200 and 'name="guilds"' in text(back) and 'value="cy@example.org"' in text(back)
    # A mode nobody offers: the default one.
    odd = client.post("/games/new", data=_form(client, show_mode="quest", **typed))
    assert odd.status_code == 200 and 'name="mode" value="duel"' in text(odd)
    assert outbox_rows() == []


def test_a_mistake_comes_back_with_what_was_typed(client):
    answer = client.post(
        "/games/new",
        data=_form(
            client,
            mode="solo",
            name0="Ann",
            email0="ann@example.org",
            stars5="3",
            stars6="9",
            and_number="6",
            and_end="B",
            trainer="named",
            trainer_fire="on",
            deadline="12",
            policy="skip",
        ),
    )
    assert answer.status_code == 422
    page = text(answer)
    assert "The challenge level of the 6s must be 1 to 4 stars." in visible(page)
    assert 'value="Ann"' in page and 'value="ann@example.org"' in page and 'value="12"' in page
    assert '<option value="3" selected>' in page and '<option value="B" selected>' in page
    assert 'id="trainer_fire" name="trainer_fire" value="on" checked' in page
    assert 'name="trainer" value="named" checked' in page
    assert '<option value="skip" selected>' in page and '<details class="advanced" open>' in page
    # An options box typed into (the command line's words) is shown again though the form has no box.
    typed = client.post(
        "/games/new", data=_form(client, email0="a@example.org", email1="b@example.org", options="colour")
    )
    assert typed.status_code == 422 and ">colour</textarea>" in text(typed)
    assert outbox_rows() == []


def test_an_unknown_game_posted_is_the_list_again_with_the_reason(client):
    answer = client.post("/games/new", data=_form(client, game="chess", email0="a@example.org"))
    assert answer.status_code == 422
    assert "There is no game called “chess”: choose one below." in visible(text(answer))
    assert f'href="{start_form("riftforce")}"' in text(answer)


def test_team_play_for_four_from_its_form(client):
    emails = {f"email{i}": f"p{i}@example.org" for i in range(4)}
    answer = client.post("/games/new", data=_form(client, mode="team", **emails))
    assert answer.status_code == 303, text(answer)
    game, state = current(int(answer.headers["Location"].split("/")[-2]))
    assert game.options == {"mode": "team"} and state["players"] == 4
