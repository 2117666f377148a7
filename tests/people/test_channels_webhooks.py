"""Webhooks (service/mail/webhooks.py): twins of the turn, reminder, game-over and invite emails, sent
through the outbox's one policy to a real receiver on loopback (allowed by WEBHOOK_ALLOW_NETWORKS, as an
operator would allow an internal network), signed; never to an address that is not public."""

from __future__ import annotations

import ipaddress
import socket
from datetime import timedelta

import pytest
import sqlalchemy as sa
from sqlmodel import col

from service.errors import Invalid
from service.mail import outbox, webhooks
from service.people import access, channels
from service.play import new_game
from service.store import get_engine, read_session, write_session
from service.store.models import Outbox, Player, Webhook, as_utc, utcnow
from tests.conftest import app_on
from tests.consent import preconsent
from tests.people.channels_receiver import Receiver
from tests.service import toygame
from tests.service.helpers import outbox_rows, play_one, row_of, set_row

PLAYERS = [("Ann", "ann@example.org"), ("Bob", "bob@example.org")]
LOOPBACK = ["127.0.0.0/8"]


@pytest.fixture
def receiver():
    server = Receiver()
    yield server
    server.stop()


@pytest.fixture
def hooked(tmp_path, backend_url):
    """The app on both backends, loopback allowed for webhooks."""
    with app_on(tmp_path, backend_url, WEBHOOK_ALLOW_NETWORKS=LOOPBACK) as app:
        preconsent(*[email for _, email in PLAYERS])
        yield app


@pytest.fixture
def local(app):
    app.config["WEBHOOK_ALLOW_NETWORKS"] = LOOPBACK
    preconsent(*[email for _, email in PLAYERS])
    return app


def webhook_rows(game_id: int) -> list[Outbox]:
    return [row for row in outbox_rows(game_id) if row.channel == "webhook"]


def store_url(email: str, url: str, shape: str = "generic") -> Webhook:
    """A webhook row written as it stands, past the save-time checks: what a name that resolved to a
    public address when saved, and to an internal one now, amounts to."""
    with write_session(get_engine()) as session:
        hook = Webhook(person=email, url=url, shape=shape, secret=webhooks.new_secret())
        session.add(hook)
        session.flush()
        session.refresh(hook)
        session.expunge(hook)
    return hook


def test_a_turn_email_gets_a_twin_row_per_webhook_in_its_own_statement(hooked, receiver):
    hook = channels.add_webhook("ann@example.org", receiver.url, "generic")
    statements: list[str] = []

    def count(conn, cursor, statement, parameters, context, executemany):
        statements.append(statement)

    game_id = new_game(toygame.NAME, PLAYERS, {"target": 5}, seed=3)
    twins = webhook_rows(game_id)
    # Ann starts: her first turn email has a twin; Bob (no webhook) has none.
    assert [(row.kind, row.webhook_id, row.params) for row in twins] == [("turn", hook.id, {"invite": True})]
    email = next(row for row in outbox_rows(game_id) if row.channel == "email" and row.player_id == twins[0].player_id)
    assert twins[0].seq == email.seq and twins[0].status == email.status == "pending"
    assert twins[0].message_id != email.message_id and twins[0].row_key != email.row_key
    # Queuing a batch with a webhook kind costs one query more than before, and no more.
    sa.event.listen(get_engine(), "before_cursor_execute", count)
    try:
        with write_session(get_engine()) as session:
            from service import store
            game = store.get_game(session, game_id)
            players = store.players_of(session, game_id)
            statements.clear()
            outbox.add(session, game, players, "game_over", seq=game.seq)
            with_twins = [s for s in statements if not s.startswith("INSERT INTO outbox")]
            statements.clear()
            outbox.add(session, game, players, "notice", {"entry": 1}, seq=game.seq)  # no twin kind: no query
            without = [s for s in statements if not s.startswith("INSERT INTO outbox")]
    finally:
        sa.event.remove(get_engine(), "before_cursor_execute", count)
    # Besides the outbox's own insert (whose rows now include the twins): one query, for the webhooks.
    assert len(with_twins) == 1 and with_twins[0].startswith("SELECT webhooks.id, webhooks.person")
    assert without == []


