"""Message-IDs: deterministic (a retry is the same mail), and one thread per game and player, rooted
at the player's invitation."""

from __future__ import annotations

import hashlib

from service import running
from service.store import deal
from service.store.current import AnyGame, AnyPlayer


def thread_key(game: AnyGame) -> str:
    """A short stable key per game, so Message-IDs never collide with an earlier database's.

    Message-IDs go out while the game runs, so a drawn secret never goes into them: its commitment,
    public anyway, stands in.  A game dealt from a seed (made before secrets, whose threads are under
    way, or by the operator) keeps the key its seed always gave it (the seed's text is its secret)."""
    part = game.commitment if deal.drawn(game.secret) else game.secret
    raw = f"{game.id}:{part}:{game.created_at:%Y%m%d%H%M%S}"
    return hashlib.sha256(raw.encode()).hexdigest()[:12]


def _thread(game: AnyGame, player: AnyPlayer) -> str:
    """What names the player's thread in this game.  The player's random row key makes it unique across
    databases and across a restore, which hands the id of a rolled-back player to a new one but never
    its key (so no two different emails ever share a Message-ID).  A player from before keys has none:
    its thread keeps the ids it started with, made unique by the game's thread_key."""
    if player.row_key is None:
        return f"{thread_key(game)}.g{game.id}.p{player.id}"
    return f"g{game.id}.p{player.id}-{player.row_key}"


def thread_root(game: AnyGame, player: AnyPlayer) -> str:
    """The Message-ID of the player's invitation: the root of their thread for this game."""
    return f"<riftpost.{_thread(game, player)}@{running.config()['MAIL_DOMAIN']}>"


def message_id(game: AnyGame, player: AnyPlayer, tag: str, seq: int) -> str:
    """The Message-ID of an email of kind `tag` (its details included, e.g. "reminder-24h") about the
    game at `seq`; the invitation is the thread's root."""
    if tag == "invite":
        return thread_root(game, player)
    domain = running.config()["MAIL_DOMAIN"]
    return f"<riftpost.{_thread(game, player)}.{tag}.s{seq}@{domain}>"
