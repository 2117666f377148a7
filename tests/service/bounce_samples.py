"""Bounces shaped like the ones real mail servers send (headers, layout, wording), addressed to a
return path `to`, about an email we sent to `rcpt`.  CRLF line ends, as they come over SMTP."""

from __future__ import annotations

ORIGINAL = """Message-ID: <riftpost.abc.g1.p2.turn.s4@riftpost.test>
From: Riftpost <riftpost@riftpost.test>
To: Bo <{rcpt}>
Subject: Toy #1: Ann vs Bo

Your turn. (A quoted email may say anything: 550 5.1.1 user unknown, does not exist.)
"""


def _crlf(text: str) -> bytes:
    return text.replace("\r\n", "\n").replace("\n", "\r\n").encode()


def postfix(to: str, rcpt: str = "bo@example.org", status: str = "5.1.1",
            diagnostic: str = "smtp; 550 5.1.1 <bo@example.org>: Recipient address rejected: User unknown in virtual mailbox table",
            action: str = "failed") -> bytes:
    return _crlf(f"""Return-Path: <>
Received: by mx.riftpost.test (Postfix) id 4F2A1C0
Date: Tue, 24 Nov 2026 10:00:00 +0000 (UTC)
From: MAILER-DAEMON@mx.riftpost.test (Mail Delivery System)
Subject: Undelivered Mail Returned to Sender
To: {to}
Auto-Submitted: auto-replied
MIME-Version: 1.0
Content-Type: multipart/report; report-type=delivery-status;
\tboundary="4F2A1C0.1700000000/mx.riftpost.test"
Message-Id: <20261124100000.4F2A1C0@mx.riftpost.test>

This is a MIME-encapsulated message.

--4F2A1C0.1700000000/mx.riftpost.test
Content-Description: Notification
Content-Type: text/plain; charset=us-ascii

This is the mail system at host mx.riftpost.test.

I'm sorry to have to inform you that your message could not
be delivered to one or more recipients. It's attached below.

<{rcpt}>: host mx.example.org[192.0.2.7] said: 550 5.1.1
    <{rcpt}>: Recipient address rejected: User unknown

--4F2A1C0.1700000000/mx.riftpost.test
Content-Description: Delivery report
Content-Type: message/delivery-status

Reporting-MTA: dns; mx.riftpost.test
X-Postfix-Queue-ID: 4F2A1C0
X-Postfix-Sender: rfc822; {to}
Arrival-Date: Tue, 24 Nov 2026 09:59:58 +0000 (UTC)

Final-Recipient: rfc822; {rcpt}
Original-Recipient: rfc822;{rcpt}
Action: {action}
Status: {status}
Remote-MTA: dns; mx.example.org
Diagnostic-Code: {diagnostic}

--4F2A1C0.1700000000/mx.riftpost.test
Content-Description: Undelivered Message Headers
Content-Type: text/rfc822-headers

{ORIGINAL.format(rcpt=rcpt).split(chr(10) + chr(10))[0]}

--4F2A1C0.1700000000/mx.riftpost.test--
""")


def exim_report(to: str, rcpt: str = "bo@example.org") -> bytes:
    """Exim 4.9x: a multipart/report whose status only says 5.0.0; the remote's reply has the detail."""
    return _crlf(f"""Return-path: <>
Envelope-to: {to}
Delivery-date: Tue, 24 Nov 2026 10:00:01 +0000
From: Mail Delivery System <Mailer-Daemon@mail.riftpost.test>
To: {to}
Content-Type: multipart/report; report-type=delivery-status; boundary=1700000001-eximdsn-1804289383
MIME-Version: 1.0
Subject: Mail delivery failed: returning message to sender
Message-Id: <E1qXyZ-0001@mail.riftpost.test>
Date: Tue, 24 Nov 2026 10:00:01 +0000

--1700000001-eximdsn-1804289383
Content-type: text/plain; charset=us-ascii

This message was created automatically by mail delivery software.

A message that you sent could not be delivered to one or more of its
recipients. This is a permanent error. The following address(es) failed:

  {rcpt}
    host mx.example.org [192.0.2.7]
    SMTP error from remote mail server after RCPT TO:<{rcpt}>:
    550 5.1.1 <{rcpt}>: Recipient address rejected: User unknown

--1700000001-eximdsn-1804289383
Content-type: message/delivery-status

Reporting-MTA: dns; mail.riftpost.test

Action: failed
Final-Recipient: rfc822;{rcpt}
Status: 5.0.0
Remote-MTA: dns; mx.example.org
Diagnostic-Code: smtp; 550 5.1.1 <{rcpt}>: Recipient address rejected: User unknown

--1700000001-eximdsn-1804289383
Content-type: message/rfc822

{ORIGINAL.format(rcpt=rcpt)}
--1700000001-eximdsn-1804289383--
""")


