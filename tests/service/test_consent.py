"""Nobody is spammed: an address that never played gets one short invitation and nothing more until it
accepts; a decline blocks that inviter; the public form is limited per client and per address; and a
hammered form sends a bounded number of emails (real SMTP, real Redis for the Redis storage)."""

from __future__ import annotations

import re
import shutil
import time

import pytest
import sqlalchemy as sa

from service.errors import TooMany
from service.mail import outbox
from service.play import handle, new_game
from service.store import get_engine, read_session, write_session
from service.store.models import Invitation, Outbox, Player
from tests import services, tokens
from tests.conftest import make_app
from tests.consent import preconsent
from tests.service import toygame
from tests.service.helpers import current, outbox_rows
from tests.web.pages import START_FORM, csrf_token, text

ATTACKER = "Visit www.evil.example/win or http://x.example NOW <b>free</b> & more money money money"


def deliver_all(game_id: int | None = None) -> list[str]:
    """Deliver every row that is due now (as the worker would); the statuses."""
    return [outbox.deliver(row.id) for row in outbox_rows(game_id) if row.status == "pending"]


def body(message) -> str:
    return "\n".join(part.get_content() for part in message.walk() if part.get_content_maintype() == "text")


def links_in(message) -> list[str]:
    return re.findall(r"https?://[^\s\"<>]+", body(message))


def form(client, **fields) -> dict:
    data = {"csrf_token": csrf_token(text(client.get(START_FORM))), "game": toygame.NAME, "seed": "3"}
    data.update(fields)
    return data


def _accept_directly(game_id: int, seat: int) -> None:
    from service.play import consent
    from service.store.models import utcnow

    with read_session(get_engine()) as session:
        invitation = session.execute(sa.select(Invitation.id).where(
            Invitation.game_id == game_id, Invitation.player_id == _player(game_id, seat))).scalar_one()
    consent.accept(invitation, utcnow())


def test_a_new_address_gets_one_short_invitation_with_nothing_linkable_of_the_attackers_text(app, sink):
    app.config["SMTP_URL"] = sink.url
    game_id = new_game(toygame.NAME, [(ATTACKER, "ann@example.org"), ("Click https://bob.example", "bob@example.org")],
                       {"target": 5}, seed=3)
    # Seat 0's own address is asked first whether it started the game; nothing goes to Bob until it answers.
    assert deliver_all(game_id) == ["sent"]
    (ann,) = sink.wait_for(1)
    assert ann["Subject"] == "Did you start a game of Toy on Riftpost?" and ann["To"] == "ann@example.org"
    assert sorted(r.status for r in outbox_rows(game_id)) == ["held", "held", "held", "sent"]
    _accept_directly(game_id, 0)
    assert deliver_all(game_id) == ["sent", "sent"]  # Ann's first game email, Bob's invitation: nothing else
    bob = next(m for m in sink.wait_for(3) if m["To"] == "bob@example.org")
    assert bob["X-Riftpost-Kind"] == "invitation"
    # The inviter's name is all of the form's text that reaches the address: capped, nothing linkable.
    inviter = "Visit www evil example win or http x exam"[:40].strip()
    assert bob["Subject"] == f"{inviter} invited you to play Toy"
    assert bob["To"] == "bob@example.org"  # not the name typed for Bob
    everything = body(bob) + bob["Subject"]
    assert "evil.example" not in everything and "://x" not in everything and "<b>" not in everything
    assert "bob.example" not in everything and "Click" not in everything  # Bob's own typed name: not shown
    assert "money" not in everything  # past the cap
    # Its links: accept or decline, and never email me (every email has it).
    assert all(link.startswith(("http://riftpost.test/i/", "http://riftpost.test/never/")) for link in links_in(bob))
    assert any(link.startswith("http://riftpost.test/never/") for link in links_in(bob))
    html = bob.get_body(("html",)).get_content()
    assert "&lt;b&gt;" not in html and "<b>" not in html  # the tag was not escaped into view: it is gone
    assert re.findall(r'href="([^"]+)"', html) and all(
        href.startswith(("http://riftpost.test/i/", "http://riftpost.test/never/"))
        for href in re.findall(r'href="([^"]+)"', html))
    # RFC 8058's one-click, as on every email: never email this address (it also declines the invitation).
    assert bob["List-Unsubscribe"].startswith("<http://riftpost.test/never/") and bob["In-Reply-To"] is None


