"""Handing a seat that timed out twice over for good (service/play/handover.py): the vote of the remaining
people, to a bot or to a new person by an invitation.  On SQLite and the real PostgreSQL; emails go
through a real SMTP sink (aiosmtpd) and are read as their readers get them."""

from __future__ import annotations

import json
import re
from datetime import timedelta

import pytest
import sqlalchemy as sa

import engine
from service import links, store
from service.mail import outbox
from service.play import bots, handle, handover, new_game
from service.play.timeouts import sweep as sweep_at
from service.store import get_engine, read_session
from service.store.models import Event, Game, Invitation, Outbox, Player, SeatVote
from service.web.tokens import page_token
from tests.conftest import app_on
from tests.consent import preconsent
from tests.deadlines.helpers import T0
from tests.web.pages import csrf_token

ANN, BOB, CY, DAN = ("Ann", "ann@example.org"), ("Bob", "bob@example.org"), ("Cy", "cy@example.org"), \
    ("Dan", "dan@example.org")
EVE = "eve@example.org"
BASE = "http://riftpost.test"


@pytest.fixture
def app(backend_url, tmp_path, sink):
    with app_on(tmp_path, backend_url, SMTP_URL=sink.url) as app:
        preconsent(ANN[1], BOB[1], CY[1], DAN[1])
        yield app


@pytest.fixture
def client(app):
    return app.test_client()


class Table:
    """A timed Riftwalker game driven with the clock as an input: the seat `dropped` never plays (the
    sweep plays its turns at their deadlines), the others play an easy bot's move an hour in."""

    def __init__(self, players, dropped: int, policy: str = "auto", seed: int = 11, t0=T0):
        self.t0 = t0
        self.game_id = new_game("riftwalker", list(players), seed=seed, deadline_hours=24, policy=policy, now=t0)
        self.dropped = dropped
        self.hours = 0

    def state(self):
        with read_session(get_engine()) as session:
            game = session.get(Game, self.game_id)
            state, _ = store.load_state(session, game)
            return game, state

    def timeouts(self) -> int:
        with read_session(get_engine()) as session:
            return handover.timed_out_turns(session.connection(), self.game_id, {}).get(self.dropped, 0)

    def step(self) -> None:
        game, state = self.state()
        seat = game.to_act[0]
        if seat == self.dropped:
            self.hours += 25
            sweep_at(self.t0 + timedelta(hours=self.hours))
            return
        self.hours += 1
        move = bots.choose(engine.get("riftwalker"), state, seat, game.secret, game.seq, "easy")
        handle(self.game_id, seat, move, game.seq, now=self.t0 + timedelta(hours=self.hours))

    def until_timeouts(self, count: int) -> None:
        for _ in range(400):
            if self.timeouts() >= count:
                return
            self.step()
        raise AssertionError("the seat did not time out")

    def until_turn_of(self, seat: int) -> None:
        for _ in range(100):
            game, _ = self.state()
            if game.to_act == [seat]:
                return
            self.step()
        raise AssertionError("the seat's turn did not come")

    def seats(self) -> list[Player]:
        with read_session(get_engine()) as session:
            return store.players_of(session, self.game_id)

    def token(self, seat: int) -> str:
        return page_token(self.seats()[seat])


def vote(client, token: str, seat: int, choice: str, **fields):
    page = client.get(f"/p/{token}")
    return client.post(f"/p/{token}/handover", data={"csrf_token": csrf_token(page.get_data(as_text=True)),
                                                     "seat": str(seat), "choice": choice, **fields})


def deliver_pending() -> None:
    with read_session(get_engine()) as session:
        ids = session.execute(sa.select(Outbox.id).where(Outbox.status == "pending").order_by(Outbox.id)).scalars()
        pending = list(ids)
    for row_id in pending:
        outbox.deliver(row_id)


def to(messages, address: str) -> list:
    return [m for m in messages if address in m["To"]]


def body(message) -> str:
    return message.get_body(("plain",)).get_content()


def test_only_after_two_timeouts(app, client):
    table = Table([ANN, BOB, CY], dropped=1)
    table.until_timeouts(1)
    ann = table.token(0)
    assert "missed" not in client.get(f"/p/{ann}").get_data(as_text=True)
    refused = vote(client, ann, 1, "bot")
    assert refused.status_code == 409 and "has not missed two deadlines" in refused.get_data(as_text=True)
    table.until_timeouts(2)
    page = client.get(f"/p/{ann}").get_data(as_text=True)
    assert "Bob missed 2 deadlines" in page and "Give the seat to a bot (normal)" in page


