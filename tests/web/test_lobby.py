"""Open seats and the lobby (issue #25 part 3, service/play/lobby.py): a signed-in creator opens a game
with open seats, listed or by link; joining is consent (a signed-in press, or one confirmation email to a
typed address whose button joins); the game starts when the last seat is confirmed; an unfilled game
expires and everyone who joined is told; a stranger typing an address makes us send that address one
confirmation email at most, with the same answer whatever the address."""

from __future__ import annotations

import re
from datetime import timedelta

import sqlalchemy as sa

from service.mail import outbox
from service.people.identity import person
from service.play import lobby, timeouts
from service.store import get_engine, read_session, write_session
from service.store.models import Game, Joining, OpenGame, Player, utcnow
from tests.people.helpers import sign_in_as
from tests.service.helpers import outbox_rows
from tests.web.pages import csrf_token, text

ANN = "ann@example.org"


def _open(client, game="riftforce", **form) -> OpenGame:
    sign_in_as(client, ANN)
    page = text(client.get(f"/lobby/new/{game}"))
    data = {"csrf_token": csrf_token(page), "name": "Ann", "deadline": "48", "listed": "yes", **form}
    answer = client.post(f"/lobby/new/{game}", data=data)
    assert answer.status_code == 303, text(answer)
    with read_session(get_engine()) as session:
        return session.execute(sa.select(OpenGame).order_by(OpenGame.id.desc())).scalars().first()


def _signed_out(client) -> None:
    with client.session_transaction() as session:
        session.clear()
    from flask import g
    g.pop("csrf_token", None)


def _ask(client, opened: OpenGame, email: str, name: str = "Bo"):
    page = text(client.get(f"/lobby/{opened.id}/{opened.key}"))
    return client.post(f"/lobby/{opened.id}/{opened.key}/ask",
                       data={"csrf_token": csrf_token(page), "email": email, "name": name})


def _game(opened: OpenGame) -> Game:
    with read_session(get_engine()) as session:
        return session.get(Game, opened.game_id)


def _confirm_url(sink, count: int = 1) -> str:
    mails = [m for m in sink.wait_for(count) if m["X-Riftpost-Kind"] == "lobby_join"]
    plain = mails[-1].get_body(("plain",)).get_content()
    return re.search(r"http://riftpost\.test(/lobby/confirm/\S+)", plain).group(1)


def _deliver(kind: str) -> list[str]:
    return [outbox.deliver(row.id) for row in outbox_rows() if row.kind == kind and row.status == "pending"]


def test_an_open_game_is_listed_with_its_mode_pace_creator_line_and_seats_left(app, client):
    opened = _open(client, mode="duel")
    assert (opened.seats, opened.listed, opened.deadline_hours, _game(opened).status) == (2, True, 48, "open")
    lobby_page = text(client.get("/lobby"))
    assert "Riftforce: Duel" in lobby_page and "1 seat left of 2" in lobby_page and "48 hours a turn" in lobby_page
    assert "Ann: no games played here yet" in lobby_page and ANN not in lobby_page
    # Nobody can play it before it starts, and nobody is emailed about it.
    assert outbox_rows() == []
    unlisted = _open(client, mode="duel", listed="no")
    assert f"/lobby/{unlisted.id}/" not in text(client.get("/lobby"))
    assert client.get(f"/lobby/{unlisted.id}/{unlisted.key}").status_code == 200
    assert client.get(f"/lobby/{unlisted.id}/wrongkey").status_code == 404


def test_opening_needs_a_signed_in_creator_and_a_player_count_the_mode_takes(app, client):
    assert client.get("/lobby/new/riftforce").status_code == 401
    sign_in_as(client, ANN)
    page = text(client.get("/lobby/new/riftforce"))
    bad = client.post("/lobby/new/riftforce", data={"csrf_token": csrf_token(page), "mode": "duel", "seats": "3"})
    assert bad.status_code == 422 and "takes 2 players" in text(bad)


