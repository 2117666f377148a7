"""What every page carries (the site's stylesheet and icon), the icon itself, the "game started"
page saying where the mail went, and the dev mailbox's HTML part (framed and on a page of its own)."""

from __future__ import annotations

import mailbox
import struct
from email.message import EmailMessage

from service.play import new_game
from service.web.devmail import framed
from tests.conftest import make_app
from tests.consent import preconsent
from tests.service import toygame
from tests.web.pages import text

PLAYERS = [("Ann", "ann@example.org"), ("Bob", "bob@example.org")]


def test_favicon_ico_is_an_icon_of_our_own(client):
    answer = client.get("/favicon.ico")
    assert answer.status_code == 200
    assert answer.mimetype == "image/vnd.microsoft.icon" and answer.mimetype.startswith("image/")
    data = answer.get_data()
    reserved, kind, count = struct.unpack("<HHH", data[:6])
    assert (reserved, kind) == (0, 1) and count >= 2  # an ICO directory...
    sizes = []
    for index in range(count):
        width, height, _, _, _, _, length, offset = struct.unpack("<BBBBHHII", data[6 + 16 * index: 22 + 16 * index])
        assert data[offset: offset + 8] == b"\x89PNG\r\n\x1a\n" and offset + length <= len(data)  # ...of PNGs
        sizes.append((width, height))
    assert (16, 16) in sizes and (32, 32) in sizes
    svg = client.get("/static/favicon.svg")
    assert svg.status_code == 200 and svg.mimetype == "image/svg+xml" and b"<svg" in svg.get_data()
    assert client.get("/favicon.ico", method="HEAD").status_code == 200


def test_every_page_links_the_icon_and_the_site_stylesheet(client):
    for url in ("/", "/games/new", "/games/999", "/dev/mail/"):
        page = text(client.get(url))
        assert 'rel="icon" href="/static/favicon.svg" type="image/svg+xml"' in page, url
        assert 'rel="icon" href="/favicon.ico"' in page, url
        assert 'rel="stylesheet" href="/static/site.css"' in page, url
        assert "<style>" not in page, url
    css = client.get("/static/site.css")
    assert css.status_code == 200 and "min-height: 44px" in css.get_data(as_text=True)


def test_the_game_started_page_says_where_the_mail_went(client, tmp_path, migrated_sqlite, app):
    preconsent(*[email for _, email in PLAYERS])  # players who played before: the game emails them at once
    game_id = new_game(toygame.NAME, PLAYERS, seed=3)
    embedded = text(client.get(f"/games/{game_id}/created"))
    assert 'lands in <a href="/dev/mail/">the dev mailbox</a>' in embedded and "no mail leaves this machine" in embedded
    production = make_app(tmp_path, app.config["DATABASE_URL"], DEV_MAILBOX=False)
    real = text(production.test_client().get(f"/games/{game_id}/created"))
    assert "Each player is emailed at the address you gave" in real
    assert "dev mailbox" not in real and "/dev/mail/" not in real
    assert "ann@example.org" not in embedded + real  # addresses are not shown to whoever started it


def _deliver(app, html: str | None) -> str:
    message = EmailMessage()
    message["Subject"], message["To"] = "[Toy #1] Your turn", "ann@example.org"
    message.set_content("Play: http://riftpost.test/m/abc")
    if html is not None:
        message.add_alternative(html, subtype="html")
    return mailbox.Maildir(app.config["MAILDIR"], create=True).add(message)


def test_the_html_part_is_framed_sandboxed_and_served_on_a_page_of_its_own(app, client):
    html = ('<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>t</title></head>'
            '<body><p><a href="http://riftpost.test/m/abc">Play</a></p><script>alert(1)</script></body></html>')
    key = _deliver(app, html)
    shown = text(client.get(f"/dev/mail/{key}"))
    assert 'sandbox="allow-same-origin allow-popups allow-top-navigation-by-user-activation"' in shown
    assert "allow-scripts" not in shown  # the email's own scripts never run
    assert 'class="mail-html"' in shown and "static/devmail.js" in shown
    assert "height:40rem" not in shown
    assert f'href="/dev/mail/{key}/html"' in shown
    alone = client.get(f"/dev/mail/{key}/html")
    assert alone.status_code == 200 and alone.mimetype == "text/html"
    assert alone.get_data(as_text=True).strip() == html  # as sent (MIME ends the part with a newline)
    policy = alone.headers["Content-Security-Policy"]
    assert policy.startswith("sandbox ") and "allow-scripts" not in policy and "default-src 'none'" in policy
    assert "frame-ancestors 'none'" in policy  # no other page (nor this site) frames it
    # The message page frames the same HTML from a URL of its own, framed by this site only.
    assert f'src="/dev/mail/{key}/frame"' in shown and "srcdoc" not in shown
    inside = client.get(f"/dev/mail/{key}/frame")
    assert inside.status_code == 200 and inside.mimetype == "text/html"
    assert inside.get_data(as_text=True).strip() == framed(html)
    policy = inside.headers["Content-Security-Policy"]
    assert policy.startswith("sandbox allow-same-origin ") and "allow-scripts" not in policy
    assert "default-src 'none'" in policy and "frame-ancestors 'self'" in policy
    # Emails are styled inline (mail clients drop stylesheets): the one policy allowing inline styles.
    assert "style-src 'unsafe-inline'" in policy
    assert inside.headers["X-Frame-Options"] == "SAMEORIGIN"
    assert client.get("/dev/mail/nope/html").status_code == 404
    assert client.get("/dev/mail/nope/frame").status_code == 404
    plain = _deliver(app, None)
    assert client.get(f"/dev/mail/{plain}/html").status_code == 404
    assert client.get(f"/dev/mail/{plain}/frame").status_code == 404
    assert "<iframe" not in text(client.get(f"/dev/mail/{plain}"))


def test_the_frames_base_goes_into_the_head_so_the_email_keeps_its_standards_mode():
    assert framed("<!doctype html><html><head><title>x</title></head><body>b</body></html>") == (
        '<!doctype html><html><head><base target="_top"><title>x</title></head><body>b</body></html>')
    assert framed("<!DOCTYPE html>\n<p>no head</p>") == '<!DOCTYPE html><base target="_top">\n<p>no head</p>'
    assert framed("<p>a fragment</p>") == '<base target="_top"><p>a fragment</p>'
    assert framed('<HEAD lang="en"><title>x</title>').startswith('<HEAD lang="en"><base target="_top">')