def test_names_are_escaped_and_capped(app, sink):
    from service.mail.kinds import unlinkable

    assert unlinkable("Zoë O'Brien-Smith") == "Zoë O'Brien-Smith"
    assert unlinkable("a@b.example") == "a b example"
    assert unlinkable("<script>x</script>") == "script x script"
    assert unlinkable("...") == "Someone"
    assert len(unlinkable("x" * 500)) == 40


def _invitation_link(message, answer: str = "") -> str:
    found = [link for link in links_in(message) if "/i/" in link and ("answer=decline" in link) == (answer == "decline")]
    return found[0].replace("http://riftpost.test", "")


def test_accepting_releases_the_held_emails_and_a_get_changes_nothing(app, client, sink):
    app.config["SMTP_URL"] = sink.url
    preconsent("ann@example.org")
    game_id = new_game(toygame.NAME, [("Ann", "ann@example.org"), ("Bob", "bob@example.org")], {"target": 5}, seed=3)
    deliver_all(game_id)
    (invitation,) = [m for m in sink.wait_for(2) if m["X-Riftpost-Kind"] == "invitation"]
    page = client.get(_invitation_link(invitation))
    assert page.status_code == 200 and "Accept and play" in text(page) and "Decline" in text(page)
    held = [r for r in outbox_rows(game_id) if r.status == "held"]
    assert [r.kind for r in held] == ["invite"]  # the GET (what a link scanner does) released nothing
    # Who has not answered is the creator's to read (their page), not the public's.
    assert "Bob has not answered the invitation yet" in text(client.get(_creators_page(game_id)))
    assert "not answered" not in text(client.get(f"/games/{game_id}"))
    token = _invitation_link(invitation).split("/i/")[1]
    answer = client.post(f"/i/{token}/accept", data={"csrf_token": csrf_token(text(page))})
    assert answer.status_code == 303 and "/p/" in answer.headers["Location"]
    assert [r.status for r in outbox_rows(game_id) if r.id == held[0].id] == ["pending"]
    deliver_all(game_id)
    assert sink.wait_for(3)[-1]["X-Riftpost-Kind"] == "invite"
    assert "not answered" not in text(client.get(_creators_page(game_id)))
    # Bob accepted Ann: her next game emails him at once (another case of his address is the same inbox).
    second = new_game(toygame.NAME, [("Ann", "ann@example.org"), ("Bob", "BOB@example.org")], seed=4)
    assert {(r.kind, r.status) for r in outbox_rows(second) if r.player_id == _player(second, 1)} == {("invite", "pending")}
    # Another inviter's game asks him first: consent is per inviter.
    preconsent("cy@example.org")
    third = new_game(toygame.NAME, [("Cy", "cy@example.org"), ("Bob", "bob@example.org")], seed=5)
    assert [(r.kind, r.status) for r in outbox_rows(third) if r.player_id == _player(third, 1)] == [
        ("invitation", "pending"), ("invite", "held")]


def _creators_page(game_id: int) -> str:
    return f"/p/{tokens.page(_player(game_id, 0))}"


def _player(game_id: int, seat: int) -> int:
    with read_session(get_engine()) as session:
        return session.execute(sa.select(Player.id).where(Player.game_id == game_id, Player.seat == seat)).scalar_one()


def test_declining_drops_the_held_mail_and_blocks_that_inviter_but_not_another(app, client, sink):
    app.config["SMTP_URL"] = sink.url
    preconsent("ann@example.org", "cy@example.org")
    game_id = new_game(toygame.NAME, [("Ann", "ann@example.org"), ("Bo", "bo@example.org")], {"target": 5}, seed=3)
    deliver_all(game_id)
    (invitation,) = [m for m in sink.wait_for(2) if m["X-Riftpost-Kind"] == "invitation"]
    page = client.get(_invitation_link(invitation, "decline"))
    token = _invitation_link(invitation).split("/i/")[1]
    assert client.post(f"/i/{token}/decline", data={"csrf_token": csrf_token(text(page))}).status_code == 200
    assert [r.status for r in outbox_rows(game_id) if r.player_id == _player(game_id, 1)] == ["sent", "skipped"]
    assert "Bo declined the invitation" in text(client.get(_creators_page(game_id)))
    # Ann's moves go on; Bo is never emailed about them.
    game, _ = current(game_id)
    before = len(sink.messages())
    while game.status == "active" and game.to_act == [0]:
        from tests.service.helpers import play_one

        play_one(game_id)
        game, _ = current(game_id)
    deliver_all()
    assert all(m["To"] != "bo@example.org" for m in sink.messages()[before:])
    # Ann can never again make the service email Bo (another case of the address is the same inbox).
    blocked = new_game(toygame.NAME, [("Ann", "ann@example.org"), ("Bo", "Bo@Example.org")], seed=5)
    assert [r for r in outbox_rows(blocked) if r.player_id == _player(blocked, 1)] == []
    # Cy, another inviter, still may ask Bo once.
    other = new_game(toygame.NAME, [("Cy", "cy@example.org"), ("Bo", "bo@example.org")], seed=6)
    assert [(r.kind, r.status) for r in outbox_rows(other) if r.player_id == _player(other, 1)] == [
        ("invitation", "pending"), ("invite", "held")]
    # The one-click decline (RFC 8058, no cookie, no CSRF token) answers too.
    deliver_all(other)
    again = [m for m in sink.wait_for(len(sink.messages())) if m["X-Riftpost-Kind"] == "invitation"][-1]
    url = again["List-Unsubscribe"].strip("<>").replace("http://riftpost.test", "")
    one_click = app.test_client().post(url, data={"List-Unsubscribe": "One-Click"})
    assert one_click.status_code == 200
    assert [r.status for r in outbox_rows(other) if r.player_id == _player(other, 1)] == ["sent", "skipped"]


