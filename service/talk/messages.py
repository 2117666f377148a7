"""Writing and reading a game's table talk.

A message is a row of its own (`talk_messages`), never an event: the engine stays pure and the game's
seq does not move, so no emailed move link goes stale because someone said hello.  It records the
game's seq when it was written, which places it among the game's moves.

Who reads what:
- channel "all": every seat of the game (in a cooperative game that is the party); spectators only once
  the game is finished, or while its creator has opened its talk to them (`open_to_spectators`).
- channel "team": the writer's team as the game's adapter says it (service/games `teams_of`), and only
  in a game with teams; never a spectator, never the other team.
- a reader who muted the writer (by the writer's inbox, across games) does not see their messages.
- a deleted message is still listed, as deleted, without its text.

`post` and `visible` are the way in for every surface (the page, the JSON API, reply-by-email, the
emails' "since your last turn" lines), so the rules above hold on all of them.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from datetime import datetime, timedelta

import sqlalchemy as sa
from sqlmodel import Session, col, select

from service import store
from service.errors import Invalid, TooMany
from service.games import adapter
from service.store.inboxes import key as inbox_key
from service.store.models import Game, Player, TalkMessage, TalkMute, TalkOpen, as_utc, utcnow

# A message is plain text of at most this many characters (after tidying: see `tidy`).
MAX_CHARS = 1000
# Per seat: at most RATE_LIMIT messages in any RATE_WINDOW (deleted ones count: deleting and writing
# again is no way around it).
RATE_LIMIT = 10
RATE_WINDOW = timedelta(minutes=10)

ALL = "all"
TEAM = "team"
CHANNELS = (ALL, TEAM)
SOURCES = ("page", "api", "email")

# Characters that change how the text around them is drawn without being seen: bidirectional overrides
# and isolates (they can make a message read as something else), the BOM.
_INVISIBLE = re.compile("[\u202a-\u202e\u2066-\u2069\u200e\u200f\ufeff]")
_BLANK_LINES = re.compile(r"\n{3,}")


class TooManyMessages(TooMany, Invalid):
    """The seat's rate limit: a 429 with Retry-After (TooMany) that is also an Invalid."""


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


def tidy(text: str) -> str:
    """The text as it is kept: NFC, one kind of line break, no control or invisible direction characters,
    no trailing spaces on a line, at most one blank line in a row, nothing around it."""
    text = unicodedata.normalize("NFC", text).replace("\r\n", "\n").replace("\r", "\n")
    text = text.replace("\u2028", "\n").replace("\u2029", "\n").replace("\t", " ")
    text = _INVISIBLE.sub("", text)
    text = "".join(ch for ch in text if ch == "\n" or unicodedata.category(ch) != "Cc")
    text = "\n".join(line.rstrip() for line in text.split("\n"))
    return _BLANK_LINES.sub("\n\n", text).strip()


def teams(session: Session, game: Game) -> list[list[int]]:
    """The game's teams as its adapter knows them from the start options and the player count."""
    count = session.execute(sa.select(sa.func.count()).select_from(Player).where(col(Player.game_id) == game.id)).scalar_one()
    return adapter(game.name).teams_of(game.options or {}, int(count))


def team_of(session: Session, game: Game, seat: int) -> list[int]:
    """The seats of `seat`'s team, itself included, when it shares one with someone; else []."""
    for team in teams(session, game):
        if seat in team and len(team) > 1:
            return sorted(team)
    return []


def channels(session: Session, player: Player) -> list[str]:
    """The channels this seat may write to and read: "all", and "team" when it has teammates."""
    game = store.get_game(session, player.game_id)
    return [ALL, TEAM] if team_of(session, game, player.seat) else [ALL]


def open_to_spectators(session: Session, game: Game) -> bool:
    """Whether spectators may read the game's "all" talk: once it is finished, or while its creator has
    opened it during play."""
    return game.status != "active" or session.get(TalkOpen, game.id) is not None