def test_a_turn_of_several_timed_out_decisions_is_one_timeout(app):
    table = Table([ANN, BOB, CY], dropped=1)
    table.until_timeouts(1)
    with read_session(get_engine()) as session:
        kinds = session.execute(sa.select(Event.kind).where(Event.game_id == table.game_id, Event.actor == 1)
                                ).scalars().all()
    assert kinds.count("timeout") > 1  # Riftwalker's turn is several decisions: each played by the sweep
    assert table.timeouts() == 1


def test_only_in_games_of_three_or_more(app, client):
    table = Table([ANN, BOB], dropped=1)
    table.until_timeouts(2)
    ann = table.token(0)
    assert "missed" not in client.get(f"/p/{ann}").get_data(as_text=True)
    assert vote(client, ann, 1, "bot").status_code == 409
    assert bots.level_of(table.seats()[1]) is None


def test_unanimity_of_the_remaining_people(app, client):
    table = Table([ANN, BOB, CY, DAN], dropped=1)
    table.until_timeouts(2)
    ann, bob, cy, dan = (table.token(s) for s in range(4))
    # The dropped seat itself does not vote; its page tells it what may happen.
    assert vote(client, bob, 1, "bot").status_code == 409
    assert "may now hand your seat over for good" in client.get(f"/p/{bob}").get_data(as_text=True)
    assert vote(client, ann, 1, "bot").status_code == 303
    assert vote(client, cy, 1, "person", address=EVE, name="Eve").status_code == 303
    assert bots.level_of(table.seats()[1]) is None  # two of three agree on nothing yet
    page = client.get(f"/p/{dan}").get_data(as_text=True)
    assert "Not voted yet: Dan" in page and "Agree: a bot (normal)" in page and "Agree: invite e***@example.org" in page
    assert EVE not in page  # the address is shown masked
    assert vote(client, dan, 1, "same:0").status_code == 303  # Dan agrees with Ann: still not Cy
    assert bots.level_of(table.seats()[1]) is None
    assert vote(client, cy, 1, "same:0").status_code == 303  # Cy changes their vote: everyone agrees
    assert bots.level_of(table.seats()[1]) == "normal"
    with read_session(get_engine()) as session:  # the votes are done with
        assert session.execute(sa.select(SeatVote.id)).first() is None


def test_bots_in_the_game_do_not_vote(app, client):
    table = Table([ANN, BOB, ("", "bot:easy")], dropped=1)
    table.until_timeouts(2)
    assert vote(client, table.token(0), 1, "bot").status_code == 303  # Ann alone decides: the bot has no say
    assert bots.level_of(table.seats()[1]) == "normal"


def test_a_get_never_changes_state(app, client):
    table = Table([ANN, BOB, CY], dropped=1)
    table.until_timeouts(2)
    ann = table.token(0)
    assert client.get(f"/p/{ann}/handover?seat=1&choice=bot").status_code == 405
    with read_session(get_engine()) as session:
        assert session.execute(sa.select(SeatVote.id)).first() is None


def test_a_bot_takes_over_and_then_plays_via_the_worker_task(app, client, sink):
    table = Table([ANN, BOB, CY], dropped=1)
    table.until_timeouts(2)
    old = table.token(1)
    assert vote(client, table.token(0), 1, "bot").status_code == 303
    assert vote(client, table.token(2), 1, "same:0").status_code == 303
    seat = table.seats()[1]
    assert (seat.name, seat.email, bots.level_of(seat)) == ("Bot (normal)", "", "normal")
    # The old holder's links are refused, with the reason.
    gone = client.get(f"/p/{old}")
    assert gone.status_code == 410 and "handed this seat over" in gone.get_data(as_text=True)
    # They are told by email (and nothing else queued for them goes).
    deliver_pending()
    told = to(sink.messages(), BOB[1])
    assert [m["Subject"] for m in told if "handed over" in m["Subject"]]
    last = [m for m in told if "handed over" in m["Subject"]][-1]
    assert "so the other players handed your seat to a bot" in body(last)
    assert "/p/" not in body(last)  # no link to the seat, nor its board
    with read_session(get_engine()) as session:
        rows = session.execute(sa.select(Outbox.kind, Outbox.status).where(Outbox.player_id == seat.id)).all()
    assert not [kind for kind, status in rows if status in ("pending", "held")]
    # The seat's turn is played by the worker's bot task, as any bot seat's.
    table.until_turn_of(1)
    game, _ = table.state()
    assert (game.id, 1, game.seq) in bots.due()
    assert bots.play(game.id, 1, game.seq) == "played"
    with read_session(get_engine()) as session:
        played = session.execute(sa.select(Event.kind, Event.actor).where(
            Event.game_id == game.id, Event.seq == game.seq + 1)).one()
    assert tuple(played) == ("move", 1)


