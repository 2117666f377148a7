"""A person's notification settings (issue #23 item 4): their mode, digest hour and quiet hours, each
game's own mode, and their visits of a game's page.  What the settings mean at delivery is
service/mail/notify_policy.py's; this module only reads and writes them.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlmodel import Session, col

from service import store
from service.errors import Invalid
from service.lang import N_
from service.mail.notify_policy import GAME_MODES, MODES
from service.store import read_session, write_session
from service.store.db import get_engine
from service.store.models import Game, NotifyGame, Player
from service.views.positions import title

MODE_WORDS = {
    "every": N_("An email at every change of turn"),
    "until_visit": N_("One email, then nothing more until I open the game's page"),
    "digest": N_("A daily digest at my chosen hour"),
    "none": N_("No emails: my home page only"),
}
DEFAULT = "default"  # a game's choice "as my default" (its own mode removed)


@dataclass(frozen=True)
class GameChoice:
    game_id: int
    label: str
    mode: str  # DEFAULT, one of GAME_MODES, or "none" (its turn emails are off)


@dataclass(frozen=True)
class Settings:
    mode: str
    digest_hour: int
    quiet_start: int | None
    quiet_end: int | None
    time_zone: str
    games: list[GameChoice]

    def public(self) -> dict[str, Any]:
        return {"mode": self.mode, "digest_hour": self.digest_hour, "quiet_start": self.quiet_start,
                "quiet_end": self.quiet_end, "time_zone": self.time_zone,
                "games": [{"game_id": g.game_id, "title": g.label, "mode": g.mode} for g in self.games]}


def _seats(session: Session, key: str) -> list[tuple[Player, Game]]:
    return list(session.execute(
        sa.select(Player, Game).join(Game, col(Game.id) == col(Player.game_id))
        .where(col(Player.address_key) == key, col(Game.status) == "active").order_by(col(Game.id).desc())
    ).all())


def read(key: str) -> Settings:
    """The person's settings, with a choice for each of their games still running."""
    with read_session(get_engine()) as session:
        person = store.person_of(session, key)
        own = {row.game_id: row.mode for row in session.execute(
            sa.select(NotifyGame).where(col(NotifyGame.email) == person.email)).scalars()}
        games: dict[int, GameChoice] = {}
        for player, game in _seats(session, person.email):
            mode = "none" if not player.turn_emails else (own.get(game.id) or DEFAULT)
            games.setdefault(game.id, GameChoice(game.id, f"{title(game)} #{game.id}", mode))
        return Settings(person.notify_mode, person.digest_hour, person.quiet_start, person.quiet_end,
                        person.time_zone, list(games.values()))


def _hour(value: Any, what: str, blank_ok: bool) -> int | None:
    if value in (None, "") and blank_ok:
        return None
    try:
        hour = int(value)
    except (TypeError, ValueError):
        raise Invalid(f"The {what} must be an hour from 0 to 23.", "Not an hour") from None
    if isinstance(value, bool) or not 0 <= hour <= 23:
        raise Invalid(f"The {what} must be an hour from 0 to 23.", "Not an hour")
    return hour


def change(key: str, values: dict[str, Any]) -> Settings:
    """Change what `values` names: "mode", "digest_hour", "quiet_start"/"quiet_end" (both, or both
    blank for none), "games" ({game id: mode or "default"}: only the person's own games)."""
    mode = values.get("mode")
    if mode is not None and mode not in MODES:
        raise Invalid(f"Choose one of: {', '.join(MODES)}.", "Unknown mode")
    digest_hour = _hour(values["digest_hour"], "digest hour", False) if "digest_hour" in values else None
    quiet = None
    if "quiet_start" in values or "quiet_end" in values:
        quiet = (_hour(values.get("quiet_start"), "start of quiet hours", True),
                 _hour(values.get("quiet_end"), "end of quiet hours", True))
        if (quiet[0] is None) != (quiet[1] is None):
            raise Invalid("Give both the start and the end of your quiet hours, or neither.", "Half quiet hours")
    games = values.get("games") or {}
    if not isinstance(games, dict):
        raise Invalid("\"games\" maps game ids to modes.", "Bad games")
    with write_session(get_engine()) as session:
        person = store.person_for_update(session, key)
        if mode is not None:
            person.notify_mode = mode
        if digest_hour is not None:
            person.digest_hour = digest_hour
        if quiet is not None:
            person.quiet_start, person.quiet_end = quiet
        session.add(person)
        for game_id, game_mode in games.items():
            _game(session, person.email, game_id, game_mode)
    return read(key)


def _game(session: Session, key: str, game_id: Any, mode: Any) -> None:
    if mode not in (*GAME_MODES, "none", DEFAULT):
        raise Invalid(f"Choose one of: {', '.join((DEFAULT, *GAME_MODES, 'none'))}.", "Unknown mode")
    try:
        game_id = int(game_id)
    except (TypeError, ValueError):
        raise Invalid("Not a game of yours.", "Unknown game") from None
    seats = session.execute(sa.select(Player).where(
        col(Player.address_key) == key, col(Player.game_id) == game_id)).scalars().all()
    if not seats:  # the same answer for a game that does not exist: nothing to learn of others' games
        raise Invalid("Not a game of yours.", "Unknown game")
    for seat in seats:  # a game's "none" is its turn emails switch, the unsubscribe's
        seat.turn_emails = mode != "none"
        session.add(seat)
    row = session.get(NotifyGame, (key, game_id)) or NotifyGame(email=key, game_id=game_id)
    row.mode = mode if mode in GAME_MODES else None
    session.add(row)


def visited(player: Player | Any, now: datetime) -> None:
    """The person opened the page of `player`'s game (the page's beacon): "until I visit" counts from now."""
    for _ in range(2):  # two first visits at once both insert: the loser updates the winner's row
        try:
            with write_session(get_engine()) as session:
                row = session.get(NotifyGame, (player.address_key, player.game_id), with_for_update=True)
                if row is None:
                    row = NotifyGame(email=player.address_key, game_id=player.game_id)
                row.visited_at = now
                session.add(row)
            return
        except sa.exc.IntegrityError:
            continue
