"""Issue #26, Beyond the Rift: every word of its board, its headline and its follow-up in the reader's
language.  A 1-hero and a 3-hero game played past a rift's turn, read in Ukrainian and Traditional
Chinese: the player page, the spectator page and the history page, the turn email (its HTML and its
plain part), the finished game's email and the follow-up offer of a campaign's scenario, each with the
board, hold no English word but names (`english_words` of tests/i18n/test_no_english.py; ids with
digits in them, "E2", "BV12a", are not words; nor are the board's abbreviations in capitals, A3 D2, W,
F, explained by its translated legend).  No board is marked `lang="en"` any more.  The rift's headline
reaches a Ukrainian reader's email in Ukrainian.  In Chromium the player page fits 375 and 1280 px in
both languages and axe finds nothing serious (RIFTPOST_SHOTS=folder keeps the screenshots)."""

from __future__ import annotations

import os
import re
from email.message import EmailMessage

import pytest

from service import store
from service.mail import compose
from service.play import ending, handle, new_game
from service.store import get_engine, read_session
from service.store.models import Outbox, utcnow
from tests.beyond_helpers import RULES, policy
from tests.consent import preconsent
from tests.i18n.test_no_english import HEADERS, english_words, get
from tests.i18n.test_pages_words import player_path
from tests.people.home_helpers import ANN, BO, CY
from tests.service.helpers import current, outbox_rows
from tests.web.test_beyond_campaign import won_game
from tests.web.test_beyond_campaign_equip import lost_game

LANGUAGES = ("uk", "zh_Hant")
CYRILLIC = re.compile(r"[\u0400-\u04ff]")
CJK = re.compile(r"[\u4e00-\u9fff]")
SCRIPT = {"uk": CYRILLIC, "zh_Hant": CJK}
# Names: the game's, the service's and the campaign tests' players' (tests/web/test_beyond_campaign.py).
# The history's keys are named as the keyboard says them ("Page Up/Page Down", "Home/End").
ALLOWED = {
    "Beyond the Rift",
    "Riftpost",
    "Riftforce",
    "Riftwalker",
    "Rift",
    "Ann",
    "Bob",
    "Page Up",
    "Page Down",
    "Home/End",
    "Home",
    "End",
}


def shown_english(html: str) -> list[str]:
    """English words a reader sees in `html` (ids with digits in them are not words)."""
    return english_words(re.sub(r"\b\w*\d\w*\b", " ", html), ALLOWED)


def plain_english(text: str) -> list[str]:
    text = re.sub(r"https?://\S+", " ", text)
    text = re.sub(r"[\w.+-]+@[\w-]+\.[\w.]+", " ", text)
    return shown_english(text.replace("<", " ").replace(">", " "))


def play(game_id: int, until) -> None:
    """The test policy's decisions until `until(game, state)` (or the game's end)."""
    for _ in range(400):
        game, state = current(game_id)
        if game.status != "active" or until(game, state):
            return
        seat = game.to_act[0]
        handle(game_id, seat, policy(state, seat, RULES.legal_moves(state, seat)), game.seq)


def past_a_rift_turn(game, state) -> bool:
    """Round 2's hero phase: the rift has had its turn (enemy, quest, draw and end phases)."""
    return state["round"] >= 2 and state["phase"] == "hero"


def rendered(game_id: int, seat: int, kind: str, locale: str) -> EmailMessage:
    """The newest `kind` email to `seat`, rendered as the worker does, in `locale`."""
    with read_session(get_engine()) as session:
        player = next(p for p in store.players_of(session, game_id) if p.seat == seat)
        row = [r for r in outbox_rows(game_id) if r.player_id == player.id and r.kind == kind][-1]
        return compose.build(session, session.get(Outbox, row.id), locale=locale)


PARTIES = {1: [ANN], 3: [ANN, BO, CY]}


@pytest.fixture
def party(app, request):
    """A game of `request.param` heroes (the tutorial) past the rift's first turn."""
    preconsent(*(person[1] for person in PARTIES[request.param]))
    game_id = new_game("beyond-the-rift", PARTIES[request.param], seed=3)
    play(game_id, past_a_rift_turn)
    game, state = current(game_id)
    assert game.status == "active" and state["round"] >= 2, "the game must be going, past a rift's turn"
    return game_id


def board_of(page: str) -> str:
    found = re.search(r'(?s)<div class="board btr">.*?\n</div>', page)
    assert found, "no board"
    return found.group(0)


@pytest.mark.parametrize("party", [1, 3], indirect=True)
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_pages_with_the_board_hold_no_english(client, party, language):
    game_id = party
    game, _state = current(game_id)
    seat = game.to_act[0]
    path = player_path(game_id, seat)
    pages = {
        "player": get(client, path, headers=HEADERS[language]).get_data(as_text=True),
        "spectator": get(client, f"/games/{game_id}", headers=HEADERS[language]).get_data(as_text=True),
        "history": get(client, path + "/history", headers=HEADERS[language]).get_data(as_text=True),
    }
    for name, page in pages.items():
        board = board_of(page)
        assert SCRIPT[language].search(board), name
        assert 'lang="en"' not in page, name
        assert shown_english(page) == [], (name, shown_english(page))


