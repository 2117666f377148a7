"""Consent per inviter (issue #21 items 1, 2, 5; #22 item 5): accepting one inviter releases that
inviter's games only; nothing of an unconfirmed creator's game goes to anyone else; every game naming an
address that has not accepted its inviter counts against the address's caps (+tags included), atomically;
the new player gets one email on accepting.  Through the real routes and a real SMTP server."""

from __future__ import annotations

import re
import threading

import pytest
import sqlalchemy as sa

from service.errors import TooMany
from service.mail import outbox
from service.play import new_game
from service.store import get_engine, read_session
from service.store.models import Invitation, Naming, Player
from tests.consent import preconsent
from tests.service import toygame
from tests.service.helpers import current, outbox_rows, play_one
from tests.web.pages import START_FORM, csrf_token, text

VIC = "vic@example.org"


_SINK = []


def deliver_all() -> list[str]:
    """Deliver every due row, and wait until the SMTP server has stored every email sent so far."""
    done = [outbox.deliver(row.id) for row in outbox_rows() if row.status == "pending"]
    if _SINK:
        _SINK[-1].wait_for(sum(1 for row in outbox_rows() if row.status == "sent"))
    return done


def body(message) -> str:
    return "\n".join(part.get_content() for part in message.walk() if part.get_content_maintype() == "text")


def _to(sink, address: str) -> list:
    return [m for m in sink.messages() if address.lower() in m["To"].lower()]


def _accept(client, message) -> str:
    """Accept the invitation of an email as its reader does: open the link, press Accept; the Location."""
    link = next(link for link in re.findall(r"https?://[^\s\"<>]+", body(message))
                if "/i/" in link and "answer=decline" not in link).replace("http://riftpost.test", "")
    page = client.get(link)
    assert page.status_code == 200
    answer = client.post(f"{link}/accept", data={"csrf_token": csrf_token(text(page))})
    assert answer.status_code == 303
    return answer.headers["Location"]


def _seat(game_id: int, seat: int) -> int:
    with read_session(get_engine()) as session:
        return session.execute(sa.select(Player.id).where(Player.game_id == game_id, Player.seat == seat)).scalar_one()


def test_a_strangers_backlog_stays_held_after_a_friends_accept_and_goes_on_its_own(app, client, sink):
    app.config["SMTP_URL"] = sink.url
    _SINK.append(sink)
    preconsent("friend@example.org")
    preconsent("stranger@example.org")  # verified, but Vic never accepted them
    spam = [new_game(toygame.NAME, [("Win a prize", "stranger@example.org"), ("Vic", VIC)], seed=n) for n in (1, 2)]
    friends = new_game(toygame.NAME, [("Fay", "friend@example.org"), ("Vic", VIC)], seed=3)
    deliver_all()
    invitations = [m for m in _to(sink, VIC) if m["X-Riftpost-Kind"] == "invitation"]
    assert len(invitations) == 2  # one per inviter: the stranger's second game sent nothing new
    fay = next(m for m in invitations if "Fay" in m["Subject"])
    assert "/p/" in _accept(client, fay)  # the acceptance leads to Vic's seat
    before = len(_to(sink, VIC))
    deliver_all()
    got = _to(sink, VIC)[before:]
    assert len(got) == 1 and got[0]["X-Riftpost-Kind"] != "invitation"  # the friend's game, nothing else
    for game_id in spam:  # the stranger's games: still held, not a byte to Vic
        assert {r.status for r in outbox_rows(game_id) if r.player_id == _seat(game_id, 1) and r.kind != "invitation"} \
            == {"held"}
    assert {r.status for r in outbox_rows(friends) if r.player_id == _seat(friends, 1)} <= {"sent", "skipped"}
    # Vic accepts the stranger too: their games go now, one email each.
    stranger = next(m for m in invitations if m is not fay)
    _accept(client, stranger)
    before = len(_to(sink, VIC))
    deliver_all()
    assert len(_to(sink, VIC)[before:]) == len(spam)


def test_nothing_of_an_unconfirmed_creators_game_goes_to_anyone_else(app, client, sink):
    app.config["SMTP_URL"] = sink.url
    _SINK.append(sink)
    preconsent("bob@example.org")
    page = text(client.get(START_FORM))
    posted = client.post("/games/new", data={"csrf_token": csrf_token(page), "game": toygame.NAME,
                                             "name0": "Newt", "email0": "newt@example.org",
                                             "name1": "Bob", "email1": "bob@example.org"})
    assert posted.status_code == 303
    game_id = int(posted.headers["Location"].split("/games/")[1].split("/")[0])
    deliver_all()
    assert [m["To"].addresses[0].addr_spec for m in sink.messages()] == ["newt@example.org"]  # only "did you start this game?"
    (asked,) = sink.messages()
    assert asked["Subject"] == "Did you start a game of Toy on Riftpost?"
    # The game goes on; still nothing to Bob.
    game, _ = current(game_id)
    while game.status == "active" and game.to_act == [0]:
        play_one(game_id)
        game, _ = current(game_id)
    deliver_all()
    assert _to(sink, "bob@example.org") == []
    # The creator confirms: Bob is asked now (an invitation: he never accepted Newt), nothing else yet.
    _accept(client, asked)
    deliver_all()
    bob = _to(sink, "bob@example.org")
    assert [m["X-Riftpost-Kind"] for m in bob] == ["invitation"]
    assert "Newt invited you" in bob[0]["Subject"]
    # Bob accepts: one email, the game and his turn.
    _accept(client, bob[0])
    deliver_all()
    bob = _to(sink, "bob@example.org")
    assert len(bob) == 2 and "Your turn" in body(bob[1]) and "Toy" in bob[1]["Subject"]


