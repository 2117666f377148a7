"""The whole-turn composer in a real browser (Debian's Chromium): a turn of each game built step by
step through the preview API, undone, confirmed once, and recorded as a whole; at a phone's width and
a desktop's, fitting the viewport and clean for axe."""

from __future__ import annotations

import json
import os

import pytest

import engine
from service import links, store
from service.games import adapter
from service.play import handle, new_game
from service.store import get_engine, read_session
from tests.beyond_helpers import RULES as BEYOND
from tests.riftforce_helpers import fast as riftforce_fast
from tests.riftwalker_helpers import choose as riftwalker_choose
from tests.service.helpers import current
from tests.turns import (
    RIFTFORCE,
    activate_with_targets,
    decisions,
    drive,
    not_drafting,
    plan,
    step_key,
    three_card_play,
)
from tests.web import looks
from tests.web.looks import DESKTOP, PHONE, WIDTHS

# Chromium and its launch settings: tests/conftest.py; pages, not invitations: every address played before.
pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("everyone_played_before")]

PLAYERS = [("Ann", "ann@example.org"), ("Bob", "bob@example.org")]
SHOTS = os.environ.get("RIFTPOST_SHOTS")  # a folder to keep a screenshot of each composed turn in


def page_url(app, game_id: int, seat: int, step: str | None = None) -> str:
    with read_session(get_engine()) as session:
        player = next(p for p in store.players_of(session, game_id) if p.seat == seat)
    url = app.config["BASE_URL"] + f"/p/{links.player_token(player.id, player.row_key)}"
    if step is not None:
        from urllib.parse import quote

        url += "?step=" + quote(step)
    return url


def open_composer(page, url, viewport):
    page.set_viewport_size(viewport)
    page.goto(url)
    page.wait_for_selector("#composer:not([hidden])")
    assert page.locator("#moves").is_hidden()  # the plain list gave way to the composer


def taken(page) -> int:
    return page.locator(".composer-taken li").count()


def compose(page, rules, steps, seat):
    """Click each planned move: its first step, then (when the step has several) the move itself;
    each is previewed before the next is chosen."""
    for index, (state, move, _) in enumerate(steps):
        text = rules.move_text(state, seat, move)
        direct = page.locator(f'.composer-choices button[data-text="{text}"]')
        if direct.count():  # a step of one move, or one of a few choices shown at once
            direct.click()
        else:  # a step of several: its choices are shown next
            page.locator(f'.composer-choices button[data-step="{step_key(rules, state, seat, move)}"]').click()
            direct.click()
        # Functions, not expressions: Playwright evaluates an expression with eval(), which the
        # pages' Content-Security-Policy refuses (no 'unsafe-eval').
        page.wait_for_function(f"() => document.querySelectorAll('.composer-taken li').length === {index + 1}")
        page.wait_for_function("() => !document.querySelector('.composer-confirm').disabled")


def composer_fits_and_taps(page):
    """The composer itself: inside the viewport, every button at least 44 x 44 px."""
    width = page.viewport_size["width"]
    box = page.locator("#composer").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= width
    small = page.evaluate("""() => [...document.querySelectorAll('#composer button, #moves input, #moves button')]
        .filter(b => b.offsetParent !== null)
        .map(b => b.getBoundingClientRect())
        .filter(r => r.width < 44 || r.height < 44).length""")
    assert small == 0


def page_looks_right(page):
    """The whole page, the predicted board in it included, fits and axe finds nothing serious."""
    composer_fits_and_taps(page)
    looks.assert_fits(page)
    looks.assert_accessible(page)


def confirm_and_check(page, app, game_id, seq_before, planned_state, planned_events):
    with page.expect_navigation():
        page.locator(".composer-confirm").click()
    page.wait_for_selector(".composer-note")
    assert "Your turn was recorded" in page.locator(".composer-note").inner_text()
    with app.app_context():
        game, state = current(game_id)
    assert game.seq == seq_before + planned_events  # the whole turn, in one request
    assert state == planned_state


