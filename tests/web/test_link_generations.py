"""Trust: link generations ("send me a fresh link"), the account link for what acts on the whole
address (vacation, never-email), and never-email itself (RFC 8058 one-click, skipped deliveries).
Run on SQLite and on the real PostgreSQL; emails go through a real SMTP sink (aiosmtpd)."""

from __future__ import annotations

import re
import time
from datetime import timedelta

import pytest
import sqlalchemy as sa
from itsdangerous import URLSafeTimedSerializer

from service import links, store
from service.mail import outbox
from service.play import new_game
from service.store import get_engine, read_session, write_session
from service.store.models import Outbox, Person, Player, utcnow
from tests.conftest import SECRET, app_on
from tests.consent import preconsent
from tests.people.helpers import sign_in_as
from tests.service import toygame
from tests.service.helpers import outbox_rows, play_one
from tests.web.pages import csrf_token, text

ANN, BOB, CY = ("Ann", "ann@example.org"), ("Bob", "bob@example.org"), ("Cy", "cy@example.org")
BASE = "http://riftpost.test"


@pytest.fixture
def app(backend_url, tmp_path, sink):
    with app_on(tmp_path, backend_url, SMTP_URL=sink.url) as app:
        preconsent(ANN[1], BOB[1], CY[1])  # these tests are about links: the addresses played before
        yield app


@pytest.fixture
def client(app):
    return app.test_client()


def seats(game_id: int) -> list[Player]:
    with read_session(get_engine()) as session:
        return store.players_of(session, game_id)


def person(email: str) -> Person | None:
    with read_session(get_engine()) as session:
        return session.get(Person, email)


def deliver_new(kind: str | None = None) -> list[tuple[Outbox, str]]:
    """Deliver every pending row (of `kind`); (row, status) of each."""
    done = []
    for row in outbox_rows():
        if row.status == "pending" and (kind is None or row.kind == kind):
            done.append((row, outbox.deliver(row.id)))
    return done


def body(message) -> str:
    return message.get_body(("plain",)).get_content()


def path_of(url: str) -> str:
    assert url.startswith(BASE), url
    return url.removeprefix(BASE)


def urls(message, prefix: str) -> list[str]:
    return [path_of(found) for found in re.findall(rf"{re.escape(BASE)}{prefix}[^\s<>\"]+", body(message))]


def legacy_token(purpose: str, payload: dict) -> str:
    """A link as minted before generations existed: no "g" in it."""
    return URLSafeTimedSerializer([SECRET], salt=purpose).dumps(payload)


@pytest.fixture
def games(app):
    """Ann and Bob play game A; Ann and Cy play game B."""
    return (new_game(toygame.NAME, [ANN, BOB], {"target": 40}, seed=3),
            new_game(toygame.NAME, [ANN, CY], {"target": 40}, seed=4))


def fresh(client, token: str, scope: str = "game"):
    page = text(client.get(f"/p/{token}"))
    return client.post(f"/p/{token}/fresh-link", data={"csrf_token": csrf_token(page), "scope": scope})


def test_a_fresh_link_ends_the_old_page_move_unsubscribe_and_api_links_of_that_player_only(client, games):
    game_a, game_b = games
    ann_a, bob_a = seats(game_a)
    ann_b, cy_b = seats(game_b)
    game, state = store_game(game_a)
    move = toygame.GAME.legal_moves(state, ann_a.seat)[0]
    old = {
        "page": f"/p/{links.player_token(ann_a.id, ann_a.row_key)}",
        "history": f"/p/{links.player_token(ann_a.id, ann_a.row_key)}/history",
        "move": f"/m/{links.move_token(ann_a.id, ann_a.row_key, game.seq, move)}",
        "unsubscribe": f"/u/{links.unsubscribe_token(ann_a.id, ann_a.row_key)}",
        "api": f"/api/play/{links.player_token(ann_a.id, ann_a.row_key)}",
    }
    assert {name: client.get(url).status_code for name, url in old.items()} == dict.fromkeys(old, 200)

    response = fresh(client, links.player_token(ann_a.id, ann_a.row_key))
    assert response.status_code == 200
    assert "We sent a fresh link to this game to a***@example.org" in text(response)

    for name, url in old.items():
        answer = client.get(url)
        assert answer.status_code == 410, name
        if name == "api":
            assert answer.get_json()["error"] == "This link was replaced"
        else:
            assert "replaced by a fresher one: it was sent to a***@example.org" in text(answer), name
    assert client.post(old["api"], json={"seq": game.seq, "moves": []}).status_code == 410
    # The others' links, and Ann's own in her other game, still work; so does her new link.
    assert client.get(f"/p/{links.player_token(bob_a.id, bob_a.row_key)}").status_code == 200
    assert client.get(f"/p/{links.player_token(ann_b.id, ann_b.row_key)}").status_code == 200
    assert client.get(f"/p/{links.player_token(ann_a.id, ann_a.row_key, 1)}").status_code == 200


