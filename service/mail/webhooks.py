"""Webhooks: the outbox's second channel.  A person may give a few URLs (service/people/channels.py);
every turn, reminder, game-over and invite email written for one of their seats that may be mailed now
(status "pending": an address still to answer an invitation gets nothing anywhere) gets a twin outbox
row per webhook, in the same statement (`twins`, one query for the webhooks of the batch's people).

A twin row goes through the outbox's one policy (claim, lease, retry with backoff, give up after
OUTBOX_GIVE_UP_HOURS; service/mail/outbox.py): a timeout, a refused connection, a DNS failure, a 5xx,
a 408 or a 429 is tried again; any other 4xx, a redirect (never followed) or a target that is not a
public address fails for good at once.  It is skipped as its email would be (consent, `wanted`: a
reminder after the move, turn emails off), except for "never email me", which is about the inbox: a
webhook is its person's own choice, removed on the same page.

The body, by the webhook's shape:
- generic  {"kind", "game": {"id", "title", "url"}, "seat", "text", "due"} with
           X-Riftpost-Timestamp: <unix seconds> and
           X-Riftpost-Signature: sha256=<hex HMAC-SHA256 of "<timestamp>." + body, keyed by the secret>
           (the receiver checks the MAC and refuses an old timestamp: a replayed body is refused),
           and X-Riftpost-Delivery: the row's id (the same on a retry: a receiver may drop duplicates);
- discord  {"content": ..., "allowed_mentions": {"parse": []}};
- slack    {"text": ...}.
`text` is the email's own first line (service/mail/compose.py), `url` the player's page link; `text` and
`title` are worded in the webhook owner's language (their setting, service/mail/reader.py; English
without one), as their email would be; the keys are the same in every language.

Server-side request forgery: the host is resolved at send time and every address it resolves to must
be public (not private, loopback, link-local, multicast, reserved, unspecified, shared or otherwise not
global; an IPv4-mapped or 6to4 IPv6 address is judged by its IPv4 address) unless it lies in
WEBHOOK_ALLOW_NETWORKS; the connection goes to exactly the address checked (a second lookup could
answer otherwise: DNS rebinding), TLS still verifying the host's name; a redirect is not followed;
each read and the connect wait at most TIMEOUT seconds, and at most MAX_RESPONSE bytes of the answer
are read.
"""

from __future__ import annotations

import hashlib
import hmac
import http.client
import ipaddress
import json
import secrets
import socket
import ssl
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import sqlalchemy as sa
from sqlmodel import Session, col

from service import lang, running
from service.lang import Nf_
from service.mail import compose, kinds, reader
from service.store.models import Outbox, Webhook, as_utc, new_row_key
from service.views import email_render

WEBHOOK = "webhook"
SHAPES = ("generic", "discord", "slack")
# The emails that get a twin: those that tell a person their game needs them, or is over.
KINDS = frozenset({"invite", "turn", "reminder", "game_over"})
TIMEOUT = 5.0  # seconds for the connect and for each read
MAX_RESPONSE = 64 * 1024  # we need the status only; a receiver's long answer is not read past this
RETRY_STATUSES = frozenset({408, 429})  # 4xx that ask to try again later
SIGNATURE, TIMESTAMP, DELIVERY = "X-Riftpost-Signature", "X-Riftpost-Timestamp", "X-Riftpost-Delivery"
AddressT = ipaddress.IPv4Address | ipaddress.IPv6Address


class Refused(Exception):
    """A delivery that no retry can make succeed: the outbox fails the row at once (`permanent`)."""

    permanent = True


class TryLater(Exception):
    """The receiver answered, but asked to be tried again (a 5xx, a 408, a 429)."""


def new_secret() -> str:
    return secrets.token_hex(32)


# ---- where a webhook may go ---------------------------------------------------------------------------


def allowed_networks() -> list[ipaddress.IPv4Network | ipaddress.IPv6Network]:
    return [ipaddress.ip_network(net) for net in running.config().get("WEBHOOK_ALLOW_NETWORKS", [])]


