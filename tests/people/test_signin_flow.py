"""Sign-in by email end to end (service/people/signin.py, service/web/signin.py): the form, the email
through a real SMTP server, the link's page and button, the code, single use, expiry, wrong codes,
signing out everywhere.  On SQLite and on PostgreSQL."""

from __future__ import annotations

from datetime import timedelta

import sqlalchemy as sa

from service import links
from service.store import get_engine, read_session, write_session
from service.store.models import Person, SigninRequest, utcnow
from tests import tokens
from tests.people.signin_helpers import (  # noqa: F401 - fixtures
    ANN,
    BOB,
    app,
    ask,
    client,
    code_of,
    deliver,
    game,
    mailed,
    press,
    seat,
    signin_path,
)
from tests.service.helpers import outbox_rows
from tests.web.pages import CSRF, csrf_token, text


def requests() -> list[SigninRequest]:
    with read_session(get_engine()) as session:
        return list(session.execute(sa.select(SigninRequest).order_by(SigninRequest.id)).scalars())


def signed_in(client) -> bool:
    return client.get("/settings").status_code == 200


def test_the_emailed_link_signs_in_once_and_its_get_changes_nothing(client, game, sink):
    message = mailed(sink, client, "ANN@example.org")
    assert message["To"] == "Ann <ann@example.org>" and message["Subject"] == "Sign in to Riftpost"
    assert message["X-Riftpost-Kind"] == "signin" and message["In-Reply-To"] is None  # a thread of its own
    path = signin_path(message)
    # A mail scanner fetches the link: a page with a button, nothing used, nobody signed in.
    scanner = client.application.test_client()
    for _ in range(3):
        answer = scanner.get(path)
        assert answer.status_code == 200 and "<button type=\"submit\">Sign in</button>" in text(answer)
    assert requests()[0].used_at is None and not signed_in(scanner)

    assert not signed_in(client)
    done = press(client, path)
    assert done.status_code == 303 and done.headers["Location"].endswith("/settings")
    settings = client.get("/settings")
    assert settings.status_code == 200 and "Signed in as ann@example.org" in text(settings)
    cookie = done.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie and "Expires=" in cookie  # 30 days, not the tab's life

    again = press(client.application.test_client(), path)  # the link a second time: refused
    assert again.status_code == 410 and "used already" in text(again)


def test_the_code_signs_in_on_another_device_and_five_wrong_codes_end_the_request(client, game, sink):
    code = code_of(mailed(sink, client, ANN[1]))
    other = client.application.test_client()
    page = text(other.get("/signin"))
    wrong = "000000" if code.replace(" ", "") != "000000" else "111111"
    answer = other.post("/signin/code", data={"csrf_token": csrf_token(page), "email": ANN[1], "code": wrong})
    assert answer.status_code == 422 and "did not sign you in" in text(answer) and not signed_in(other)
    assert requests()[0].wrong_codes == 1
    done = other.post("/signin/code", data={"csrf_token": csrf_token(page), "email": "Ann@Example.org", "code": code})
    assert done.status_code == 303 and signed_in(other)
    # Used: neither the code nor the link works again.
    third = client.application.test_client()
    page = text(third.get("/signin"))
    assert third.post("/signin/code", data={"csrf_token": csrf_token(page), "email": ANN[1], "code": code}).status_code == 422

    with write_session(get_engine()) as session:  # the pacing of the form's per-address limit aside
        session.execute(sa.delete(SigninRequest))
    code = code_of(mailed(sink, client, ANN[1]))
    for _ in range(5):
        assert third.post("/signin/code", data={"csrf_token": csrf_token(page), "email": ANN[1],
                                                "code": wrong}).status_code == 422
    dead = third.post("/signin/code", data={"csrf_token": csrf_token(page), "email": ANN[1], "code": code})
    assert dead.status_code == 422 and not signed_in(third)  # the right code, too late: it is dead