def gmail(to: str, rcpt: str = "bo.gone@gmail.example") -> bytes:
    """Google's: a multipart/related notice (text and HTML) beside the report; status in both."""
    return _crlf(f"""Delivered-To: {to}
Return-Path: <>
From: Mail Delivery Subsystem <mailer-daemon@googlemail.com>
To: {to}
Auto-Submitted: auto-replied
Subject: Delivery Status Notification (Failure)
MIME-Version: 1.0
Content-Type: multipart/report; boundary="000000000000abcdef"; report-type=delivery-status

--000000000000abcdef
Content-Type: multipart/related; boundary="000000000000ab1234"

--000000000000ab1234
Content-Type: multipart/alternative; boundary="000000000000ab5678"

--000000000000ab5678
Content-Type: text/plain; charset="UTF-8"

** Address not found **

Your message wasn't delivered to {rcpt} because the address couldn't be found, or is unable to receive mail.

The response from the remote server was:
550 5.1.1 The email account that you tried to reach does not exist.

--000000000000ab5678
Content-Type: text/html; charset="UTF-8"

<html><body><h2>Address not found</h2><p>Your message wasn't delivered.</p></body></html>

--000000000000ab5678--
--000000000000ab1234--

--000000000000abcdef
Content-Type: message/delivery-status

Reporting-MTA: dns; googlemail.com
Received-From-MTA: dns; riftpost.test
Arrival-Date: Tue, 24 Nov 2026 02:00:00 -0800 (PST)

Final-Recipient: rfc822; {rcpt}
Action: failed
Status: 5.1.1
Remote-MTA: dns; gmail-smtp-in.l.google.com. (192.0.2.26, the server for the domain gmail.example.)
Diagnostic-Code: smtp; 550-5.1.1 The email account that you tried to reach does not exist. Please try
 550-5.1.1 double-checking the recipient's email address for typos or
 550 5.1.1 unnecessary spaces. https://support.google.example/mail/?p=NoSuchUser
Last-Attempt-Date: Tue, 24 Nov 2026 02:00:01 -0800 (PST)

--000000000000abcdef
Content-Type: message/rfc822

{ORIGINAL.format(rcpt=rcpt)}
--000000000000abcdef--
""")


def delayed(to: str, rcpt: str = "bo@example.org") -> bytes:
    """Postfix's delay warning: Action delayed, 4.4.1."""
    return postfix(to, rcpt, status="4.4.1", action="delayed",
                   diagnostic="X-Postfix; connect to mx.example.org[192.0.2.7]:25: Connection timed out")


def exim_plain(to: str, rcpt: str = "bo@example.org") -> bytes:
    """Exim's classic notice: no report part, the remote's reply quoted in the text."""
    return _crlf(f"""Return-path: <>
From: Mail Delivery System <Mailer-Daemon@mail.riftpost.test>
To: {to}
Subject: Mail delivery failed: returning message to sender
Auto-Submitted: auto-replied

This message was created automatically by mail delivery software.

A message that you sent could not be delivered to one or more of its
recipients. This is a permanent error. The following address(es) failed:

  {rcpt}
    SMTP error from remote mail server after RCPT TO:<{rcpt}>:
    host mx.example.org [192.0.2.7]: 550 5.1.1 <{rcpt}>... User unknown

------ This is a copy of the message, including all the headers. ------

{ORIGINAL.format(rcpt=rcpt)}""")


def qmail(to: str, rcpt: str = "bo@example.org") -> bytes:
    return _crlf(f"""Return-Path: <>
From: MAILER-DAEMON@qmail.example.org
To: {to}
Subject: failure notice

Hi. This is the qmail-send program at qmail.example.org.
I'm afraid I wasn't able to deliver your message to the following addresses.
This is a permanent error; I've given up. Sorry it didn't work out.

<{rcpt}>:
Sorry, no mailbox here by that name. (#5.1.1)

--- Below this line is a copy of the message.

{ORIGINAL.format(rcpt=rcpt)}""")


def words_only(to: str, rcpt: str = "bo@example.org") -> bytes:
    """A notice with the server's refusal in words and a basic SMTP code, but no enhanced code."""
    return _crlf(f"""From: postmaster@old.example.org
To: {to}
Subject: Returned mail: see transcript for details

The original message was received from riftpost.test.

   ----- The following addresses had permanent fatal errors -----
<{rcpt}>
    (reason: 550 Requested action not taken: mailbox unavailable)
""")


def out_of_office(to: str) -> bytes:
    return _crlf(f"""From: Bo <bo@example.org>
To: {to}
Subject: Automatic reply: Toy #1: Ann vs Bo
Auto-Submitted: auto-replied

I am away until Monday. The address does not exist for me on holidays. 550 5.1.1.
""")


def success(to: str, rcpt: str = "bo@example.org") -> bytes:
    return postfix(to, rcpt, status="2.0.0", action="delivered", diagnostic="smtp; 250 2.0.0 OK")