def test_the_receiver_checks_the_signature_of_what_the_outbox_delivers(local, receiver):
    hook = channels.add_webhook("ann@example.org", receiver.url, "generic")
    game_id = new_game(toygame.NAME, PLAYERS, {"target": 5}, seed=3)
    (twin,) = webhook_rows(game_id)
    assert outbox.deliver(twin.id) == "sent"
    (got,) = receiver.got
    assert got.path == "/hook?x=1" and got.headers["Content-Type"] == "application/json"
    assert got.signed_by(hook.secret)
    assert not got.signed_by("another secret")
    message = got.json
    assert message["kind"] == "turn" and message["seat"] == 0 and message["due"] is None
    assert message["game"]["id"] == game_id and message["game"]["title"] == "Toy"
    assert message["game"]["url"].startswith("http://riftpost.test/p/")
    assert message["text"].startswith("Your game of Toy with Bob has begun.")
    assert got.headers["X-Riftpost-Delivery"] == str(twin.id)
    assert row_of(twin.id).status == "sent"
    # A body changed on the way (or a replay under a new timestamp) no longer verifies.
    got.body = got.body.replace(b'"seat":0', b'"seat":1')
    assert not got.signed_by(hook.secret)


def test_discord_and_slack_get_their_own_shapes(local, receiver):
    channels.add_webhook("ann@example.org", receiver.url, "discord")
    channels.add_webhook("ann@example.org", receiver.url, "slack")
    game_id = new_game(toygame.NAME, PLAYERS, {"target": 5}, seed=3)
    for twin in webhook_rows(game_id):
        assert outbox.deliver(twin.id) == "sent"
    discord, slack = (got.json for got in receiver.got)
    assert set(discord) == {"content", "allowed_mentions"} and discord["allowed_mentions"] == {"parse": []}
    assert discord["content"].startswith("Your game of Toy with Bob has begun.") and "/p/" in discord["content"]
    assert set(slack) == {"text"} and f"|Toy #{game_id}>" in slack["text"]
    assert "X-Riftpost-Signature" not in receiver.got[0].headers


def test_a_5xx_or_a_timeout_is_retried_and_a_4xx_or_a_redirect_fails_for_good(local, receiver, monkeypatch):
    channels.add_webhook("ann@example.org", receiver.url, "generic")
    game_id = new_game(toygame.NAME, PLAYERS, {"target": 5}, seed=3)
    (twin,) = webhook_rows(game_id)
    receiver.status = 503
    assert outbox.deliver(twin.id) == "retrying"
    row = row_of(twin.id)
    assert row.status == "pending" and row.attempts == 1 and "HTTP 503" in row.last_error
    assert as_utc(row.next_attempt_at) > utcnow()
    assert outbox.deliver(twin.id) == "not due"  # the backoff holds for webhooks too
    set_row(twin.id, next_attempt_at=utcnow())
    receiver.status, receiver.delay = 204, 1.5
    monkeypatch.setattr(webhooks, "TIMEOUT", 0.3)
    assert outbox.deliver(twin.id) == "retrying"
    assert "timed out" in row_of(twin.id).last_error
    receiver.delay = 0
    set_row(twin.id, next_attempt_at=utcnow())
    receiver.status, receiver.location = 302, receiver.url.replace("/hook", "/elsewhere")
    before = len(receiver.got)
    assert outbox.deliver(twin.id) == "failed"
    assert len(receiver.got) == before + 1  # the redirect was not followed
    assert "redirect" in row_of(twin.id).last_error
    set_row(twin.id, status="pending", next_attempt_at=utcnow())
    receiver.status, receiver.location = 404, None
    assert outbox.deliver(twin.id) == "failed"
    assert "HTTP 404" in row_of(twin.id).last_error
    # The player's page speaks of emails: a webhook's failure is not "we could not reach you".
    with read_session(get_engine()) as session:
        from service import store
        ann = store.players_of(session, game_id)[0]
        assert outbox.trouble(session, ann, utcnow() + timedelta(days=1)) is None