def test_an_expired_link_and_code_are_refused_and_their_late_email_is_not_sent(client, game, sink):
    message = mailed(sink, client, ANN[1])
    with write_session(get_engine()) as session:
        session.execute(sa.update(SigninRequest).values(created_at=utcnow() - timedelta(minutes=16)))
    expired = press(client, signin_path(message))
    assert expired.status_code == 410 and "works for 15 minutes" in text(expired) and not signed_in(client)
    page = text(client.get("/signin"))
    assert client.post("/signin/code", data={"csrf_token": csrf_token(page), "email": ANN[1],
                                             "code": code_of(message)}).status_code == 422
    # An email delayed past its 15 minutes (a mail outage) is not sent at all.
    ask(client, ANN[1])
    with write_session(get_engine()) as session:
        session.execute(sa.update(SigninRequest).values(created_at=utcnow() - timedelta(minutes=16)))
    assert deliver() == ["skipped"]


def test_a_newer_request_replaces_the_older_link(client, game, sink):
    first = mailed(sink, client, ANN[1])
    second = mailed(sink, client, ANN[1])
    old = press(client, signin_path(first))
    assert old.status_code == 410 and "newer sign-in email" in text(old)
    assert press(client, signin_path(second)).status_code == 303


def test_the_form_says_the_same_for_every_address_and_mails_only_a_player_who_may_be_emailed(client, game, sink):
    from service.play import new_game
    from tests.service import toygame

    # Cy was invited by Ann but never answered; Dee asked never to be emailed; nobody@ never played.
    new_game(toygame.NAME, [ANN, ("Cy", "cy@example.org")], {"target": 40}, seed=4)
    dee_game = new_game(toygame.NAME, [ANN, ("Dee", "dee@example.org")], {"target": 40}, seed=5)
    from tests.consent import preconsent

    preconsent(ANN[1], "dee@example.org")
    client.post(f"/never/{links.never_email_token('dee@example.org')}", data={"List-Unsubscribe": "One-Click"})
    answers = {}
    for email in (ANN[1], "cy@example.org", "dee@example.org", "nobody@example.org"):
        response = ask(client.application.test_client(), email)
        assert response.status_code == 200, email
        answers[email] = CSRF.sub("", text(response).replace(email, "ADDRESS"))
    assert len(set(answers.values())) == 1, "the answer tells whether an address is known"
    assert "If this address has played here, we sent it a sign-in link" in answers[ANN[1]]
    assert [r.address for r in requests()] == [ANN[1]]
    # One email, on Ann's newest seat (the address's most recent game).
    assert {row.player_id for row in outbox_rows() if row.kind == "signin"} == {seat(dee_game, 0).id}
    with read_session(get_engine()) as session:
        assert session.get(Person, "nobody@example.org") is None  # a stranger's address leaves no trace
    bad = ask(client, "not an address")
    assert bad.status_code == 422 and "Type the email address" in text(bad)


def test_the_form_is_limited_per_address_the_same_whether_known_or_not(client, game):
    for email in (ANN[1], "nobody@example.org"):
        statuses = [ask(client.application.test_client(), email).status_code for _ in range(4)]
        assert statuses == [200, 200, 200, 429], email


def test_the_form_and_the_code_are_limited_per_client(client, game):
    client.application.config.update(RATELIMIT_SIGNIN="2 per minute", RATELIMIT_SIGNIN_CODE="2 per minute")
    assert [ask(client, f"x{n}@example.org").status_code for n in range(3)] == [200, 200, 429]
    page = text(client.get("/signin"))
    codes = [client.post("/signin/code", data={"csrf_token": csrf_token(page), "email": ANN[1], "code": "123456"})
             for _ in range(3)]
    assert [answer.status_code for answer in codes] == [422, 422, 429] and codes[2].headers["Retry-After"]