def post(session: Session, player: Player, text: str, *, channel: str = ALL, source: str = "page",
         now: datetime | None = None) -> TalkMessage:
    """Write `text` from `player`'s seat to `channel`, at the game's current seq, in the caller's
    transaction (flushed, not committed).  Raises Invalid with words for the writer for an empty or
    too long text, a channel the seat cannot use, and TooManyMessages (an Invalid too) past the seat's
    rate limit.  A reader who chose "tell me at once" gets a talk email (service/talk/notify.py).
    The outbox rows it writes go out with the outbox's scan (every OUTBOX_DISPATCH_SECONDS)."""
    if source not in SOURCES:
        raise ValueError(f"unknown talk source {source!r}")  # a caller's mistake, not a person's
    if not isinstance(text, str):
        raise Invalid("A message is text.", "Message not sent")
    clean = tidy(text)
    if not clean:
        raise Invalid("The message is empty: write something to send.", "Message not sent")
    if len(clean) > MAX_CHARS:
        raise Invalid(f"A message has at most {MAX_CHARS:,} characters; this one has {len(clean):,}.",
                      "Message not sent")
    if channel not in CHANNELS:
        raise Invalid("Messages go to the whole table (all) or to your team (team).", "Message not sent")
    game = store.get_game(session, player.game_id)
    if channel == TEAM and not team_of(session, game, player.seat):
        raise Invalid("You have no teammate in this game, so there is no team channel: write to the whole "
                      "table instead.", "Message not sent")
    now = now or utcnow()
    recent = session.execute(
        sa.select(col(TalkMessage.created_at)).where(
            col(TalkMessage.player_id) == player.id, col(TalkMessage.created_at) > now - RATE_WINDOW)
        .order_by(col(TalkMessage.created_at))
    ).scalars().all()
    if len(recent) >= RATE_LIMIT:
        free_at = as_utc(recent[len(recent) - RATE_LIMIT]) + RATE_WINDOW
        wait = max(1, int((free_at - as_utc(now)).total_seconds()) + 1)
        raise TooManyMessages(
            f"You wrote {RATE_LIMIT} messages in the last {int(RATE_WINDOW.total_seconds() // 60)} minutes; "
            f"you can write again in {max(1, round(wait / 60))} minute{'s' if round(wait / 60) > 1 else ''}.",
            wait, "Slow down")
    message = TalkMessage(game_id=game.id, player_id=player.id, seat=player.seat, channel=channel, text=clean,
                          seq=game.seq, source=source, created_at=now)
    session.add(message)
    session.flush()
    from service.talk import notify  # here: notify reads messages through this module

    notify.on_post(session, game, message, now)
    return message


def muted_by(session: Session, viewer: Player) -> set[str]:
    """The address keys whose talk `viewer`'s person muted."""
    return set(session.execute(
        sa.select(col(TalkMute.muted)).where(col(TalkMute.person) == inbox_key(viewer.email))).scalars())


def visible(session: Session, game_id: int, viewer: Player | None, *, since_seq: int | None = None,
            after_id: int | None = None) -> list[Said]:
    """The messages of the game that `viewer` may read (None: a spectator), oldest first, their mutes
    applied.  `since_seq`: only those written while the game stood at that seq or later (a message
    written at seq N was written after the game's event N); `after_id`: only those with a larger id."""
    game = store.get_game(session, game_id)
    if viewer is not None and viewer.game_id != game.id:
        return []  # a seat of another game reads nothing here
    if viewer is None and not open_to_spectators(session, game):
        return []
    query = select(TalkMessage).where(col(TalkMessage.game_id) == game.id)
    if since_seq is not None:
        query = query.where(col(TalkMessage.seq) >= since_seq)
    if after_id is not None:
        query = query.where(col(TalkMessage.id) > after_id)
    rows = list(session.exec(query.order_by(col(TalkMessage.id))))
    if not rows:
        return []
    players = store.players_of(session, game.id)
    names = store.seat_names(players)
    writers = {p.id: inbox_key(p.email) for p in players}
    team = set(team_of(session, game, viewer.seat)) if viewer is not None else set()
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