def test_an_ignored_invitation_is_not_sent_again_by_the_same_inviter(app, client, sink):
    preconsent("ann@example.org")
    first = new_game(toygame.NAME, [("Ann", "ann@example.org"), ("Bo", "bo@example.org")], seed=3)
    second = new_game(toygame.NAME, [("Ann", "ann@example.org"), ("Bo", "bo@example.org")], seed=4)
    assert [r.kind for r in outbox_rows(first) if r.player_id == _player(first, 1)] == ["invitation", "invite"]
    assert [(r.kind, r.status) for r in outbox_rows(second) if r.player_id == _player(second, 1)] == [("invite", "held")]
    creators = text(client.get(_creators_page(second)))
    assert "Bo has not answered an earlier invitation from Ann yet, so we sent nothing new" in creators
    # Accepting the first invitation releases both games' emails.
    with read_session(get_engine()) as session:
        (invitation,) = session.execute(sa.select(Invitation)).scalars().all()
    from service.play import consent
    from service.store.models import utcnow

    consent.accept(invitation.id, utcnow())
    assert {r.status for r in outbox_rows() if r.kind == "invite"} == {"pending"}


def test_a_get_on_an_invitation_link_never_answers_and_tampered_links_are_400(app, client):
    new_game(toygame.NAME, [("Ann", "ann@example.org"), ("Bo", "bo@example.org")], seed=3)
    assert client.get("/i/not-a-token").status_code == 400
    assert client.post("/i/not-a-token/decline").status_code == 400
    assert client.get("/i/x/accept").status_code == 405  # answering is a POST only
    with read_session(get_engine()) as session:
        statuses = session.execute(sa.select(Invitation.status)).scalars().all()
    assert statuses == ["asked", "asked"]


def test_an_address_gets_at_most_its_days_invitations_whoever_sends_them(app, client):
    limit = app.config["INVITATIONS_PER_ADDRESS_PER_DAY"]
    for n in range(limit):
        new_game(toygame.NAME, [(f"S{n}", f"sender{n}@example.org"), ("Vic", "victim@example.org")], seed=n)
    with pytest.raises(TooMany) as refused:
        new_game(toygame.NAME, [("Z", "zed@example.org"), ("Vic", "Victim@example.org")], seed=9)
    assert 23 * 3600 < refused.value.retry_after <= 24 * 3600 + 1
    assert "victim@example.org" not in refused.value.message.lower() or "last day" in refused.value.message
    with read_session(get_engine()) as session:  # nothing of the refused game was written
        assert session.execute(sa.select(sa.func.count()).select_from(Player).where(
            Player.email == "zed@example.org")).scalar_one() == 0
    answer = client.post("/games/new", data=form(client, name0="Z", email0="zed@example.org",
                                                 email1="victim@example.org"))
    assert answer.status_code == 429 and int(answer.headers["Retry-After"]) > 23 * 3600
    assert "has been named in as many games" in text(answer) and "<form" in text(answer)  # the form again, to change it


def _limited_app(tmp_path, migrated_sqlite, storage: str, name: str):
    db = tmp_path / f"{name}.sqlite"
    shutil.copy(migrated_sqlite, db)
    return make_app(tmp_path, f"sqlite:///{db}", RATELIMIT_STORAGE_URI=storage,
                    RATELIMIT_NEW_GAMES="3 per minute", INVITATIONS_PER_ADDRESS_PER_DAY=1000)


