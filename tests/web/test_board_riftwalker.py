"""Riftwalker's board as people see it (templates/games/riftwalker/board.html with
static/board/riftwalker.css and riftwalker-icons.svg): every element drawn with its colour, its own
icon (pages) and its word; players named; the viewer's hand and no one else's; what is asked, or the
result; and, in a real browser, the player, spectator and history pages of 2-, 3- and 4-player games
at their busiest late position fit a 375 px phone and a 1280 px desktop with nothing serious for
axe-core, and the turn email (the same template, inlined) fits 375 px and keeps its board compact."""

from __future__ import annotations

import random
import re
import shutil
import threading
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from xml.etree import ElementTree

import pytest
from flask import render_template
from sqlmodel import select

import engine
from engine.riftwalker.cards import CARDS
from engine.riftwalker.words import pending_text
from service import links
from service.games.riftwalker import ADAPTER, ELEMENT_KEYS, ELEMENT_WORDS
from service.mail import compose as mail
from service.play import handle, new_game
from service.store import get_engine, read_session
from service.store.deal import rng as move_rng
from service.store.models import Outbox, Player
from service.views import positions
from service.views.sentences import named
from service.views.wording import Wording
from tests import tokens
from tests.consent import preconsent
from tests.riftwalker_helpers import RULES, Secrets, choose
from tests.service.helpers import current
from tests.web.looks import DESKTOP, PHONE, assert_accessible, assert_fits, page_height, page_width

STATIC = Path(__file__).resolve().parents[2] / "service" / "static" / "board"
PEOPLE = [("Ann", "ann@example.org"), ("Bob", "bob@example.org"), ("Cyrielle", "cyrielle@example.org"),
          ("Dmitri", "dmitri@example.org")]
# Seeds whose busiest position (the most rifts in play, with cards beneath) comes late in the game.
SEEDS = {2: 1, 3: 5, 4: 5}
# The board's own height in a turn email 600 px wide must stay well under this (the whole email
# should be about 2,500 px at most; the layout around the board is the email template's).
EMAIL_BOARD_MAX = 1500


def plain(markup: str) -> str:
    import html

    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", markup)).split())


