"""Signed links (itsdangerous): one salt per purpose, a list of keys for rotation.

Tokens are signed, not encrypted: they carry only ids and row keys, a seq, a move, a link generation
and (for the address's own links) the address, nothing secret.
- player page  {"p": player_id, "k": key, "g": generation}       long-lived, the player's key to the game
- move         {"p": player_id, "k": key, "g": generation, "v": seq, "m": move}  bound to the position
                                                        it was made for, so it acts at most once and goes stale after
- unsubscribe  {"p": player_id, "k": key, "g": generation}  the body's "stop turn emails for this game"
- never-email  {"e": address}                            RFC 8058 one-click target of List-Unsubscribe
- account      {"e": address, "t": issued}               short-lived: the account page (vacation, emails)
- invitation   {"i": invitation_id, "k": key}            the accept / decline page of an invitation
- sign-in      {"r": request_id, "n": nonce}               a sign-in request's link (its 15 minutes and
                                                        single use are the row's: service/people/signin.py)
- co-player    {"p": player_id, "k": key}              "new game with Bo" on a signed-in home: a past seat
                                                        of Bo's, under a salt of the signed-in address's
                                                        own (service/people/address_book.py)
- reply address  play+<base32: player id, seq, generation, MAC over them and the row key>@INBOUND_DOMAIN
                                                        the Reply-To of every game email: a reply is read as
                                                        that seat's move or talk (service/inbound; below)
A token of one purpose never verifies as another (different salts).

The key ("k") is the row's random `row_key` (service/store/models.py): the web refuses a link whose key
is not its row's (service/web/tokens.py, service/web/invitations.py), because a restore hands the ids
of rolled-back rows to new ones, never their keys.  Rows made before keys existed have none (NULL), and
so have the links made for them, which is how those links keep working: a key is left out when None.

The generation ("g") is the player's `link_generation` when the link was made; the web refuses a link
whose generation is not the player's current one (service/web/tokens.py).  Generation 0 is left out, so
the links minted before generations existed (which carry none) are the links of generation 0.
"""

from __future__ import annotations

import base64
import binascii
import functools
import hashlib
import hmac
import time
from dataclasses import dataclass
from typing import Any

from itsdangerous import BadSignature, SignatureExpired, URLSafeSerializer, URLSafeTimedSerializer

from service import running
from service.errors import LINK_TITLE, Gone, bad_link
from service.lang import N_

PLAYER = "riftpost.player-page"
MOVE = "riftpost.move-link"
UNSUBSCRIBE = "riftpost.unsubscribe"
NEVER_EMAIL = "riftpost.never-email"
ACCOUNT = "riftpost.account"
INVITATION = "riftpost.invitation"
SIGNIN = "riftpost.signin"
SIGNIN_CODE = "riftpost.signin-code"
CO_PLAYER = "riftpost.co-player"
# A home page's "new game with" links: long enough for a form left open, short enough to go stale.
CO_PLAYER_MAX_AGE = 7 * 24 * 3600


@dataclass(frozen=True)
class PlayerLink:
    player_id: int
    key: str | None  # None: a link of a row made before keys
    generation: int = 0


@dataclass(frozen=True)
class MoveLink:
    player_id: int
    key: str | None
    seq: int
    move: dict
    generation: int = 0


@dataclass(frozen=True)
class InvitationLink:
    invitation_id: int
    key: str | None


@dataclass(frozen=True)
class AccountLink:
    email: str
    issued: int  # seconds since the epoch: when the person asked for it


def _keys() -> list[str]:
    config = running.config()
    # itsdangerous signs with the last key and verifies with all of them: oldest first.
    return [*config.get("SECRET_KEY_FALLBACKS", []), config["SECRET_KEY"]]


def _serializer(purpose: str) -> URLSafeTimedSerializer:
    return _made(purpose, tuple(_keys()))


@functools.lru_cache(maxsize=64)
def _made(purpose: str, keys: tuple[str, ...]) -> URLSafeTimedSerializer:
    """The serializer of a purpose under these keys, made once: making one cost as much as checking a
    link's signature with it (issue #27: every request of a page or a move reads a link).  Keyed by the
    keys themselves, so a rotation (or another app's config in the same process) gets its own, and it
    holds nothing but what the config holds; the check (HMAC, constant-time compare) is itsdangerous's,
    unchanged."""
    return URLSafeTimedSerializer(list(keys), salt=purpose)


