"""One SMTP connection per process, kept across messages (service/mail/smtp.py), against real aiosmtpd
servers: reused while fresh, reopened when the server hung up while it idled, discarded after any
error, and cut at the deadline as a connection of its own was."""

from __future__ import annotations

import asyncio
import os
import threading
import time
from email.message import EmailMessage

import pytest

from service.mail import smtp
from tests.services import free_port


class Server:
    """A real SMTP server (aiosmtpd) that records which connection (the client's address and port)
    each message came over, and can be told to misbehave: refuse the next message with a 4xx, drip
    its reply to DATA, or answer a reused connection's next MAIL FROM with 421 and hang up."""

    def __init__(self, **smtp_parameters) -> None:
        from aiosmtpd.controller import Controller

        self.port = free_port()
        self.peers: list[tuple[str, int]] = []  # one per message accepted
        self.connections = 0
        self.refuse_next = False
        self.drip_next = False
        self.hang_up_next = False
        self.release = threading.Event()
        self.controller = Controller(self, hostname="127.0.0.1", port=self.port, **smtp_parameters)
        self.controller.start()
        made = self.controller.factory

        def counting():
            self.connections += 1
            return made()

        self.controller.factory = counting  # aiosmtpd builds one SMTP protocol object per connection

    @property
    def url(self) -> str:
        return f"smtp://127.0.0.1:{self.port}"

    async def handle_MAIL(self, server, session, envelope, address, mail_options):
        if self.hang_up_next and session.peer in self.peers:
            self.hang_up_next = False
            asyncio.get_running_loop().call_soon(server.transport.close)
            return "421 4.4.2 closing the channel"
        envelope.mail_from = address
        envelope.mail_options.extend(mail_options)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        if self.refuse_next:
            self.refuse_next = False
            return "451 4.3.0 try again later"
        if self.drip_next:
            # A reply's continuation lines, one every 0.1 s: each socket read succeeds in time, so only
            # the deadline's watchdog can end the wait.
            self.drip_next = False
            while not self.release.is_set():
                await server.push("250-still working")
                await asyncio.sleep(0.1)
        self.peers.append(session.peer)
        return "250 OK"

    def stop(self) -> None:
        self.release.set()
        self.controller.stop()


@pytest.fixture
def server():
    smtp.close_all()  # connections other tests of this process kept, to their own servers
    running = Server()
    yield running
    smtp.close_all()
    running.stop()


def message(number: int) -> EmailMessage:
    mail = EmailMessage()
    mail["From"] = "riftpost@example.org"
    mail["To"] = "ann@example.org"
    mail["Subject"] = f"message {number}"
    mail.set_content(f"body {number}\n")
    return mail


def test_many_messages_go_over_one_connection(server):
    for number in range(20):
        smtp.send(message(number), server.url, deadline=time.monotonic() + 10)
    assert len(server.peers) == 20
    assert len(set(server.peers)) == 1 and server.connections == 1
    assert smtp.close_all() == 1  # the worker's shutdown says goodbye
    assert smtp.close_all() == 0