def refusal(address: AddressT, allowed: Sequence[ipaddress.IPv4Network | ipaddress.IPv6Network]) -> str | None:
    """Why a webhook may not be sent to this IP address (None: it may)."""
    if any(address in net for net in allowed):
        return None
    judged: AddressT = address
    if isinstance(address, ipaddress.IPv6Address):
        # An IPv6 form of an IPv4 address reaches that IPv4 address: judge it.
        inner = address.ipv4_mapped or address.sixtofour
        if inner is not None:
            return refusal(inner, allowed)
    # (marked for the catalogs: the webhook settings page says why a URL is refused, in its reader's words)
    for test, words in ((judged.is_loopback, Nf_("a loopback address")),
                        (judged.is_link_local, Nf_("a link-local address")),
                        (judged.is_multicast, Nf_("a multicast address")),
                        (judged.is_unspecified, Nf_("an unspecified address")),
                        (judged.is_private, Nf_("a private address")), (judged.is_reserved, Nf_("a reserved address"))):
        if test:
            return words
    if not judged.is_global:
        return Nf_("not a public address")
    return None


def literal_refusal(host: str) -> str | None:
    """For a URL being saved: why its host, when it is an IP address (or `localhost`), is refused now
    (a name is resolved when a message goes, since what it resolves to may change)."""
    if host.lower().rstrip(".") == "localhost" or host.lower().endswith(".localhost"):
        return None if _loopback_allowed() else Nf_("a loopback address")
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return None
    return refusal(address, allowed_networks())


def _loopback_allowed() -> bool:
    return any(ipaddress.ip_address("127.0.0.1") in net for net in allowed_networks())


def resolve(host: str, port: int) -> AddressT:
    """The address to connect to: every address the host resolves to must be allowed (a name that also
    resolves to an internal address is refused rather than tried on its public one)."""
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    allowed = allowed_networks()
    found: list[AddressT] = []
    for _family, _type, _proto, _name, sockaddr in infos:
        address = ipaddress.ip_address(str(sockaddr[0]).split("%", 1)[0])
        why = refusal(address, allowed)
        if why is not None:
            raise Refused(Nf_("the webhook's host is %(why)s, where we send nothing", why=why))
        found.append(address)
    if not found:
        raise OSError(f"{host} resolves to no address")
    return found[0]


# ---- the HTTP request, to the address checked -----------------------------------------------------------


def _connect(address: AddressT, port: int, timeout: float | None) -> socket.socket:
    """A TCP connection to exactly this address: no name lookup at all (socket.create_connection would
    look the address up again), so nothing between the check and the connect can change it."""
    family = socket.AF_INET6 if address.version == 6 else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.settimeout(timeout)
        sock.connect((str(address), port))
    except BaseException:
        sock.close()
        raise
    return sock


class _PinnedHTTP(http.client.HTTPConnection):
    """Connects to the checked address, whatever the host name would resolve to now."""

    def __init__(self, host: str, port: int, address: AddressT, timeout: float):
        super().__init__(host, port, timeout=timeout)
        self.address = address

    def connect(self) -> None:
        self.sock = _connect(self.address, self.port, self.timeout)


class _PinnedHTTPS(http.client.HTTPSConnection):
    def __init__(self, host: str, port: int, address: AddressT, timeout: float):
        super().__init__(host, port, timeout=timeout, context=ssl.create_default_context())
        self.address = address

    def connect(self) -> None:
        sock = _connect(self.address, self.port, self.timeout)
        # The certificate is checked against the URL's host name, not the address.
        self.sock = self._context.wrap_socket(sock, server_hostname=self.host)  # type: ignore[attr-defined]


@dataclass(frozen=True)
class Call:
    """One POST to make: where, what, with which headers."""

    url: str
    body: bytes
    headers: dict[str, str]


def post(call: Call, deadline: float | None = None) -> int:
    """Make the POST; the 2xx status it got.  Raises Refused (for good), TryLater or an OSError (retried)."""
    parts = urlsplit(call.url)
    host = parts.hostname or ""
    port = parts.port or (443 if parts.scheme == "https" else 80)
    timeout = TIMEOUT if deadline is None else max(0.5, min(TIMEOUT, deadline - time.monotonic()))
    address = resolve(host, port)
    kind = _PinnedHTTPS if parts.scheme == "https" else _PinnedHTTP
    connection = kind(host, port, address, timeout)
    try:
        path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        connection.request("POST", path, body=call.body, headers=call.headers)
        response = connection.getresponse()
        response.read(MAX_RESPONSE)
        status = response.status
    finally:
        connection.close()
    if 200 <= status < 300:
        return status
    if 300 <= status < 400:
        raise Refused(Nf_("the webhook answered with a redirect (HTTP %(status)s), which we do not follow",
                          status=status))
    if status >= 500 or status in RETRY_STATUSES:
        raise TryLater(Nf_("the webhook answered HTTP %(status)s", status=status))
    raise Refused(Nf_("the webhook refused the message (HTTP %(status)s)", status=status))