def _load(purpose: str, token: str, max_age: int) -> Any:
    try:
        return _serializer(purpose).loads(token, max_age=max_age)
    except SignatureExpired:
        raise Gone(N_("This link has expired. Open your game page from a newer email."), LINK_TITLE) from None
    except BadSignature:
        raise bad_link(N_("This link is not valid: it was changed, truncated, or belongs to something else.")) from None


def _player_id(data: Any) -> int:
    if not isinstance(data, dict) or not isinstance(data.get("p"), int):
        raise bad_link()
    return data["p"]


def _key(data: dict) -> str | None:
    key = data.get("k")
    if key is not None and not isinstance(key, str):
        raise bad_link()
    return key


def _generation(data: dict) -> int:
    generation = data.get("g", 0)
    if type(generation) is not int or generation < 0:
        raise bad_link()
    return generation


def _player_payload(player_id: int, key: str | None, generation: int) -> dict[str, Any]:
    payload: dict[str, Any] = {"p": player_id}
    if key is not None:
        payload["k"] = key
    if generation:
        payload["g"] = generation
    return payload


def player_token(player_id: int, key: str | None, generation: int = 0) -> str:
    """The page link of the player with this id and `row_key` (required: a link without the row's key
    stands only for a row made before keys)."""
    return _serializer(PLAYER).dumps(_player_payload(player_id, key, generation))


def read_player_token(token: str) -> PlayerLink:
    data = _load(PLAYER, token, running.config()["PLAYER_LINK_MAX_AGE"])
    return PlayerLink(_player_id(data), _key(data), _generation(data))


def move_token(player_id: int, key: str | None, seq: int, move: dict, generation: int = 0) -> str:
    return _serializer(MOVE).dumps({**_player_payload(player_id, key, generation), "v": seq, "m": move})


def read_move_token(token: str) -> MoveLink:
    data = _load(MOVE, token, running.config()["MOVE_LINK_MAX_AGE"])
    player_id = _player_id(data)
    if not isinstance(data.get("v"), int) or not isinstance(data.get("m"), dict):
        raise bad_link()
    return MoveLink(player_id, _key(data), data["v"], data["m"], _generation(data))


def unsubscribe_token(player_id: int, key: str | None, generation: int = 0) -> str:
    return _serializer(UNSUBSCRIBE).dumps(_player_payload(player_id, key, generation))


def read_unsubscribe_token(token: str) -> PlayerLink:
    data = _load(UNSUBSCRIBE, token, running.config()["PLAYER_LINK_MAX_AGE"])
    return PlayerLink(_player_id(data), _key(data), _generation(data))


def _email(data: Any) -> str:
    if not isinstance(data, dict) or not isinstance(data.get("e"), str) or "@" not in data["e"]:
        raise bad_link()
    return data["e"]


def never_email_token(email: str) -> str:
    """The RFC 8058 one-click link of an address: its POST means "never email me".  Not tied to a
    player's generation: it can only stop mail, and the mail providers that POST it keep it from the
    header of any email the address got, however old."""
    return _serializer(NEVER_EMAIL).dumps({"e": email})


def read_never_email_token(token: str) -> str:
    return _email(_load(NEVER_EMAIL, token, running.config()["PLAYER_LINK_MAX_AGE"]))


def account_token(email: str, issued: int) -> str:
    """The account link of an address, asked for at `issued` (seconds since the epoch).  The time is
    the request's, kept in the outbox row, not the signing's: a retried delivery renders the same link
    and its hour runs from the request.  So the untimed serializer, with our own expiry."""
    return URLSafeSerializer(_keys(), salt=ACCOUNT).dumps({"e": email, "t": issued})


def read_account_token(token: str, now: float | None = None) -> AccountLink:
    try:
        data = URLSafeSerializer(_keys(), salt=ACCOUNT).loads(token)
    except BadSignature:
        raise bad_link("This link is not valid: it was changed, truncated, or belongs to something else.") from None
    email = _email(data)
    issued = data.get("t")
    if type(issued) is not int:
        raise bad_link()
    age = (time.time() if now is None else now) - issued
    if age > running.config()["ACCOUNT_LINK_MAX_AGE"]:
        raise Gone(N_("This account link has expired: it works for one hour. Ask for a new one from the "
                   "button on any of your game pages."), LINK_TITLE)
    return AccountLink(email, issued)


def invitation_token(invitation_id: int, key: str | None) -> str:
    return _serializer(INVITATION).dumps({"i": invitation_id} if key is None else {"i": invitation_id, "k": key})


