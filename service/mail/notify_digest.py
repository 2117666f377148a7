"""The daily digest (issue #23 item 4c): one email at the person's chosen local hour listing every game
awaiting them whose mode is "digest", each with its first-step links and its deadline
(service/mail/notify_policy.py skips the turn emails it replaces; service/people/digests.py queues it).

Its outbox row is pinned to one of the games listed (the outbox's rows belong to a game and a seat: the
delivery log shows it as "3 games"), and its Message-ID names the person and their local date, not the
game: the UNIQUE column makes a second digest of the same day impossible, however often the beat runs.
What it lists is read when it is rendered, so a game the person played meanwhile is left out, and a
digest with nothing left to tell is skipped ("unwanted").  It is a thread of its own (its own subject).
Each game's part tells that game's table talk since the seat's last email (the turn emails it replaces
would have): the delivery decides it for every seat listed (`talk_email.register_teller`).
"""

from __future__ import annotations

import hashlib
import hmac
from datetime import date
from typing import Any

import sqlalchemy as sa
from sqlmodel import Session, col

from service import paths, running, store
from service.mail import compose, kinds, notify_policy, talk_email
from service.store.models import Game, Outbox, Player
from service.views.email_render import ngettext


def awaiting(session: Session, address_key: str) -> list[tuple[Player, Game]]:
    """The person's seats (with their games) whose move is awaited and whose mode is "digest", by game."""
    found = session.execute(
        sa.select(Player, Game).join(Game, col(Game.id) == col(Player.game_id))
        .where(col(Player.address_key) == address_key, col(Game.status) == "active", col(Player.consent) == "")
        .order_by(col(Game.id), col(Player.seat))
    ).all()
    return [(player, game) for player, game in found
            if player.seat in game.to_act and notify_policy.game_mode(session, player) == "digest"]


def message_id(address_key: str, day: date) -> str:
    """The digest's Message-ID for a person and their local date: deterministic (the idempotency key),
    and naming the address only by a keyed hash (it travels in every reply's References)."""
    secret = str(running.config()["SECRET_KEY"]).encode()
    who = hmac.new(secret, address_key.encode(), hashlib.sha256).hexdigest()[:16]
    return f"<riftpost.digest.{who}.{day.isoformat()}@{running.config()['MAIL_DOMAIN']}>"


def _games(session: Session, mail: kinds.Mail) -> list[dict[str, Any]]:
    """Each awaiting game's part, as its turn email would say it (its links, its deadline)."""
    turn = kinds.get("turn")
    parts = []
    for player, game in awaiting(session, mail.player.address_key):
        players = store.players_of(session, game.id)
        # The talk the digest decided to tell of this game (service/mail/talk_email.py: at delivery).
        told = {"talk": mail.params["talk"]} if isinstance(mail.params.get("talk"), dict) else {}
        row = Outbox(game_id=game.id, player_id=player.id, kind="turn", params=told, seq=game.seq, message_id="")
        parts.append(compose.context(session, turn, kinds.Mail(row, game, player, players, store.seat_names(players))))
    return parts


def _context(session: Session, mail: kinds.Mail) -> kinds.Context:
    games = _games(session, mail)
    return {"games": games, "count": len(games), "day": mail.params.get("day", ""),
            "settings_url": paths.url("notify.notifications")}


def _wanted(session: Session, mail: kinds.Mail) -> bool:
    return bool(awaiting(session, mail.player.address_key))


def _line(context: kinds.Context) -> str:
    return ngettext("%(num)d game awaits your move.", "%(num)d games await your move.", context["count"])


kinds.register(kinds.Kind(
    notify_policy.DIGEST, _line, template="email/notify_digest", context=_context, wanted=_wanted,
    tag=lambda p: f"digest-{p['day']}",
    subject=lambda c: ngettext("Your Riftpost digest: %(num)d game to play", "Your Riftpost digest: %(num)d games to play",
                               c["count"])))


def _talk_seats(session: Session, mail: kinds.Mail) -> list[Player]:
    """The seats whose talk the digest tells: one of each game it lists."""
    return [player for player, _ in awaiting(session, mail.player.address_key)]


talk_email.register_teller(notify_policy.DIGEST, _talk_seats)
