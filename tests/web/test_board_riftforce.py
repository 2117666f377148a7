"""The Riftforce board drawn as a board (issue 13, items 1 and 2), every mode: cards as cards (each
guild's colour, its own icon on pages, its letters or name always), the rift as columns with each
side's stacks, named players, the viewer's own hand and only the size of any other, damage and the
action in progress drawn; the same template in emails (inlined, no SVG) and as plain text.

Render tests build positions directly (engine/riftforce scenario states) and draw them through the
adapter, as `Position.board_html` does; the browser tests (marked `browser`) drive real games to busy
positions (tests/web/riftforce_boards.py) and check the player, spectator and history pages and the
turn email at a phone's and a desktop's width: nothing sticks out, axe-core finds nothing serious,
the board part of an email stays compact."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from flask import render_template

from engine.riftforce.cards import ALL_GUILDS, GUILD_NAME
from engine.riftforce.words import GUILD_LETTERS
from service import links, store
from service.games import adapter
from service.mail import compose as mail
from service.store import get_engine, read_session
from service.store.models import Outbox
from service.views.wording import Wording
from tests.engine.riftforce.scenario import GAME, A, D, board, do
from tests.service.helpers import outbox_rows
from tests.web import riftforce_boards as rb
from tests.web.looks import DESKTOP, PHONE, assert_accessible, assert_fits, page_width

STATIC = Path(__file__).resolve().parents[2] / "service" / "static" / "board"
NAMES = {0: "Ann", 1: "Bob", 2: "Cat", 3: "Dan"}
UNNAMED = re.compile(r"\b(?:Player \d|Seat \d|Opponent|opponent's decision)\b")
# The email's board must stay well under this at 600 px (the whole turn email aims at ~2,500 px).
EMAIL_BOARD_MAX = 1500


def draw(app, state: dict, seat: int | None, *, email: bool = False, over: str | None = None,
         names: dict[int, str] | None = None) -> str:
    """The board of `seat`'s view of `state`, as Position.board_html renders it."""
    view = GAME.view(state, seat)
    found = adapter("riftforce")
    names = NAMES if names is None else names
    with app.test_request_context("/"):
        return render_template(found.board_template, view=view, seat=seat, rules=GAME, game=None,
                               names=names, email=email, over=over, words=Wording("riftforce", "en", seat, names),
                               **found.board_words(view))


def labels(fragment: str) -> list[str]:
    """The cards a part of the board draws, in words (each card's aria-label)."""
    return [html.unescape(x) for x in re.findall(r'aria-label="([^"]+)"', fragment)]


def hand_part(board_html: str) -> str:
    found = re.search(r"Your hand \(\d+\)</h3>\s*<p[^>]*>(.*?)</p>", board_html, re.S)
    return found.group(1) if found else ""


