"""The dev mailbox holds every player's links: it answers a client on this machine only."""

from __future__ import annotations

import mailbox
import shutil
import urllib.request
from email.message import EmailMessage

import pytest
from werkzeug.middleware.proxy_fix import ProxyFix

from tests.conftest import make_app


def _one_message(app) -> str:
    message = EmailMessage()
    message["Subject"], message["To"] = "[Toy #1] Your turn", "ann@example.org"
    message.set_content("Play: http://riftpost.test/p/secret-token")
    message.add_alternative("<p><a href='http://riftpost.test/p/secret-token'>Play</a></p>", subtype="html")
    return mailbox.Maildir(app.config["MAILDIR"], create=True).add(message)


def _urls(key: str) -> list[str]:
    return ["/dev/mail/", f"/dev/mail/{key}", f"/dev/mail/{key}/html", f"/dev/mail/{key}/frame"]


@pytest.mark.parametrize("remote", ["127.0.0.1", "127.0.0.53", "::1", "::ffff:127.0.0.1"])
def test_a_client_on_this_machine_reads_the_dev_mailbox(app, client, remote):
    key = _one_message(app)
    for url in _urls(key):
        answer = client.get(url, environ_base={"REMOTE_ADDR": remote})
        assert answer.status_code == 200, (url, remote)
    assert "secret-token" in client.get(f"/dev/mail/{key}", environ_base={"REMOTE_ADDR": remote}).get_data(as_text=True)


@pytest.mark.parametrize("remote", ["192.0.2.7", "10.0.0.2", "2001:db8::1", "::ffff:192.0.2.7", "", "junk"])
def test_any_other_client_finds_no_dev_mailbox(app, client, remote):
    key = _one_message(app)
    for url in _urls(key):
        answer = client.get(url, environ_base={"REMOTE_ADDR": remote})
        assert answer.status_code == 404, (url, remote)
        assert "secret-token" not in answer.get_data(as_text=True)


def test_a_request_a_proxy_relayed_is_refused_unless_the_proxy_is_trusted(app, client, tmp_path, migrated_sqlite):
    """A proxy on this machine connects from loopback whatever its client: without PROXY_HOPS the relayed
    request is refused; with it, the client the proxy names decides."""
    key = _one_message(app)
    for header in ({"X-Forwarded-For": "203.0.113.9"}, {"Forwarded": "for=203.0.113.9"}, {"X-Real-IP": "203.0.113.9"}):
        assert client.get(f"/dev/mail/{key}", headers=header).status_code == 404, header
    db = tmp_path / "proxied.sqlite"
    shutil.copy(migrated_sqlite, db)
    proxied = make_app(tmp_path, f"sqlite:///{db}", PROXY_HOPS=1)
    assert isinstance(proxied.wsgi_app, ProxyFix)
    behind = proxied.test_client()
    assert behind.get(f"/dev/mail/{key}", headers={"X-Forwarded-For": "203.0.113.9"}).status_code == 404
    assert behind.get(f"/dev/mail/{key}", headers={"X-Forwarded-For": "127.0.0.1"}).status_code == 200
    proxied.extensions["riftpost.db"].dispose()


def test_over_real_http_from_loopback_the_dev_mailbox_answers(live):
    key = _one_message(live)
    base = live.config["BASE_URL"]
    with urllib.request.urlopen(f"{base}/dev/mail/{key}", timeout=10) as answer:
        assert answer.status == 200 and b"secret-token" in answer.read()