def store_game(game_id: int):
    from tests.service.helpers import current

    return current(game_id)


def test_links_minted_before_generations_work_until_a_reset(client, games):
    game_a, _ = games
    ann = seats(game_a)[0]
    with write_session(get_engine()) as session:  # a seat from then is from before row keys too
        session.execute(sa.update(Player).where(Player.id == ann.id).values(row_key=None))
    legacy = legacy_token(links.PLAYER, {"p": ann.id})
    assert client.get(f"/p/{legacy}").status_code == 200
    assert client.get(f"/api/play/{legacy}").status_code == 200
    assert client.get(f"/u/{legacy_token(links.UNSUBSCRIBE, {'p': ann.id})}").status_code == 200
    for bad in ({"p": ann.id, "g": -1}, {"p": ann.id, "g": "1"}, {"p": ann.id, "g": True}):
        assert client.get(f"/p/{legacy_token(links.PLAYER, bad)}").status_code == 400, bad
    assert fresh(client, legacy).status_code == 200
    assert client.get(f"/p/{legacy}").status_code == 410


def test_the_fresh_link_email_reaches_the_address_and_its_link_works(client, games, sink):
    game_a, game_b = games
    deliver_new()
    before = len(sink.messages())
    ann_a = seats(game_a)[0]
    fresh(client, links.player_token(ann_a.id, ann_a.row_key))
    assert [status for _, status in deliver_new("fresh_link")] == ["sent"]
    message = sink.wait_for(before + 1)[-1]
    assert message["To"] == "Ann <ann@example.org>" and message["X-Riftpost-Kind"] == "fresh_link"
    assert message["Subject"] == f"Toy #{game_a}: Ann vs Bob" and message["In-Reply-To"]  # in the game's thread
    assert body(message).startswith(f"Here is a fresh link to Toy #{game_a}, as you asked")
    page = [url for url in urls(message, "/p/") if "/history" not in url and "?" not in url][0]
    assert links.read_player_token(page.removeprefix("/p/")) == links.PlayerLink(ann_a.id, ann_a.row_key, 1)
    assert client.get(page).status_code == 200
    # Pacing: one more fresh link within five minutes is refused with a clear 429, and ends nothing.
    again = fresh(client, page.removeprefix("/p/"))
    assert again.status_code == 429 and "You can ask for another in 5 minutes" in text(again)
    assert client.get(page).status_code == 200


def test_fresh_links_to_all_my_games_end_every_old_link_of_the_address(client, games, sink):
    game_a, game_b = games
    ann_a, bob_a = seats(game_a)
    ann_b = seats(game_b)[0]
    response = fresh(client, links.player_token(ann_a.id, ann_a.row_key), scope="all")
    assert "fresh links to all your games" in text(response)
    assert client.get(f"/p/{links.player_token(ann_b.id, ann_b.row_key)}").status_code == 410
    assert client.get(f"/p/{links.player_token(bob_a.id, bob_a.row_key)}").status_code == 200
    assert [status for _, status in deliver_new("fresh_link")] == ["sent"]
    message = sink.wait_for(1)[-1]
    assert message["Subject"] == "Fresh links to your Riftpost games" and message["In-Reply-To"] is None
    listed = [url for url in urls(message, "/p/") if "/" not in url.removeprefix("/p/")]
    assert {links.read_player_token(url.removeprefix("/p/")) for url in listed} == {
        links.PlayerLink(ann_a.id, ann_a.row_key, 1), links.PlayerLink(ann_b.id, ann_b.row_key, 1)}
    assert all(client.get(url).status_code == 200 for url in listed)
    assert client.post(f"/p/{links.player_token(ann_a.id, ann_a.row_key, 1)}/fresh-link",
                       data={"csrf_token": "x", "scope": "everything"}).status_code == 400  # no CSRF, no scope


