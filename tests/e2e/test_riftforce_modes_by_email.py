"""Riftforce Beyond by email: a 4-player team game and a solo game against the trainer, each played
only through the emails (a real web server, a real Celery worker with beat, a real SMTP server),
reusing the duel's stack.

Each player has their own browser and acts only when an email arrives: on a turn email they follow
the choice whose first step starts the move the policy (tests/riftforce_helpers.py) chooses (it opens
their page with that step chosen), or the email's link to their game page when that step is not
among the links, then make the move and the turn's follow-up decisions on the page.  Checked: one
turn email per new turn (a seat newly to act, or the solo player's next round) and no other email
while a player waits (a partner's turn is told in the teammate's next turn email), hand privacy
between teammates in every email, page and the JSON API, and the game-over email to everyone.
"""

from __future__ import annotations

import json
import re
import time
from collections import Counter

import pytest

import engine
from service import store
from service.store import read_session
from tests.e2e.browser import Browser
from tests.e2e.mail import accept_invitation, choices, first_line, kind_of, link_for, move_form_choice

# The stack (web server, worker, SMTP sink) is the duel's fixture, not a copy of it.
from tests.e2e.test_duel_by_email import PAGE_LINK, stack, text_of  # noqa: F401
from tests.riftforce_helpers import fast
from tests.service.helpers import deal_forms_from

pytestmark = pytest.mark.slow

RULES = engine.get("riftforce")
CARD_ID = re.compile(r"\b[a-z]+-[567][a-d]\b")
MAX_DECISIONS = 400  # a policy change that stalls a game fails here, not at the time limit