def test_joining_by_address_is_one_confirmation_email_whose_button_joins_and_starts_the_game(app, client, sink):
    app.config["SMTP_URL"] = sink.url
    opened = _open(client, mode="duel")
    _signed_out(client)
    answer = _ask(client, opened, "bo@example.org")
    assert answer.status_code == 200 and "If that address can take the seat" in text(answer)
    assert _deliver("lobby_join") == ["sent"]
    url = _confirm_url(sink)
    (mail,) = [m for m in sink.messages() if m["X-Riftpost-Kind"] == "lobby_join"]
    assert mail["To"] == "bo@example.org" and "Bo" not in mail["Subject"]  # no stranger's words in it
    # Asked again for the same address: no second email.
    _ask(client, opened, "bo@example.org")
    assert [row.kind for row in outbox_rows()].count("lobby_join") == 1
    # The link's GET changes nothing: a page with one button.
    page = client.get(url)
    assert page.status_code == 200 and text(page).count("<button") == 1 and _game(opened).status == "open"
    pressed = client.post(url, data={"csrf_token": csrf_token(text(page))})
    assert pressed.status_code == 303 and "/p/" in pressed.headers["Location"]
    game = _game(opened)
    assert game.status == "active" and game.to_act
    with read_session(get_engine()) as session:
        seats = session.execute(sa.select(Player).where(Player.game_id == game.id).order_by(Player.seat)).scalars().all()
    assert [(p.seat, p.email, p.consent) for p in seats] == [(0, ANN, ""), (1, "bo@example.org", "")]
    # The creator is told: the game's first emails go to both seats at once.
    assert sorted(row.player_id for row in outbox_rows(game.id) if row.kind in ("invite", "turn")) == [s.id for s in seats]
    assert "has started" in text(client.get(f"/lobby/{opened.id}/{opened.key}"))


def test_the_answer_is_the_same_whatever_the_address_and_never_email_gets_nothing(app, client, sink):
    app.config["SMTP_URL"] = sink.url
    opened = _open(client, game="riftwalker", seats="4")
    with write_session(get_engine()) as session:
        who = person(session, "never@example.org", lock=True)
        who.never_email_at = utcnow()
        session.add(who)
    _signed_out(client)
    words = [text(_ask(client, opened, email)).split('id="main"')[1] for email in
             ("new@example.org", ANN, "never@example.org")]
    strip = [re.sub(r'name="csrf_token" value="[^"]+"', "", w) for w in words]
    assert strip[0] == strip[1] == strip[2]
    results = {row.player_id: outbox.deliver(row.id) for row in outbox_rows() if row.kind == "lobby_join"}
    assert sorted(results.values()) == ["sent", "skipped"]  # the creator's own address got none


def test_a_join_by_address_is_limited_per_address_typed(app, client):
    opened = _open(client, game="riftwalker", seats="4")
    _signed_out(client)
    codes = [_ask(client, opened, f"Target+{n}@example.org").status_code for n in range(4)]
    assert codes == [200, 200, 200, 429]


def test_a_signed_in_person_joins_with_one_press_and_the_last_seat_starts_the_game(app, client):
    opened = _open(client, game="riftwalker", seats="3")
    for email in ("bo@example.org", "cy@example.org"):
        sign_in_as(client, email)
        page = text(client.get(f"/lobby/{opened.id}/{opened.key}"))
        assert 'name="email"' not in page  # no address to type
        joined = client.post(f"/lobby/{opened.id}/{opened.key}/join",
                             data={"csrf_token": csrf_token(page), "name": email[:2].title()})
        assert joined.status_code == 303
    assert _game(opened).status == "active"
    assert "/p/" in joined.headers["Location"]
    assert outbox_rows() and not [row for row in outbox_rows() if row.kind == "lobby_join"]