def ask_signin(client, page_token: str, sink) -> None:
    """Press "Email me a link to manage my account" (it mails a sign-in link now), follow the email and
    press its page's button: the client is signed in."""
    page = text(client.get(f"/p/{page_token}/account"))
    response = client.post(f"/p/{page_token}/account", data={"csrf_token": csrf_token(page)})
    assert response.status_code == 200 and "We sent a sign-in link and code to" in text(response)
    count = len(sink.messages())
    assert [status for _, status in deliver_new("signin")] == ["sent"]
    message = sink.wait_for(count + 1)[-1]
    assert message["Subject"] == "Sign in to Riftpost"
    link = urls(message, "/signin/")[0]
    assert client.post(link, data={"csrf_token": csrf_token(text(client.get(link)))}).status_code == 303


def test_a_fresh_link_ends_the_account_links_issued_before_it(client, games, sink):
    """An account link mailed before sign-in existed still signs in for its hour, unless a fresh link was
    asked for since: "send me a fresh link" ends every link out there."""
    game_a, _ = games
    ann_a = seats(game_a)[0]
    account = f"/a/{links.account_token(ANN[1], int(time.time()) - 1)}"
    page = text(client.get(account))
    assert fresh(client, links.player_token(ann_a.id, ann_a.row_key), scope="all").status_code == 200
    ended = client.get(account)
    assert ended.status_code == 410 and "ended when you asked for a fresh link" in text(ended)
    assert client.post(account, data={"csrf_token": csrf_token(page)}).status_code == 410
    assert client.get("/settings").status_code == 401  # not signed in


def test_a_vacation_can_no_longer_be_started_with_a_player_link_only_signed_in(client, games, sink):
    game_a, game_b = games
    ann = seats(game_a)[0]
    token = links.player_token(ann.id, ann.row_key)
    page = text(client.get(f"/p/{token}"))
    assert "Email me a link to manage my account" in page and "Start a vacation" not in page
    response = client.post(f"/p/{token}/vacation", data={"csrf_token": csrf_token(page), "action": "start"})
    assert response.status_code in (404, 405)
    assert person(ANN[1]) is None or person(ANN[1]).vacation_since is None

    ask_signin(client, token, sink)
    page = text(client.get("/settings"))
    assert "ann@example.org" in page
    assert person(ANN[1]).vacation_since is None  # the GET changed nothing
    started = client.post("/settings/vacation", data={"csrf_token": csrf_token(page), "action": "start"})
    assert started.status_code == 303 and person(ANN[1]).vacation_since is not None
    assert "You are on vacation" in text(client.get("/settings"))
    assert client.post("/settings/vacation", data={"action": "end"}).status_code == 400  # no CSRF token
    ended = client.post("/settings/vacation", data={"csrf_token": csrf_token(page), "action": "end"})
    assert ended.status_code == 303 and person(ANN[1]).vacation_since is None


def test_the_account_link_expires_after_an_hour_and_the_sign_in_button_is_paced(client, games, sink):
    ann = seats(games[0])[0]
    ask_signin(client, links.player_token(ann.id, ann.row_key), sink)
    old = f"/a/{links.account_token(ANN[1], int(time.time()) - 3601)}"
    expired = client.get(old)
    assert expired.status_code == 410 and "works for one hour" in text(expired)
    page = text(client.get("/settings"))
    assert client.post(old, data={"csrf_token": csrf_token(page)}).status_code == 410
    assert client.get(f"/a/{links.account_token(ANN[1], int(time.time()))}"[:-3] + "xyz").status_code == 400
    # Another within five minutes: a clear 429, and no second email queued.
    again = client.post(f"/p/{links.player_token(ann.id, ann.row_key)}/account", data={"csrf_token": csrf_token(page)})
    assert again.status_code == 429 and "a sign-in link" in text(again)
    assert len([row for row in outbox_rows() if row.kind == "signin"]) == 1
    with write_session(get_engine()) as session:  # five minutes later
        session.execute(sa.update(Person).values(account_link_sent_at=utcnow() - timedelta(minutes=6)))
    assert client.post(f"/p/{links.player_token(ann.id, ann.row_key)}/account",
                       data={"csrf_token": csrf_token(page)}).status_code == 200


