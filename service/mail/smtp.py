"""Handing a message to the SMTP server of SMTP_URL, over one connection per process kept for the next.

A connection costs a TCP (and TLS) handshake, the greeting, EHLO, STARTTLS and the login, and a QUIT:
more round trips than a message itself.  So each process keeps its connection to a server open after
a message, and sends the next one on it:

- **Per process, one per sending thread.**  Connections are kept per `os.getpid()`: a process forked
  by Celery's prefork pool never writes to its parent's socket (two processes interleaving commands on
  one SMTP session would corrupt both).  A connection is taken out while it sends, so two threads never
  share one; a worker of several threads (`--pool=threads`) keeps up to MAX_KEPT idle, one for each
  thread that sends at once, the most recently used taken first.
- **Trusted only while fresh.**  One idle for longer than SMTP_IDLE_SECONDS (60 s by default) is
  closed and a new one opened: servers drop idle clients (Postfix after 300 s, many relays sooner).
- **Discarded after any error**, and after the deadline's cut: whatever state the session is in, the
  next message starts on a new one.  A failed message never poisons the next.
- **Reopened once when the server closed it while it idled.**  That shows as the server hanging up
  (SMTPServerDisconnected) or answering 421 ("closing the channel") to a reused connection's first
  command, MAIL FROM, before any of the message went out: the message is then sent on a fresh
  connection in the same attempt.  The first command is the liveness test, rather than a RSET or NOOP
  before it, which would cost a round trip per message to learn the same thing.  Once DATA has
  started the message is never sent again within the attempt: the server may have kept it, so a
  failure there is a failed attempt, as it always was (the outbox retries it).
- **Closed at the worker's shutdown** (`close_all`, from worker/signals.py), with a QUIT.

The deadline (see `send`) bounds each message exactly as when every message had a connection of its
own: the reconnect, the STARTTLS and login of a new connection included.
"""

from __future__ import annotations

import contextlib
import copy
import email.utils
import os
import smtplib
import socket
import ssl
import threading
import time
from dataclasses import dataclass
from email.message import EmailMessage

from service import running
from service.config import smtp_address
from service.mail import mime

# Each socket operation's own limit (connect, a reply) when the caller sets no overall deadline.
OPERATION_TIMEOUT = 30.0
# How long an unused connection is trusted, unless the app's SMTP_IDLE_SECONDS says otherwise.
IDLE_SECONDS = 60.0
# How long the QUIT of a connection closed at shutdown may take: a polite goodbye, never a wait.
QUIT_TIMEOUT = 2.0


class SendTimeout(TimeoutError):
    """The server did not finish the transaction before the caller's deadline (a transient failure)."""


class _Tracking:
    """Notes when DATA starts: before it, the server has none of the message, and a send that failed
    on a connection it closed may be made again on a new one."""

    data_started = False

    def data(self, msg):  # type: ignore[no-untyped-def]
        self.data_started = True
        return super().data(msg)  # type: ignore[misc]

    def send_message(self, msg, from_addr=None, to_addrs=None, mail_options=(), rcpt_options=()):  # type: ignore[no-untyped-def]
        """smtplib's send_message (CPython 3.11), line for line, but for the writer: the message's bytes
        are the same, written by service/mail/mime.py `Writer` (the standard library's BytesGenerator,
        in fewer calls: a fifth of a delivery's MIME work)."""
        self.ehlo_or_helo_if_needed()  # type: ignore[attr-defined]
        resent = msg.get_all("Resent-Date")
        if resent is None:
            header_prefix = ""
        elif len(resent) == 1:
            header_prefix = "Resent-"
        else:
            raise ValueError("message has more than one 'Resent-' header block")
        if from_addr is None:
            from_addr = (msg[header_prefix + "Sender"] if (header_prefix + "Sender") in msg
                         else msg[header_prefix + "From"])
            from_addr = email.utils.getaddresses([from_addr])[0][1]
        if to_addrs is None:
            addr_fields = [f for f in (msg[header_prefix + "To"], msg[header_prefix + "Bcc"], msg[header_prefix + "Cc"])
                           if f is not None]
            to_addrs = [a[1] for a in email.utils.getaddresses(addr_fields)]
        msg_copy = copy.copy(msg)
        del msg_copy["Bcc"]
        del msg_copy["Resent-Bcc"]
        international = False
        try:
            "".join([from_addr, *to_addrs]).encode("ascii")
        except UnicodeEncodeError:
            if not self.has_extn("smtputf8"):  # type: ignore[attr-defined]
                raise smtplib.SMTPNotSupportedError(
                    "One or more source or delivery addresses require internationalized email support, but the "
                    "server does not advertise the required SMTPUTF8 capability") from None
            international = True
        if international:
            flatmsg = mime.wire(msg_copy, policy=msg.policy.clone(utf8=True))
            mail_options = (*mail_options, "SMTPUTF8", "BODY=8BITMIME")
        else:
            flatmsg = mime.wire(msg_copy)
        return self.sendmail(from_addr, to_addrs, flatmsg, mail_options, rcpt_options)  # type: ignore[attr-defined]


