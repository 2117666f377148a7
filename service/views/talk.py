"""Who reads which table talk (the rules; writing it: service/talk/messages.py).

Here, below the mail and the people layers, so every surface applies the same rules: the page, the JSON
API, the history pages, and the emails that tell talk at delivery (service/mail/talk_email.py).

- channel "all": every seat of the game (in a cooperative game that is the party); spectators only once
  the game is finished, or while its creator has opened its talk to them (`open_to_spectators`).
- channel "team": the writer's team as the game's adapter says it (service/games `teams_of`), and only
  in a game with teams; never a spectator, never the other team.
- a reader who muted the writer (by the writer's inbox, across games) does not see their messages.
- a deleted message is still listed, as deleted, without its text.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

import sqlalchemy as sa
from sqlmodel import Session, col

from service import store
from service.games import adapter
from service.store.current import AnyPlayer
from service.store.inboxes import key as inbox_key
from service.store.models import Game, Player, TalkMessage, TalkMute, TalkOpen, as_utc

ALL = "all"
TEAM = "team"


@dataclass(frozen=True)
class Said:
    """A message as one reader may see it: a deleted one keeps its place and loses its text."""

    id: int
    seat: int
    name: str  # the writer's name as others read it (service/names.py: nothing clickable)
    channel: str
    text: str  # "" when deleted
    seq: int
    created_at: datetime
    deleted: bool
    mine: bool  # written by the reader's own seat

    def as_json(self) -> dict[str, object]:
        return {"id": self.id, "seat": self.seat, "name": self.name, "channel": self.channel,
                "text": self.text, "seq": self.seq, "created_at": self.created_at.isoformat(),
                "deleted": self.deleted, "mine": self.mine}


def teams(session: Session, game: Game, seats: int | None = None) -> list[list[int]]:
    """The game's teams as its adapter knows them from the start options and the player count
    (`seats`: the count, when the caller read the seats already)."""
    if seats is None:
        seats = int(session.execute(
            sa.select(sa.func.count()).select_from(Player).where(col(Player.game_id) == game.id)).scalar_one())
    return adapter(game.name).teams_of(game.options or {}, seats)


def team_of(session: Session, game: Game, seat: int, seats: int | None = None) -> list[int]:
    """The seats of `seat`'s team, itself included, when it shares one with someone; else [] (`seats`
    as for `teams`)."""
    for team in teams(session, game, seats):
        if seat in team and len(team) > 1:
            return sorted(team)
    return []


def open_to_spectators(session: Session, game: Game) -> bool:
    """Whether spectators may read the game's "all" talk: once it is finished, or while its creator has
    opened it during play."""
    return game.status != "active" or session.get(TalkOpen, game.id) is not None


# Built once (issue #27): the player page reads both on every view, as plain columns on the session's
# connection (the ORM's execution of them cost twice the statement; the page read ~40 µs more).
_MUTED = sa.select(col(TalkMute.muted)).where(col(TalkMute.person) == sa.bindparam("person"))
_MESSAGES = sa.select(col(TalkMessage.id), col(TalkMessage.player_id), col(TalkMessage.seat),
                      col(TalkMessage.channel), col(TalkMessage.text), col(TalkMessage.seq),
                      col(TalkMessage.created_at), col(TalkMessage.deleted_at)
                      ).where(col(TalkMessage.game_id) == sa.bindparam("game_id"))
_MESSAGES_IN_ORDER = _MESSAGES.order_by(col(TalkMessage.id))


def muted_by(session: Session, viewer: AnyPlayer) -> set[str]:
    """The address keys whose talk `viewer`'s person muted."""
    return set(session.connection().execute(_MUTED, {"person": inbox_key(viewer.email)}).scalars())


def visible(session: Session, game_id: int, viewer: AnyPlayer | None, *, since_seq: int | None = None,
            after_id: int | None = None, players: list[Player] | None = None,
            muted: set[str] | None = None) -> list[Said]:
    """The messages of the game that `viewer` may read (None: a spectator), oldest first, their mutes
    applied.  `since_seq`: only those written while the game stood at that seq or later (a message
    written at seq N was written after the game's event N); `after_id`: only those with a larger id.
    `players`, `muted`: the game's seats and the viewer's `muted_by`, when the caller read them already."""
    game = store.get_game(session, game_id)
    if viewer is not None and viewer.game_id != game.id:
        return []  # a seat of another game reads nothing here
    if viewer is None and not open_to_spectators(session, game):
        return []
    query = _MESSAGES_IN_ORDER
    if since_seq is not None or after_id is not None:
        query = _MESSAGES
        if since_seq is not None:
            query = query.where(col(TalkMessage.seq) >= since_seq)
        if after_id is not None:
            query = query.where(col(TalkMessage.id) > after_id)
        query = query.order_by(col(TalkMessage.id))
    rows = session.connection().execute(query, {"game_id": game.id}).all()
    if not rows:
        return []
    players = players if players is not None else store.players_of(session, game.id)
    names = store.seat_names(players)
    writers = {p.id: inbox_key(p.email) for p in players}
    team = set(team_of(session, game, viewer.seat, len(players))) if viewer is not None else set()
    if muted is None:
        muted = muted_by(session, viewer) if viewer is not None else set()
    seen: list[Said] = []
    for row in rows:
        mine = viewer is not None and row.player_id == viewer.id
        if row.channel != ALL and not (row.channel == TEAM and row.seat in team):
            continue  # another team's, or a spectator reading team talk
        if not mine and writers.get(row.player_id) in muted:
            continue
        deleted = row.deleted_at is not None
        seen.append(Said(row.id, row.seat, names.get(row.seat, f"Player {row.seat + 1}"), row.channel,
                         "" if deleted else row.text, row.seq, as_utc(row.created_at), deleted, mine))
    return seen