def contrast(a: str, b: str) -> float:
    def luminance(colour: str) -> float:
        channels = [int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
        r, g, b = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * r + 0.7152 * g + 0.0722 * b

    hi, lo = sorted([luminance(a), luminance(b)], reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def css_rules(css: str) -> list[tuple[list[str], dict[str, str]]]:
    """(selectors, declarations) of each plain rule of a stylesheet (media blocks flattened)."""
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    css = re.sub(r"@media[^{]*\{", "", css)
    out = []
    for selectors, body in re.findall(r"([^{}]+)\{([^{}]*)\}", css):
        decls = dict(re.findall(r"([\w-]+)\s*:\s*([^;]+?)\s*(?:;|$)", body))
        out.append(([s.strip() for s in selectors.split(",")], decls))
    return out


def declared(rules, selector: str) -> dict[str, str]:
    found: dict[str, str] = {}
    for selectors, decls in rules:
        if selector in selectors:
            found.update(decls)
    return found


# ---- every element: a colour, an icon and a word ----------------------------------------------------

def test_every_element_of_the_card_data_has_a_colour_an_icon_and_a_word():
    rules = css_rules((STATIC / "riftwalker.css").read_text(encoding="utf-8"))
    sprite = ElementTree.parse(STATIC / "riftwalker-icons.svg").getroot()  # well-formed, one file
    symbols = {s.get("id") for s in sprite.iter("{http://www.w3.org/2000/svg}symbol")}
    faces = {face for faces in CARDS.element_cards.values() for face in faces}
    on_rifts = {e for rift in CARDS.rifts.values() for e in rift.elements}
    assert faces == set(CARDS.elements) and on_rifts - faces == {"*"}
    for element in faces | on_rifts:
        key = ELEMENT_KEYS[element]
        assert key in symbols, f"no icon for {element}"
        assert ELEMENT_WORDS[element].strip(), f"no word for {element}"
        badge = declared(rules, f".board.rw .el.el-{key}")
        assert contrast(badge["background"], badge["color"]) >= 4.5, element
        assert declared(rules, f".board.rw .card.el-{key}")["border-color"].startswith("#"), element
        if element in faces:  # a grid tile in this element's colour
            tile = declared(rules, f".board.rw .tile.el-{key}")
            assert contrast(tile["background"], tile["color"]) >= 4.5, element
    colours = {declared(rules, f".board.rw .el.el-{ELEMENT_KEYS[e]}")["background"] for e in faces}
    assert len(colours) == len(faces)  # no two elements share a colour


# ---- positions, built through the service's one move path -------------------------------------------

def busiest_step(players: int, seed: int) -> int:
    """How many decisions of `choose` lead to the position with the most rifts in play (a seat to act,
    no power resolving), playing the engine with the service's RNG as `handle` does."""
    events = RULES.start(players, {}, seed)
    state, seq, best, step = engine.replay(RULES, events), len(events), (0, 0), 0
    while not state["over"]:
        seat = RULES.to_act(state)[0]
        new = RULES.play(state, seat, choose(state, seat, RULES.legal_moves(state, seat)), move_rng(seed, seq))
        for event in new:
            state = RULES.apply(state, event)
        seq, step = seq + len(new), step + 1
        if not state["over"] and not state["stack"] and in_play(state) > best[0]:
            best = (in_play(state), step)
    return best[1]


def in_play(state) -> int:
    return sum(len(rifts) + sum(len(r["beneath"]) for r in rifts) for rifts in state["explored"]) + sum(
        map(len, state["scored"]))


def play(game_id: int, steps: int | None = None) -> dict:
    """`steps` decisions of `choose` (None: to the end); the state then."""
    count = 0
    while True:
        game, state = current(game_id)
        if state["over"] or count == steps:
            return state
        seat = game.to_act[0]
        handle(game_id, seat, choose(state, seat, RULES.legal_moves(state, seat)), game.seq)
        count += 1


def seats(game_id: int) -> list[Player]:
    with read_session(get_engine()) as session:
        return list(session.exec(select(Player).where(Player.game_id == game_id).order_by(Player.seat)))


def turn_email(game_id: int, player: Player):
    with read_session(get_engine()) as session:
        row = session.exec(select(Outbox).where(Outbox.game_id == game_id, Outbox.kind == "turn",
                                                Outbox.player_id == player.id).order_by(Outbox.id.desc())).first()
        assert row is not None
        return mail.build(session, row)


def board(app, game_id: int, seat: int | None, **changes) -> str:
    with app.test_request_context("/"), read_session(get_engine()) as session:
        from service import store

        position = positions.build(session, store.get_game(session, game_id), seat)
        for key, value in changes.items():
            setattr(position, key, value)
        return str(position.board_html())


# ---- what the board says, for each viewer -----------------------------------------------------------

@pytest.mark.parametrize("count", [2, 3, 4])
def test_the_board_names_the_players_shows_the_viewers_hand_and_hides_every_other(app, count):
    game_id = new_game("riftwalker", PEOPLE[:count], seed=SEEDS[count])
    state = play(game_id, 40 * count)
    secrets = Secrets(app, game_id)
    game, _ = current(game_id)
    for viewer in [None, *range(count)]:
        drawn = board(app, game_id, viewer)
        words = plain(drawn)
        view = RULES.view(state, viewer)
        secrets.check(drawn, viewer, what="the board")
        assert not re.search(r"Player \d|Seat \d|Opponent", words)
        for seat, (name, _) in enumerate(PEOPLE[:count]):
            assert f"{name}{' (you)' if seat == viewer else ''} " in words
        hands = re.findall(r"<h3>Your hand \((\d+)\)</h3>", drawn)
        if viewer is None:
            assert hands == [] and "(you)" not in words
        else:
            hand = view["seats"][viewer]["hand"]
            assert hands == [str(len(hand))]
            for card in hand:
                assert card["name"] in words and card["power"] in words
        # Every element on the board is a badge with its colour class, its icon and its word.
        for key, word in re.findall(r'<span class="el el-(\w+)">(?:<svg class="icon" aria-hidden="true">'
                                    r'<use href="/static/board/riftwalker-icons\.svg#(?:\w+)"></use></svg>)?(\w+)</span>',
                                    drawn):
            assert ELEMENT_WORDS[next(e for e, k in ELEMENT_KEYS.items() if k == key)] == word
        icons = re.findall(r'riftwalker-icons\.svg#(\w+)"', drawn)
        assert len(icons) == 9 + len(re.findall(r'class="el el-', drawn))  # every tile and every badge
        for cell in view["grid"]:
            assert re.search(rf'<td class="tile el-{cell["up"].lower()}( lined)?"><span class="slot">{cell["slot"] + 1}'
                             rf'</span> <svg class="icon" aria-hidden="true"><use href="[^"]+#{cell["up"].lower()}">'
                             rf'</use></svg><strong>{cell["up"]}</strong><br>\s*<span class="back">back: {cell["down"]}',
                             drawn)
        acting = game.to_act[0]
        mine = 'class="ask mine"' in drawn
        assert mine == (viewer == acting)
        assert ("your decision" in words) == (viewer == acting)
        if viewer != acting:
            assert f"waiting for {PEOPLE[acting][0]}" in words


def test_the_history_pages_board_names_the_players_and_says_who_won(client):
    game_id = new_game("riftwalker", PEOPLE[:2], seed=23)
    play(game_id)
    game, _ = current(game_id)
    token = tokens.page(seats(game_id)[1])
    for url, you in ((f"/games/{game_id}/history?at={game.seq}", None), (f"/p/{token}/history?at={game.seq}", 1),
                     (f"/games/{game_id}/history?at={game.seq // 2}", None)):
        page = client.get(url).get_data(as_text=True)
        start = page.index('<div class="board rw">')
        words = plain(page[start:page.index("</section>", start)])
        assert not re.search(r"Player \d|[Ss]eat \d", words), url
        for seat, (name, _) in enumerate(PEOPLE[:2]):
            assert f"{name}{' (you)' if seat == you else ''} " in words, url
        if "?at=" + str(game.seq) in url:
            assert re.search(r"(Ann|Bob) won\.", words)


def test_the_turn_email_has_the_same_board_inlined_without_svg_script_or_stylesheets_and_a_text_board(app):
    game_id = new_game("riftwalker", PEOPLE[:3], seed=SEEDS[3])
    state = play(game_id, 150)
    game, _ = current(game_id)
    acting = seats(game_id)[game.to_act[0]]
    message = turn_email(game_id, acting)
    html_part = message.get_body(("html",)).get_content()
    text_part = message.get_body(("plain",)).get_content()
    for tag in ("<svg", "<script", "<style", "<link", "<use"):
        assert tag not in html_part, tag
    start = html_part.index('<div class="board rw"')
    drawn = html_part[start:]
    assert 'class="tile el-' in drawn and re.search(r'<td class="tile el-\w+[^"]*" style="[^"]*background: ?#', drawn)
    assert re.search(r'<span class="el el-\w+" style="[^"]*background: ?#', drawn)
    assert 'class="ask mine"' in drawn and "your decision" in drawn
    assert "What the rifts in play do" not in drawn  # page only: the email links to the page
    secrets = Secrets(app, game_id)
    secrets.check(html_part, acting.seat, what="the HTML part")
    secrets.check(text_part, acting.seat, what="the text part")
    # The plain-text part carries the text board, line for line.
    names = {seat: name for seat, (name, _) in enumerate(PEOPLE[:3])}
    board_text = named(RULES.render_text(RULES.view(state, acting.seat)), names, acting.seat)
    assert "Player " not in board_text  # the service names the players the engine numbers
    for line in board_text.splitlines():
        assert line in text_part.splitlines(), line


def test_what_the_board_says_is_asked_matches_the_engines_words_at_every_kind_of_decision(app):
    """With no names (so seats read "Player N"), the board's "Now:" sentence is the engine's own
    `pending_text`: the template words the same data, with names where the service has them."""
    kinds = set()
    searches = activated = 0
    rng = random.Random(5)
    for players, seed in ((2, 3), (3, 4), (4, 5)):
        state = engine.replay(RULES, RULES.start(players, {}, seed))
        while not state["over"]:
            seat = RULES.to_act(state)[0]
            view = RULES.view(state, seat)
            kind = None if view["pending"] is None else (view["pending"]["op"], view["pending"]["seat"] == view["turn"]["seat"])
            if kind is not None and (kind not in kinds or view["searching"]):
                kinds.add(kind)
                drawn = render(app, view, seat)
                said = re.search(r"Now: (.*?) — your decision\.", plain(drawn)).group(1)
                expected = pending_text(view)
                assert said == expected[:1].upper() + expected[1:]
                in_play_now = {r["id"]: r["name"] for e in view["seats"] for r in e["explored"]}
                used = [in_play_now[r] for r in view["turn"]["activated"] if r in in_play_now]
                chips = re.findall(r'<span class="card rift el-\w+( used)?">.*?<span class="nm">([^<]+)</span>', drawn)
                assert sorted(name for mark, name in chips if mark) == sorted(used)  # "used" once activated
                activated += len(used)
                if view["searching"] and view["searching"]["cards"]:  # the searcher sees the cards looked at
                    searches += 1
                    for card in view["searching"]["cards"]:
                        assert f'<span class="nm">{card["name"]}</span>' in drawn
                    others = render(app, RULES.view(state, None), None)
                    search = re.search(r'<p class="ask">([^<]*is searching the rift deck.*?)</p>', others, re.S)
                    assert search and "card" not in search.group(1).replace("cards looked at", "").replace(
                        "card looked at", "")  # a spectator is told how many, never which
            for event in RULES.play(state, seat, rng.choice(RULES.legal_moves(state, seat)), rng):
                state = RULES.apply(state, event)
    assert len(kinds) >= 8 and ("discard", False) in kinds  # an opponent discarding is worded apart
    assert searches > 0 and activated > 0


def render(app, view, seat, names=None, over=None) -> str:
    """The board template alone, as an email draws it (no icons), with `names` (default: none)."""
    with app.test_request_context("/"):
        return render_template(ADAPTER.board_template, view=view, seat=seat, names=names or {}, email=True,
                               over=over, words=Wording("riftwalker", "en", seat, names or {}), game=SimpleNamespace(name="riftwalker"), rules=RULES,
                               **ADAPTER.board_words(view))


def test_the_board_says_who_still_plays_once_the_end_is_triggered(app):
    state = engine.replay(RULES, RULES.start(3, {}, 8))
    names = {0: "Ann", 1: "Bob", 2: "Cyrielle"}
    state["end"] = {"by": 1, "reason": "bursts", "left": [2, 0]}
    words = plain(render(app, RULES.view(state, 0), 0, names))
    assert "Last turns. Bob triggered the end (enough rifts burst); still to play: Cyrielle, you." in words
    state["end"] = {"by": 2, "reason": "deck", "left": []}
    words = plain(render(app, RULES.view(state, None), None, names))
    assert "Last turns. Cyrielle triggered the end (the rift deck ran out); this turn is the last." in words


def test_a_finished_game_shows_the_result_in_place_of_a_decision_and_a_forfeit_too(app):
    game_id = new_game("riftwalker", PEOPLE[:2], seed=23)
    state = play(game_id)
    result = RULES.result(state)
    for viewer in (None, 0, 1):
        drawn = board(app, game_id, viewer)
        words = plain(drawn)
        assert 'class="ask over"' in drawn and "ask mine" not in drawn and "waiting for" not in words
        winner = result["winners"][0]  # "You won." to the winner
        assert f"{'You' if viewer == winner else PEOPLE[winner][0]} won." in words and "Final scores" in words
        assert "playing" not in words
    # A forfeit the service recorded: the engine still thinks the game runs; the board says who won.
    other = new_game("riftwalker", PEOPLE[:2], seed=4)
    play(other, 6)
    forfeit = {"scores": {"0": 0, "1": 1}, "winners": [1], "forfeit": 0}
    drawn = board(app, other, 0, result=forfeit)
    words = plain(drawn)
    assert 'class="ask over"' in drawn and "Bob won." in words
    assert "You won." in plain(board(app, other, 1, result=forfeit))
    assert "your decision" not in words and "waiting for" not in words and "Final scores" not in words


# ---- in the browser: pages and the turn email at a phone's and a desktop's width ---------------------

@dataclass
class Served:
    app: object
    base: str
    games: dict[int, tuple[int, Player]] = field(default_factory=dict)  # players -> (game id, seat to act)
    finished: tuple[int, Player] | None = None


@pytest.fixture(scope="module")
def served(tmp_path_factory, migrated_sqlite):
    """One server for the module's browser tests (they only read): a 2-, a 3- and a 4-player game at
    their busiest late position, and a finished 2-player game."""
    from werkzeug.serving import make_server

    from tests.conftest import make_app
    from tests.services import free_port

    where = tmp_path_factory.mktemp("rwboard")
    shutil.copy(migrated_sqlite, where / "app.sqlite")
    port = free_port()
    app = make_app(where, f"sqlite:///{where / 'app.sqlite'}", BASE_URL=f"http://127.0.0.1:{port}", TESTING=False)
    out = Served(app, f"http://127.0.0.1:{port}")
    with app.app_context():
        # Five games name the same addresses: as people who played together before (the caps on
        # new inviters are tests/service/test_consent_per_inviter.py's).
        preconsent(*[email for _, email in PEOPLE])
        for count, seed in SEEDS.items():
            game_id = new_game("riftwalker", PEOPLE[:count], seed=seed)
            state = play(game_id, busiest_step(count, seed))
            assert not state["over"] and in_play(state) >= 20  # late: many rifts in play
            game, _ = current(game_id)
            out.games[count] = (game_id, seats(game_id)[game.to_act[0]])
        game_id = new_game("riftwalker", PEOPLE[:2], seed=23)
        play(game_id)
        out.finished = (game_id, seats(game_id)[0])
    server = make_server("127.0.0.1", port, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield out
    server.shutdown()
    app.extensions["riftpost.db"].dispose()


def urls(game_id: int, player: Player) -> dict[str, str]:
    token = links.player_token(player.id, player.row_key)
    return {"player": f"/p/{token}", "spectator": f"/games/{game_id}", "history": f"/games/{game_id}/history",
            "player history": f"/p/{token}/history"}


@pytest.mark.browser
@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
@pytest.mark.parametrize("count", [2, 3, 4])
def test_the_pages_fit_a_phone_and_a_desktop_with_nothing_serious_for_axe(served, page, count, size):
    game_id, player = served.games[count]
    page.set_viewport_size(size)
    with served.app.app_context():
        addresses = urls(game_id, player)
    for which, url in addresses.items():
        page.goto(served.base + url)
        assert page.locator(".board.rw").count() == 1, which
        assert_fits(page)
        assert_accessible(page)
        if which == "player":  # the icons are drawn (the sprite loads) and the grid is a 3×3 table
            assert page.locator(".board.rw table.rw-grid td.tile").count() == 9
            box = page.locator(".board.rw .tile svg.icon").first.bounding_box()
            assert box and box["width"] >= 10


@pytest.mark.browser
def test_a_finished_game_fits_and_passes_axe(served, page):
    game_id, player = served.finished
    with served.app.app_context():
        addresses = urls(game_id, player)
        game, _ = current(game_id)
        addresses["history at the end"] = f"/games/{game_id}/history?at={game.seq}"
    for size in (PHONE, DESKTOP):
        page.set_viewport_size(size)
        for which, url in addresses.items():
            page.goto(served.base + url)
            if which in ("player", "spectator", "history at the end"):
                assert page.locator(".board.rw .ask.over").count() == 1, which
            assert_fits(page)
            assert_accessible(page)


@pytest.mark.browser
@pytest.mark.parametrize("count", [2, 3, 4])
def test_the_turn_email_fits_a_phone_and_its_board_stays_compact(served, page, count):
    game_id, player = served.games[count]
    with served.app.app_context():
        html_part = turn_email(game_id, player).get_body(("html",)).get_content()
    # An email on a blank page of its own: set_content writes into the current document, which after
    # a page of the site keeps that page's Content-Security-Policy (no inline styles), unlike a mail client.
    page.goto("about:blank")
    page.set_viewport_size(PHONE)
    page.set_content(html_part)
    assert_fits(page)
    assert_accessible(page)
    page.set_viewport_size({"width": 600, "height": 900})
    assert page_width(page) <= 600
    box = page.locator(".board.rw").bounding_box()
    assert box is not None and box["height"] < EMAIL_BOARD_MAX, f"the board is {box} in a 600 px email"
    print(f"\n{count} players: email board {round(box['height'])} px, whole email {page_height(page)} px at 600 px")
