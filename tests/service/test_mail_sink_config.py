"""SMTP_URL's documented default behaves as the default: set to the local sink's own address, the
sink still listens (and the dev mailbox still exists); set to another server, the sink idles."""

from __future__ import annotations

import mailbox
import os
import socket
import subprocess
import sys
import time
from email.message import EmailMessage
from pathlib import Path

import pytest

from service import config
from service.mail import smtp
from tests.services import free_port

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("url", [
    None, "", config.MAIL_SINK_URL, "smtp://127.0.0.1:8025/", "smtp://localhost:8025", "smtp://[::1]:8025",
])
def test_the_sinks_own_address_is_the_embedded_mode(url):
    assert config.is_local_sink(url)


@pytest.mark.parametrize("url", [
    "smtp://mail.example.org:8025",  # another host
    "smtp://127.0.0.1:25",  # another port
    "smtp://127.0.0.1",  # port 25 by default
    "smtp://user:pw@127.0.0.1:8025",  # a login: a real server
    "smtps://127.0.0.1:8025",  # TLS: a real server
    "smtp+starttls://127.0.0.1:8025",
    "smtp://127.0.0.1:notaport",
])
def test_any_other_address_is_a_real_server(url):
    assert not config.is_local_sink(url)


def test_a_sink_on_another_port_or_every_address_matches_its_own_url():
    assert config.is_local_sink("smtp://127.0.0.1:2525", "127.0.0.1", 2525)
    assert not config.is_local_sink("smtp://127.0.0.1:8025", "127.0.0.1", 2525)
    assert config.is_local_sink("smtp://localhost:2525", "0.0.0.0", 2525)
    assert config.is_local_sink("smtp://mail.lan:2525", "mail.lan", 2525)


@pytest.mark.parametrize("value, dev_mailbox", [
    (None, True), (config.MAIL_SINK_URL, True), ("smtp://localhost:8025", True),
    ("smtp+starttls://user:pw@mail.example.org:587", False),
])
def test_settings_from_the_environment(monkeypatch, tmp_path, value, dev_mailbox):
    monkeypatch.setenv("SECRET_KEY", "x")
    if value is None:
        monkeypatch.delenv("SMTP_URL", raising=False)
    else:
        monkeypatch.setenv("SMTP_URL", value)
    settings = config.from_env(tmp_path)
    assert settings["DEV_MAILBOX"] is dev_mailbox
    assert settings["SMTP_URL"] == (value or config.MAIL_SINK_URL)


def _listening(port: int) -> bool:
    with socket.socket() as sock:
        sock.settimeout(0.2)
        return sock.connect_ex(("127.0.0.1", port)) == 0


def _run_sink(tmp_path: Path, port: int, smtp_url: str) -> subprocess.Popen:
    env = {**os.environ, "SMTP_URL": smtp_url, "PYTHONPATH": str(ROOT), "RIFTPOST_INSTANCE": str(tmp_path)}
    return subprocess.Popen(
        [sys.executable, "-m", "service.mailsink", "--port", str(port), "--maildir", str(tmp_path / "mail")],
        env=env, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )


def _stop(process: subprocess.Popen) -> str:
    process.terminate()
    output, _ = process.communicate(timeout=10)
    return output


def test_the_sink_listens_when_smtp_url_is_its_own_address_and_mail_arrives(tmp_path):
    port = free_port()
    url = f"smtp://127.0.0.1:{port}"
    process = _run_sink(tmp_path, port, url)
    try:
        deadline = time.monotonic() + 20
        while not _listening(port):
            assert process.poll() is None, process.communicate()[0]
            assert time.monotonic() < deadline, "the sink never listened"
            time.sleep(0.05)
        message = EmailMessage()
        message["From"], message["To"], message["Subject"] = "riftpost@localhost", "ann@example.org", "Hello"
        message.set_content("It is your turn.")
        smtp.send(message, url)  # what the worker does with SMTP_URL: no "Connection refused"
        box = mailbox.Maildir(tmp_path / "mail", factory=None)
        assert [box[key]["Subject"] for key in box.keys()] == ["Hello"]  # noqa: SIM118
    finally:
        output = _stop(process)
    assert "listening on" in output


def test_the_sink_idles_when_smtp_url_names_another_server(tmp_path):
    port = free_port()
    process = _run_sink(tmp_path, port, "smtp://user:secret@mail.example.org:587")
    try:
        time.sleep(1.5)  # long enough to have started listening, had it meant to
        assert process.poll() is None, "the sink must idle, not exit (honcho would stop the others)"
        assert not _listening(port)
    finally:
        output = _stop(process)
    assert "local sink stays idle" in output
    assert "secret" not in output