def test_on_accepting_the_new_player_gets_one_email_naming_the_game_and_their_turn(app, client, sink):
    app.config["SMTP_URL"] = sink.url
    _SINK.append(sink)
    preconsent("ann@example.org")
    game_id = new_game(toygame.NAME, [("Ann", "ann@example.org"), ("Bo", "bo@example.org")], {"target": 60}, seed=3)
    game, _ = current(game_id)
    while game.status == "active" and game.to_act == [0]:
        play_one(game_id)
        game, _ = current(game_id)
    assert game.to_act == [1]
    held = [r.kind for r in outbox_rows(game_id) if r.player_id == _seat(game_id, 1) and r.status == "held"]
    assert held == ["invite", "turn"]  # what used to arrive as "invited", then "invited, your turn"
    deliver_all()
    (invitation,) = _to(sink, "bo@example.org")
    assert "/p/" in _accept(client, invitation)
    deliver_all()
    got = _to(sink, "bo@example.org")[1:]
    assert len(got) == 1
    first_line = body(got[0]).strip().splitlines()[0]
    assert "Ann invited you to a game of Toy" in first_line and "Your turn" in first_line
    assert "Toy" in got[0]["Subject"]


def test_a_new_inviter_may_name_an_address_a_few_times_a_day_even_one_that_played_here(app):
    app.config.update(NEW_INVITERS_PER_ADDRESS_PER_DAY=2, INVITATIONS_PER_ADDRESS_PER_DAY=10)
    preconsent("fay@example.org", VIC)  # Vic plays with Fay: her games are never counted
    for n in range(3):
        preconsent(f"s{n}@example.org")
    new_game(toygame.NAME, [("S0", "s0@example.org"), ("Vic", VIC)], seed=1)
    new_game(toygame.NAME, [("S1", "s1@example.org"), ("Vic", "Vic+games@Example.org")], seed=2)  # a +tag: Vic
    for n in range(3):
        new_game(toygame.NAME, [("Fay", "fay@example.org"), ("Vic", VIC)], seed=10 + n)
    with pytest.raises(TooMany) as refused:
        new_game(toygame.NAME, [("S2", "s2@example.org"), ("Vic", "VIC+x@example.org")], seed=3)
    assert 23 * 3600 < refused.value.retry_after <= 24 * 3600 + 1
    with read_session(get_engine()) as session:  # nothing of the refused game was written
        assert session.execute(sa.select(sa.func.count()).select_from(Player).where(
            Player.email == "s2@example.org")).scalar_one() == 0
    # The words are the same for an address that never played here: no oracle.
    for n in range(2):
        new_game(toygame.NAME, [(f"S{n}", f"s{n}@example.org"), ("Nu", "nu@example.org")], seed=20 + n)
    with pytest.raises(TooMany) as fresh:
        new_game(toygame.NAME, [("S2", "s2@example.org"), ("Nu", "nu@example.org")], seed=4)
    assert fresh.value.message.replace("nu@example.org", "X") == refused.value.message.replace("VIC+x@example.org", "X")


def test_a_strangers_every_game_counts_against_the_cap_not_only_the_first(app):
    limit = app.config["INVITATIONS_PER_ADDRESS_PER_DAY"]
    preconsent("stranger@example.org")
    for n in range(limit):  # one invitation sent, the later games send nothing new: each still counts
        new_game(toygame.NAME, [("S", "stranger@example.org"), ("Vic", VIC)], seed=n)
    with read_session(get_engine()) as session:
        assert session.execute(sa.select(sa.func.count()).select_from(Invitation).where(
            Invitation.address == VIC)).scalar_one() == 1
    with pytest.raises(TooMany):
        new_game(toygame.NAME, [("S", "stranger@example.org"), ("Vic", VIC)], seed=99)


@pytest.mark.parametrize("backend", ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def test_concurrent_games_never_pass_the_new_inviter_cap(tmp_path, migrated_sqlite, backend):
    import shutil

    from tests import services
    from tests.conftest import make_app

    if backend == "sqlite":
        shutil.copy(migrated_sqlite, tmp_path / "c.sqlite")
        url = f"sqlite:///{tmp_path / 'c.sqlite'}"
    else:
        from service.migrate import upgrade

        url = services.postgres_database()
        upgrade(url)
    app = make_app(tmp_path, url, NEW_INVITERS_PER_ADDRESS_PER_DAY=3, INVITATIONS_PER_ADDRESS_PER_DAY=100)
    inviters = [f"s{n}@example.org" for n in range(12)]
    with app.app_context():
        for inviter in inviters:
            preconsent(inviter)
    results: list[str] = []
    start = threading.Barrier(len(inviters))

    def post(inviter: str) -> None:
        with app.app_context():
            start.wait()
            try:
                new_game(toygame.NAME, [("S", inviter), ("Vic", VIC)], seed=1)
                results.append("started")
            except TooMany:
                results.append("refused")

    threads = [threading.Thread(target=post, args=(inviter,)) for inviter in inviters]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    with app.app_context(), read_session(get_engine()) as session:
        named = session.execute(sa.select(sa.func.count()).select_from(Naming)).scalar_one()
    app.extensions["riftpost.db"].dispose()
    if backend == "postgres":
        services.drop_postgres(url)
    assert sorted(results) == ["refused"] * 9 + ["started"] * 3 and named == 3