def _invite_eve(client, table):
    assert vote(client, table.token(0), 1, "person", address=EVE, name="Eve").status_code == 303
    assert vote(client, table.token(2), 1, "same:0").status_code == 303


def _names_seat(text: str, seat) -> bool:
    """Whether `text` holds a page link of `seat` as it is now (its row key and link generation): the
    token itself differs with the second it was signed in, so it is read, not compared."""
    found = re.search(r"/p/([\w.-]+)", text)
    if found is None:
        return False
    link = links.read_player_token(found.group(1))
    return (link.player_id, link.key, link.generation) == (seat.id, seat.row_key, seat.link_generation)


def test_a_new_person_takes_over_through_an_invitation(app, client, sink):
    table = Table([ANN, BOB, CY], dropped=1)
    table.until_timeouts(2)
    old = table.token(1)
    _invite_eve(client, table)
    # Until Eve accepts the seat is Bob's, and the others are told who was invited (masked).
    assert table.seats()[1].email == BOB[1]
    assert "invite e***@example.org to take Bob" in client.get(f"/p/{table.token(0)}").get_data(as_text=True)
    deliver_pending()
    invited = to(sink.messages(), EVE)
    assert len(invited) == 1 and "Ann invites you to take a seat" in invited[0]["Subject"]
    text = body(invited[0])
    assert "missed two deadlines" in text
    accept = re.search(rf"{re.escape(BASE)}(/i/[^\s]+)", text).group(1)
    page = client.get(accept)
    assert page.status_code == 200 and "Ann invites you to take over a seat" in page.get_data(as_text=True)
    assert table.seats()[1].email == BOB[1]  # a GET (a mail scanner's) takes nothing
    token = accept.removeprefix("/i/").split("?")[0]
    taken = client.post(f"/i/{token}/accept", data={"csrf_token": csrf_token(page.get_data(as_text=True))})
    assert taken.status_code == 303
    seat = table.seats()[1]
    assert (seat.email, seat.name, seat.consent) == (EVE, "Eve", "")
    assert _names_seat(taken.headers["Location"], seat)
    assert client.get(taken.headers["Location"]).status_code == 200
    # The old links are refused; a second press of the invitation mints no link.
    assert client.get(f"/p/{old}").status_code == 410
    again = client.post(f"/i/{token}/accept", data={"csrf_token": csrf_token(page.get_data(as_text=True))})
    assert again.status_code == 200 and "You took this seat already" in again.get_data(as_text=True)
    deliver_pending()
    assert [m for m in to(sink.messages(), BOB[1]) if "handed your seat to another player" in body(m)]
    first = [m for m in to(sink.messages(), EVE) if "You took over a seat" in body(m)]
    assert len(first) == 1 and _names_seat(body(first[0]), seat)


def test_the_old_links_are_refused_afterwards(app, client):
    """Every link of the old holder (page, history, record, move, unsubscribe) is refused once the
    seat is someone else's, and says why; their old invitation cannot be answered any more."""
    from service import links

    table = Table([ANN, BOB, CY], dropped=1)
    table.until_timeouts(2)
    bob = table.seats()[1]
    old = table.token(1)
    game, _ = table.state()
    move = links.move_token(bob.id, bob.row_key, game.seq, {"type": "pass"}, bob.link_generation)
    unsubscribe = links.unsubscribe_token(bob.id, bob.row_key, bob.link_generation)
    _invite_eve(client, table)
    with read_session(get_engine()) as session:
        invitation = session.execute(sa.select(Invitation).where(Invitation.address == EVE)).scalar_one()
    handover.accept(invitation.id, T0 + timedelta(days=30))
    for url in (f"/p/{old}", f"/p/{old}/history", f"/p/{old}/history/record.json", f"/m/{move}", f"/u/{unsubscribe}"):
        refused = client.get(url)
        assert refused.status_code == 410, url
        assert "handed this seat over" in refused.get_data(as_text=True), url
    assert client.post(f"/p/{old}/handover", data={"seat": "1", "choice": "bot"}).status_code in (400, 410)
    # Bob's invitation of the game's start (were there one) is his no more: consent.accept refuses it.
    from service.errors import Conflict
    from service.play import consent
    from service.store import write_session
    from service.store.models import utcnow
    with write_session(get_engine()) as session:
        old_invitation = Invitation(address=BOB[1], inviter=ANN[1], game_id=table.game_id, player_id=bob.id,
                                    status="asked", created_at=utcnow())
        session.add(old_invitation)
        session.flush()
        old_id = old_invitation.id
    with pytest.raises(Conflict, match="handed over"):
        consent.accept(old_id, utcnow())
    assert table.seats()[1].email == EVE


