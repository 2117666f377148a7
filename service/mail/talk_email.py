"""Table talk in emails (the messages themselves: service/talk).

Which messages an email tells was decided when its outbox row was written, by service/talk (who may
read what, mutes, what earlier emails told): the row's params["talk"] lists their ids.  Here they are
only read back and worded, so a retry tells the same, and a message deleted before the email went out
is left out.

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
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlmodel import Session, col

from service.mail.kinds import Context, Kind, Mail, register
from service.store.models import TalkMessage

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


def lines(session: Session, mail: Mail) -> tuple[list[TalkLine], int]:
    """The talk lines of the email (its row's params["talk"]), oldest first, at most MAX_LINES, and how
    many more there were."""
    ids = [int(i) for i in (mail.params.get("talk") or []) if isinstance(i, int) and not isinstance(i, bool)]
    if not ids:
        return [], 0
    rows = session.execute(
        sa.select(TalkMessage).where(col(TalkMessage.id).in_(ids), col(TalkMessage.game_id) == mail.game.id,
                                     col(TalkMessage.deleted_at).is_(None)).order_by(col(TalkMessage.id))
    ).scalars().all()
    told = [TalkLine(mail.names.get(row.seat, f"Player {row.seat + 1}"), unlinked(row.text), row.channel == "team")
            for row in rows]
    return told[-MAX_LINES:], max(0, len(told) - MAX_LINES)


def context(session: Session, mail: Mail) -> Context:
    """What every email's _talk include reads."""
    shown, more = lines(session, mail)
    return {"talk_lines": shown, "talk_more": more}


def _talk_line(context: Context) -> str:
    names = sorted({line.name for line in context["talk_lines"]})
    if not names:
        return f"New table talk in {context['title']} #{context['game'].id}."
    who = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    return f"{who} wrote at the table of {context['title']} #{context['game'].id}."


def _talk_wanted(session: Session, mail: Mail) -> bool:
    """Not to a seat whose game emails are off, nor when every message it would tell was deleted."""
    return mail.player.turn_emails and bool(lines(session, mail)[0])


def _tag(params: dict[str, Any]) -> str:
    return f"talk-{params['talk'][0]}"


TALK = register(Kind("talk", _talk_line, wanted=_talk_wanted, tag=_tag))  # compose adds `context` to every kind