def read_invitation_token(token: str) -> InvitationLink:
    """The invitation the link names (400 tampered, 410 expired: as long-lived as a player's page link)."""
    data = _load(INVITATION, token, running.config()["PLAYER_LINK_MAX_AGE"])
    if not isinstance(data, dict) or not isinstance(data.get("i"), int):
        raise bad_link()
    return InvitationLink(data["i"], _key(data))


@dataclass(frozen=True)
class SigninLink:
    request_id: int
    nonce: str


def signin_token(request_id: int, nonce: str) -> str:
    """A sign-in request's link.  Untimed: the row says when it was asked for (a retried delivery
    renders the same link) and whether it was used."""
    return URLSafeSerializer(_keys(), salt=SIGNIN).dumps({"r": request_id, "n": nonce})


def read_signin_token(token: str) -> SigninLink:
    try:
        data = URLSafeSerializer(_keys(), salt=SIGNIN).loads(token)
    except BadSignature:
        raise bad_link(N_("This sign-in link is not valid: it was changed or cut short. Copy the whole link "
                       "from the email, or type its code on the sign-in page.")) from None
    if not isinstance(data, dict) or type(data.get("r")) is not int or not isinstance(data.get("n"), str):
        raise bad_link()
    return SigninLink(data["r"], data["n"])


def _code(key: str, nonce: str) -> str:
    digest = hmac.new(key.encode(), f"{SIGNIN_CODE}:{nonce}".encode(), hashlib.sha256).digest()
    return f"{int.from_bytes(digest[:8], 'big') % 1_000_000:06d}"


def signin_code(nonce: str) -> str:
    """The 6-digit code of a sign-in request: made from its nonce with SECRET_KEY, so the database holds
    no code (a copy of it signs nobody in) and the worker that renders the email needs nothing stored."""
    return _code(_keys()[-1], nonce)


def signin_code_matches(nonce: str, typed: str) -> bool:
    """Whether `typed` is the request's code under the key or any fallback (a rotation within its 15
    minutes), compared in constant time."""
    return any(hmac.compare_digest(_code(key, nonce), typed) for key in _keys())


def _co_player_serializer(me: str) -> URLSafeTimedSerializer:
    """The co-player references' serializer for the address key `me`: made for each use, not kept as
    `_serializer`'s are (one salt per signed-in person would crowd the hot purposes out of its cache)."""
    return URLSafeTimedSerializer(_keys(), salt=f"{CO_PLAYER}:{me}")


def co_player_token(me: str, player_id: int, key: str | None) -> str:
    """The reference to a co-player's past seat that the signed-in address key `me` may start a game
    with.  The salt carries `me`, so the token verifies for that person only, and the payload carries
    no address (the browser gets the seat's name, never its address)."""
    return _co_player_serializer(me).dumps(_player_payload(player_id, key, 0))


def read_co_player_token(me: str, token: str) -> PlayerLink:
    """The seat a reference names, if it was made for `me` (400 tampered or another person's, 410 old)."""
    try:
        data = _co_player_serializer(me).loads(token, max_age=CO_PLAYER_MAX_AGE)
    except SignatureExpired:
        raise Gone(N_("This \u201cnew game with\u201d link is too old. Open it again from your games page."),
                   LINK_TITLE) from None
    except BadSignature:
        raise bad_link(N_("This \u201cnew game with\u201d link is not valid for you: it was changed, or it was made "
                       "for someone else's sign-in. Open it again from your games page.")) from None
    return PlayerLink(_player_id(data), _key(data))


# ---- the reply address: a signed, per-player local part (`play+<token>@INBOUND_DOMAIN`) -------------
#
# Every game email's Reply-To names its reader and the position it was made for, so that a reply is
# read as that seat's move or talk (service/inbound).  An email address is not a URL: the token has to
# fit a local part (RFC 5321: at most 64 octets, `play+` included), survive the case-folding some
# servers do, and carry no character a mail server treats specially.  So it is lowercase base32 (no
# padding) of three unsigned LEB128 numbers (player id, seq, link generation) followed by the first
# REPLY_MAC_BYTES of HMAC-SHA256 over those numbers *and the player's row key* under SECRET_KEY: 80 bits
# that verify for that row only.  A rolled-back row's id handed to a new player (a restore: another
# key), another seat, another seq or an old generation all change the MAC.  ~26 characters for real
# ids, 47 at most (_FIELDS).

