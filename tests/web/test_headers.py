"""Security headers (service/web/headers.py) on every route of the app, whatever it answers, and the
session cookie's flags."""

from __future__ import annotations

import mailbox
from email.message import EmailMessage

import pytest

from service.play import new_game
from service.web.devmail import FRAME_POLICY, HTML_PART_POLICY
from service.web.headers import OTHER_POLICY, PAGE_POLICY
from tests import tokens
from tests.conftest import make_app
from tests.service import toygame
from tests.web.pages import START_FORM, csrf_token, text

PLAYERS = [("Ann", "ann@example.org"), ("Bob", "bob@example.org")]
# Views that set their own policy: the dev mailbox's email, alone and framed by the message page.
OWN_POLICY = {"devmail.html_part": HTML_PART_POLICY, "devmail.html_frame": FRAME_POLICY}


@pytest.fixture
def values(app):
    """A real value for each kind of URL argument, so that every route answers as it does in use."""
    game_id = new_game(toygame.NAME, PLAYERS, seed=3)
    message = EmailMessage()
    message["Subject"], message["To"] = "[Toy #1] Your turn", "ann@example.org"
    message.set_content("Play")
    message.add_alternative("<p>Play</p>", subtype="html")
    key = mailbox.Maildir(app.config["MAILDIR"], create=True).add(message)
    return {
        "game_id": game_id,
        "key": key,
        "filename": "composer.js",
        "game": "riftforce",  # a game's start form and rules page
        "open_id": 1,  # an open game of the lobby (none here: a 404)
        "token_id": 1,  # a personal API token's revoke button (/settings/tokens/<token_id>/revoke)
        "hook_id": 1,
        "message_id": 1, "seat": 1,  # a table talk message (none here: a 404), a seat to unmute  # a webhook of the signed-in person (/settings/channels: none here, a 401)
        # /m/ takes a move link, /u/ an unsubscribe link, every other token is the player link.
        "token": tokens.page(1),
        "/m/": tokens.move(1, 3, {"type": "pass"}),
        "/u/": tokens.unsubscribe(1),
    }


def _url(rule, values) -> str:
    arguments = {}
    for name in rule.arguments:
        special = next((values[prefix] for prefix in ("/m/", "/u/") if rule.rule.startswith(prefix)), None)
        arguments[name] = special if name == "token" and special else values[name]
    return rule.build(arguments)[1]


def assert_secured(response, endpoint: str | None) -> None:
    headers = response.headers
    assert headers["Referrer-Policy"] == "no-referrer", endpoint
    assert headers["X-Content-Type-Options"] == "nosniff", endpoint
    expected = OWN_POLICY.get(endpoint or "") or (PAGE_POLICY if response.mimetype == "text/html" else OTHER_POLICY)
    assert headers["Content-Security-Policy"] == expected, (endpoint, response.status_code)
    if endpoint != "devmail.html_frame":
        assert "frame-ancestors 'none'" in expected and headers["X-Frame-Options"] == "DENY", endpoint


def test_every_route_answers_with_the_security_headers(app, client, values):
    """Every rule of the url_map, with each of its methods, with real arguments: pages, the JSON API,
    static files, redirects and error answers (a POST without its CSRF token) alike."""
    seen = set()
    for rule in app.url_map.iter_rules():
        url = _url(rule, values)
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            response = client.open(url, method=method, json={} if rule.rule.startswith("/api/") else None)
            assert_secured(response, rule.endpoint)
            seen.add((rule.endpoint, response.mimetype))
    # The walk reached real answers of each kind, not only errors.
    assert ("games.index", "text/html") in seen and ("api.game", "application/json") in seen
    assert ("play_api.position", "application/json") in seen and ("static", "text/javascript") in seen
    assert ("devmail.html_frame", "text/html") in seen and ("play.page", "text/html") in seen
    assert_secured(client.get("/no/such/page"), None)