def planned_end(rules, steps):
    state = steps[-1][0]
    for event in steps[-1][2]:
        state = rules.apply(state, event)
    return state


def play_planned(page, app, game_id, seat, steps, viewport, name, *, undo_first=False):
    """Compose the planned turn in the browser, check the page, confirm, check the record."""
    game, _ = current(game_id)
    rules = engine.get(game.name)
    open_composer(page, page_url(app, game_id, seat), viewport)
    if undo_first:  # two steps taken and undone: the composer goes back to where it was
        compose(page, rules, steps[:2], seat)
        page.locator(".composer-undo").click()
        assert taken(page) == 1
        page.locator(".composer-undo").click()
        assert taken(page) == 0 and "not played yet" not in page.locator("#board-h").inner_text()
    compose(page, rules, steps, seat)
    assert taken(page) == len(steps)
    assert "not played yet" in page.locator("#board-h").inner_text()  # the predicted board
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/{name}-{viewport['width']}.png", full_page=True)
    page_looks_right(page)
    confirm_and_check(page, app, game_id, game.seq, planned_end(rules, steps), sum(len(e) for _, _, e in steps))


@pytest.fixture
def app(live):
    with live.app_context():
        yield live


@pytest.mark.parametrize("viewport", WIDTHS, ids=["phone", "desktop"])
def test_a_three_card_riftforce_play_in_one_visit(app, page, viewport):
    game_id = new_game("riftforce", PLAYERS, seed=5)
    game, state, seat = drive(game_id, not_drafting)
    moves = three_card_play(state, seat, game.secret, game.seq)
    chosen = iter(moves)
    steps = plan(RIFTFORCE, state, seat, game.secret, game.seq, lambda s, seat, legal: next(chosen))
    assert [m for _, m, _ in steps] == moves
    play_planned(page, app, game_id, seat, steps, viewport, "riftforce-play", undo_first=True)
    assert current(game_id)[0].to_act == [1 - seat]  # three cards end the Play


@pytest.mark.parametrize("viewport", WIDTHS, ids=["phone", "desktop"])
def test_a_riftforce_activate_with_targets(app, page, viewport):
    game_id = new_game("riftforce", PLAYERS, seed=1)
    found = {}

    def activatable(state, seat, legal):
        if legal[0]["type"] == "pick" or state["pending"] is not None:
            return False
        game, _ = current(game_id)
        found["moves"] = activate_with_targets(state, seat, game.secret, game.seq)
        return found["moves"] is not None

    game, state, seat = drive(game_id, activatable, policy=riftforce_fast)
    chosen = iter(found["moves"])
    steps = plan(RIFTFORCE, state, seat, game.secret, game.seq, lambda s, seat, legal: next(chosen))
    assert [m["type"] for _, m, _ in steps][:2] == ["activate", "activate_elemental"]
    play_planned(page, app, game_id, seat, steps, viewport, "riftforce-activate")


@pytest.mark.parametrize("viewport", WIDTHS, ids=["phone", "desktop"])
def test_a_riftwalker_turn(app, page, viewport):
    rules = engine.get("riftwalker")
    game_id = new_game("riftwalker", PLAYERS, seed=3)
    game, state = current(game_id)
    seat = game.to_act[0]
    steps = plan(rules, state, seat, game.secret, game.seq, riftwalker_choose)
    assert len(steps) >= 2
    play_planned(page, app, game_id, seat, steps, viewport, "riftwalker")


@pytest.mark.parametrize("viewport", WIDTHS, ids=["phone", "desktop"])
def test_a_beyond_the_rift_hero_turn_of_several_actions(app, page, viewport):
    game_id = new_game("beyond-the-rift", PLAYERS, {"scenario": "tutorial", "heroes": ["brannoc", "isolde"]}, seed=3)
    game, state = current(game_id)
    seat = game.to_act[0]
    wanted = iter(["discard_ap", "play", "discard_ap", "done"])

    def hero(state, seat, legal):
        if state["prompt"] is not None or state["attack"] is not None:  # inside an action: its choices
            return legal[0]
        kinds = {m["type"] for m in legal}
        for want in wanted:
            if want in kinds:
                return next(m for m in legal if m["type"] == want)
        return next((m for m in legal if m["type"] == "done"), legal[0])

    steps = plan(BEYOND, state, seat, game.secret, game.seq, hero)
    assert len(steps) >= 3
    play_planned(page, app, game_id, seat, steps, viewport, "beyond")