def test_an_unconfirmed_join_holds_its_seat_for_a_while_then_the_seat_goes_to_the_next(app, client):
    opened = _open(client, mode="duel")
    _signed_out(client)
    _ask(client, opened, "slow@example.org")
    assert "No game is waiting" not in text(client.get("/lobby"))
    with read_session(get_engine()) as session:
        first = session.execute(sa.select(Joining)).scalar_one()
    later = utcnow() + timedelta(hours=25)
    lobby.ask_to_join(opened.id, opened.key, "Quick", "quick@example.org", now=later)
    with read_session(get_engine()) as session:
        second = session.execute(sa.select(Joining).where(Joining.id != first.id)).scalar_one()
    lobby.confirm(second.id, second.nonce, now=later)
    assert _game(opened).status == "active"
    import pytest

    from service.errors import Conflict, Gone
    with pytest.raises((Gone, Conflict)):
        lobby.confirm(first.id, first.nonce, now=later)


def test_an_unfilled_game_expires_and_everyone_who_joined_is_told(app, client, sink):
    app.config["SMTP_URL"] = sink.url
    opened = _open(client, game="riftwalker", seats="4")
    sign_in_as(client, "bo@example.org")
    page = text(client.get(f"/lobby/{opened.id}/{opened.key}"))
    client.post(f"/lobby/{opened.id}/{opened.key}/join", data={"csrf_token": csrf_token(page), "name": "Bo"})
    lobby.ask_to_join(opened.id, opened.key, "Pending", "pending@example.org")  # never confirmed
    assert timeouts.sweep(utcnow())["lobby_expired"] == 0
    counts = timeouts.sweep(utcnow() + timedelta(days=7, minutes=1))
    assert counts["lobby_expired"] == 1 and _game(opened).status == "expired"
    assert timeouts.sweep(utcnow() + timedelta(days=8))["lobby_expired"] == 0  # once
    assert _deliver("lobby_expired") == ["sent", "sent"]
    told = sorted(m["To"] for m in sink.wait_for(2) if m["X-Riftpost-Kind"] == "lobby_expired")
    assert told == ["Ann <ann@example.org>", "Bo <bo@example.org>"]
    assert f"/lobby/{opened.id}/" not in text(client.get("/lobby"))
    assert "expired" in text(client.get(f"/lobby/{opened.id}/{opened.key}"))


def test_confirmations_count_against_the_addresss_daily_cap_of_unasked_for_email(app, client):
    app.config["RATELIMIT_LOBBY_JOIN_ADDRESS"] = "100 per minute"  # the database's cap, not the web's
    games = [_open(client, game="riftwalker", seats="4") for _ in range(4)]
    _signed_out(client)
    answers = {text(_ask(client, opened, "target@example.org")).count("If that address can take the seat")
               for opened in games}
    assert answers == {1}  # the same answer every time
    sent = [row for row in outbox_rows() if row.kind == "lobby_join"]
    assert len(sent) == app.config["INVITATIONS_PER_ADDRESS_PER_DAY"] == 3


def test_an_open_games_public_view_and_json_answer_without_seats_to_act(app, client):
    opened = _open(client, mode="duel")
    assert client.get(f"/games/{opened.game_id}").status_code == 200
    shown = client.get(f"/api/games/{opened.game_id}").get_json()
    assert shown["status"] == "open" and shown["to_act"] == []
    from service.store.check import problems
    with read_session(get_engine()) as session:
        assert problems(session, _game(opened)) == []


def _join_signed_in(client, opened: OpenGame, email: str, name: str):
    sign_in_as(client, email)
    page = text(client.get(f"/lobby/{opened.id}/{opened.key}"))
    return client.post(f"/lobby/{opened.id}/{opened.key}/join", data={"csrf_token": csrf_token(page), "name": name})


def _players(game_id: int) -> list[Player]:
    with read_session(get_engine()) as session:
        return list(session.execute(sa.select(Player).where(Player.game_id == game_id).order_by(Player.seat)).scalars())


