"""A whole Riftforce duel played only through the emails: a real web server, a real Celery worker
(with beat) on the real Redis and on the embedded SQLite broker, and a real SMTP server (aiosmtpd).

Each player has their own browser.  They start from the links of the emails they receive: GET one of
the turn email's choices (it opens their page with that first step chosen; a GET changes nothing),
make that step with the page's form, finish the turn's follow-up decisions on the page, and wait for
the next email.
"""

from __future__ import annotations

import json
import random
import re
import shutil
import threading
import time
import urllib.request
from collections import Counter

import pytest
from werkzeug.serving import make_server

import engine
from service import store
from service.store import read_session
from tests import services
from tests.conftest import make_app
from tests.e2e.browser import Browser, unescape
from tests.e2e.mail import accept_invitation, choices, first_line, kind_of, move_form_choice, step_of
from tests.service.helpers import deal_forms_from
from tests.worker.processes import WorkerProcess

pytestmark = pytest.mark.slow

EMAILS = {0: "ann@example.org", 1: "bob@example.org"}
PAGE_LINK = re.compile(r"https?://\S+/p/[A-Za-z0-9_.\-]+")
CARD_ID = re.compile(r"\b[a-z]+-[567][a-d]\b")


class Stack:
    def __init__(self, app, base, sink, worker):
        self.app, self.base, self.sink, self.worker = app, base, sink, worker

    def api(self, game_id):
        with urllib.request.urlopen(f"{self.base}/api/games/{game_id}", timeout=10) as answer:
            return json.loads(answer.read())

    def state(self, game_id, seq=None):
        with self.app.app_context(), read_session(self.app.extensions["riftpost.db"]) as session:
            game = store.get_game(session, game_id)
            return store.load_state(session, game, seq)[0]