def test_a_turn_email_step_opens_the_composer_there(app, page):
    game_id = new_game("riftforce", PLAYERS, seed=5)
    game, state, seat = drive(game_id, not_drafting)
    move = next(m for m in decisions(RIFTFORCE, state, seat) if m["type"] == "play")
    key = step_key(RIFTFORCE, state, seat, move)
    open_composer(page, page_url(app, game_id, seat, key), PHONE)
    choices = page.locator(".composer-choices button[data-text]")
    assert choices.count() > 1 and page.locator(".composer-choices button[data-step]").count() == 0
    assert page.locator(f'.composer-choices button[data-text="{RIFTFORCE.move_text(state, seat, move)}"]').count() == 1
    open_composer(page, page_url(app, game_id, seat, "play nothing-9z @9"), PHONE)
    assert "not open any more" in page.locator("main").inner_text()
    assert page.locator(".composer-choices button[data-step]").count() > 1


def test_a_turn_started_from_an_emailed_step_link_ends_on_the_recorded_turn_alone(app, page):
    """#17 item 1: the email's step link (`?step=`) is the main way into a turn; after the confirmed turn
    the page says it was recorded and nothing about the link's step being "not open any more"."""
    game_id = new_game("riftforce", PLAYERS, seed=5)
    game, state, seat = drive(game_id, not_drafting)
    chosen = iter(three_card_play(state, seat, game.secret, game.seq))
    steps = plan(RIFTFORCE, state, seat, game.secret, game.seq, lambda s, seat, legal: next(chosen))
    open_composer(page, page_url(app, game_id, seat, step_key(RIFTFORCE, state, seat, steps[0][1])), PHONE)
    compose(page, RIFTFORCE, steps, seat)
    confirm_and_check(page, app, game_id, game.seq, planned_end(RIFTFORCE, steps), sum(len(e) for _, _, e in steps))
    assert "step=" not in page.url  # the reload leaves the link's step behind
    main = page.locator("main").inner_text()
    assert "not open any more" not in main and "Your turn was recorded" in main


def test_a_game_that_moved_on_reloads_with_a_word_and_plays_nothing(app, page):
    game_id = new_game("riftforce", PLAYERS, seed=5)
    game, state, seat = drive(game_id, not_drafting)
    steps = plan(RIFTFORCE, state, seat, game.secret, game.seq, lambda s, seat, legal: legal[0])
    open_composer(page, page_url(app, game_id, seat), DESKTOP)
    compose(page, RIFTFORCE, steps[:1], seat)
    handle(game_id, seat, steps[0][1], game.seq)  # played meanwhile (another tab, an email link)
    with page.expect_navigation():
        page.locator(".composer-confirm").click()
    page.wait_for_selector(".composer-note")
    assert "moved on" in page.locator(".composer-note").inner_text()
    assert current(game_id)[0].seq == game.seq + len(steps[0][2])  # played once, not twice


def test_a_refused_step_is_named_with_the_reason(app, page):
    game_id = new_game("riftforce", PLAYERS, seed=5)
    game, state, seat = drive(game_id, not_drafting)
    moves = three_card_play(state, seat, game.secret, game.seq)
    chosen = iter(moves)
    steps = plan(RIFTFORCE, state, seat, game.secret, game.seq, lambda s, seat, legal: next(chosen))
    open_composer(page, page_url(app, game_id, seat), PHONE)
    compose(page, RIFTFORCE, steps[:2], seat)
    answer = {"error": "That move is not allowed", "status": 422, "index": 1, "code": "illegal",
              "reason": "that card is not in your hand", "message": "that card is not in your hand"}
    page.route("**/api/play/*", lambda route: route.fulfill(status=422, content_type="application/json",
                                                            body=json.dumps(answer))
               if route.request.method == "POST" else route.continue_())
    page.locator(".composer-confirm").click()
    problem = page.locator(".composer-problem")
    problem.wait_for()
    assert "Step 2 could not be played: that card is not in your hand" in problem.inner_text()
    assert page.locator(".composer-taken li").nth(1).get_attribute("class") == "failed"
    assert current(game_id)[0].seq == game.seq