def test_an_open_game_can_seat_bots_from_the_start_one_stranger_fills_it_and_it_is_not_rated(app, client, monkeypatch):
    """#25 part 3: one person starts a game of 3 with one bot and one stranger; the bot's seat is taken
    from the start, the stranger's join starts the game, the bot is asked to play when it is to act,
    and the finished game is not rated."""
    from service.play import bots, ratings
    from service.store.models import RatedGame

    opened = _open(client, game="riftwalker", seats="3", seat1="bot:easy", seat2="")
    players = _players(opened.game_id)
    assert [(p.seat, p.name, p.email, p.consent) for p in players] == [(0, "Ann", ANN, ""),
                                                                       (1, "Bot (easy)", "", "bot:easy")]
    lobby_page = text(client.get("/lobby"))
    assert "1 seat left of 3" in lobby_page and "with a bot (not rated)" in lobby_page
    page = text(client.get(f"/lobby/{opened.id}/{opened.key}"))
    assert "A bot plays too: Bot (easy). The game is not rated." in page and "Players so far: Ann, Bot (easy)." in page
    published: list[tuple[int, list[int], int]] = []
    monkeypatch.setattr(bots, "publish", lambda game_id, seats, seq: published.append((game_id, seats, seq)))
    assert _join_signed_in(client, opened, "bo@example.org", "Bo").status_code == 303
    game = _game(opened)
    assert game.status == "active"
    asked = [(game_id, seats, seq) for game_id, seats, seq in published if seats]
    assert asked == ([(game.id, [1], game.seq)] if 1 in game.to_act else [])
    # The bot gets no email; the two people get the game's first ones.
    assert sorted({row.player_id for row in outbox_rows(game.id) if row.kind in ("invite", "turn")}) == \
        [players[0].id, _players(game.id)[2].id]
    # Its end is judged as service/play/ending.py judges it, in the end's transaction: not rated.
    with write_session(get_engine()) as session:
        seats = list(session.execute(sa.select(Player).where(Player.game_id == game.id)).scalars())
        assert ratings.rate(session, session.get(Game, game.id), seats, {"winners": [0]}, utcnow()) is False
    with read_session(get_engine()) as session:
        assert session.get(RatedGame, game.id).reason == "bot"
        from service.store.check import problems
        assert problems(session, session.get(Game, game.id)) == []


def test_bot_seats_are_checked_one_seat_stays_open_and_bad_levels_are_refused(app, client):
    sign_in_as(client, ANN)
    page = text(client.get("/lobby/new/riftwalker"))
    assert page.count('<select id="seat') == 3 and 'value="bot:strong"' in page
    base = {"csrf_token": csrf_token(page), "name": "Ann", "seats": "3"}
    full = client.post("/lobby/new/riftwalker", data={**base, "seat1": "bot", "seat2": "bot:strong"})
    assert full.status_code == 422 and "Leave at least one seat open" in text(full)
    bad = client.post("/lobby/new/riftwalker", data={**base, "seat1": "bot:godlike"})
    assert bad.status_code == 422 and "Seat 2: choose open, or a bot of a level." in text(bad)
    # A seat past the game's player count is left out, whatever it says.
    fine = client.post("/lobby/new/riftwalker", data={**base, "seat1": "bot:strong", "seat3": "bot"})
    assert fine.status_code == 303
    with read_session(get_engine()) as session:
        opened = session.execute(sa.select(OpenGame)).scalar_one()
    assert [(p.seat, p.consent) for p in _players(opened.game_id)] == [(0, ""), (1, "bot:strong")]
    import pytest

    import engine
    with pytest.raises(engine.IllegalMove):
        lobby.open_game("riftwalker", "", {}, 3, ("Ann", ANN), listed=False, bots={0: "easy"})


