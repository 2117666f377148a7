"""Table talk in emails (writing it: service/talk; who reads what: service/views/talk.py).

Which messages an email tells is decided when the email is about to go, not when its row is written:
the outbox's delivery (service/mail/outbox.py `deliver`), once every reason to skip or hold the row has
said no, asks `undecided` and then `decide`, which takes the messages the seat may read that none of
its emails told yet and moves the seat's cursor (`talk_told.upto`) past them, in one write transaction
with the seat's cursor locked (FOR UPDATE on PostgreSQL), fenced by the delivery's attempt.  The ids
are kept on the row (params["talk"] = {game id: [ids]}), so a retry tells the same.

Why at delivery: a row may never be sent (the person's digest mode, "one email until I visit", turn
emails off, an address that declined...), or be held for hours (quiet hours).  A cursor moved when the
row was written would lose the talk of every skipped row; moved when the email goes, the talk reaches
the next email actually sent to that seat of that game, and the daily digest tells each of its games'
talk the same way (it registers its seats: `register_teller`).  One cursor per seat, moved only forward
under its lock, so no message is told twice.  (An email that fails for good keeps what it took: the
address is broken, and the seat's page, which says so, shows the talk.)

Talk is text anyone at the table typed, so in an email:
- it is never in a header: not the subject (the game's), not the first line's preview of a header;
- links are shown as text, not clickable: `unlinked` breaks what mail programs turn into links ("://",
  the dot before a domain's ending, www.), in both the plain and the HTML part (programs autolink both);
- the HTML part escapes it (Jinja's autoescape) inside a plain <p>, never inside an <a>.

The kind "talk" is the email of its own that a person who chose "tell me at once" gets (service/talk/
notify.py writes it, at most one per game per interval).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlmodel import Session, col

from service import paths
from service.mail.kinds import Context, Kind, Mail, register
from service.store import write_session
from service.store.db import get_engine
from service.store.models import Outbox, Player, TalkMessage, TalkTold
from service.store.prepared import Prepared
from service.views import talk as rules
from service.views.email_render import and_list
from service.views.email_render import gettext as _

# "scheme://" (http, https, ftp, anything): mail programs link what follows.
_SCHEME = re.compile(r"\b([A-Za-z][A-Za-z0-9+.-]{1,15}):(//)")
# A dot before what reads as a domain's ending ("evil.example", "www.x"): "3.5" and "e.g." stay.
_DOT = re.compile(r"(?<=[A-Za-z0-9-])\.(?=[A-Za-z]{2,})")
# How many messages one email tells at most (the rest: "and N more on your game page").
MAX_LINES = 20


def unlinked(text: str) -> str:
    """`text` with nothing a mail program turns into a link: "http://x.org" reads "http[:]//x[.]org"."""
    return _DOT.sub("[.]", _SCHEME.sub(r"\1[:]\2", text))


@dataclass(frozen=True)
class TalkLine:
    name: str
    text: str  # unlinked; may hold line breaks
    team: bool  # said on the team's own channel


def told_ids(params: dict[str, Any], game_id: int) -> list[int] | None:
    """The ids a row decided to tell of a game (params["talk"][game id]); None: not decided yet."""
    told = params.get("talk")
    if not isinstance(told, dict):
        return None
    ids = told.get(str(game_id))
    return [i for i in ids if isinstance(i, int) and not isinstance(i, bool)] if isinstance(ids, list) else []


def lines(session: Session, mail: Mail) -> tuple[list[TalkLine], int]:
    """The talk lines of the email (its row's params["talk"] for its game), oldest first, at most
    MAX_LINES, and how many more there were."""
    ids = told_ids(mail.params, mail.game.id) or []
    if not ids:
        return [], 0
    rows = session.execute(
        sa.select(TalkMessage).where(col(TalkMessage.id).in_(ids), col(TalkMessage.game_id) == mail.game.id,
                                     col(TalkMessage.deleted_at).is_(None)).order_by(col(TalkMessage.id))
    ).scalars().all()
    told = [TalkLine(mail.names.get(row.seat, _("Player %(number)s", number=row.seat + 1)), unlinked(row.text),
                     row.channel == "team")
            for row in rows]
    return told[-MAX_LINES:], max(0, len(told) - MAX_LINES)


def context(session: Session, mail: Mail) -> Context:
    """What every email's _talk include reads."""
    shown, more = lines(session, mail)
    return {"talk_lines": shown, "talk_more": more}


def _talk_line(context: Context) -> str:
    names = sorted({line.name for line in context["talk_lines"]})
    where = f"{context['title']} #{context['game'].id}"
    if not names:
        return _("New table talk in %(game)s.", game=where)
    return _("%(names)s wrote at the table of %(game)s.", names=and_list(names), game=where)


# ---- deciding, at delivery, what an email tells ------------------------------------------------------

# The kinds whose emails tell the talk since the seat's last one (their templates include email/_talk).
TELLS = frozenset({"turn", "game_over", "timed_out", "talk"})
# Whose talk an email tells, by kind: its own seat, or (the daily digest) a seat of each game it lists.
Seats = Callable[[Session, Mail], Sequence[Player]]
TELLERS: dict[str, Seats] = {}


def register_teller(kind: str, seats: Seats) -> None:
    TELLERS[kind] = seats


def _own_seat(session: Session, mail: Mail) -> list[Player]:
    return [mail.player]


for _kind in TELLS:
    register_teller(_kind, _own_seat)


class LeaseLost(Exception):
    """Another delivery took the row over while this one decided its talk: this one stops, unrecorded."""


def cursor_for_update(session: Session, player_id: int) -> TalkTold:
    """The seat's cursor, created on first use and locked (FOR UPDATE) until the caller's commit: the
    deliveries that decide its talk and the posts that queue its "tell me at once" email take turns."""
    if session.get_bind().dialect.name == "postgresql":
        from sqlalchemy.dialects.postgresql import insert
    else:  # the same on_conflict_do_nothing(), another class to mypy
        from sqlalchemy.dialects.sqlite import insert  # type: ignore[assignment]
    session.execute(insert(TalkTold).values(player_id=player_id, upto=0).on_conflict_do_nothing(
        index_elements=["player_id"]))
    found = session.get(TalkTold, player_id, with_for_update=True, populate_existing=True)
    assert found is not None
    return found


# Asked of every turn email: built once, run on the DB-API cursor (service/store/prepared.py), where the
# statement made afresh and run through the session cost ~0.4 ms for an answer SQLite finds at once.
_UPTO = sa.select(col(TalkTold.upto)).where(col(TalkTold.player_id) == sa.bindparam("player_id")).scalar_subquery()
_UNTOLD = Prepared(sa.select(sa.exists().where(
    col(TalkMessage.game_id) == sa.bindparam("game_id"), col(TalkMessage.player_id) != sa.bindparam("player_id"),
    col(TalkMessage.deleted_at).is_(None), col(TalkMessage.id) > sa.func.coalesce(_UPTO, sa.literal_column("0")))))


def _untold_exists(session: Session, game_id: int, player_id: int) -> bool:
    """Whether the game has a message by someone else after the seat's cursor (cheap: no rules yet;
    Prepared: the session is not flushed first)."""
    [(found,)] = _UNTOLD.rows(session.connection(), {"game_id": game_id, "player_id": player_id})
    return bool(found)


def untold(session: Session, game_id: int, player: Player) -> list[int]:
    """What the seat may read that none of its emails told (its own and deleted ones left out), without
    taking it: the "tell me at once" email's `wanted`."""
    found = session.get(TalkTold, player.id)
    seen = rules.visible(session, game_id, player, after_id=found.upto if found is not None else 0)
    return [said.id for said in seen if not said.mine and not said.deleted]


def undecided(session: Session, mail: Mail) -> list[tuple[int, int]]:
    """The (game id, player id) seats whose talk the row must decide before it goes: none when its kind
    tells no talk, when an earlier attempt decided it, or when there is nothing new."""
    seats = TELLERS.get(mail.row.kind)
    if seats is None or told_ids(mail.params, mail.game.id) is not None:
        return []
    return [(p.game_id, p.id) for p in seats(session, mail) if _untold_exists(session, p.game_id, p.id)]


def decide(row_id: int, attempt: int, seats: Sequence[tuple[int, int]]) -> None:
    """Take the talk the row tells (see the module's docstring), in a write transaction of its own:
    each seat's cursor locked (in id order: never two transactions waiting on each other) and moved
    past what it may read; the ids kept on the row, fenced by the attempt (LeaseLost otherwise)."""
    with write_session(get_engine()) as session:
        told: dict[str, list[int]] = {}
        for game_id, player_id in sorted(seats, key=lambda seat: seat[1]):
            player = session.get(Player, player_id)
            assert player is not None
            cursor = cursor_for_update(session, player_id)
            seen = rules.visible(session, game_id, player, after_id=cursor.upto)
            if seen:
                cursor.upto = max(said.id for said in seen)
                session.add(cursor)
            told[str(game_id)] = [said.id for said in seen if not said.mine and not said.deleted]
        params = session.execute(sa.select(col(Outbox.params)).where(col(Outbox.id) == row_id)).scalar_one()
        done = session.execute(
            sa.update(Outbox).where(col(Outbox.id) == row_id, col(Outbox.status) == "sending",
                                    col(Outbox.attempts) == attempt)
            .values(params={**(params or {}), "talk": told}))
        if done.rowcount != 1:  # type: ignore[attr-defined]  # an UPDATE's result is a CursorResult
            raise LeaseLost(f"outbox {row_id}: another delivery took it over")  # rolls the cursors back


# ---- the "tell me at once" email ----------------------------------------------------------------------


def _talk_wanted(session: Session, mail: Mail) -> bool:
    """Not to a seat whose game emails are off, nor when there is nothing left to tell: another email
    told it first, or every message it would tell was deleted."""
    if not mail.player.turn_emails:
        return False
    if told_ids(mail.params, mail.game.id) is None:
        return bool(untold(session, mail.game.id, mail.player))
    return bool(lines(session, mail)[0])


def _tag(params: dict[str, Any]) -> str:
    return f"talk-{params['after']}"  # the message that asked for it: one email per such message at most


def _talk_context(session: Session, mail: Mail) -> Context:
    return {"settings_url": paths.url("notify.notifications")}


TALK = register(Kind("talk", _talk_line, context=_talk_context, wanted=_talk_wanted, tag=_tag))  # compose adds `context` to every kind