def test_without_javascript_a_step_link_puts_that_steps_choices_first(app, browser):
    game_id = new_game("riftforce", PLAYERS, seed=5)
    game, state, seat = drive(game_id, not_drafting)
    move = next(m for m in decisions(RIFTFORCE, state, seat) if m["type"] == "play")
    context = browser.new_context(java_script_enabled=False, viewport=PHONE)
    page = context.new_page()
    page.goto(page_url(app, game_id, seat, step_key(RIFTFORCE, state, seat, move)))
    assert page.locator("#composer").is_hidden() and page.locator("#moves").is_visible()
    first = page.locator("#moves fieldset").first
    assert first.locator("legend").inner_text().startswith(RIFTFORCE.describe_move(move, state).split(" at ")[0])
    found = adapter("riftforce")
    assert first.get_by_role("radio").count() == len(
        [m for m in decisions(RIFTFORCE, state, seat) if found.first_step(m) == found.first_step(move)])
    small = page.evaluate("""() => [...document.querySelectorAll('#moves label.choice, #moves button')]
        .map(e => e.getBoundingClientRect()).filter(r => r.width < 44 || r.height < 44).length""")
    assert small == 0  # whole rows to tap, on a phone too
    first.get_by_role("radio").first.check()
    with page.expect_navigation():
        page.get_by_role("button", name="Add this step").click()
    assert current(game_id)[0].seq == game.seq  # a step is shown, not played
    with page.expect_navigation():
        page.get_by_role("button", name="Confirm turn (1 step)").click()
    assert page.get_by_text("Your turn was recorded (1 step).").is_visible()
    assert current(game_id)[0].seq > game.seq
    context.close()


def test_a_confirmed_step_whose_turn_goes_on_reloads_from_its_answer_without_asking_again(app, page):
    """Issue #27: the play API's POST answers the position after the moves, so the reloaded page's
    composer starts from that answer (no GET /api/play/<token>); the kept answer (it holds the hand)
    is gone once read."""
    game_id = new_game("beyond-the-rift", PLAYERS, {"scenario": "tutorial", "heroes": ["brannoc", "isolde"]}, seed=3)
    game, state = current(game_id)
    seat = game.to_act[0]
    steps = plan(BEYOND, state, seat, game.secret, game.seq,
                 lambda s, seat, legal: next(m for m in legal if m["type"] not in ("done", "end_turn")))[:1]
    after_state, events = steps[0][0], steps[0][2]
    for event in events:
        after_state = BEYOND.apply(after_state, event)
    assert seat in BEYOND.to_act(after_state) and decisions(BEYOND, after_state, seat)  # the turn goes on
    asked: list[str] = []
    open_composer(page, page_url(app, game_id, seat), DESKTOP)
    compose(page, BEYOND, steps, seat)
    page.on("request", lambda request: asked.append(f"{request.method} {request.url}"))
    with page.expect_navigation():
        page.locator(".composer-confirm").click()
    page.wait_for_selector("#composer:not([hidden])")
    page.wait_for_selector(".composer-choices button")
    assert current(game_id)[0].seq == game.seq + len(events)
    api_gets = [line for line in asked if line.startswith("GET ") and "/api/play/" in line]
    assert api_gets == [], asked
    kept = page.evaluate("() => Object.keys(sessionStorage).filter(k => k.indexOf('riftpost-composer-answer') === 0)")
    assert kept == []
