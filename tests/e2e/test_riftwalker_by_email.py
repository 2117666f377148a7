"""A whole 3-player Riftwalker game played only through the emails: a real web server, a real Celery
worker (with beat) and a real SMTP server (aiosmtpd), reusing the Riftforce duel's stack.

Riftwalker is the service's first game for more than two seats, and the first where a seat other
than the one whose turn it is must decide mid-turn (Flooded Causeway: each opponent discards a card
of their choice), so this test is about turn emails going to the right seat exactly once per change
of the seat to act, about every seat's hidden cards, and about the game reaching its end by email.

The embedded broker only: the Riftforce duel already runs the same stack on Redis.
"""

from __future__ import annotations

import json
import re
import time
from collections import Counter

import pytest

from service import store
from service.store import read_session
from tests.e2e.browser import Browser, unescape
from tests.e2e.mail import accept_invitation, choices, first_line, kind_of, link_for

# The stack (web server, worker, SMTP sink) is the duel's fixture, not a copy of it.
from tests.e2e.test_duel_by_email import PAGE_LINK, stack, text_of  # noqa: F401
from tests.riftwalker_helpers import RULES, Secrets, choose
from tests.service.helpers import deal_forms_from

pytestmark = pytest.mark.slow

EMAILS = {0: "ann@example.org", 1: "bob@example.org", 2: "cy@example.org"}
NAMES = {0: "Ann", 1: "Bob", 2: "Cy"}
# With this seed and the policy of tests/riftwalker_helpers.py the game ends by score after about 260 decisions and 56
# turn emails, and Flooded Causeway makes opponents discard mid-turn six times.
SEED = 45
MAX_DECISIONS = 600  # a policy change that stalls the game fails here, not at the time limit


def seat_of(message) -> int:
    return next(seat for seat, address in EMAILS.items() if address in message["To"])


