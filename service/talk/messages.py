"""Writing and reading a game's table talk.

A message is a row of its own (`talk_messages`), never an event: the engine stays pure and the game's
seq does not move, so no emailed move link goes stale because someone said hello.  It records the
game's seq when it was written, which places it among the game's moves.

Who reads what is service/views/talk.py's (re-exported here: `visible`, `Said`, `team_of`...), below
the mail layer, so the emails that tell talk at delivery apply the same rules.

`post` and `visible` are the way in for every surface (the page, the JSON API, reply-by-email, the
history pages, the emails' "since your last turn" lines), so the rules hold on all of them.

The rate limit is exact: `post` locks the writer's seat row (SELECT ... FOR UPDATE on PostgreSQL; SQLite
serialises writers with BEGIN IMMEDIATE) before it counts the seat's recent messages, so two posts at
once at the limit's edge count one after the other and only one gets through.
"""

from __future__ import annotations

import re
import unicodedata
from datetime import datetime, timedelta

import sqlalchemy as sa
from sqlmodel import Session, col

from service import store
from service.errors import Invalid, TooMany
from service.store.models import Player, TalkMessage, as_utc, utcnow
from service.views.talk import (  # noqa: F401 - the rules of reading, re-exported for every surface
    ALL,
    TEAM,
    Said,
    muted_by,
    open_to_spectators,
    team_of,
    teams,
    visible,
)

# A message is plain text of at most this many characters (after tidying: see `tidy`).
MAX_CHARS = 1000
# Per seat: at most RATE_LIMIT messages in any RATE_WINDOW (deleted ones count: deleting and writing
# again is no way around it).
RATE_LIMIT = 10
RATE_WINDOW = timedelta(minutes=10)

CHANNELS = (ALL, TEAM)
SOURCES = ("page", "api", "email")

# Characters that change how the text around them is drawn without being seen: bidirectional overrides
# and isolates (they can make a message read as something else), the BOM.
_INVISIBLE = re.compile("[\u202a-\u202e\u2066-\u2069\u200e\u200f\ufeff]")
_BLANK_LINES = re.compile(r"\n{3,}")


class TooManyMessages(TooMany, Invalid):
    """The seat's rate limit: a 429 with Retry-After (TooMany) that is also an Invalid."""


def tidy(text: str) -> str:
    """The text as it is kept: NFC, one kind of line break, no control or invisible direction characters,
    no trailing spaces on a line, at most one blank line in a row, nothing around it."""
    text = unicodedata.normalize("NFC", text).replace("\r\n", "\n").replace("\r", "\n")
    text = text.replace("\u2028", "\n").replace("\u2029", "\n").replace("\t", " ")
    text = _INVISIBLE.sub("", text)
    text = "".join(ch for ch in text if ch == "\n" or unicodedata.category(ch) != "Cc")
    text = "\n".join(line.rstrip() for line in text.split("\n"))
    return _BLANK_LINES.sub("\n\n", text).strip()


def channels(session: Session, player: Player, seats: int | None = None) -> list[str]:
    """The channels this seat may write to and read: "all", and "team" when it has teammates (`seats`:
    the game's count of seats, when the caller read them already)."""
    game = store.get_game(session, player.game_id)
    return [ALL, TEAM] if team_of(session, game, player.seat, seats) else [ALL]


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
    # The seat's row, locked until the commit: a second post of the same seat waits here, then counts
    # this one (the limit is exact under concurrency).
    session.execute(sa.select(col(Player.id)).where(col(Player.id) == player.id).with_for_update())
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
