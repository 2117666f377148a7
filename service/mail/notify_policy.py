"""How game emails reach a person (issue #23 item 4), decided in one place: at delivery, by the outbox
(service/mail/outbox.py asks `skip_reason` and `held_until` of every row it is about to send).

The modes, per person (`people.notify_mode`) with a per-game override (`notify_games.mode`; a game's
"none" is its seat's `players.turn_emails` off, the RFC 8058 unsubscribe's switch):

- "every":       every email, as before (one per change of turn).
- "until_visit": one email of a game, then nothing more of it until the person opens its page (the
                 page's beacon records `notify_games.visited_at`) or makes a move in it.
- "digest":      the turn emails (turn, timed_out) are folded into the daily digest
                 (service/mail/notify_digest.py); reminders before a deadline still come on their own.
- "none":        the home page only.

Quiet hours (`people.quiet_start`/`quiet_end`, local hours of the person's time zone) hold an email that
would go: its row waits, pending, until they end (skip_reason "quiet_hours": the delivery log says
"held until 07:00"), and is then sent as usual.

Never held or skipped by these: the invitation (`unsolicited`), the game's first email (its invite),
the links a person asks for on a page (`requested`: fresh links, the account link, sign-in) and a
seat's last reminder before its deadline (the one step of the game's ladder closest to it).  The digest
itself is what the mode asked for: quiet hours hold it, the modes do not skip it; so are "tell me at
once" talk emails.

The reasons recorded on a skipped row: "turned_off", "digest", "until_visit" (beside the outbox's own
"never_email", "no_consent", "unwanted").
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import sqlalchemy as sa
from sqlmodel import Session, col

from service import store
from service.mail import kinds
from service.store.models import Event, GameClock, NotifyGame, Outbox, Person, Player
from service.views.times import zone

MODES = ("every", "until_visit", "digest", "none")
# What a game's own mode may be: its "none" is the seat's turn_emails flag (see the module docstring).
GAME_MODES = ("every", "until_visit", "digest")
DIGEST = "digest"  # the digest's own email kind (service/mail/notify_digest.py)
# The kinds these modes govern: what a game sends while it runs.
GOVERNED = frozenset({"turn", "reminder", "timed_out", "notice", "game_over", "partner"})
# Of those, the ones the daily digest tells instead ("it is your turn"): the rest still go on their own.
FOLDED = frozenset({"turn", "timed_out", "partner"})
# What counts as "an email of this game" for "until I visit": its invite too.
TOLD = GOVERNED | {"invite"}
QUIET = "quiet_hours"
# Not governed by the modes, but held by quiet hours all the same: the digest the person asked for, and
# the table talk they asked to hear of at once (service/talk/notify.py).
HELD_TOO = frozenset({DIGEST, "talk"})


def game_mode(session: Session, player: Player) -> str:
    """The mode that rules `player`'s emails of its game: "none" while its turn emails are off, else the
    game's own mode for the person, else the person's."""
    if not player.turn_emails:
        return "none"
    own = session.get(NotifyGame, (player.address_key, player.game_id))
    if own is not None and own.mode:
        return own.mode
    return store.person_of(session, player.email).notify_mode


def last_reminder(session: Session, row: Outbox) -> bool:
    """Whether `row` is the seat's last reminder before its deadline: its step is the game's ladder's
    closest to the deadline (a sweep that finds several steps due writes only the latest)."""
    if row.kind != "reminder":
        return False
    clock = session.get(GameClock, row.game_id)
    ladder = list(clock.reminders) if clock is not None else []
    return bool(ladder) and int((row.params or {}).get("hours", -1)) == min(ladder)


def _always_goes(session: Session, row: Outbox) -> bool:
    kind = kinds.get(row.kind)
    return (kind.requested or kind.unsolicited or row.kind == "invite" or bool((row.params or {}).get("invite"))
            or last_reminder(session, row))


def skip_reason(session: Session, row: Outbox, player: Player) -> str | None:
    """Why the person's mode says this row is not to be sent, or None."""
    if row.kind not in GOVERNED or _always_goes(session, row):
        return None
    mode = game_mode(session, player)
    if mode == "none":
        return "turned_off"
    if mode == "digest" and row.kind in FOLDED:
        return "digest"
    if mode == "until_visit" and told_since_visit(session, row, player):
        return "until_visit"
    return None


def last_move_seq(session: Session, game_id: int, seat: int) -> int:
    """The seq of the seat's last own move (a timeout played for it is not one), 0 if none."""
    return int(session.execute(
        sa.select(sa.func.coalesce(sa.func.max(col(Event.seq)), 0))
        .where(col(Event.game_id) == game_id, col(Event.actor) == seat, col(Event.kind) == "move")
    ).scalar_one())


def told_since_visit(session: Session, row: Outbox, player: Player) -> bool:
    """Whether an email of this game reached the person after their last visit of its page and after
    their last move in it (both count as a visit)."""
    visit = session.get(NotifyGame, (player.address_key, player.game_id))
    visited = visit.visited_at if visit is not None else None
    moved = last_move_seq(session, player.game_id, player.seat)
    query = (
        sa.select(col(Outbox.id)).join(Player, col(Player.id) == col(Outbox.player_id))
        .where(col(Player.address_key) == player.address_key, col(Outbox.game_id) == player.game_id,
               col(Outbox.status) == "sent", col(Outbox.kind).in_(sorted(TOLD)), col(Outbox.id) != row.id,
               col(Outbox.seq) > moved)
    )
    if visited is not None:
        query = query.where(col(Outbox.sent_at) > visited)
    return session.execute(query.limit(1)).first() is not None


def quiet_end(person: Person, now: datetime) -> datetime | None:
    """When the person's quiet hours end, if `now` is inside them (UTC); else None."""
    start, end = person.quiet_start, person.quiet_end
    if start is None or end is None or start == end:
        return None
    local = now.astimezone(zone(person.time_zone))
    inside = start <= local.hour < end if start < end else (local.hour >= start or local.hour < end)
    if not inside:
        return None
    until = local.replace(hour=end, minute=0, second=0, microsecond=0)
    if until <= local:
        until += timedelta(days=1)  # wall-clock arithmetic in the zone: 07:00 tomorrow, whatever DST does
    return until.astimezone(UTC)


def held_until(session: Session, row: Outbox, player: Player, now: datetime) -> datetime | None:
    """When a row the modes let through may go, if the person's quiet hours hold it now; else None."""
    if (row.kind not in GOVERNED and row.kind not in HELD_TOO) or _always_goes(session, row):
        return None
    return quiet_end(store.person_of(session, player.email), now)