class Table:
    """One game played from the emails: the players' browsers, the counts and the checks."""

    def __init__(self, stack, emails: dict[int, str], mode: str):
        self.stack, self.emails, self.mode = stack, emails, mode
        self.browsers = {seat: Browser() for seat in emails}
        self.expected = {"turn": Counter()}
        self.received = {"turn": Counter(), "game_over": Counter(), "invite": Counter(), "other": Counter()}
        self.told_partner = 0  # turn emails that tell what the reader's partner did
        self.decisions = 0
        self.via_link = 0
        self.game_over_lines: list[str] = []
        self.subjects: set[str] = set()
        self.game_id = 0
        self.starting: set[int] = set()

    def create(self, fields: dict) -> None:
        creator = Browser()
        start = creator.get(self.stack.base + f"/games/new/riftforce?mode={fields.get('mode', 'duel')}")
        created = creator.submit(start, start.forms()[0], {"game": "riftforce", **fields})
        assert created.status == 200 and "has started" in created.text, created.text[:2000]
        self.game_id = int(re.search(r"/games/(\d+)", created.url).group(1))
        first = self.stack.api(self.game_id)
        self.expected["turn"].update(first["to_act"])
        self.starting = set(first["to_act"])

    # ---- what each seat may not see --------------------------------------------------------------

    def events(self, after: int, upto: int) -> list:
        with self.stack.app.app_context(), read_session(self.stack.app.extensions["riftpost.db"]) as session:
            return [(row.actor, row.payload) for row in store.stored_events(session, self.game_id, after, upto)
                    if row.kind != "system"]

    def hidden_from(self, seat: int | None, seq: int | None = None) -> set[str]:
        """Every hand but the seat's own (a teammate's included) and every draw pile."""
        state = self.stack.state(self.game_id, seq)
        hidden = {c for pile in state["deck"] for c in pile}
        return hidden | {c for s, hand in enumerate(state["hand"]) if s != seat for c in hand}

    def check_no_leak(self, text: str, seat: int | None, seq: int | None = None, what: str = "") -> None:
        leaked = set(CARD_ID.findall(text)) & self.hidden_from(seat, seq)
        assert not leaked, f"{what} for seat {seat} shows hidden cards {leaked}"

    # ---- playing -----------------------------------------------------------------------------------

    def post_and_track(self, seat: int, page, form, choices=None):
        """Submit a form; count the emails the change must cause (the rules, stated here apart from
        service/play/emails.py): a turn email to each seat newly to act, and to the solo player whose own
        move began their next turn; nothing to anyone else."""
        before_api = self.stack.api(self.game_id)
        answer = self.browsers[seat].submit(page, form, choices)
        self.decisions += 1
        assert self.decisions <= MAX_DECISIONS, "the game does not end"
        after_api = self.stack.api(self.game_id)
        before, after = set(before_api["to_act"]), set(after_api["to_act"])
        assert after_api["seq"] > before_api["seq"], answer.text[:1500]
        if after_api["status"] != "active":
            return answer
        new = self.events(before_api["seq"], after_api["seq"])
        assert {actor for actor, _ in new} == {seat}
        for s in after - before:
            self.expected["turn"][s] += 1
        if before == after == {seat} and any(e["type"] == "turn" and e["seat"] == seat for _, e in new):
            self.expected["turn"][seat] += 1
        return answer

    def take_turn(self, seat: int, body: str) -> None:
        browser = self.browsers[seat]
        turns = self.expected["turn"][seat]
        links = choices(body)
        assert links, body
        state = self.stack.state(self.game_id)
        move = fast(state, seat, RULES.legal_moves(state, seat))
        link = link_for(RULES, state, seat, move, links)
        if link:  # the email's choice: GET it (safe), it opens the page with that first step chosen
            seq = self.stack.api(self.game_id)["seq"]
            chosen = browser.get(link)
            assert chosen.status == 200 and "It is your turn" in chosen.text
            assert self.stack.api(self.game_id)["seq"] == seq, "a GET changed the game"
            self.check_no_leak(chosen.text, seat, what="the player page")
            form, value = move_form_choice(chosen, move)
            page = self.post_and_track(seat, chosen, form, {"move": value})
            self.via_link += 1
        else:
            page = browser.get(PAGE_LINK.search(body).group(0))
            assert page.status == 200 and "It is your turn" in page.text
        # The turn's follow-up decisions on the player page, until the turn is over: in solo the
        # page then offers the next round's moves at once, but the player waits for its email.
        while page is not None and self.expected["turn"][seat] == turns:
            page = self.choose_on_page(seat, page)

    def choose_on_page(self, seat: int, page):
        """Make the policy's decision with the page's move form; None when the page offers none."""
        assert page.status == 200, page.text[:1500]
        self.check_no_leak(page.text, seat, what="the player page")
        forms = [f for f in page.forms() if "move" in f.radios]
        if not forms:
            return None
        state = self.stack.state(self.game_id)
        move = fast(state, seat, RULES.legal_moves(state, seat))
        form, value = move_form_choice(page, move)
        return self.post_and_track(seat, page, form, {"move": value})

    def play(self, time_limit: float) -> None:
        deadline = time.monotonic() + time_limit
        processed = 0
        seats = len(self.emails)
        while not (sum(self.received["game_over"].values()) == seats
                   and self.stack.api(self.game_id)["status"] == "finished"):
            assert time.monotonic() < deadline, (
                f"the game did not finish in time: {self.decisions} decisions, {self.received}")
            messages = self.stack.sink.messages()
            if len(messages) == processed:
                time.sleep(0.05)
                continue
            message = messages[processed]
            processed += 1
            seat = next(s for s, address in self.emails.items() if address in message["To"])
            if kind_of(message) == "invitation":  # a new address: it accepts once, as a person would
                accept_invitation(self.browsers[seat], message)
                continue
            subject = message["Subject"]
            self.subjects.add(subject)
            body = text_of(message)
            found = re.search(r"\.s(\d+)@", message["Message-ID"])
            self.check_no_leak(body, seat, int(found.group(1)) if found else None, f"email {subject!r}")
            if kind_of(message) == "game_over":
                self.received["game_over"][seat] += 1
                self.game_over_lines.append(first_line(message))
            elif kind_of(message) == "invite":
                self.received["invite"][seat] += 1
            elif kind_of(message) == "turn":
                assert message["In-Reply-To"] or self.received["turn"][seat] == 0  # the first: the invitation
                self.received["turn"][seat] += 1
                assert seat in self.stack.api(self.game_id)["to_act"]
                if self.mode == "solo" and self.received["turn"][seat] >= 3:
                    # After the keep-4 setup and the first action: what the trainer did.
                    assert "Since your last turn:" in body
                    assert "- The trainer carries out its plan:" in body
                if self.mode == "team" and ("\n- Your partner " in body or "\n- Your team " in body):
                    self.told_partner += 1
                self.take_turn(seat, body)
                spectator = json.dumps(self.stack.api(self.game_id))
                self.check_no_leak(spectator, None, what="the JSON API")
                assert "example.org" not in spectator
            else:
                self.received["other"][kind_of(message)] += 1
        time.sleep(1.0)  # nothing more may arrive: no duplicate sends after the end
        assert len(self.stack.sink.messages()) == processed
        ids = [m["Message-ID"] for m in self.stack.sink.messages()]
        assert len(ids) == len(set(ids))