def test_every_email_carries_the_one_click_header_and_the_footer_links(client, games, sink):
    deliver_new()
    message = [m for m in sink.wait_for(4) if m["To"] == "Bob <bob@example.org>"][0]
    header = message["List-Unsubscribe"]
    assert header.startswith(f"<{BASE}/never/") and message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert urls(message, "/u/"), "the per-game turn-email switch stays in the body"
    never = [url for url in urls(message, "/p/") if "/account?why=never" in url]
    assert never
    html = message.get_body(("html",)).get_content()
    assert "Never email me</a>" in html
    # The footer's link only offers to mail the address a link: it acts on nothing itself.
    page = client.get(never[0])
    assert page.status_code == 200 and "b***@example.org" in text(page)
    assert "Email me a link to manage my account" in text(page)
    assert person(BOB[1]) is None or person(BOB[1]).never_email_at is None


def email_to(player: Player) -> None:
    """Play on until an email to the player is queued."""
    before = len([row for row in outbox_rows(player.game_id) if row.player_id == player.id])
    for _ in range(20):
        play_one(player.game_id)
        if len([row for row in outbox_rows(player.game_id) if row.player_id == player.id]) > before:
            return
    raise AssertionError("no email to the player")


def test_one_click_sets_never_email_the_next_email_is_skipped_and_the_settings_undo_it(client, games, sink):
    game_a, _ = games
    deliver_new()
    message = [m for m in sink.wait_for(4) if m["To"] == "Bob <bob@example.org>"][0]
    one_click = path_of(message["List-Unsubscribe"].strip("<>"))

    page = client.get(one_click)  # a scanner's prefetch
    assert page.status_code == 200 and "Never email me" in text(page)
    assert person(BOB[1]) is None or person(BOB[1]).never_email_at is None

    # What the mail provider sends (RFC 8058): a POST without cookies or CSRF token.
    response = client.post(one_click, data={"List-Unsubscribe": "One-Click"})
    assert response.status_code == 200 and response.mimetype == "text/plain"
    assert person(BOB[1]).never_email_at is not None

    bob = seats(game_a)[1]
    email_to(bob)  # Bob's turn email is queued...
    sent = len(sink.messages())
    turn = [(row, status) for row, status in deliver_new() if row.player_id == bob.id]
    assert turn and {status for _, status in turn} == {"skipped"}  # ...and skipped, with the reason
    assert {row.skip_reason for row in outbox_rows() if row.id in {r.id for r, _ in turn}} == {"never_email"}
    assert len(sink.messages()) == sent

    # The sign-in link is asked for on a page, so it still reaches him: the only way back.
    page = text(client.get(f"/p/{links.player_token(bob.id, bob.row_key)}"))
    assert "You asked never to be emailed" in page
    ask_signin(client, links.player_token(bob.id, bob.row_key), sink)
    page = text(client.get("/settings"))
    assert "Email me again" in page
    response = client.post("/settings/emails", data={"csrf_token": csrf_token(page), "emails": "allow"})
    assert response.status_code == 303 and person(BOB[1]).never_email_at is None

    email_to(bob)
    assert "sent" in {status for row, status in deliver_new() if row.player_id == bob.id}


def test_a_never_email_address_gets_no_invitation_but_the_others_do(client, games, sink):
    ann = seats(games[0])[0]
    client.post(f"/never/{links.never_email_token(ANN[1])}", data={"List-Unsubscribe": "One-Click"})
    game_c = new_game(toygame.NAME, [BOB, ANN], {"target": 40}, seed=5)
    statuses = {(row.player_id, status) for row, status in deliver_new() if row.game_id == game_c}
    ann_c, bob_c = seats(game_c)[1], seats(game_c)[0]
    assert (ann_c.id, "skipped") in statuses and (bob_c.id, "sent") in statuses
    assert ann.email == ann_c.email
    # A signed one-click link for an address we never emailed changes nothing (no row is made for it).
    assert client.post(f"/never/{links.never_email_token('nobody@example.org')}").status_code == 200
    assert person("nobody@example.org") is None
    assert client.post("/never/not-a-token").status_code == 400