REPLY = b"riftpost.reply-address"
REPLY_MAC_BYTES = 10
# Bytes of each number at most: an id below 2**63, a seq or a generation below 2**35 (the worst case is
# 9 + 5 + 5 + 10 bytes: 47 characters, 52 with `play+`).
_FIELDS = (9, 5, 5)
_MAX_VARINT = max(_FIELDS)


@dataclass(frozen=True)
class ReplyLink:
    """What a reply address names (its MAC checked against a row's key by `reply_token_holds`)."""

    player_id: int
    seq: int
    generation: int
    mac: bytes


def _varint(number: int, size: int = _MAX_VARINT) -> bytes:
    if number < 0 or number >= 1 << (7 * size):
        raise ValueError(f"{number} does not fit a reply token")
    out = bytearray()
    while True:
        byte, number = number & 0x7F, number >> 7
        out.append(byte | (0x80 if number else 0))
        if not number:
            return bytes(out)


def _reply_mac(secret: str, player_id: int, seq: int, generation: int, key: str | None) -> bytes:
    named = f"{player_id}:{seq}:{generation}:{key or ''}".encode()
    return hmac.new(secret.encode(), REPLY + b":" + named, hashlib.sha256).digest()[:REPLY_MAC_BYTES]


def reply_token(player_id: int, key: str | None, seq: int, generation: int = 0) -> str:
    """The local part after `play+` of the player's reply address for the game at `seq`."""
    numbers = _varint(player_id, _FIELDS[0]) + _varint(seq, _FIELDS[1]) + _varint(generation, _FIELDS[2])
    mac = _reply_mac(_keys()[-1], player_id, seq, generation, key)
    return base64.b32encode(numbers + mac).decode("ascii").rstrip("=").lower()


def read_reply_token(token: str) -> ReplyLink | None:
    """What a token names, if it has the shape of one (any case); None for anything else.  Whether it
    holds is `reply_token_holds`'s to say, with the row's key."""
    token = token.strip().upper()
    if not 1 <= len(token) <= 60 or not token.isascii() or not token.isalnum():
        return None
    try:
        raw = base64.b32decode(token + "=" * (-len(token) % 8))
    except (ValueError, binascii.Error):
        return None
    # One spelling per token: base32's last letter may carry bits past the last byte, which decoding
    # drops, so two addresses would name one token (and a changed letter could still hold).
    if base64.b32encode(raw).decode("ascii").rstrip("=") != token:
        return None
    numbers: list[int] = []
    at = 0
    for size in _FIELDS:
        value = shift = 0
        for length in range(1, size + 1):
            if at >= len(raw):
                return None
            byte = raw[at]
            at += 1
            value |= (byte & 0x7F) << shift
            shift += 7
            if not byte & 0x80:
                break
            if length == size:
                return None
        numbers.append(value)
    mac = raw[at:]
    if len(mac) != REPLY_MAC_BYTES:
        return None
    link = ReplyLink(numbers[0], numbers[1], numbers[2], mac)
    # One spelling per token: a varint with a needless continuation byte names the same numbers.
    if _varint(link.player_id) + _varint(link.seq) + _varint(link.generation) != raw[:at]:
        return None
    return link


def reply_token_holds(link: ReplyLink, key: str | None) -> bool:
    """Whether the token was made by us for the row with this key (under SECRET_KEY or a fallback: a
    reply may come days after a rotation), compared in constant time."""
    return any(hmac.compare_digest(_reply_mac(secret, link.player_id, link.seq, link.generation, key), link.mac)
               for secret in _keys())


# ---- lobby: the link confirming a join of an open game (service/play/lobby.py) ---------------------

LOBBY_JOIN = "riftpost.lobby-join"


def lobby_join_token(joining_id: int, nonce: str) -> str:
    """A join's confirmation link: the joining's id and its random nonce, signed.  Untimed: the row says
    whether the join still holds its seat."""
    return URLSafeSerializer(_keys(), salt=LOBBY_JOIN).dumps({"j": joining_id, "n": nonce})


def read_lobby_join_token(token: str) -> tuple[int, str]:
    try:
        data = URLSafeSerializer(_keys(), salt=LOBBY_JOIN).loads(token)
    except BadSignature:
        raise bad_link(N_("This link is not valid: it was changed or cut short. Copy the whole link from the email.")) from None
    if not isinstance(data, dict) or type(data.get("j")) is not int or not isinstance(data.get("n"), str):
        raise bad_link()
    return data["j"], data["n"]