def test_a_declined_invitation_reopens_the_vote(app, client):
    table = Table([ANN, BOB, CY], dropped=1)
    table.until_timeouts(2)
    _invite_eve(client, table)
    assert vote(client, table.token(0), 1, "bot").status_code == 409  # waiting for Eve's answer
    with read_session(get_engine()) as session:
        invitation = session.execute(sa.select(Invitation).where(Invitation.address == EVE)).scalar_one()
    handover.decline(invitation.id, T0 + timedelta(days=30))
    assert table.seats()[1].email == BOB[1]
    assert vote(client, table.token(0), 1, "bot").status_code == 303


def test_no_hidden_information_of_the_seat_leaks_to_voters(app, client, sink):
    table = Table([ANN, BOB, CY], dropped=1)
    table.until_timeouts(2)
    game, state = table.state()
    rules = engine.get("riftwalker")
    hidden = {card["name"] for card in rules.view(state, 1)["seats"][1]["hand"]}
    for voter in (0, 2):
        seen = json.dumps(rules.view(state, voter))
        secret = {name for name in hidden if name not in seen}
        assert secret  # Bob holds cards the voter cannot see
        page = client.get(f"/p/{table.token(voter)}").get_data(as_text=True)
        assert "Bob missed 2 deadlines" in page
        assert not [name for name in secret if name in page]
    _invite_eve(client, table)
    deliver_pending()
    invitation = to(sink.messages(), EVE)[0]
    mail = body(invitation) + invitation.get_body(("html",)).get_content()
    assert not [name for name in hidden if name in mail]


def test_bad_input_is_a_clear_4xx(app, client):
    table = Table([ANN, BOB, CY], dropped=1)
    table.until_timeouts(2)
    ann = table.token(0)
    assert vote(client, ann, 1, "person", address="not an address").status_code == 422
    assert vote(client, ann, 1, "person", address=CY[1]).status_code == 422  # already plays here
    assert vote(client, ann, 1, "person", address=EVE, name="http://x.example").status_code == 422
    assert vote(client, ann, 1, "same:9").status_code == 422
    assert vote(client, ann, 7, "bot").status_code == 409
    page = client.get(f"/p/{ann}").get_data(as_text=True)
    assert client.post(f"/p/{ann}/handover", data={"csrf_token": csrf_token(page), "seat": "x"}).status_code == 400


def test_an_address_past_its_caps_is_refused_and_nothing_is_written(app, client):
    table = Table([ANN, BOB, CY], dropped=1)
    table.until_timeouts(2)
    app.config["INVITATIONS_PER_ADDRESS_PER_DAY"] = 0
    assert vote(client, table.token(0), 1, "person", address=EVE).status_code == 303  # not passed yet
    refused = vote(client, table.token(2), 1, "same:0")
    assert refused.status_code == 429
    with read_session(get_engine()) as session:
        assert session.execute(sa.select(Invitation.id).where(Invitation.address == EVE)).first() is None
        # Cy's vote went with the refusal: only Ann's stands.
        assert session.execute(sa.select(SeatVote.voter)).scalars().all() == [0]


def test_an_address_that_declined_the_inviter_is_sent_nothing(app, client, sink):
    from service.store import write_session
    from service.store.models import utcnow

    table = Table([ANN, BOB, CY], dropped=1)
    table.until_timeouts(2)
    bob = table.seats()[1]
    with write_session(get_engine()) as session:  # Eve declined an invitation of Ann's before
        session.add(Invitation(address=EVE, inviter=ANN[1], game_id=table.game_id, player_id=bob.id,
                               status="declined", created_at=utcnow()))
    assert vote(client, table.token(0), 1, "person", address=EVE).status_code == 303
    done = vote(client, table.token(2), 1, "same:0")
    assert done.status_code == 303
    assert "will not take the seat" in client.get(done.headers["Location"]).get_data(as_text=True)
    deliver_pending()
    assert to(sink.messages(), EVE) == []
    assert table.seats()[1].email == BOB[1]
    assert vote(client, table.token(0), 1, "bot").status_code == 303  # the vote is open again
