"""Reading bounces (service/mail/dsn.py): RFC 3464 reports from real servers' layouts, plain failure
notices, and what is not a failure at all."""

from __future__ import annotations

import pytest

from service.mail import dsn
from tests.service import bounce_samples as samples

TO = "bounces+7-0123456789ab@riftpost.test"


def read(raw: bytes):
    message = dsn.parse(raw)
    return None if message is None else dsn.read(message)


@pytest.mark.parametrize("make, kind, status, standard", [
    (samples.postfix, "hard", "5.1.1", True),
    (samples.exim_report, "hard", "5.1.1", True),  # Status 5.0.0: the remote's reply has the detail
    (samples.gmail, "hard", "5.1.1", True),
    (samples.delayed, "delayed", "4.4.1", True),
    (samples.exim_plain, "hard", "5.1.1", False),
    (samples.qmail, "hard", "5.1.1", False),
    (samples.words_only, "soft", "", False),  # words alone never stop the mail by themselves
])
def test_real_shaped_bounces(make, kind, status, standard):
    report = read(make(TO))
    assert report is not None
    assert (report.kind, report.status, report.standard) == (kind, status, standard)


def test_the_report_keeps_the_final_recipient_and_the_servers_words():
    report = read(samples.gmail(TO))
    assert report.recipient == "bo.gone@gmail.example"
    assert report.diagnostic.startswith("550-5.1.1 The email account that you tried to reach does not exist.")


@pytest.mark.parametrize("status, diagnostic, kind", [
    ("4.4.7", "smtp; 451 4.4.7 Message expired", "soft"),  # the MTA gave up on a passing trouble
    ("5.2.2", "smtp; 552 5.2.2 Mailbox full", "soft"),  # the mailbox exists
    ("5.7.1", "smtp; 550 5.7.1 Message rejected as spam", "soft"),  # about our email, not the address
    ("5.3.4", "smtp; 552 5.3.4 Message too big", "soft"),
    ("5.1.10", "smtp; 556 5.1.10 Recipient address has null MX", "hard"),
    ("5.4.1", "smtp; 550 5.4.1 Recipient address rejected: Access denied", "hard"),
    ("5.0.0", "smtp; 550 User unknown", "hard"),  # no detail, but the words say it
    ("5.0.0", "smtp; 554 Transaction failed", "soft"),
])
def test_only_codes_about_the_address_itself_are_hard(status, diagnostic, kind):
    report = read(samples.postfix(TO, status=status, diagnostic=diagnostic))
    assert report.kind == kind


def test_a_quoted_original_is_never_evidence():
    # The returned email below the quote line says "550 5.1.1 user unknown"; the notice itself does not.
    notice = samples.qmail(TO).replace(b"Sorry, no mailbox here by that name. (#5.1.1)", b"Connection refused.")
    assert read(notice) is None


@pytest.mark.parametrize("raw", [
    samples.success(TO),  # a delivery report of success
    samples.out_of_office(TO),  # an automatic reply, whatever its text says
    b"",
    b"\x00\xff\xfe garbage \x80\x81" * 50,
    b"Subject: hello\r\n\r\njust a letter",
    b"Content-Type: multipart/report; report-type=delivery-status; boundary=x\r\n\r\n--x\r\n"
    b"Content-Type: message/delivery-status\r\n\r\n\xff\xfe: \x00\r\nAction\r\n--x",  # broken report
])
def test_what_is_not_a_failure_is_none(raw):
    assert read(raw) is None


def test_a_global_utf8_report_is_read_by_hand():
    raw = samples.postfix(TO).replace(b"Content-Type: message/delivery-status", b"Content-Type: message/global-delivery-status")
    assert read(raw).status == "5.1.1"