def test_the_creator_cancels_an_open_game_and_everyone_who_joined_is_told(app, client, sink):
    app.config["SMTP_URL"] = sink.url
    opened = _open(client, game="riftwalker", seats="4", seat1="bot")
    _join_signed_in(client, opened, "bo@example.org", "Bo")
    _signed_out(client)
    _ask(client, opened, "pending@example.org")  # a join not confirmed: its email is not sent after the cancel
    # Only the creator may cancel: a joined player gets a 403, a signed-out one the sign-in form.
    page = text(client.get(f"/lobby/{opened.id}/{opened.key}"))
    assert client.post(f"/lobby/{opened.id}/{opened.key}/cancel",
                       data={"csrf_token": csrf_token(page)}).status_code == 401
    sign_in_as(client, "bo@example.org")
    page = text(client.get(f"/lobby/{opened.id}/{opened.key}"))
    assert "Cancel this game" not in page
    form = text(client.get("/lobby/new/riftwalker"))
    refused = client.post(f"/lobby/{opened.id}/{opened.key}/cancel", data={"csrf_token": csrf_token(form)})
    assert refused.status_code == 403 and _game(opened).status == "open"
    sign_in_as(client, ANN)
    page = text(client.get(f"/lobby/{opened.id}/{opened.key}"))
    assert "Cancel this game" in page and f"/lobby/{opened.id}/{opened.key}</a>" in page
    assert client.get(f"/lobby/{opened.id}/{opened.key}/cancel").status_code == 405  # a GET changes nothing
    done = client.post(f"/lobby/{opened.id}/{opened.key}/cancel", data={"csrf_token": csrf_token(page)})
    assert done.status_code == 303 and _game(opened).status == "cancelled"
    assert "cancelled by the player who opened it" in text(client.get(done.headers["Location"]))
    assert f"/lobby/{opened.id}/" not in text(client.get("/lobby"))
    assert _deliver("lobby_join") == ["skipped"]
    assert _deliver("lobby_cancelled") == ["sent"]
    (mail,) = [m for m in sink.wait_for(1) if m["X-Riftpost-Kind"] == "lobby_cancelled"]
    assert mail["To"] == "Bo <bo@example.org>" and mail["Subject"].startswith("Cancelled: Riftwalker #")
    assert mail.get_body(("plain",)).get_content().startswith("Ann cancelled the game of Riftwalker you joined")
    # Cancelled: nobody joins it, and a second cancel is a clear answer, not a 500.
    again = client.post(f"/lobby/{opened.id}/{opened.key}/cancel", data={"csrf_token": csrf_token(page)})
    assert again.status_code == 410
    with read_session(get_engine()) as session:
        joining = session.execute(sa.select(Joining).where(Joining.confirmed_at.is_(None))).scalar_one()
    import pytest

    from service.errors import Gone
    with pytest.raises(Gone):
        lobby.confirm(joining.id, joining.nonce)
    assert timeouts.sweep(utcnow() + timedelta(days=8))["lobby_expired"] == 0
    # Its public view, JSON and the creator's seat page answer (nothing to play), never a 500.
    assert client.get(f"/games/{opened.game_id}").status_code == 200
    assert client.get(f"/api/games/{opened.game_id}").get_json()["status"] == "cancelled"
    from tests import tokens
    creator = _players(opened.game_id)[0]
    assert client.get(f"/p/{tokens.page(creator)}").status_code == 200
    from service.store.check import problems
    with read_session(get_engine()) as session:
        assert problems(session, _game(opened)) == []


def test_when_the_last_seat_is_taken_everyone_the_creator_too_is_told_the_game_has_begun(app, client, sink):
    """#25 part 3: "the game starts when the last seat is filled (the creator is told)": each seat's
    first email (the thread's root) says the game began with every seat taken; nobody reads that
    someone invited them (nobody did)."""
    app.config["SMTP_URL"] = sink.url
    opened = _open(client, game="riftwalker", seats="3", seat1="bot:strong")
    _join_signed_in(client, opened, "bo@example.org", "Bo")
    game = _game(opened)
    firsts = [row for row in outbox_rows(game.id) if row.kind in ("invite", "turn")]
    assert [outbox.deliver(row.id) for row in firsts] == ["sent", "sent"]
    mails = {m["To"]: m for m in sink.wait_for(2)}
    assert sorted(mails) == ["Ann <ann@example.org>", "Bo <bo@example.org>"]
    for to, others in (("Ann <ann@example.org>", "Bot (strong) and Bo"), ("Bo <bo@example.org>", "Ann and Bot (strong)")):
        first = mails[to].get_body(("plain",)).get_content().splitlines()[0]
        assert first.startswith(f"Your game of Riftwalker with {others} has begun: every seat is taken."), first
        assert "invited you" not in mails[to].get_body(("plain",)).get_content()
