"""Bot seats: a seat played by engine/bots.py, through the same move path as a person.

A bot seat is a players row with no address (email "") and `consent` "bot:LEVEL": every query that
means "a person who plays" already asks for consent "" (my games, the address book, co-players,
digests), and the outbox writes nothing for it (service/mail/outbox.py `mailable_status`), so a bot
never gets an email, never counts as an inbox and never shows up as someone to play with again.

Bots decide in the worker, never in a web request: after each move (and a game's creation) `kick`
enqueues one `riftpost.bot_move` task per bot seat to act, bound to the position's seq; the task
(`play`) decides and plays through `handle` with that seq, so a stale task (the position moved on, a
duplicate) writes nothing: at most one bot move per position.  The beat's `due` scan enqueues the same
tasks for games a lost kick left waiting (and for the embedded broker, which is never kicked).  A bot
move that raises is logged as an error for the operator and not retried: the next scan tries again
once a minute at most, never in a tight loop.

The "bot" timeout policy (service/clocks/settings.py) uses the same decision (`choose`) in the deadline
sweep for a person's seat whose time ran out; the person takes the seat back by playing their next turn.
"""

from __future__ import annotations

import hashlib
import logging
import random
from typing import Any

import sqlalchemy as sa
from sqlmodel import col, select

import engine
from engine import bots as search
from service import store
from service.errors import Invalid, RiftpostError, StaleState
from service.mail import addresses, queue
from service.mail.outbox import BOT
from service.names import OUR_NAMES
from service.store import read_session
from service.store.db import get_engine
from service.store.models import Game, Player

log = logging.getLogger(__name__)

BOT_TASK = "riftpost.bot_move"
STAND_IN = "normal"  # the level that plays a timed-out seat under the "bot" policy


def parse(text: str) -> str | None:
    """The level of a seat typed as `bot` / `bot:LEVEL` (None: an address); raises engine.IllegalMove
    (bad_options) for `bot:` with an unknown level."""
    if not search.is_bot(text):
        return None
    try:
        return search.level_of(text)
    except ValueError as exc:
        raise engine.IllegalMove(f"{exc}.", "bad_options") from None


def seat_address(text: str) -> str:
    """A seat as typed on the start form or the command line, as stored for new_game: `bot:LEVEL` for a
    bot (raises Invalid for an unknown level), else the normalized address (raises Invalid)."""
    try:
        level = parse(text)
    except engine.IllegalMove as exc:
        raise Invalid(exc.reason) from None
    return addresses.normalized(text) if level is None else BOT + level


def is_seat(stored: str) -> bool:
    """Whether a seat as `seat_address` stored it is a bot."""
    return stored.startswith(BOT)


def seat_name(level: str) -> str:
    name = f"Bot ({level})"
    if name not in OUR_NAMES:  # shown as it is (service/names.py); not an assert: the worker runs with -OO
        raise ValueError(f"not one of our bots' names: {name!r}")
    return name


def consent_of(level: str) -> str:
    return BOT + level


def level_of(player: Any) -> str | None:
    """The level of a bot seat's players row, None for a person."""
    consent = player.consent or ""
    return consent[len(BOT):] if consent.startswith(BOT) else None


def seed(secret: str, seq: int, seat: int) -> int:
    """The search's seed: the game's secret and the position, so a decision is reproducible by the
    operator (who holds the secret) and unpredictable to the players (who do not)."""
    digest = hashlib.sha256(f"bot|{secret}|{seq}|{seat}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def choose(rules: engine.Game, state: dict[str, Any], seat: int, secret: str, seq: int, level: str) -> dict[str, Any]:
    """The bot's move for `seat` in the position after event `seq` (engine/bots.py: it reads the state
    only through what `seat` may see)."""
    return search.decide(rules, state, seat, random.Random(seed(secret, seq, seat)), level)


_BOT_SEATS = (sa.select(col(Player.seat), col(Player.consent))
              .where(col(Player.game_id) == sa.bindparam("game_id"), col(Player.consent).startswith(BOT)))


def seats_of(conn: sa.Connection, game_id: int) -> dict[int, str]:
    """Bot seats of a game: seat -> level."""
    return {seat: consent[len(BOT):] for seat, consent in conn.execute(_BOT_SEATS, {"game_id": game_id})}


def kick(game_id: int, to_act: list[int], seq: int) -> None:
    """After a game's creation: enqueue a decision for each bot seat among `to_act` (one indexed
    query; none when nobody is to act).  A move knows its bot seats from the seats it read: `publish`."""
    if not to_act:
        return
    with read_session(get_engine()) as session:
        levels = seats_of(session.connection(), game_id)
    publish(game_id, [seat for seat in to_act if seat in levels], seq)


def publish(game_id: int, seats: list[int], seq: int) -> None:
    """After a commit: enqueue a decision for each of these bot seats (no query: a move costs a game
    without bots nothing)."""
    if seats:
        # Even on the embedded broker, where the outbox is not kicked (its scan every 2 s sends): a
        # bot's turn would otherwise wait for beat's scan (a minute), and a bot seat is rare enough.
        queue.publish(BOT_TASK, [[game_id, seat, seq] for seat in seats], always=True)


def due(limit: int = 200) -> list[tuple[int, int, int]]:
    """(game id, seat, seq) of every active game waiting on a bot seat (the beat scan)."""
    with read_session(get_engine()) as session:
        rows = session.exec(
            select(Game.id, Game.seq, Game.to_act, Player.seat)
            .join(Player, col(Player.game_id) == col(Game.id))
            .where(col(Game.status) == "active", col(Player.consent).startswith(BOT))
            .order_by(col(Game.id)).limit(limit)).all()
    return [(game_id, seat, seq) for game_id, seq, to_act, seat in rows if seat in (to_act or [])]


# A task's run of one seat's decisions (a turn of many steps); past it, beat's scan (`due`) goes on.
MAX_DECISIONS = 100


def play(game_id: int, seat: int, seq: int) -> str:
    """The worker's task: the bot of `seat` decides for as long as its seat is to act, at the position
    after `seq` or a later one (a person's move in a co-op phase moves the game on and leaves the bot
    to act without queuing it again; a bot's own next step is not queued either: this loop takes it).
    Each decision plays at the position it read, so a position gets at most one move whatever tasks
    run at once.  "played" (one move or more), "stale" (the seat is not to act, or not a bot, or the
    game is over), or "failed" (logged for the operator)."""
    said = "stale"
    for decision in range(MAX_DECISIONS):
        said = _decide(game_id, seat, seq)
        if said != "played":
            return "played" if decision else said
    return said


def _decide(game_id: int, seat: int, seq: int) -> str:
    from service.play.moves import handle  # the move path sits beside this module in play

    with read_session(get_engine()) as session:
        game = session.get(Game, game_id)
        if game is None or game.status != "active" or game.seq < seq or seat not in (game.to_act or []):
            return "stale"
        level = seats_of(session.connection(), game_id).get(seat)
        if level is None:
            return "stale"
        rules = engine.get(game.name)
        state, _ = store.load_state(session, game)
        secret, now = game.secret, game.seq
    try:
        move = choose(rules, state, seat, secret, now, level)
        handle(game_id, seat, move, now)
    except StaleState:
        return "stale"
    except (RiftpostError, engine.IllegalMove, ValueError):
        log.exception("bot of game %s seat %s at seq %s could not move", game_id, seat, now)
        return "failed"
    return "played"