@pytest.mark.parametrize("party", [1, 3], indirect=True)
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_turn_email_holds_no_english(party, language):
    game_id = party
    game, _state = current(game_id)
    message = rendered(game_id, game.to_act[0], "turn", language)
    html = message.get_body(("html",)).get_content()
    plain = message.get_body(("plain",)).get_content()
    assert 'class="board btr"' in html and 'lang="en"' not in html
    assert shown_english(html) == [], shown_english(html)
    assert plain_english(plain) == [], plain_english(plain)
    assert plain_english(message["Subject"]) == []


def test_the_rifts_headline_reaches_a_ukrainian_reader_in_ukrainian(app):
    """The first line of the turn email after the rift's turn is its headline, in Ukrainian (it was left
    out of every email but an English one: `english_headline`)."""
    preconsent(ANN[1], BO[1])
    game_id = new_game("beyond-the-rift", [ANN, BO], seed=3)
    play(game_id, past_a_rift_turn)
    game, _state = current(game_id)
    english = rendered(game_id, game.to_act[0], "turn", "en")
    ukrainian = rendered(game_id, game.to_act[0], "turn", "uk")
    first = english.get_body(("plain",)).get_content().splitlines()[0]
    assert "The rift's turn: " in first, first
    line = ukrainian.get_body(("plain",)).get_content().splitlines()[0]
    assert "Хід розламу: " in line and CYRILLIC.search(line), line
    assert plain_english(line) == [], line


@pytest.mark.parametrize("outcome", ["won", "lost"])
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_finished_games_email_and_the_follow_up_offer_hold_no_english(app, client, language, outcome):
    """A campaign's scenario played to its end: the game-over email with the board and the follow-up
    offer (the next scenario after a win, with the rewards drawn; a replay after a loss, with the stash's
    items to equip), and the offer on the player page."""
    game_id = won_game() if outcome == "won" else lost_game()
    ending.record_end(game_id, utcnow())  # what the worker does after the final move
    message = rendered(game_id, 0, "game_over", language)
    html = message.get_body(("html",)).get_content()
    plain = message.get_body(("plain",)).get_content()
    assert 'class="board btr"' in html and 'lang="en"' not in html
    assert shown_english(html) == [], shown_english(html)
    assert plain_english(plain) == [], plain_english(plain)
    page = get(client, player_path(game_id, 0), headers=HEADERS[language]).get_data(as_text=True)
    assert 'id="campaign-h"' in page and 'class="board btr"' in page
    won_words = {"uk": "Загін виграв цей сценарій", "zh_Hant": "隊伍贏了這個劇本"}[language]
    assert (won_words in page) == (outcome == "won") and (won_words in html) == (outcome == "won")
    assert shown_english(page) == [], shown_english(page)


# ---- in a browser: the player page at 375 and 1280 px ---------------------------------------------------

SHOTS = os.environ.get("RIFTPOST_SHOTS")


@pytest.mark.browser
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_player_page_fits_and_is_accessible(live, context, page, language):
    from tests.web import looks
    from tests.web.looks import DESKTOP, PHONE

    with live.app_context():
        preconsent(ANN[1], BO[1], CY[1])
        game_id = new_game("beyond-the-rift", [ANN, BO, CY], seed=3)
        play(game_id, past_a_rift_turn)
        game, _state = current(game_id)
        path = player_path(game_id, game.to_act[0])
    context.set_extra_http_headers({"Accept-Language": HEADERS[language]["Accept-Language"]})
    for size, name in ((PHONE, "375"), (DESKTOP, "1280")):
        page.set_viewport_size(size)
        page.goto(live.config["BASE_URL"] + path)
        assert page.locator("html").get_attribute("lang") == language.replace("_", "-")
        assert SCRIPT[language].search(page.locator("div.board.btr").inner_text())
        looks.assert_fits(page)
        looks.assert_accessible(page)
        if SHOTS:
            page.screenshot(path=f"{SHOTS}/btr-player-{language}-{name}.png", full_page=True)
            page.locator("div.board.btr").screenshot(path=f"{SHOTS}/btr-board-{language}-{name}.png")


def test_the_standing_orders_as_messages_say_in_english_what_the_engines_words_say():
    """The view's `orders_said` (messages, worded in the reader's language on the board and the play
    page's setting forms) says in English what `orders` (words.orders_summary) says, section by section,
    but for one meant change: a discard order's AP cards are "AP" (they were the raw key "ap")."""
    import random

    import engine
    from engine.messages import Message
    from service.views.wording import Wording

    rules = engine.get("beyond-the-rift")
    words = Wording("beyond-the-rift")
    checked = 0
    for seed, players in ((1, 1), (2, 3)):
        state = None
        for event in rules.start(players, {}, seed):
            state = rules.evolve(state, event)
        rng = random.Random(seed)
        for _ in range(80):
            if rules.result(state) or not rules.to_act(state):
                break
            for s in range(players):
                view = rules.view(state, s)
                for said, said_now in zip(view["orders"], view["orders_said"], strict=True):
                    english = words.arg(Message.from_json(said_now["value"]))
                    assert words.term("section", said_now["key"]) == said["name"]
                    assert english == said["value"].replace(", ap", ", AP").replace("ap, ", "AP, "), said
                    checked += 1
            seat = rules.to_act(state)[0]
            for event in rules.play(state, seat, policy(state, seat, rules.legal_moves(state, seat)), rng):
                state = rules.evolve(state, event)
    assert checked > 1000