def words_of(board_html: str) -> str:
    """What the board says (tags out), plus its cards in words: what anyone can read of it."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", board_html)).split() + labels(board_html))


# ---- the guilds: colour, icon, letters ----------------------------------------------------------

def _luminance(colour: str) -> float:
    rgb = [int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)] if len(colour) == 7 else \
        [int(c * 2, 16) / 255 for c in colour[1:4]]
    lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast(a: str, b: str) -> float:
    high, low = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_every_guild_has_a_colour_an_icon_and_letters():
    """All 18 guilds (the base game's and Beyond's): a colour rule whose text keeps WCAG AA contrast
    (4.5:1) on its background, an icon of its own in the sprite, and two letters of its own."""
    css = (STATIC / "riftforce.css").read_text()
    sprite = (STATIC / "riftforce-icons.svg").read_text()
    assert len(ALL_GUILDS) == 18
    colours = set()
    for guild in ALL_GUILDS:
        rule = re.search(rf"\.board \.card\.g-{guild}, \.board \.tile\.g-{guild} \{{([^}}]*)\}}", css)
        assert rule, guild
        background = re.search(r"background: (#[0-9a-f]{3,6});", rule.group(1)).group(1)
        text = re.search(r"(?<!-)color: (#[0-9a-f]{3,6});", rule.group(1)).group(1)
        assert contrast(background, text) >= 4.5, (guild, background, text)
        colours.add(background)
        assert f'<symbol id="{guild}" viewBox="0 0 24 24">' in sprite, guild
        assert GUILD_NAME[guild].startswith(GUILD_LETTERS[guild])
    assert len(colours) == 18 and len(set(GUILD_LETTERS.values())) == 18
    assert '<symbol id="back"' in sprite  # a card face down
    assert "<image" not in sprite and "xlink:href=\"http" not in sprite  # our own drawings, nothing fetched


def test_each_guild_is_drawn_with_its_colour_icon_and_words_on_pages_and_letters_in_emails(app):
    """A card of every guild in hand and on the rift: the hand writes the guild's name, the rift
    tiles its letters (pages add the name for wide screens); pages show the icon, emails none."""
    every = [f"{g}-5a" for g in ALL_GUILDS]
    s = board(me=[every[:4], every[4:8], every[8:12], every[12:15], every[15:]], hand=[f"{g}-6a" for g in ALL_GUILDS])
    page = draw(app, s, 0)
    email = draw(app, s, 0, email=True)
    for guild in ALL_GUILDS:
        name, letters = GUILD_NAME[guild], GUILD_LETTERS[guild]
        icon = f'<svg class="icon" aria-hidden="true"><use href="/static/board/riftforce-icons.svg#{guild}"></use></svg>'
        assert f'<span class="card g-{guild}" role="img" aria-label="{name} 6">{icon}{name} 6</span>' in page
        assert (f'<span class="tile g-{guild}" role="img" aria-label="{name} 5">{icon}<span class="s">{letters}</span>'
                f'<span class="n">{name}</span> 5</span>') in page
        assert f'<span class="card g-{guild}" role="img" aria-label="{name} 6">{name} 6</span>' in email
        assert f'<span class="tile g-{guild}" role="img" aria-label="{name} 5">{letters} 5</span>' in email
    assert "<svg" not in email and "<details" not in email


# ---- what the board shows ---------------------------------------------------------------------------

def test_the_duel_board_names_players_shows_the_own_hand_and_only_the_size_of_the_other(app):
    s = board(me=[["fire-5a"], [], ["water-6a"], [], []], foe=[["ice-5a", "light-6b"], [], [], ["plant-7a"], []],
              hand=["fire-6a", "water-5a"], foe_hand=["ice-6a", "ice-7a", "light-5a"], deck=["air-5a"],
              foe_deck=["plant-5a"], discard=["earth-6a"], damage={"ice-5a": 2}, score=(3, 4))
    for seat, other in ((0, 1), (1, 0)):
        drawn = draw(app, s, seat)
        said = words_of(drawn)
        assert NAMES[other] in said and not UNNAMED.search(said), said
        own = sorted(f"{GUILD_NAME[c.split('-')[0]]} {c.split('-')[1][0]}" for c in s["hand"][seat])
        assert sorted(labels(hand_part(drawn))) == own
        hand_size = len(s["hand"][other])
        assert f'aria-label="{hand_size} card{"s" if hand_size != 1 else ""} in hand, face down"' in drawn
        for card in s["hand"][other]:  # another hand's cards are never named (Ice 6 and 7, Light 5)
            assert f"{GUILD_NAME[card.split('-')[0]]} {card.split('-')[1][0]}" not in said
        assert f"The rift, locations 1 to 5: {NAMES[other]} above the line, you below" in drawn
        assert '<div class="ask mine">' in drawn if seat == 0 else '<div class="ask">' in drawn
    mine = draw(app, s, 0)
    # Damage drawn on the card: the tile says it (−2) and so do its words.
    assert ('role="img" aria-label="Ice 5, 2 damage"><svg class="icon" aria-hidden="true">'
            in mine) and '<span class="dmg">−2</span>' in mine
    assert "<strong>Your decision:</strong> Play, Activate, or Check &amp; Draw." in mine
    # The upper side's stack is drawn back to front: its front card (Ice 5) touches the line.
    upper = re.search(r'<td class="up">(.*?)</td>', mine, re.S).group(1)
    assert labels(upper) == ["Light 6", "Ice 5, 2 damage"]
    spectator = draw(app, s, None)
    assert "Your hand" not in spectator and "Ann" in spectator and "Bob" in spectator
    assert 'aria-label="2 cards in hand, face down"' in spectator and 'aria-label="3 cards in hand, face down"' in spectator
    assert "The rift, locations 1 to 5: Bob above the line, Ann below" in spectator


def test_an_activate_in_progress_marks_what_acted_and_what_acts(app):
    """The Activate in progress: the discard and what was activated in the ask, on the rift the
    activated elemental drawn spent (dotted, ✓) and the one asked about outlined."""
    s = board(me=[[], ["water-5a", "fire-5a"], [], [], []], foe=[[], ["ice-6a"], [], [], []],
              hand=["water-6a", "earth-5a"])
    s, _ = do(s, D("earth-5a"), A("fire-5a"), A("water-5a"))  # the 5s, by number
    assert s["pending"]["ask"]["what"] == "move_to"
    drawn = draw(app, s, 0)
    assert "Your Activate so far: discarded" in drawn and 'aria-label="Earth 5"' in drawn
    assert re.search(r'class="tile g-fire tired" role="img" aria-label="Fire 5, activated this turn">.*?'
                     r'<span class="done">✓</span></span>', drawn)
    assert 'class="tile g-water chosen" role="img" aria-label="Water 5, acting now"' in drawn
    assert "<strong>Your decision:</strong> Choose where Water 5 moves." in drawn
    theirs = draw(app, s, 1)
    assert "Ann’s Activate so far" in theirs and "<strong>Ann’s decision:</strong>" in theirs


def test_the_finished_game_says_the_result_and_a_forfeit_replaces_whose_decision(app):
    s = board(me=[["fire-5a"], [], [], [], []], score=(12, 9))
    s["phase"], s["turn"] = "over", None
    s["result"] = {"scores": [12, 9], "winners": [0], "reason": "score"}
    over = draw(app, s, 1, over="Ann won.")
    assert '<div class="ask over"><p><strong>Ann won.</strong> Final score: Ann 12, You 9.</p>' in over
    # A forfeit the service recorded: the engine still waits on a seat, the board says who won.
    running = board(me=[["fire-5a"], [], [], [], []], score=(2, 3))
    forfeit = draw(app, running, 0, over="Bob won: Ann ran out of time and forfeited.")
    assert "ask over" in forfeit and "Ann ran out of time and forfeited" in forfeit and "decision" not in forfeit


def test_the_base_draft_draws_the_secret_summoner_face_down(app):
    state = None
    for event in GAME.start(players=2, options={}, seed=4):
        state = GAME.apply(state, event)
    mine = draw(app, state, 0)
    assert mine.count('aria-label="a summoner dealt face down"') == 1  # Bob's, not mine
    dealt = state["draft"]["dealt"]
    assert f'aria-label="{GUILD_NAME[dealt[0]]}"' in mine
    assert "<strong>Your decision:</strong> pick a summoner from those on offer." in mine or \
        "<strong>Bob’s decision:</strong>" in mine
    assert draw(app, state, None).count('aria-label="a summoner dealt face down"') == 2


# ---- the browser: every mode's busy position on every page, and the email -----------------------------

def _urls(live, game_id: int, seat: int) -> dict[str, str]:
    with read_session(get_engine()) as session:
        player = next(p for p in store.players_of(session, game_id) if p.seat == seat)
    token = links.player_token(player.id, player.row_key)
    base = live.config["BASE_URL"]
    return {"player": f"{base}/p/{token}", "spectator": f"{base}/games/{game_id}",
            "history": f"{base}/p/{token}/history"}


def _latest_email(game_id: int, seat: int) -> tuple[str, Outbox]:
    with read_session(get_engine()) as session:
        player = next(p for p in store.players_of(session, game_id) if p.seat == seat)
    row = [r for r in outbox_rows(game_id) if r.player_id == player.id][-1]
    with read_session(get_engine()) as session:
        message = mail.build(session, session.get(Outbox, row.id))
    return message.get_body(("html",)).get_content(), row


def _check_pages(page, urls: dict[str, str]) -> dict[str, int]:
    heights = {}
    for size in (PHONE, DESKTOP):
        page.set_viewport_size(size)
        for name, url in urls.items():
            page.goto(url)
            assert page.locator(".board").count() == 1, (name, url)
            assert_fits(page)
            assert_accessible(page)
            heights[f"{name} {size['width']}"] = round(page.locator(".board").bounding_box()["height"])
    return heights


def _check_email(page, email_html: str) -> int:
    """The inlined HTML part: nothing a mail client drops, fits 375 and 600 px; the board's height
    at 600 px."""
    for dropped in ("<svg", "<script", "<style", "<link", 'class="icon"'):
        assert dropped not in email_html, dropped
    assert 'class="board' in email_html and 'style="' in email_html
    # An email on a blank page of its own: set_content writes into the current document, which after
    # a page of the site keeps that page's Content-Security-Policy (no inline styles), unlike a mail client.
    page.goto("about:blank")
    page.set_viewport_size(PHONE)
    page.set_content(email_html)
    assert_fits(page)
    page.set_viewport_size({"width": 600, "height": 900})
    page.set_content(email_html)
    assert page_width(page) <= 600
    return round(page.locator(".board").bounding_box()["height"])


@pytest.mark.browser
@pytest.mark.parametrize("mode", list(rb.BUSY))
def test_busy_boards_fit_a_phone_read_at_a_desktop_and_mail_compactly(live, page, mode):
    with live.app_context():
        game_id, state = rb.busy_game(mode)
        seat = GAME.to_act(state)[0]
        urls = _urls(live, game_id, seat)
        email_html, row = _latest_email(game_id, seat)
    assert rb.deepest(state) >= rb.BUSY_DEPTH[mode]
    _check_pages(page, urls)
    assert _check_email(page, email_html) < EMAIL_BOARD_MAX
    # The page's board names everyone, shows the viewer's own hand and only the size of others'.
    page.set_viewport_size(DESKTOP)
    page.goto(urls["player"])
    board_html = page.locator(".board").inner_html()
    said = words_of(board_html)
    assert not UNNAMED.search(said), UNNAMED.search(said)
    players = state["players"]  # seats (solo's trainer holds a hand of its own in the state, no seat)
    assert all(rb.NAMES[s] in said for s in range(players) if s != seat)
    own = sorted(f"{GUILD_NAME[c.split('-')[0]]} {c.split('-')[1][0]}" for c in state["hand"][seat])
    assert sorted(labels(hand_part(board_html))) == own
    for other in range(players):
        if other != seat and state["hand"][other]:
            count = len(state["hand"][other])
            assert f'aria-label="{count} card{"s" if count != 1 else ""} in hand, face down"' in board_html
    damaged = [c for c, d in state["damage"].items() if d]
    assert damaged and board_html.count('class="dmg"') >= len(damaged)


@pytest.mark.browser
@pytest.mark.parametrize("mode", ["duel", "team4", "solo"])
def test_the_draft_and_the_end_fit_and_read_too(live, page, mode):
    with live.app_context():
        draft_id, draft_state = rb.draft_game(mode)
        over_id, _ = rb.finished_game(mode)
        urls = {f"draft {k}": v for k, v in _urls(live, draft_id, GAME.to_act(draft_state)[0]).items()}
        urls |= {f"over {k}": v for k, v in _urls(live, over_id, 0).items()}
        over_email, row = _latest_email(over_id, 0)
    assert row.kind == "game_over"
    _check_pages(page, urls)
    assert _check_email(page, over_email) < EMAIL_BOARD_MAX
    page.goto(urls["over player"])
    assert page.locator(".board .ask.over").count() == 1
    assert "Final score" in page.locator(".board .ask.over").inner_text()


@pytest.mark.browser
def test_the_solo_decision_of_the_trainers_guilds_fits_and_reads(live, page):
    """Rules §11: after the keep, the trainer's guilds are the player's choice; the page at that
    decision (the guilds that may go to the trainer, with their abilities, and the choices) fits a
    phone and a desktop with nothing serious for axe-core, and its email's board stays compact."""
    with live.app_context():
        game_id, state = rb.trainer_choice_game()
        urls = _urls(live, game_id, 0)
        email_html, _ = _latest_email(game_id, 0)
    assert state["draft"]["trainer_offer"] and len(state["draft"]["trainer"]) == 1
    _check_pages(page, urls)
    assert _check_email(page, email_html) < EMAIL_BOARD_MAX
    page.set_viewport_size(PHONE)
    page.goto(urls["player"])
    said = " ".join(page.locator(".board").inner_text().split()).replace("’", "'")
    given = GUILD_NAME[state["draft"]["trainer"][0]]
    assert "choose the trainer's guilds from those not kept (1 of 4 so far)" in said
    assert f"The trainer has {given} (1 of 4)" in said and "Guilds that may go to the trainer" in said
    for g in state["draft"]["trainer_offer"]:
        assert f"Give {GUILD_NAME[g]} to the trainer" in page.content()