class _SMTP(_Tracking, smtplib.SMTP):
    pass


class _SMTPSSL(_Tracking, smtplib.SMTP_SSL):
    pass


@dataclass
class _Connection:
    client: _SMTP | _SMTPSSL
    url: str
    pid: int
    idle_since: float  # time.monotonic() when its last message ended
    messages: int = 0


# The kept connections, by (process, SMTP_URL), the most recently used last; a connection is in here
# only while nobody uses it.  MAX_KEPT: as many as a worker's threads send at once (its concurrency).
_kept: dict[tuple[int, str], list[_Connection]] = {}
MAX_KEPT = 8
_kept_lock = threading.Lock()


class _Watchdog:
    """Shuts the watched connection's socket down at the deadline: smtplib's timeout is per socket
    operation, so a server dripping replies could hold a send for minutes; the shutdown wakes the
    blocked read.  It follows the send from a stale connection to the one opened in its place."""

    def __init__(self, deadline: float):
        self.deadline = deadline
        self.cut = threading.Event()
        self._client: smtplib.SMTP | None = None
        self._lock = threading.Lock()
        _alarms().arm(self)

    def watch(self, client: smtplib.SMTP) -> None:
        with self._lock:
            self._client = client
            if self.cut.is_set():  # the time ran out while this connection was being opened
                _shut(client)

    def fire(self) -> None:
        with self._lock:
            self.cut.set()
            if self._client is not None:
                _shut(self._client)

    def cancel(self) -> None:
        _alarms().disarm(self)


class _Alarms:
    """The one thread of a process that fires the watchdogs at their deadlines: a thread started per
    message (threading.Timer) cost more than the rest of a reused connection's send."""

    def __init__(self) -> None:
        self._changed = threading.Condition()
        self._armed: set[_Watchdog] = set()
        self._thread: threading.Thread | None = None
        # When the thread wakes next on its own (None: only when notified).  A watchdog due no earlier
        # needs no notify: the thread finds it then.  Each message's deadline is later than the one
        # before, so the thread is woken about once a lease (its wait ending) rather than for every
        # message, a wake-up and a switch of threads per email.
        self._wakes_at: float | None = None

    def arm(self, watchdog: _Watchdog) -> None:
        with self._changed:
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="riftpost-smtp-deadlines", daemon=True)
                self._thread.start()
            self._armed.add(watchdog)
            if self._wakes_at is None or watchdog.deadline < self._wakes_at:
                self._wakes_at = watchdog.deadline  # (the thread sets it again as it waits)
                self._changed.notify()

    def disarm(self, watchdog: _Watchdog) -> None:
        with self._changed:
            self._armed.discard(watchdog)  # the thread wakes at its old deadline, and finds nothing due

    def _run(self) -> None:
        with self._changed:
            while True:
                now = time.monotonic()
                for watchdog in [w for w in self._armed if w.deadline <= now]:
                    self._armed.discard(watchdog)
                    watchdog.fire()
                earliest = min((w.deadline for w in self._armed), default=None)
                self._wakes_at = earliest
                self._changed.wait(None if earliest is None else earliest - now)


# Its thread starts at the first send.
_process_alarms = _Alarms()


def _alarms() -> _Alarms:
    return _process_alarms


def _forget_parents_alarms() -> None:
    """A forked child has none of its parent's threads, and maybe a lock the parent held (its alarms',
    or `_kept_lock` taken by another thread at the fork): it starts an alarms thread of its own when it
    first sends, and unlocked locks."""
    global _process_alarms, _kept_lock
    _process_alarms = _Alarms()
    _kept_lock = threading.Lock()


os.register_at_fork(after_in_child=_forget_parents_alarms)


def _shut(client: smtplib.SMTP) -> None:
    sock = client.sock
    if sock is not None:
        with contextlib.suppress(OSError):  # closed meanwhile: the send ended on its own
            sock.shutdown(socket.SHUT_RDWR)


def idle_limit() -> float:
    try:
        return float(running.config().get("SMTP_IDLE_SECONDS", IDLE_SECONDS))
    except RuntimeError:  # no app running (a connection used on its own)
        return IDLE_SECONDS


