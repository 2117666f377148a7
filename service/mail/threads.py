"""Message-IDs: deterministic (a retry is the same mail), and one thread per game and player, rooted
at the player's invitation."""

from __future__ import annotations

import hashlib

from flask import current_app

from service.store.current import AnyGame, AnyPlayer


def thread_key(game: AnyGame) -> str:
    """A short stable key per game, so Message-IDs never collide with an earlier database's."""
    raw = f"{game.id}:{game.seed}:{game.created_at:%Y%m%d%H%M%S}"
    return hashlib.sha256(raw.encode()).hexdigest()[:12]


def _seat(player: AnyPlayer) -> str:
    """The player's part: the id and the row's random key, which a restore never hands to the player
    who gets the id of a rolled-back one (so no two emails share an id across a restore).  A player
    from before keys has none: its threads keep the ids they started with."""
    return f"p{player.id}" if player.row_key is None else f"p{player.id}-{player.row_key}"


def thread_root(game: AnyGame, player: AnyPlayer) -> str:
    """The Message-ID of the player's invitation: the root of their thread for this game."""
    return f"<riftpost.{thread_key(game)}.g{game.id}.{_seat(player)}@{current_app.config['MAIL_DOMAIN']}>"


def message_id(game: AnyGame, player: AnyPlayer, tag: str, seq: int) -> str:
    """The Message-ID of an email of kind `tag` (its details included, e.g. "reminder-24h") about the
    game at `seq`; the invitation is the thread's root."""
    if tag == "invite":
        return thread_root(game, player)
    domain = current_app.config["MAIL_DOMAIN"]
    return f"<riftpost.{thread_key(game)}.g{game.id}.{_seat(player)}.{tag}.s{seq}@{domain}>"
