"""Signed links (itsdangerous): one salt per purpose, a list of keys for rotation.

Tokens are signed, not encrypted: they carry only ids, a seq and a move, nothing secret.
- player page  {"p": player_id}                       long-lived, the player's key to the game
- move         {"p": player_id, "v": seq, "m": move}  bound to the position it was made for, so
                                                        it acts at most once and goes stale after
- unsubscribe  {"p": player_id}                       RFC 8058 one-click target
- invitation   {"i": invitation_id}                   the accept / decline page of an invitation
A token of one purpose never verifies as another (different salts).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask import current_app
from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer

from service.errors import LINK_TITLE, Gone, bad_link

PLAYER = "riftpost.player-page"
MOVE = "riftpost.move-link"
UNSUBSCRIBE = "riftpost.unsubscribe"
INVITATION = "riftpost.invitation"


@dataclass(frozen=True)
class PlayerLink:
    player_id: int


@dataclass(frozen=True)
class MoveLink:
    player_id: int
    seq: int
    move: dict


def _serializer(purpose: str) -> URLSafeTimedSerializer:
    config = current_app.config
    # itsdangerous signs with the last key and verifies with all of them: oldest first.
    keys = [*config.get("SECRET_KEY_FALLBACKS", []), config["SECRET_KEY"]]
    return URLSafeTimedSerializer(keys, salt=purpose)


def _load(purpose: str, token: str, max_age: int) -> Any:
    try:
        return _serializer(purpose).loads(token, max_age=max_age)
    except SignatureExpired:
        raise Gone("This link has expired. Open your game page from a newer email.", LINK_TITLE) from None
    except BadSignature:
        raise bad_link("This link is not valid: it was changed, truncated, or belongs to something else.") from None


def _player_id(data: Any) -> int:
    if not isinstance(data, dict) or not isinstance(data.get("p"), int):
        raise bad_link()
    return data["p"]


def player_token(player_id: int) -> str:
    return _serializer(PLAYER).dumps({"p": player_id})


def read_player_token(token: str) -> PlayerLink:
    data = _load(PLAYER, token, current_app.config["PLAYER_LINK_MAX_AGE"])
    return PlayerLink(_player_id(data))


def move_token(player_id: int, seq: int, move: dict) -> str:
    return _serializer(MOVE).dumps({"p": player_id, "v": seq, "m": move})


def read_move_token(token: str) -> MoveLink:
    data = _load(MOVE, token, current_app.config["MOVE_LINK_MAX_AGE"])
    player_id = _player_id(data)
    if not isinstance(data.get("v"), int) or not isinstance(data.get("m"), dict):
        raise bad_link()
    return MoveLink(player_id, data["v"], data["m"])


def unsubscribe_token(player_id: int) -> str:
    return _serializer(UNSUBSCRIBE).dumps({"p": player_id})


def read_unsubscribe_token(token: str) -> PlayerLink:
    data = _load(UNSUBSCRIBE, token, current_app.config["PLAYER_LINK_MAX_AGE"])
    return PlayerLink(_player_id(data))



def invitation_token(invitation_id: int) -> str:
    return _serializer(INVITATION).dumps({"i": invitation_id})


def read_invitation_token(token: str) -> int:
    """The invitation's id (400 tampered, 410 expired: as long-lived as a player's page link)."""
    data = _load(INVITATION, token, current_app.config["PLAYER_LINK_MAX_AGE"])
    if not isinstance(data, dict) or not isinstance(data.get("i"), int):
        raise bad_link()
    return data["i"]