def send(message: EmailMessage, smtp_url: str | None = None, deadline: float | None = None,
         envelope_from: str | None = None) -> None:
    """Send one message (raises smtplib/OS errors).  `envelope_from`: the SMTP MAIL FROM (where
    bounces go; service/mail/bounces.py), default the From header's address.

    `deadline` (a `time.monotonic()` value) bounds the whole transaction, not just each reply: a
    server that answers slowly, or stalls after DATA, is cut off then.  The outbox relies on it to
    finish, one way or the other, before its lease lets another worker send the same row.
    """
    url = smtp_url or running.config()["SMTP_URL"]
    timeout = OPERATION_TIMEOUT
    if deadline is not None:
        timeout = min(timeout, deadline - time.monotonic())
        if timeout <= 0:
            raise SendTimeout("no time was left to send before the delivery's deadline")
    watchdog = _Watchdog(deadline) if deadline is not None else None
    connection = _take(url)
    try:
        if connection is not None:
            try:
                _transaction(connection, message, envelope_from, timeout, watchdog)
            except (smtplib.SMTPServerDisconnected, smtplib.SMTPSenderRefused) as exc:
                if not _closed_while_idle(connection, exc) or (watchdog is not None and watchdog.cut.is_set()):
                    raise
                _discard(connection)
                connection = None
        if connection is None:
            if deadline is not None:
                timeout = min(timeout, deadline - time.monotonic())
                if timeout <= 0:
                    raise SendTimeout("no time was left to send before the delivery's deadline")
            connection = _open(url, timeout, watchdog)
            _transaction(connection, message, envelope_from, timeout, watchdog)
    except (smtplib.SMTPException, OSError) as exc:
        if connection is not None:
            _discard(connection)
        # The watchdog cut the connection, or the socket's own timeout (never longer than what was
        # left) ran out at the deadline: either way the time was up.
        if (watchdog is not None and watchdog.cut.is_set()) or (deadline is not None and time.monotonic() >= deadline):
            raise SendTimeout("the SMTP server did not finish in time; the connection was cut") from exc
        raise
    except BaseException:
        if connection is not None:
            _discard(connection)  # an interrupted transaction (a Celery time limit): the session is unknown
        raise
    finally:
        if watchdog is not None:
            watchdog.cancel()
    if watchdog is not None and watchdog.cut.is_set():
        # The server accepted the message before the cut, which came too late to matter to it but
        # shut the socket down: the message is sent, the connection is not worth keeping.
        _discard(connection)
        return
    _keep(connection)


def _transaction(connection: _Connection, message: EmailMessage, envelope_from: str | None, timeout: float,
                 watchdog: _Watchdog | None) -> None:
    client = connection.client
    if watchdog is not None:
        watchdog.watch(client)
    if client.sock is not None:
        # Each socket operation's limit, for this message: never past what is left before the deadline.
        client.sock.settimeout(timeout)
    client.data_started = False
    client.send_message(message, from_addr=envelope_from)
    connection.messages += 1


def _closed_while_idle(connection: _Connection, exc: smtplib.SMTPException) -> bool:
    """Whether a reused connection failed because its server had hung up, before any of the message
    went: the server gone, or its 421 ("closing the transmission channel") to MAIL FROM."""
    if connection.messages == 0 or connection.client.data_started:
        return False
    return isinstance(exc, smtplib.SMTPServerDisconnected) or getattr(exc, "smtp_code", None) == 421


def _open(url: str, timeout: float, watchdog: _Watchdog | None) -> _Connection:
    host, port, user, password, starttls = smtp_address(url)
    client_class = _SMTPSSL if url.split(":", 1)[0] == "smtps" else _SMTP
    client = client_class(host, port, timeout=timeout)
    connection = _Connection(client, url, os.getpid(), time.monotonic())
    try:
        if watchdog is not None:
            watchdog.watch(client)
        if starttls:
            client.starttls(context=ssl.create_default_context())
        if user:
            client.login(user, password or "")
    except BaseException:
        _discard(connection)
        raise
    return connection


def _take(url: str) -> _Connection | None:
    """This process's kept connection to `url`, if it is fresh enough to trust (out of the store:
    the caller owns it until `_keep` or `_discard`)."""
    with _kept_lock:
        idle = _kept.get((os.getpid(), url))
        connection = idle.pop() if idle else None
    if connection is not None and time.monotonic() - connection.idle_since > idle_limit():
        _discard(connection)  # no QUIT: the server has likely dropped it; a new one is opened
        return None
    return connection


def _keep(connection: _Connection) -> None:
    connection.idle_since = time.monotonic()
    if connection.client.sock is not None:
        connection.client.sock.settimeout(OPERATION_TIMEOUT)
    with _kept_lock:
        idle = _kept.setdefault((connection.pid, connection.url), [])
        if len(idle) < MAX_KEPT:
            idle.append(connection)
            return
    _quit(connection)  # more threads sent at once than a worker runs: this one is not needed


def _discard(connection: _Connection) -> None:
    """Close without a QUIT: after an error the session's state is unknown."""
    with contextlib.suppress(OSError):
        connection.client.close()


def _quit(connection: _Connection) -> None:
    client = connection.client
    try:
        if client.sock is not None:
            client.sock.settimeout(QUIT_TIMEOUT)
        client.quit()
    except (smtplib.SMTPException, OSError):
        pass  # the server went first: nothing to say goodbye to
    finally:
        _discard(connection)


def close_all() -> int:
    """QUIT and close this process's kept connections (at the worker's shutdown); how many there were.
    A parent's connections inherited through a fork are left alone: they are the parent's to close."""
    pid = os.getpid()
    with _kept_lock:
        mine = [key for key in _kept if key[0] == pid]
        connections = [connection for key in mine for connection in _kept.pop(key)]
    for connection in connections:
        _quit(connection)
    return len(connections)