@pytest.fixture
def fuse(monkeypatch):
    """No connection may even be tried: a test about refused targets must not send a packet there."""
    def refuse(*args, **kwargs):
        raise AssertionError(f"a connection was attempted to {args[0]}")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)


def test_a_private_address_target_is_refused_for_good_and_never_connected(app, fuse):
    preconsent(*[email for _, email in PLAYERS])
    hook = store_url("ann@example.org", "http://10.20.30.40:8080/hook")
    game_id = new_game(toygame.NAME, PLAYERS, {"target": 5}, seed=3)
    (twin,) = webhook_rows(game_id)
    assert outbox.deliver(twin.id) == "failed"
    row = row_of(twin.id)
    assert row.attempts == 1 and row.last_error.startswith("Refused: ") and "a private address" in row.last_error
    assert hook.id == row.webhook_id


@pytest.mark.parametrize("url", ["http://localhost:9/hook", "http://127.0.0.1:9/", "http://[::1]:9/",
                                 "http://[::ffff:127.0.0.1]:9/", "http://169.254.169.254/latest/meta-data"])
def test_loopback_link_local_and_their_names_are_refused_without_the_operators_leave(app, fuse, url):
    preconsent(*[email for _, email in PLAYERS])
    store_url("ann@example.org", url)
    game_id = new_game(toygame.NAME, PLAYERS, {"target": 5}, seed=3)
    (twin,) = webhook_rows(game_id)
    assert outbox.deliver(twin.id) == "failed"
    assert row_of(twin.id).last_error.startswith("Refused: the webhook's host is ")


REFUSED = ["10.0.0.1", "172.16.5.4", "192.168.1.1", "127.0.0.1", "127.9.9.9", "169.254.169.254", "0.0.0.0",
           "224.0.0.251", "240.0.0.1", "255.255.255.255", "100.64.0.1", "192.0.2.10", "::1", "::", "fe80::1",
           "fc00::1", "fd12:3456::1", "ff02::1", "::ffff:127.0.0.1", "::ffff:10.1.1.1", "2002:7f00:1::1",
           "2002:a9fe:a9fe::1", "2001:db8::1"]
PUBLIC = ["93.184.216.34", "1.1.1.1", "2606:4700:4700::1111", "::ffff:93.184.216.34"]


@pytest.mark.parametrize("address", REFUSED)
def test_every_internal_kind_of_address_is_refused(address):
    assert webhooks.refusal(ipaddress.ip_address(address), []) is not None


@pytest.mark.parametrize("address", PUBLIC)
def test_public_addresses_are_allowed(address):
    assert webhooks.refusal(ipaddress.ip_address(address), []) is None


def test_the_operators_networks_allow_only_themselves():
    allowed = [ipaddress.ip_network("127.0.0.0/8")]
    assert webhooks.refusal(ipaddress.ip_address("127.0.0.1"), allowed) is None
    assert webhooks.refusal(ipaddress.ip_address("::ffff:127.0.0.1"), allowed) is None
    assert webhooks.refusal(ipaddress.ip_address("10.0.0.1"), allowed) == "a private address"


def test_the_connection_goes_to_the_address_checked_not_to_a_second_lookup(local, receiver, monkeypatch):
    """DNS rebinding: the name is resolved once, checked, and that address is the one connected to."""
    hook = store_url("ann@example.org", receiver.url.replace("127.0.0.1", "hooks.example.org"))
    answers = iter(["127.0.0.1", "10.0.0.1"])  # a rebinding resolver: public-enough first, internal next
    looked_up: list[str] = []

    def rebinding(host, port, *args, **kwargs):
        looked_up.append(host)
        address = next(answers) if host == "hooks.example.org" else host  # a numeric host is itself
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (address, port))]

    monkeypatch.setattr(socket, "getaddrinfo", rebinding)
    message = webhooks.call_for(hook, webhooks.test_message("x"), delivery="t")
    assert webhooks.post(message) == 204
    assert looked_up == ["hooks.example.org"]  # once
    assert receiver.got[0].headers["Host"].startswith("hooks.example.org:")


