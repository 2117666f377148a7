"""A person's feeds, read by calendar apps and feed readers at a secret URL (service/people/channels.py
makes and checks it): their pending deadlines as iCalendar (`icalendar`) and the games where it is their
move as Atom (`feedgen`).  Only the person's own seats, in running games; nothing but what any player
of the game sees on its public page (the game's title and number, whose move, the deadline) and the
link to the person's own player page.

Each calendar event is one seat's deadline in one turn: its UID names the game, the seat and the
deadline row, which lives exactly as long as that turn (service/clocks/seats.py), so the UID is stable
through the turn and new for the next one.  A deadline moves (a vacation ended, a pause lifted) only
later, so its SEQUENCE is the due time in minutes since the epoch: it grows whenever the event changes,
and calendar apps that read SEQUENCE take the new time; DTSTAMP and LAST-MODIFIED say when the clock
last (re)started.  A stopped clock (a vacation, a pause) has no due time: its event leaves the
calendar until the clock runs again.
"""

from __future__ import annotations

from datetime import datetime, timedelta

import sqlalchemy as sa
from sqlmodel import Session, col

from service import links, paths, running, store
from service.store.models import Deadline, Event, Game, GameClock, Player, as_utc
from service.views.positions import title
from service.views.sentences import POLICY_WORDS
from service.views.times import local_time

PRODID = "-//Riftpost//deadlines//EN"
REFRESH = timedelta(minutes=15)  # what the calendar is asked to re-read at (apps may wait longer)


def _player_url(player: Player) -> str:
    # A link as emails make them: on BASE_URL, whatever host the feed was fetched by.
    return paths.url("play.page", token=links.player_token(player.id, player.row_key, player.link_generation))


def _label(game: Game) -> str:
    return f"{title(game)} #{game.id}"


def calendar(session: Session, email: str, self_url: str, now: datetime) -> bytes:
    """The person's pending deadlines, one event each."""
    rows = session.execute(
        sa.select(Deadline, Player, Game, col(GameClock.policy))
        .join(Player, col(Player.id) == col(Deadline.player_id))
        .join(Game, col(Game.id) == col(Deadline.game_id))
        .join(GameClock, col(GameClock.game_id) == col(Game.id))
        .where(col(Player.address_key) == email, col(Deadline.due_at).is_not(None), col(Game.status) == "active")
        .order_by(col(Deadline.due_at))
    ).all()
    # Imported here, by the first feed asked for: icalendar and feedgen (with lxml) are ~8 MB of a web
    # process that may never serve a feed (bench/memory.py; tests/worker/test_lean_processes.py).
    import icalendar

    domain = running.config()["MAIL_DOMAIN"]
    cal = icalendar.Calendar()
    cal.add("prodid", PRODID)
    cal.add("version", "2.0")
    cal.add("calscale", "GREGORIAN")
    cal.add("x-wr-calname", "Riftpost deadlines")
    cal.add("refresh-interval", REFRESH, parameters={"VALUE": "DURATION"})
    cal.add("x-published-ttl", REFRESH)
    cal.add("source", self_url, parameters={"VALUE": "URI"})
    for deadline, player, game, policy in rows:
        due = as_utc(deadline.due_at)
        changed = as_utc(deadline.started_at)
        url = _player_url(player)
        event = icalendar.Event()
        event.add("uid", f"deadline-{game.id}-{player.seat}-{deadline.id}@{domain}")
        event.add("sequence", int(due.timestamp()) // 60)
        event.add("dtstamp", changed)
        event.add("last-modified", changed)
        event.add("dtstart", due)
        event.add("dtend", due)
        event.add("summary", f"Your move is due: {_label(game)}")
        event.add("description", f"Your move in {_label(game)} is due then. {POLICY_WORDS.get(policy, '')}\n{url}")
        event.add("url", url, parameters={"VALUE": "URI"})
        event.add("transp", "TRANSPARENT")  # a deadline is not a busy hour
        cal.add_component(event)
    return cal.to_ical()


def turns(session: Session, email: str, self_url: str, zone: str, now: datetime) -> bytes:
    """The games where the person is to move now, one entry per turn: its id names the game, the seat
    and where the turn began, so a reader shows each new turn once."""
    seats = [(player, game) for player, game in session.execute(
        sa.select(Player, Game).join(Game, col(Game.id) == col(Player.game_id))
        .where(col(Player.address_key) == email, col(Game.status) == "active").order_by(col(Game.id))
    ).all() if player.seat in (game.to_act or [])]
    due = {(row.game_id, row.seat): as_utc(row.due_at) for row in session.execute(
        sa.select(Deadline).where(col(Deadline.player_id).in_([player.id for player, _ in seats]),
                                  col(Deadline.due_at).is_not(None))).scalars()}
    from feedgen.feed import FeedGenerator  # on first use, as icalendar above

    domain = running.config()["MAIL_DOMAIN"]
    feed = FeedGenerator()
    feed.id(self_url)
    feed.title("Riftpost: your move")
    feed.author({"name": "Riftpost"})
    feed.link(href=self_url, rel="self")
    feed.link(href=paths.url("channels.page"), rel="alternate")
    feed.updated(now)
    for player, game in seats:
        began = store.turn_starts(session, game.id, player.seat, game.seq, limit=1)
        seq = began[0] if began else game.seq
        when = session.execute(sa.select(col(Event.created_at)).where(
            col(Event.game_id) == game.id, col(Event.seq) == seq)).scalar_one_or_none()
        updated = as_utc(when) if when is not None else as_utc(game.updated_at)
        deadline = due.get((game.id, player.seat))
        entry = feed.add_entry(order="append")
        entry.id(f"tag:{domain},2026:turn/{game.id}/{player.seat}/{seq}")
        entry.title(f"Your move: {_label(game)}")
        entry.link(href=_player_url(player))
        entry.updated(updated)
        entry.published(updated)
        entry.content(f"It is your move in {_label(game)}"
                      + (f", due {local_time(deadline, zone)}." if deadline else "."), type="text")
    return bytes(feed.atom_str(pretty=True))
