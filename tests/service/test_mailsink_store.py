"""The local sink keeps each message as it came over SMTP (after its Return-Path line), never parsed
and written out again: what the dev mailbox and the tests read is what the worker sent, and the sink
spends no CPU re-serializing it (service/mailsink.py; bench/delivery.py counts it per email)."""

from __future__ import annotations

import smtplib

from service import mailsink
from tests.services import free_port

RAW = (b"From: Riftpost <play@example.org>\r\n"
       b"To: ann@example.org\r\n"
       # A folding and an encoded word that a parse and a new serialization would both rewrite.
       b"Subject: =?utf-8?q?Caf=C3=A9?= and a subject folded\r\n   oddly\r\n"
       b"Message-ID: <m1@example.org>\r\n"
       # Longer than 78 characters on one line: a new serialization would fold it.
       b"List-Unsubscribe: <https://riftpost.example.org/settings/unsubscribe/a-rather-long-token-0123456789>\r\n"
       b"MIME-Version: 1.0\r\n"
       b"Content-Type: text/plain; charset=utf-8\r\n"
       b"Content-Transfer-Encoding: 7bit\r\n"
       b"\r\n"
       b"Your turn.\r\n.starts with a dot\r\n")


def send_through_the_sink(tmp_path) -> None:
    """RAW sent over SMTP to a sink started for it, storing into tmp_path/mail; the sink then stopped."""
    port = free_port()
    controller = mailsink.start(tmp_path / "mail", "127.0.0.1", port)
    try:
        with smtplib.SMTP("127.0.0.1", port) as client:
            client.sendmail("bounces@example.org", ["ann@example.org"], RAW)
    finally:
        controller.stop()


def test_the_sink_stores_each_message_as_it_came(tmp_path):
    send_through_the_sink(tmp_path)
    stored = list((tmp_path / "mail" / "new").iterdir())
    assert len(stored) == 1
    expected = b"Return-Path: <bounces@example.org>\n" + RAW.replace(b"\r\n", b"\n")
    assert stored[0].read_bytes() == expected


def test_the_sink_parses_no_message_it_only_stores(tmp_path, monkeypatch, caplog):
    """In a burst the sink shares the machine's cores with the worker: its parse and re-serialization of
    each message were two thirds of its CPU.  Unless its log line (INFO) is wanted, nothing is parsed."""
    import email.feedparser

    def refuse(*_args, **_kwargs):
        raise AssertionError("the sink parsed a message")

    monkeypatch.setattr(email.feedparser.BytesFeedParser, "feed", refuse)
    monkeypatch.setattr(email.feedparser.FeedParser, "feed", refuse)
    caplog.set_level("WARNING", logger=mailsink.log.name)
    send_through_the_sink(tmp_path)
    assert len(list((tmp_path / "mail" / "new").iterdir())) == 1