@pytest.mark.parametrize(("url", "words"), [
    ("", "Give the webhook's URL"),
    ("ftp://hooks.example.org/x", "starts with https://"),
    ("javascript:alert(1)", "starts with https://"),
    ("https://user:pw@hooks.example.org/x", "user name and password"),
    ("https:///path", "names no host"),
    ("https://hooks.example.org:99999/x", "port"),
    ("https://hooks.example.org/a b", "no spaces"),
    ("http://10.1.2.3/hook", "a private address"),
    ("http://localhost:8000/hook", "a loopback address"),
    ("http://[fe80::1]/hook", "a link-local address"),
])
def test_a_webhook_url_is_checked_when_it_is_saved(app, url, words):
    with pytest.raises(Invalid) as caught:
        channels.add_webhook("ann@example.org", url, "generic")
    assert words in caught.value.message and caught.value.status == 422


def test_a_removed_webhook_gets_nothing_more(local, receiver):
    hook = channels.add_webhook("ann@example.org", receiver.url, "generic")
    game_id = new_game(toygame.NAME, PLAYERS, {"target": 5}, seed=3)
    (twin,) = webhook_rows(game_id)
    channels.remove_webhook("ann@example.org", hook.id, utcnow())
    assert outbox.deliver(twin.id) == "skipped" and row_of(twin.id).skip_reason == "channel_off"
    play_one(game_id)
    play_one(game_id)
    assert len(webhook_rows(game_id)) == 1 and receiver.got == []


def test_a_held_email_gets_no_twin(app, receiver):
    """An address that has not answered its invitation hears nothing of the game anywhere."""
    app.config["WEBHOOK_ALLOW_NETWORKS"] = LOOPBACK
    preconsent("ann@example.org")
    channels.add_webhook("bob@example.org", receiver.url, "generic")
    game_id = new_game(toygame.NAME, PLAYERS, {"target": 5}, seed=3)
    assert webhook_rows(game_id) == []


def test_never_email_me_does_not_silence_the_persons_own_webhook(local, receiver):
    channels.add_webhook("ann@example.org", receiver.url, "generic")
    game_id = new_game(toygame.NAME, PLAYERS, {"target": 5}, seed=3)
    access.set_never_email("ann@example.org", True, utcnow())
    email, twin = [row for row in outbox_rows(game_id) if row.kind == "turn"]
    assert outbox.deliver(email.id) == "skipped" and row_of(email.id).skip_reason == "never_email"
    assert outbox.deliver(twin.id) == "sent" and len(receiver.got) == 1


def test_never_email_me_leaves_the_webhook_every_other_reason_to_skip(local, receiver):
    """"Never email me" is about the inbox, so it does not stop the webhook; but it must not hide the
    reasons that do (here: the game's turn emails are off, so its turn webhooks are too)."""
    channels.add_webhook("ann@example.org", receiver.url, "generic")
    game_id = new_game(toygame.NAME, PLAYERS, {"target": 60}, seed=3)
    while len([row for row in webhook_rows(game_id) if row.kind == "turn"]) < 2:  # past the game's first email
        play_one(game_id)
    access.set_never_email("ann@example.org", True, utcnow())
    with write_session(get_engine()) as session:
        session.execute(sa.update(Player).where(col(Player.game_id) == game_id, col(Player.seat) == 0)
                        .values(turn_emails=False))
    twin = [row for row in webhook_rows(game_id) if row.kind == "turn"][-1]
    assert outbox.deliver(twin.id) == "skipped" and row_of(twin.id).skip_reason == "turned_off"
    assert receiver.got == []


def test_a_webhook_twin_does_not_count_as_another_seats_turn_email(local, receiver):
    """The check of a simultaneous need counts the turn emails of one position: twins are not seats."""
    channels.add_webhook("ann@example.org", receiver.url, "generic")
    game_id = new_game(toygame.NAME, PLAYERS, {"target": 5}, seed=3)
    from service import store
    from service.play import emails
    with read_session(get_engine()) as session:
        game = store.get_game(session, game_id)
        ann = store.players_of(session, game_id)[0]
        assert not emails.unanswered(session, game, ann)