def test_sign_out_and_sign_out_everywhere(client, game, sink):
    phone, laptop = client, client.application.test_client()
    assert press(phone, signin_path(mailed(sink, phone, ANN[1]))).status_code == 303
    assert press(laptop, signin_path(mailed(sink, laptop, ANN[1]))).status_code == 303
    assert signed_in(phone) and signed_in(laptop)
    page = text(phone.get("/settings"))
    assert phone.post("/signout/everywhere", data={}).status_code == 400  # a form without its CSRF token
    assert phone.post("/signout/everywhere", data={"csrf_token": csrf_token(page)}).status_code == 303
    assert not signed_in(phone) and not signed_in(laptop)
    assert press(laptop, signin_path(mailed(sink, laptop, ANN[1]))).status_code == 303  # a new sign-in works
    page = text(laptop.get("/settings"))
    assert laptop.post("/signout", data={"csrf_token": csrf_token(page)}).status_code == 303
    assert not signed_in(laptop)


def test_settings_without_a_sign_in_is_a_401_with_the_sign_in_form(client):
    answer = client.get("/settings")
    assert answer.status_code == 401 and 'action="/signin"' in text(answer)
    page = text(client.get("/signin"))
    for path in ("/settings/vacation", "/settings/emails", "/settings/tokens", "/settings/tokens/1/revoke",
                 "/signout/everywhere"):
        assert client.post(path, data={"csrf_token": csrf_token(page)}).status_code == 401, path


def test_the_player_page_offers_a_sign_in_mailed_to_that_seats_address_and_paced(client, game, sink):
    ann = seat(game, 0)
    token = tokens.page(ann)
    page = text(client.get(f"/p/{token}"))
    assert "Sign in to see all your games" in page
    sent = client.post(f"/p/{token}/signin", data={"csrf_token": csrf_token(page)})
    assert sent.status_code == 200 and "a***@example.org" in text(sent)
    assert deliver() == ["sent"]
    message = sink.wait_for(1)[-1]
    assert message["To"] == "Ann <ann@example.org>"
    again = client.post(f"/p/{token}/account", data={"csrf_token": csrf_token(page)})  # the old button: the same
    assert again.status_code == 429 and "a sign-in link" in text(again)
    assert press(client, signin_path(message)).status_code == 303 and signed_in(client)


def test_a_never_email_address_still_gets_the_sign_in_it_asks_for_on_its_page(client, game, sink):
    client.post(f"/never/{links.never_email_token(ANN[1])}", data={"List-Unsubscribe": "One-Click"})
    ann = seat(game, 0)
    page = text(client.get(f"/p/{tokens.page(ann)}"))
    assert client.post(f"/p/{tokens.page(ann)}/signin", data={"csrf_token": csrf_token(page)}).status_code == 200
    assert deliver() == ["sent"]


def test_an_old_account_link_opens_a_page_whose_button_signs_in_and_leads_to_settings(client, game):
    import time

    account = f"/a/{links.account_token(ANN[1], int(time.time()))}"
    page = client.get(account)
    assert page.status_code == 200 and not signed_in(client)  # the GET changed nothing
    done = client.post(account, data={"csrf_token": csrf_token(text(page))})
    assert done.status_code == 303 and done.headers["Location"].endswith("/settings") and signed_in(client)
    old = f"/a/{links.account_token(ANN[1], int(time.time()) - 3601)}"
    assert client.get(old).status_code == 410


NASTY = ["", "0", "x" * 3000, "eyJyIjoxLCJuIjoiYSJ9.AAAA", "<script>", "%00", "\u202e\u0000",
         "eyJyIjo5OTk5OTk5OTk5OTk5OTk5OTk5OX0"]


def test_bad_sign_in_links_and_fields_are_a_4xx(client, game):
    page = text(client.get("/signin"))
    for value in NASTY:
        for method in ("get", "post"):
            answer = getattr(client, method)(f"/signin/{value}", data={"csrf_token": csrf_token(page)})
            assert answer.status_code < 500, (method, value, answer.status_code)
        answer = client.post("/signin/code", data={"csrf_token": csrf_token(page), "email": value, "code": value})
        assert answer.status_code == 422, value
    from service.people.signin import links as signin_links

    huge = signin_links.signin_token(2**70, "a" * 32)
    assert client.post(f"/signin/{huge}", data={"csrf_token": csrf_token(page)}).status_code == 404
    assert not signed_in(client)