@pytest.mark.parametrize("storage", ["memory", pytest.param("redis", marks=pytest.mark.redis)])
def test_new_games_from_one_client_are_limited_with_a_429_and_retry_after(tmp_path, migrated_sqlite, storage):
    uri = "memory://" if storage == "memory" else services.redis_database()
    app = _limited_app(tmp_path, migrated_sqlite, uri, storage)
    with app.app_context():
        client = app.test_client()
        codes = [client.post("/games/new", data=form(client, email0=f"a{n}@example.org",
                                                     email1=f"b{n}@example.org")).status_code for n in range(5)]
        assert codes == [303, 303, 303, 429, 429]
        refused = client.post("/games/new", data=form(client, email0="c@example.org", email1="d@example.org"))
        assert refused.status_code == 429 and 0 < int(refused.headers["Retry-After"]) <= 61
        assert "Too many requests from your address" in text(refused) and "try again in" in text(refused)
        # A form sent back with a mistake emails nobody and does not count (another client: another IP).
        environ = {"REMOTE_ADDR": "10.0.0.2"}
        for _ in range(4):
            bad = client.post("/games/new", data=form(client, email0="bad"), environ_base=environ)
            assert bad.status_code == 422
        assert client.post("/games/new", data=form(client, email0="e@example.org", email1="f@example.org"),
                           environ_base=environ).status_code == 303
        # The form page itself is never limited.
        assert client.get(START_FORM).status_code == 200
    if storage == "redis":
        import redis

        keys = redis.Redis.from_url(uri).keys("*")
        assert keys, "the Redis storage holds the counters"
    app.extensions["riftpost.db"].dispose()


def test_the_client_address_comes_from_x_forwarded_for_only_behind_configured_proxies(tmp_path, migrated_sqlite):
    app = _limited_app(tmp_path, migrated_sqlite, "memory://", "direct")
    with app.app_context():
        client = app.test_client()
        codes = [client.post("/games/new", data=form(client, email0=f"a{n}@example.org", email1=f"b{n}@example.org"),
                             headers={"X-Forwarded-For": f"192.0.2.{n}"}).status_code for n in range(4)]
        assert codes == [303, 303, 303, 429]  # a forged header changes nothing without a trusted proxy
    app.extensions["riftpost.db"].dispose()
    proxied = _limited_app(tmp_path, migrated_sqlite, "memory://", "proxied")
    proxied.config["PROXY_HOPS"] = 1
    from werkzeug.middleware.proxy_fix import ProxyFix

    proxied.wsgi_app = ProxyFix(proxied.wsgi_app, x_for=1)  # as create_app does with PROXY_HOPS=1
    with proxied.app_context():
        client = proxied.test_client()
        codes = [client.post("/games/new", data=form(client, email0=f"a{n}@example.org", email1=f"b{n}@example.org"),
                             headers={"X-Forwarded-For": f"192.0.2.{n}"}).status_code for n in range(4)]
        assert codes == [303, 303, 303, 303]  # each client counted on its own
    proxied.extensions["riftpost.db"].dispose()


def test_hammering_the_public_form_sends_a_bounded_number_of_emails(tmp_path, migrated_sqlite, sink):
    """The drill: one client POSTs the form 500 times, each to two fresh addresses with an attacker's
    name; every email the service then sends is counted at a real SMTP server."""
    db = tmp_path / "drill.sqlite"
    shutil.copy(migrated_sqlite, db)
    app = make_app(tmp_path, f"sqlite:///{db}", SMTP_URL=sink.url)  # the default limits
    started = time.monotonic()
    with app.app_context():
        client = app.test_client()
        token = csrf_token(text(client.get(START_FORM)))
        # A name with a link is refused at the form (service/names.py); the attacker types what passes.
        linked = client.post("/games/new", data={
            "csrf_token": token, "game": toygame.NAME, "name0": "Win money at www.evil.example",
            "email0": "victim@example.org", "email1": "victim2@example.org"})
        assert linked.status_code == 422 and outbox.due(limit=10) == []
        codes = []
        for n in range(500):
            codes.append(client.post("/games/new", data={
                "csrf_token": token, "game": toygame.NAME, "name0": "Win money at www evil example",
                "email0": f"victim{n}a@example.org", "email1": f"victim{n}b@example.org"}).status_code)
        sent = [outbox.deliver(row_id) for row_id in outbox.due(limit=10_000)]
        with read_session(get_engine()) as session:
            held = session.execute(sa.select(sa.func.count()).select_from(Outbox)
                                   .where(Outbox.status == "held")).scalar_one()
    games = codes.count(303)
    per_minute = int(app.config["RATELIMIT_NEW_GAMES"].split(";")[0].split()[0])
    assert games == per_minute and codes.count(429) == 500 - games
    messages = sink.wait_for(sent.count("sent"))
    print(f"\nhammering drill: 500 POSTs in {time.monotonic() - started:.1f} s, {games} games, "
          f"{len(messages)} emails sent to {len({m['To'] for m in messages})} addresses")
    # One "did you start this game?" per seat-0 address, nothing else: the other seat's invitation waits
    # for that confirmation (nobody confirms an address they do not own).
    assert len(messages) == games
    assert {m["X-Riftpost-Kind"] for m in messages} == {"invitation"}
    assert all("evil.example" not in body(m) for m in messages)
    assert held == 3 * games  # the creator's game email, the other seat's invitation and game email
    app.extensions["riftpost.db"].dispose()