@pytest.fixture(params=[pytest.param("redis", marks=pytest.mark.redis), "embedded"])
def stack(request, tmp_path, migrated_sqlite, sink):
    broker = services.redis_database() if request.param == "redis" else f"sqla+sqlite:///{tmp_path / 'broker.sqlite'}"
    db = tmp_path / "app.sqlite"
    shutil.copy(migrated_sqlite, db)
    port = services.free_port()
    base = f"http://127.0.0.1:{port}"
    app = make_app(tmp_path, f"sqlite:///{db}", CELERY_BROKER_URL=broker, SMTP_URL=sink.url,
                   OUTBOX_KICK=True, BASE_URL=base, TESTING=False)
    server = make_server("127.0.0.1", port, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    worker = WorkerProcess(instance=tmp_path, database_url=f"sqlite:///{db}", broker_url=broker,
                           smtp_url=sink.url, base_url=base, dispatch_seconds=2.0)
    yield Stack(app, base, sink, worker)
    worker.stop()
    server.shutdown()
    app.extensions["riftpost.db"].dispose()


def hidden_from(state, seat) -> set[str]:
    """Card ids `seat` may not see: the other hand and both draw piles."""
    return set(state["hand"][1 - seat]) | set(state["deck"][0]) | set(state["deck"][1])


def text_of(message) -> str:
    return "\n".join(part.get_content() for part in message.walk() if part.get_content_maintype() == "text")


def seat_of(message) -> int:
    return next(seat for seat, address in EMAILS.items() if address in message["To"])


def test_a_whole_riftforce_duel_played_from_the_emails(stack, monkeypatch):
    rng = random.Random(2026)
    rules = engine.get("riftforce")
    browsers = {0: Browser(), 1: Browser()}

    # The game is started with the web form, like a person would.
    deal_forms_from(monkeypatch, 77)
    creator = Browser()
    start = creator.get(stack.base + "/games/new/riftforce")  # the game is chosen first
    form = start.forms()[0]
    created = creator.submit(start, form, {
        "game": "riftforce", "name0": "Ann", "email0": EMAILS[0], "name1": "Bob", "email1": EMAILS[1]})
    assert created.status == 200 and "has started" in created.text
    game_id = int(re.search(r"/games/(\d+)", created.url).group(1))

    first = stack.api(game_id)
    expected_turn_emails = Counter(first["to_act"])
    received_turn_emails: Counter = Counter()
    game_over = {}
    processed = 0
    old_links: dict[int, str] = {}
    checked = Counter()
    message_ids = []
    deadline = time.monotonic() + 600

    def check_no_leak(text: str, seat: int, seq: int | None = None, what: str = "") -> None:
        hidden = hidden_from(stack.state(game_id, seq), seat)
        leaked = set(CARD_ID.findall(text)) & hidden
        assert not leaked, f"{what} for seat {seat} shows hidden cards {leaked}"

    def post_and_track(browser, page, form, choices=None):
        before = set(stack.api(game_id)["to_act"])
        answer = browser.submit(page, form, choices)
        after = stack.api(game_id)
        for seat in set(after["to_act"]) - before:
            expected_turn_emails[seat] += 1
        return answer

    while not (len(game_over) == 2 and stack.api(game_id)["status"] == "finished"):
        assert time.monotonic() < deadline, "the duel did not finish in time"
        messages = stack.sink.messages()
        if len(messages) == processed:
            time.sleep(0.05)
            continue
        message = messages[processed]
        processed += 1
        message_ids.append(message["Message-ID"])
        seat = seat_of(message)
        if kind_of(message) == "invitation":  # a new address: it accepts once, as a person would
            accept_invitation(browsers[seat], message)
            continue
        subject = message["Subject"]
        assert subject == f"Riftforce #{game_id}: Ann vs Bob"  # one subject for the whole thread
        body = text_of(message)
        found = re.search(r"\.s(\d+)@", message["Message-ID"])  # invitations: the setup position
        email_seq = int(found.group(1)) if found else first["seq"]
        check_no_leak(body, seat, email_seq, "an email")
        if kind_of(message) == "game_over":
            assert first_line(message).startswith("Game over: ")
            game_over[seat] = message
            continue
        if kind_of(message) != "turn":
            continue
        assert re.search(r"Your turn(, due [^.]+)?\.$", first_line(message)), first_line(message)
        received_turn_emails[seat] += 1
        browser = browsers[seat]
        links = list(choices(body).values())
        assert links and PAGE_LINK.search(body) and "/m/" not in body

        # A link from this player's previous turn email opens their page as the game is now: never acts.
        if seat in old_links:
            seq = stack.api(game_id)["seq"]
            old = browser.get(old_links[seat])
            assert old.status == 200 and stack.api(game_id)["seq"] == seq
            checked["old"] += 1
        old_links[seat] = links[0]

        # Tampering with a link gets a clear 4xx and changes nothing.
        if checked["tampered"] < 2:
            seq = stack.api(game_id)["seq"]
            token = links[0].split("/p/", 1)[1].split("?", 1)[0]
            bad = links[0].replace(token, token[:-4] + ("AAAA" if not token.endswith("AAAA") else "BBBB"))
            answer = browser.get(bad)
            assert answer.status == 400 and "not valid" in answer.text
            assert stack.api(game_id)["seq"] == seq
            checked["tampered"] += 1

        # GET (and HEAD, as mail scanners do) a choice: safe; then that first step with the page's form.
        link = rng.choice(links)
        seq = stack.api(game_id)["seq"]
        assert browser.head(link) == 200
        chosen = browser.get(link)
        assert chosen.status == 200 and "It is your turn" in chosen.text
        assert stack.api(game_id)["seq"] == seq, "a GET changed the game"
        check_no_leak(chosen.text, seat, what="the player page")
        state = stack.state(game_id)
        move = rules.parse_move(state, seat, step_of(link))
        assert move in rules.legal_moves(state, seat)
        form, value = move_form_choice(chosen, move)
        page = post_and_track(browser, chosen, form, {"move": value})
        assert page.status == 200 and stack.api(game_id)["seq"] > seq

        # Submitting the same "Confirm turn" again records nothing.
        if checked["resubmitted"] < 2:
            seq = stack.api(game_id)["seq"]
            again = browser.submit(*browser.last_confirm, follow=False)
            assert again.status == 409 and "out of date" in again.text
            assert stack.api(game_id)["seq"] == seq
            checked["resubmitted"] += 1

        # The rest of the turn: follow-up decisions on the player page (no email for those).
        while True:
            check_no_leak(page.text, seat, what="the player page")
            forms = [f for f in page.forms() if "move" in f.radios]
            if not forms:
                break
            choice = rng.choice(forms[0].radios["move"])
            assert json.loads(unescape(choice)) in rules.legal_moves(stack.state(game_id), seat)
            page = post_and_track(browser, page, forms[0], {"move": choice})
            assert page.status == 200, page.text[:500]

        spectator = stack.api(game_id)
        check_no_leak(json.dumps(spectator), 0, what="the JSON API")
        check_no_leak(json.dumps(spectator), 1, what="the JSON API")

    final = stack.api(game_id)
    assert final["status"] == "finished" and final["result"]["winners"] and final["to_act"] == []
    assert received_turn_emails == expected_turn_emails  # exactly one per turn change
    assert sum(received_turn_emails.values()) >= 20  # a real game: the draft and many turns
    print(f"duel #{game_id}: seq {final['seq']}, turn emails {dict(received_turn_emails)}, "
          f"{processed} emails, result {final['result']['scores']}")
    assert set(game_over) == {0, 1}
    assert len(message_ids) == len(set(message_ids))
    assert checked["old"] >= 2 and checked["tampered"] == 2 and checked["resubmitted"] == 2
    time.sleep(1.0)  # nothing more may arrive: no duplicate sends after the end
    assert len(stack.sink.messages()) == processed