# The embedded broker: the duel already runs the same stack on Redis, and a broker of its own keeps
# this longer game clear of other test runs sharing the Redis server.
@pytest.mark.parametrize("stack", ["embedded"], indirect=True)
def test_a_four_player_team_game_played_from_the_emails(stack, monkeypatch):
    started = time.monotonic()
    names = ["Ann", "Bob", "Cat", "Dan"]
    emails = {seat: f"{names[seat].lower()}@example.org" for seat in range(4)}
    table = Table(stack, emails, "team")
    deal_forms_from(monkeypatch, 11)
    fields = {"mode": "team"}
    for seat in emails:
        fields.update({f"name{seat}": names[seat], f"email{seat}": emails[seat]})
    table.create(fields)
    table.play(time_limit=110)

    final = stack.api(table.game_id)
    result = final["result"]
    assert final["status"] == "finished" and final["to_act"] == []
    assert max(t["score"] for t in result["teams"]) >= 12
    winners = set(result["winners"])
    assert winners in ({0, 2}, {1, 3})  # a team wins together
    # The first player's invitation is their first turn email: one invitation each.
    assert table.received["invite"] == Counter({s: 1 for s in emails if s not in table.starting})
    assert table.received["game_over"] == Counter({0: 1, 1: 1, 2: 1, 3: 1})
    assert table.subjects == {f"Riftforce #{table.game_id}: Ann & Cat vs Bob & Dan"}
    names_won = " and ".join(names[s] for s in sorted(winners))
    # A winner reads "You and <partner> won." (issue #22 item 3: "You won" to the winner), the others the names.
    partners = {f"Game over: You and {names[other]} won." for other in winners}
    assert set(table.game_over_lines) == {f"Game over: {names_won} won."} | partners
    assert table.received["turn"] == table.expected["turn"]  # exactly one per new turn
    assert table.received["other"] == Counter()  # no partner emails: partners read it in their turn email
    assert table.told_partner >= 10
    assert sum(table.received["turn"].values()) >= 30 and table.via_link >= 10
    print(f"team #{table.game_id}: {table.decisions} decisions, turn emails {dict(table.received['turn'])}, "
          f"{table.told_partner} telling a partner's turn, result {result['scores']}, "
          f"{time.monotonic() - started:.1f}s")


@pytest.mark.parametrize("stack", ["embedded"], indirect=True)
def test_a_solo_game_against_the_trainer_played_from_the_emails(stack, monkeypatch):
    started = time.monotonic()
    table = Table(stack, {0: "sol@example.org"}, "solo")
    deal_forms_from(monkeypatch, 8)
    table.create({"mode": "solo", "name0": "Sol", "email0": "sol@example.org",
                  "stars5": "2", "stars6": "1", "stars7": "1", "and_number": "6", "and_end": "A"})
    assert stack.state(table.game_id)["options"]["and"] == {"number": 6, "end": "A"}
    table.play(time_limit=110)

    final = stack.api(table.game_id)
    assert final["status"] == "finished" and final["to_act"] == []
    result = final["result"]
    assert max(result["scores"]["0"], result["trainer"]) >= 12
    assert table.received["turn"] == table.expected["turn"]
    assert table.received["turn"][0] >= 8  # the keep-4 setup, then one per round
    assert table.received["game_over"] == Counter({0: 1}) and table.received["other"] == Counter()
    assert table.subjects == {f"Riftforce #{table.game_id}: Sol vs the trainer"}
    you, trainer = result["scores"]["0"], result["trainer"]
    assert table.game_over_lines == [
        "Game over: " + (f"The trainer won, {trainer} to {you}." if trainer > you else "Sol won.")]
    print(f"solo #{table.game_id}: {table.decisions} decisions, {table.received['turn'][0]} turn emails, "
          f"you {result['scores']['0']} - trainer {result['trainer']}, {time.monotonic() - started:.1f}s")