# ---- the twins, queued with their emails ------------------------------------------------------------------


def twins(session: Session, values: list[dict[str, Any]], keys: list[str]) -> list[dict[str, Any]]:
    """The webhook rows to write beside these email rows (`keys[i]`: the address key of values[i]'s
    player): one per active webhook of the person, for the kinds that get one, when the email may go
    now.  One query, and none when no row is of such a kind."""
    wanted = [i for i, row in enumerate(values) if row["kind"] in KINDS and row["status"] == "pending"]
    if not wanted:
        return []
    hooks: dict[str, list[int]] = {}
    # (on the connection: a move's write transaction opens no ORM Session for it, service/store/db.py
    # `move_session`; nothing the query reads is pending in one)
    for hook_id, person in session.connection().execute(
        sa.select(col(Webhook.id), col(Webhook.person))
        .where(col(Webhook.person).in_({keys[i] for i in wanted}), col(Webhook.disabled_at).is_(None))
        .order_by(col(Webhook.id))
    ):
        hooks.setdefault(person, []).append(hook_id)
    found = []
    for i in wanted:
        for hook_id in hooks.get(keys[i], []):
            email = values[i]
            found.append({**email, "channel": WEBHOOK, "webhook_id": hook_id, "row_key": new_row_key(),
                          "message_id": f"<webhook{hook_id}.{email['message_id'][1:]}"})
    return found


# ---- what a twin row sends -------------------------------------------------------------------------------


def off(session: Session, row: Outbox) -> str | None:
    """Why a webhook row is not to go (its webhook was removed since), or None."""
    hook = session.get(Webhook, row.webhook_id) if row.webhook_id is not None else None
    return "channel_off" if hook is None or hook.disabled_at is not None else None


def prepare(session: Session, row: Outbox, mail: kinds.Mail) -> Call:
    """The POST a webhook row makes: its email's first line and link, in its webhook's shape."""
    hook = session.get(Webhook, row.webhook_id)
    assert hook is not None
    with email_render.reading_in(reader.setting(session, hook.person) or lang.ENGLISH):
        shown = compose.context(session, kinds.get(row.kind), mail)
    clock = shown.get("clock") or {}
    due = clock.get("due")
    message = {
        "kind": row.kind,
        "game": {"id": mail.game.id, "title": shown["title"], "url": shown["player_url"]},
        "seat": mail.player.seat,
        "text": shown["first_line"],
        "due": as_utc(due).isoformat() if due is not None else None,
    }
    return call_for(hook, message, delivery=str(row.id))


def test_message(url: str, language: str = lang.ENGLISH) -> dict[str, Any]:
    """The body of "send a test" (no game): the same fields, `kind` "test"; its text in `language` (the
    webhook owner's)."""
    text = lang.translations(language).gettext(
        "A test from Riftpost: this webhook will tell you when it is your turn. (Open your settings: %(url)s)")
    return {"kind": "test", "game": None, "seat": None, "due": None, "text": text % {"url": url}}


def call_for(hook: Webhook, message: dict[str, Any], delivery: str) -> Call:
    headers = {"Content-Type": "application/json", "User-Agent": "Riftpost-Webhook/1", DELIVERY: delivery}
    if hook.shape == "generic":
        body = json.dumps(message, separators=(",", ":"), ensure_ascii=False).encode()
        stamp = str(int(time.time()))
        headers[TIMESTAMP] = stamp
        headers[SIGNATURE] = "sha256=" + signature(hook.secret, stamp, body)
        return Call(hook.url, body, headers)
    game = message.get("game")
    if hook.shape == "discord":
        content = message["text"] + (f"\n{game['title']} #{game['id']}: {game['url']}" if game else "")
        # Nobody's name or text may ping a whole server: no mentions are parsed.
        body = json.dumps({"content": content[:2000], "allowed_mentions": {"parse": []}}).encode()
    else:  # slack: its mrkdwn reads &, < and > as markup
        text = _slack_escape(message["text"])
        if game:
            text += f"\n<{game['url']}|{_slack_escape(game['title'])} #{game['id']}>"
        body = json.dumps({"text": text}).encode()
    return Call(hook.url, body, headers)


def signature(secret: str, stamp: str, body: bytes) -> str:
    """The hex HMAC-SHA256 a receiver recomputes: over the timestamp, a dot, and the body's bytes."""
    return hmac.new(secret.encode(), stamp.encode() + b"." + body, hashlib.sha256).hexdigest()


def _slack_escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