def test_the_game_waits_for_a_seat_that_has_not_accepted_and_others_play_on(app, client):
    preconsent("ann@example.org", "cy@example.org")
    game_id = new_game(toygame.NAME, [("Ann", "ann@example.org"), ("Bo", "bo@example.org"), ("Cy", "cy@example.org")],
                       {"target": 60}, seed=3)
    game, state = current(game_id)
    import engine

    rules = engine.get(toygame.NAME)
    seat = game.to_act[0]
    handle(game_id, seat, rules.legal_moves(state, seat)[0], game.seq)
    rows = outbox_rows(game_id)
    bo = _player(game_id, 1)
    assert {r.status for r in rows if r.player_id == bo and r.kind != "invitation"} == {"held"}
    assert all(r.status == "pending" for r in rows if r.player_id != bo)


def test_the_command_line_is_refused_past_an_addresses_limit_with_the_message(app):
    limit = app.config["INVITATIONS_PER_ADDRESS_PER_DAY"]
    runner = app.test_cli_runner()
    for n in range(limit):
        assert runner.invoke(args=["new-game", toygame.NAME, f"s{n}@example.org", "vic@example.org"]).exit_code == 0
    refused = runner.invoke(args=["new-game", toygame.NAME, "z@example.org", "vic@example.org"])
    assert refused.exit_code != 0 and "has been named in" in refused.output and "Traceback" not in refused.output


def test_accepting_one_inviter_releases_nothing_of_anothers(app, sink):
    app.config["SMTP_URL"] = sink.url
    preconsent("ann@example.org", "cy@example.org")
    first = new_game(toygame.NAME, [("Cy", "cy@example.org"), ("Bo", "bo@example.org")], seed=3)
    second = new_game(toygame.NAME, [("Ann", "ann@example.org"), ("Bo", "bo@example.org")], seed=4)
    from service.play import consent
    from service.store.models import utcnow

    with read_session(get_engine()) as session:
        cy_asks = session.execute(sa.select(Invitation.id).where(Invitation.game_id == first)).scalar_one()
    consent.accept(cy_asks, utcnow())
    (ann_asks,) = [r for r in outbox_rows(second) if r.kind == "invitation"]
    assert outbox.deliver(ann_asks.id) == "sent"  # Bo accepted Cy, not Ann: Ann's invitation still asks
    assert [r.status for r in outbox_rows(second) if r.kind == "invite" and r.player_id == _player(second, 1)] == [
        "held"]


def test_an_invitation_accepted_again_after_the_links_were_renewed_mints_no_page_link(app, client, sink):
    """The invitation is a link too: once the player's links were renewed ("send me a fresh link"), an old
    (perhaps forwarded) invitation must not lead to a working page link."""
    app.config["SMTP_URL"] = sink.url
    preconsent("ann@example.org")
    game_id = new_game(toygame.NAME, [("Ann", "ann@example.org"), ("Bo", "bo@example.org")], {"target": 5}, seed=3)
    deliver_all(game_id)
    (invitation,) = [m for m in sink.wait_for(2) if m["X-Riftpost-Kind"] == "invitation"]
    token = _invitation_link(invitation).split("/i/")[1]
    page = text(client.get(f"/i/{token}"))
    first = client.post(f"/i/{token}/accept", data={"csrf_token": csrf_token(page)})
    assert first.status_code == 303 and "/p/" in first.headers["Location"]
    with write_session(get_engine()) as session:
        session.execute(sa.update(Player).where(Player.id == _player(game_id, 1)).values(link_generation=1))
    again = client.post(f"/i/{token}/accept", data={"csrf_token": csrf_token(page)})
    assert again.status_code == 200 and "open the game from your latest email" in text(again)
    assert "/p/" not in again.get_data(as_text=True)