def test_the_one_click_page_button_answers_with_a_page(client, games):
    """A person who opens the header's link in a browser presses the page's button: a page, not the
    plain text answer meant for mail providers."""
    url = f"/never/{links.never_email_token(ANN[1])}"
    page = text(client.get(url))
    assert "<form method=\"post\">" in page and "One-Click" not in page
    response = client.post(url, data={})
    assert response.status_code == 200 and response.mimetype == "text/html"
    assert "We will not email a***@example.org any more" in text(response)
    assert person(ANN[1]).never_email_at is not None


NASTY = ["", "0", "-1", "x" * 3000, "eyJwIjoxfQ", "eyJwIjoxfQ.AAAA.BBBB", "eyJlIjoiYUBiIiwidCI6MX0.AAAA", "<script>",
         "%00", "\u202e\u0000"]


def test_the_new_routes_answer_bad_tokens_and_fields_with_a_4xx(client, games):
    ann = seats(games[0])[0]
    for value in NASTY:
        for url in [f"/a/{value}", f"/never/{value}", f"/p/{value}/fresh-link", f"/p/{value}/account",
                    f"/p/{value}/signin"]:
            for method in ("get", "post"):
                response = getattr(client, method)(url, data={"action": value, "scope": value})
                assert response.status_code < 500, (method, url, response.status_code)
    sign_in_as(client, ANN[1])
    token = csrf_token(text(client.get("/settings")))
    page_token = links.player_token(ann.id, ann.row_key)
    for value in NASTY:
        for url, field in [("/settings/vacation", "action"), ("/settings/emails", "emails"),
                           ("/settings/time-zone", "time_zone"), (f"/p/{page_token}/fresh-link", "scope")]:
            response = client.post(url, data={"csrf_token": token, field: value})
            assert response.status_code == 400, (url, value, response.status_code)
    assert person(ANN[1]) is None or (person(ANN[1]).vacation_since is None and person(ANN[1]).never_email_at is None)
    assert client.get(f"/p/{page_token}").status_code == 200  # no reset happened


# ---- where links meet bounces, consent and the retry policy (seams found after the merge) ----------------


def test_a_fresh_link_is_refused_while_the_address_bounces_and_ends_no_link(client, games):
    ann = seats(games[0])[0]
    with write_session(get_engine()) as session:
        session.execute(sa.update(Person).where(Person.email == ANN[1]).values(bounced_at=utcnow(), bounce_status="5.1.1"))
    refused = fresh(client, links.player_token(ann.id, ann.row_key))
    assert refused.status_code == 409 and "Email me again" in text(refused)
    assert seats(games[0])[0].link_generation == 0 and client.get(f"/p/{links.player_token(ann.id, ann.row_key)}").status_code == 200
    assert not [row for row in outbox_rows() if row.kind == "fresh_link"]


def test_asking_again_too_soon_is_a_429_with_retry_after(client, games):
    ann = seats(games[0])[0]
    assert fresh(client, links.player_token(ann.id, ann.row_key)).status_code == 200
    again = fresh(client, links.player_token(ann.id, ann.row_key, 1))
    assert again.status_code == 429 and 0 < int(again.headers["Retry-After"]) <= 300


def test_an_account_link_email_delayed_past_its_hour_is_not_sent(client, games, sink):
    """Account-link emails are no longer written, but one queued before sign-in existed still goes out
    within its hour, and not after."""
    ann = seats(games[0])[0]
    with write_session(get_engine()) as session:
        outbox.add(session, store.get_game(session, games[0]), [ann], "account_link",
                   {"issued_ms": int(time.time() * 1000)})
    (row,) = [row for row in outbox_rows() if row.kind == "account_link"]
    with write_session(get_engine()) as session:  # an SMTP outage of more than an hour since the request
        session.execute(sa.update(Outbox).where(Outbox.id == row.id).values(
            params={"issued_ms": int((time.time() - 3700) * 1000)}))
    assert outbox.deliver(row.id) == "skipped"
    assert [r.skip_reason for r in outbox_rows() if r.id == row.id] == ["unwanted"]