@pytest.mark.parametrize("stack", ["embedded"], indirect=True)
def test_a_whole_three_player_riftwalker_game_played_from_the_emails(stack, monkeypatch):
    started = time.monotonic()
    browsers = {seat: Browser() for seat in EMAILS}

    creator = Browser()
    listing = creator.get(stack.base + "/")
    assert "Riftwalker</h2>" in listing.text and "2 to 4 players." in listing.text
    start = creator.get(stack.base + "/games/new/riftwalker")
    deal_forms_from(monkeypatch, SEED)
    fields = {"game": "riftwalker"}
    for seat in EMAILS:
        fields.update({f"name{seat}": NAMES[seat], f"email{seat}": EMAILS[seat]})
    created = creator.submit(start, start.forms()[0], fields)
    assert created.status == 200 and "has started" in created.text
    game_id = int(re.search(r"/games/(\d+)", created.url).group(1))
    secrets = Secrets(stack.app, game_id)

    first = stack.api(game_id)
    expected_turn_emails = Counter(first["to_act"])
    received_turn_emails: Counter = Counter()
    mid_turn = Counter()  # turn emails to a seat deciding inside another seat's turn
    game_over = {}
    processed = decisions = 0
    waited = 0.0  # seconds spent waiting for the worker's emails (the rest is the web and us)
    via = Counter()
    deadline = time.monotonic() + 240

    def position():
        """(seq, state) now, read from the store directly: cheaper than the API per decision."""
        with stack.app.app_context(), read_session(stack.app.extensions["riftpost.db"]) as session:
            game = store.get_game(session, game_id)
            return game.seq, store.load_state(session, game)[0]

    def post_and_track(browser, page, form, before, choices=None):
        """Submit a move form; count the turn emails the change of the seat to act must cause."""
        nonlocal decisions
        answer = browser.submit(page, form, choices)
        decisions += 1
        assert decisions <= MAX_DECISIONS, "the game does not end"
        seq, state = position()
        for seat in set(RULES.to_act(state)) - set(RULES.to_act(before)):
            expected_turn_emails[seat] += 1
            if state["turn"]["seat"] != seat:
                mid_turn[seat] += 1
        return answer, seq, state

    while not (len(game_over) == len(EMAILS) and stack.api(game_id)["status"] == "finished"):
        assert time.monotonic() < deadline, "the game did not finish in time"
        messages = stack.sink.messages()
        if len(messages) == processed:
            time.sleep(0.05)
            waited += 0.05
            continue
        message = messages[processed]
        processed += 1
        seat = seat_of(message)
        if kind_of(message) == "invitation":  # a new address: it accepts once, as a person would
            accept_invitation(browsers[seat], message)
            continue
        subject = message["Subject"]
        assert subject == f"Riftwalker #{game_id}: Ann, Bob and Cy"  # one subject for the whole thread
        body = text_of(message)
        found = re.search(r"\.s(\d+)@", message["Message-ID"])  # invitations: the setup position
        secrets.check(body, seat, int(found.group(1)) if found else first["seq"], "an email")
        if kind_of(message) == "game_over":
            assert first_line(message).startswith("Game over: ")
            game_over[seat] = body
            continue
        if kind_of(message) != "turn":
            continue
        received_turn_emails[seat] += 1
        browser = browsers[seat]
        plain = message.get_body(preferencelist=("plain",)).get_content()
        links = choices(plain)
        assert links and PAGE_LINK.search(plain) and "/m/" not in plain

        if sum(received_turn_emails.values()) == 1:
            # The leak check has teeth: this seat's own page, judged as another seat's, leaks.
            own_page = browser.get(PAGE_LINK.search(plain).group(0))
            with pytest.raises(AssertionError, match="names hidden cards"):
                secrets.check(own_page.text, (seat + 1) % len(EMAILS), what="(self-test) a page")

        seq, state = position()
        assert RULES.to_act(state) == [seat]
        move = choose(state, seat, RULES.legal_moves(state, seat))
        link = link_for(RULES, state, seat, move, links)
        if link:  # the email's choice: GET it (safe), it opens the page with that step chosen
            chosen = browser.get(link)
            assert chosen.status == 200 and "It is your turn" in chosen.text
            assert stack.api(game_id)["seq"] == seq, "a GET changed the game"
            secrets.check(chosen.text, seat, seq, "the player page", state)
            page, seq, state = _play_on_page(chosen, move, browser, post_and_track, state)
            via["link"] += 1
        else:  # a step the email does not link: the page link from the same email
            page = browser.get(PAGE_LINK.search(plain).group(0))
            via["page"] += 1
            page, seq, state = _play_on_page(page, move, browser, post_and_track, state)
        assert page.status == 200, page.text[:500]

        # The rest of the turn (or of this seat's mid-turn decision) on the player page.
        while True:
            secrets.check(page.text, seat, seq, "the player page", state)
            if not any("move" in f.radios for f in page.forms()):
                break
            move = choose(state, seat, RULES.legal_moves(state, seat))
            page, seq, state = _play_on_page(page, move, browser, post_and_track, state)
            assert page.status == 200, page.text[:500]

        spectator = stack.api(game_id)
        assert all("hand" not in entry for entry in spectator["view"]["seats"])
        for viewer in (None, *EMAILS):
            secrets.check(json.dumps(spectator), viewer, spectator["seq"], "the JSON API")

    final = stack.api(game_id)
    elapsed = time.monotonic() - started
    print(f"riftwalker #{game_id}: seq {final['seq']}, {decisions} decisions ({dict(via)} from emails), "
          f"turn emails {dict(received_turn_emails)} (mid-turn {dict(mid_turn)}), {processed} emails, "
          f"scores {final['result']['scores']}, {elapsed:.1f} s ({waited:.1f} s waiting for mail)")
    assert final["status"] == "finished" and final["to_act"] == [] and final["result"]["winners"]
    assert received_turn_emails == expected_turn_emails  # exactly one per change of the seat to act
    assert sum(mid_turn.values()) >= 2, "no opponent had to decide inside another seat's turn"
    assert set(game_over) == set(EMAILS)
    for body in game_over.values():  # everyone's game-over email names everyone's score
        for other, score in final["result"]["scores"].items():
            assert f"{NAMES[int(other)]}: {score}" in body
    spectator_page = creator.get(f"{stack.base}/games/{game_id}")
    assert spectator_page.status == 200 and "The game is over" in spectator_page.text
    secrets.check(spectator_page.text, None, what="the spectator page")
    time.sleep(1.0)  # nothing more may arrive: no duplicate sends after the end
    assert len(stack.sink.messages()) == processed


def _play_on_page(page, move, browser, post_and_track, before):
    """Submit the player page's move form with `move` (which must be one of its radio buttons)."""
    form = next(f for f in page.forms() if "move" in f.radios)
    values = {json.dumps(json.loads(unescape(v)), sort_keys=True): v for v in form.radios["move"]}
    value = values[json.dumps(move, sort_keys=True)]
    return post_and_track(browser, page, form, before, {"move": value})