def test_the_page_policy_lets_only_the_sites_own_files_run_and_style(app):
    """What the policy says, directive by directive: a loosening (say 'unsafe-inline' for scripts to
    get an inline <script> working) must be a decision that changes this test."""
    directives = dict(part.split(" ", 1) for part in PAGE_POLICY.split("; "))
    assert directives == {
        "default-src": "'self'", "script-src": "'self'", "style-src": "'self'", "img-src": "'self'",
        "object-src": "'none'", "base-uri": "'none'", "form-action": "'self'", "frame-ancestors": "'none'",
    }


def test_player_pages_and_the_play_api_are_never_cached_by_others(client, values):
    player = values["token"]
    for url in (f"/p/{player}", f"/p/{player}/history", f"/api/play/{player}"):
        assert client.get(url).headers["Cache-Control"] == "private, no-store", url
    assert "Cache-Control" not in client.get(f"/games/{values['game_id']}").headers


def _session_cookie(response) -> str:
    cookies = [value for value in response.headers.getlist("Set-Cookie") if value.startswith("session=")]
    assert cookies, "the page set no session cookie"
    return cookies[0]


def test_the_session_cookie_is_lax_httponly_and_secure_under_https(tmp_path, migrated_sqlite, client):
    """The start form's page puts its CSRF token into the session."""
    plain = _session_cookie(client.get(START_FORM))
    assert "SameSite=Lax" in plain and "HttpOnly" in plain and "Secure" not in plain  # http: no Secure
    secure_app = make_app(tmp_path, f"sqlite:///{migrated_sqlite}", BASE_URL="https://riftpost.example")
    secure = _session_cookie(secure_app.test_client().get(START_FORM, base_url="https://riftpost.example"))
    assert "SameSite=Lax" in secure and "HttpOnly" in secure and "; Secure" in secure


def test_a_form_posted_over_https_without_a_referer_is_accepted(tmp_path, migrated_sqlite):
    """The pages send no Referer (no-referrer); Flask-WTF's strict HTTPS check would refuse every
    form for the lack of one ("The referrer header is missing.")."""
    import shutil

    db = tmp_path / "app.sqlite"
    shutil.copy(migrated_sqlite, db)
    secure_app = make_app(tmp_path, f"sqlite:///{db}", BASE_URL="https://riftpost.example")
    client = secure_app.test_client()
    base = "https://riftpost.example"
    with secure_app.app_context():
        token = csrf_token(text(client.get(START_FORM, base_url=base)))
        response = client.post("/games/new", base_url=base, data={
            "csrf_token": token, "game": toygame.NAME, "email0": "ann@example.org", "email1": "bob@example.org"})
    assert response.status_code == 303, text(response)
    assert "/created" in response.headers["Location"]
    secure_app.extensions["riftpost.db"].dispose()


def test_under_https_every_answer_tells_browsers_to_use_https_only(tmp_path, migrated_sqlite, client, values):
    """Strict-Transport-Security: once a browser has seen it, a network in between cannot downgrade the
    site to plain http and read a player link's token.  Not under http, where it means nothing."""
    from service.web.headers import HSTS

    assert HSTS == "max-age=31536000; includeSubDomains"
    token = values["token"]
    for url in ("/", f"/p/{token}", f"/api/play/{token}", "/static/composer.js", "/no/such/page"):
        assert "Strict-Transport-Security" not in client.get(url).headers, url
    assert client.get("/", base_url="https://riftpost.test").headers["Strict-Transport-Security"] == HSTS
    secure_app = make_app(tmp_path, f"sqlite:///{migrated_sqlite}", BASE_URL="https://riftpost.example")
    secure = secure_app.test_client()
    for url in ("/", "/games/new", "/static/composer.js", "/no/such/page", "/healthz"):
        assert secure.get(url, base_url="https://riftpost.example").headers["Strict-Transport-Security"] == HSTS, url
    # Behind a proxy that ends TLS the request itself is http: BASE_URL says what the browser sees.
    assert secure.get("/").headers["Strict-Transport-Security"] == HSTS
    secure_app.extensions["riftpost.db"].dispose()