def test_threads_sending_at_once_each_keep_a_connection_and_no_more_are_opened(server):
    """A worker of several threads (`--pool=threads`): each thread that sends at once takes a kept
    connection of its own and keeps it for its next message, so four threads sending 60 messages open
    at most four connections, not one per message (one kept per process closed the others after each)."""
    barrier = threading.Barrier(4)

    def sender(first: int) -> None:
        barrier.wait()
        for number in range(first, first + 15):
            smtp.send(message(number), server.url, deadline=time.monotonic() + 10)

    threads = [threading.Thread(target=sender, args=(n * 15,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert len(server.peers) == 60
    assert 1 <= server.connections <= 4, server.connections
    assert smtp.close_all() == server.connections  # all kept (at most MAX_KEPT), all closed at shutdown


def test_a_connection_the_server_closed_while_idle_is_reopened_and_the_message_sent():
    server = Server(timeout=0.3)  # aiosmtpd hangs up on a client idle this long
    try:
        smtp.send(message(1), server.url)
        time.sleep(0.8)  # the server hangs up meanwhile; the kept connection does not know yet
        smtp.send(message(2), server.url)  # not an error: sent on a new connection, in this same call
        assert len(server.peers) == 2 and server.peers[0] != server.peers[1]
        assert server.connections == 2
    finally:
        smtp.close_all()
        server.stop()


def test_a_421_to_a_reused_connection_is_a_hang_up_the_message_goes_on_a_new_one(server):
    smtp.send(message(1), server.url)
    server.hang_up_next = True
    smtp.send(message(2), server.url)
    assert len(server.peers) == 2 and server.peers[0] != server.peers[1]
    smtp.send(message(3), server.url)
    assert server.peers[2] == server.peers[1]  # the new connection is kept in turn


def test_a_4xx_on_one_message_does_not_poison_the_next(server):
    import smtplib

    smtp.send(message(1), server.url)
    server.refuse_next = True
    with pytest.raises(smtplib.SMTPDataError) as refused:
        smtp.send(message(2), server.url)  # after DATA: never sent again within the attempt
    assert refused.value.smtp_code == 451
    smtp.send(message(3), server.url)
    assert len(server.peers) == 2  # messages 1 and 3
    # After an error the session's state is unknown: message 3 went on a new connection.
    assert server.peers[0] != server.peers[1] and server.connections == 2


def test_an_idle_connection_past_the_limit_is_not_trusted(server, app):
    app.config["SMTP_IDLE_SECONDS"] = 0.2
    smtp.send(message(1), server.url)
    smtp.send(message(2), server.url)
    time.sleep(0.4)
    smtp.send(message(3), server.url)
    assert server.peers[0] == server.peers[1] != server.peers[2]


def test_the_deadline_still_cuts_a_send_on_a_reused_connection(server):
    smtp.send(message(1), server.url, deadline=time.monotonic() + 10)
    server.drip_next = True
    started = time.monotonic()
    with pytest.raises(smtp.SendTimeout):
        smtp.send(message(2), server.url, deadline=time.monotonic() + 0.5)
    assert time.monotonic() - started < 2.0
    server.release.set()
    smtp.send(message(3), server.url, deadline=time.monotonic() + 10)  # on a new connection
    assert server.peers[-1] != server.peers[0] and server.connections == 2


def test_a_forked_process_does_not_use_its_parents_connection_nor_its_deadline_thread(server):
    smtp.send(message(1), server.url, deadline=time.monotonic() + 10)
    server.drip_next = True  # the child's message: its own deadline must cut it
    child = os.fork()
    if child == 0:  # the child: a Celery prefork process
        code = 1
        try:
            started = time.monotonic()
            try:
                smtp.send(message(2), server.url, deadline=time.monotonic() + 0.5)
            except smtp.SendTimeout:
                code = 0 if time.monotonic() - started < 2.0 else 2
        finally:
            os._exit(code)
    waited_until = time.monotonic() + 5
    ended, status = os.waitpid(child, os.WNOHANG)
    while not ended and time.monotonic() < waited_until:
        time.sleep(0.05)
        ended, status = os.waitpid(child, os.WNOHANG)
    server.release.set()  # a child whose deadline never fired ends now, its email sent: a failure
    if not ended:
        _, status = os.waitpid(child, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    smtp.send(message(3), server.url, deadline=time.monotonic() + 10)
    # The parent's connection is still its own, and alive; the child's came and went.
    assert server.connections == 2
    assert server.peers[0] == server.peers[-1]


def test_a_4xx_refusal_of_the_sender_or_the_recipients_is_retried_not_given_up():
    """A greylisting 450 to RCPT, or a 421 to MAIL FROM (a server closing a connection), asks for a
    later attempt: the outbox's row goes back to pending rather than failing for good."""
    import smtplib

    from service.mail import outbox

    assert not outbox._permanent(smtplib.SMTPRecipientsRefused({"ann@example.org": (450, b"greylisted")}))
    assert not outbox._permanent(smtplib.SMTPSenderRefused(421, b"closing the channel", "bounces@example.org"))
    assert outbox._permanent(smtplib.SMTPRecipientsRefused({"ann@example.org": (550, b"no such user")}))
    assert outbox._permanent(smtplib.SMTPSenderRefused(553, b"not allowed", "bounces@example.org"))
