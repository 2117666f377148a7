"""A game from the public form goes out only once its seat 0 confirmed that very game (issue #21 item 1,
as an attacker reads it): typing a verified address into seat 0 proves nothing, so a stranger who types
Fay's address cannot make us email the people who accepted Fay, and Fay accepting a friend's invitation
confirms none of the games others typed her address into.  The caps count seat 0 the same whether its
address played here or not (no oracle), a confirmed game stops counting against its creator, and a +tag
does not reopen a "never email me".  Through the form, the invitation pages and a real SMTP server."""

from __future__ import annotations

import pytest

from service.play import new_game
from service.store import get_engine, write_session
from service.store.models import Person, utcnow
from tests.consent import preconsent
from tests.service import toygame
from tests.service.test_consent_per_inviter import _accept, _to, deliver_all
from tests.web.pages import START_FORM, csrf_token, text

FAY, VIC, BOB = "fay@example.org", "vic@example.org", "bob@example.org"


@pytest.fixture(autouse=True)
def _sink(app, sink):
    from tests.service import test_consent_per_inviter

    app.config["SMTP_URL"] = sink.url
    test_consent_per_inviter._SINK.append(sink)
    yield
    test_consent_per_inviter._SINK.remove(sink)


def _form(client, first: tuple[str, str], second: tuple[str, str]):
    page = text(client.get(START_FORM))
    return client.post("/games/new", data={
        "csrf_token": csrf_token(page), "game": toygame.NAME, "name0": first[0], "email0": first[1],
        "name1": second[0], "email1": second[1]})


def test_a_stranger_typing_a_verified_address_into_seat_0_emails_nobody_but_that_address(app, client, sink):
    preconsent(FAY, VIC)  # Vic accepted Fay's games long ago
    assert _form(client, ("Fay Free Prize", FAY), ("Vic", VIC)).status_code == 303
    deliver_all()
    assert _to(sink, VIC) == []  # not "Fay Free Prize invited you"
    (ask,) = _to(sink, FAY)
    assert ask["Subject"].startswith("Did you start a game")
    assert "Anyone can type an address into our form" in ask.get_body(("plain",)).get_content()
    # Fay did start it after all: she confirms, and Vic gets the game at once (he accepted her).
    _accept(client, ask)
    deliver_all()
    assert len(_to(sink, VIC)) == 1


def test_accepting_a_friends_invitation_confirms_no_game_others_typed_the_address_into(app, client, sink):
    assert _form(client, ("Vic", VIC), ("Bob", BOB)).status_code == 303  # a stranger, as Vic
    preconsent("fay@example.org")
    new_game(toygame.NAME, [("Fay", FAY), ("Vic", VIC)], seed=3)  # Fay's game: Vic is invited
    deliver_all()
    fay_invites = [m for m in _to(sink, VIC) if "Fay invited you" in m["Subject"]]
    _accept(client, fay_invites[0])
    deliver_all()
    assert _to(sink, BOB) == []  # the stranger's game is not confirmed by Vic accepting Fay


def test_seat_0_counts_against_the_caps_alike_whether_its_address_played_here_or_not(app, client):
    app.config.update(NEW_INVITERS_PER_ADDRESS_PER_DAY=2, INVITATIONS_PER_ADDRESS_PER_DAY=10)
    preconsent("played@example.org")
    answers = {}
    for address in ("played@example.org", "never@example.org"):
        answers[address] = [_form(client, ("X", address), (f"O{n}", f"o{n}@example.org")).status_code
                            for n in range(3)]
    assert answers["played@example.org"] == answers["never@example.org"] == [303, 303, 429]


def test_a_confirmed_game_no_longer_counts_against_its_creator(app, client, sink):
    app.config.update(NEW_INVITERS_PER_ADDRESS_PER_DAY=2, INVITATIONS_PER_ADDRESS_PER_DAY=2)
    preconsent(FAY, VIC)
    for _ in range(4):  # Fay starts four games in a day, confirming each: none is refused
        assert _form(client, ("Fay", FAY), ("Vic", VIC)).status_code == 303
        deliver_all()
        _accept(client, [m for m in _to(sink, FAY) if m["Subject"].startswith("Did you start")][-1])
    deliver_all()
    assert len([m for m in _to(sink, VIC) if "Toy #" in m["Subject"]]) >= 4


def test_a_plus_tag_does_not_reopen_never_email(app, client, sink):
    with write_session(get_engine()) as session:
        session.add(Person(email=VIC, never_email_at=utcnow()))
    preconsent("stranger@example.org")
    new_game(toygame.NAME, [("S", "stranger@example.org"), ("Vic", "vic+x@example.org")], seed=5)
    deliver_all()
    assert _to(sink, "vic+x@example.org") == []
