"""Reported messages, for the operator (`flask --app service reports`).

A report keeps a copy of the text as it was when it was reported (talk_reports.text): its writer may
delete the message afterwards, which empties the message's own text (the page then shows "deleted"),
and the operator still reads what the report is about.  People are named by their seat's name in the
game, never by their address: the listing may be pasted into an issue or a chat.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

import sqlalchemy as sa
from sqlalchemy.orm import aliased
from sqlmodel import Session, col

from service.names import player_name
from service.store.models import Player, TalkMessage, TalkReport, as_utc

# Characters of a message a listing shows (the rest: "…").
SHOWN = 200


@dataclass(frozen=True)
class Reported:
    id: int
    at: datetime  # when it was reported
    said_at: datetime  # when the message was written
    game_id: int
    message_id: int
    writer: str  # the writer's seat name
    reporter: str  # the reporter's seat name
    channel: str
    deleted: bool  # deleted by its writer since (the text below is the report's copy)
    text: str
    reason: str

    def line(self) -> str:
        text = self.text if len(self.text) <= SHOWN else self.text[:SHOWN - 1] + "…"
        reason = f" reason={self.reason!r}" if self.reason else ""
        deleted = " (deleted by its writer since)" if self.deleted else ""
        # repr: one line, nothing a terminal obeys (escape sequences, line breaks typed by a player).
        return (f"#{self.id} {self.at:%Y-%m-%d %H:%M} UTC game {self.game_id} message {self.message_id} "
                f"[{self.channel}] written {self.said_at:%Y-%m-%d %H:%M} by {self.writer!r}, reported by "
                f"{self.reporter!r}{reason}: {text!r}{deleted}")


def listing(session: Session, limit: int = 200) -> list[Reported]:
    """The newest reports first."""
    writer, reporter = aliased(Player), aliased(Player)
    rows = session.execute(
        sa.select(TalkReport, TalkMessage, writer, reporter)
        .join(TalkMessage, col(TalkMessage.id) == col(TalkReport.message_id))
        .join(writer, col(writer.id) == col(TalkMessage.player_id))
        .join(reporter, col(reporter.id) == col(TalkReport.reporter))
        .order_by(col(TalkReport.id).desc()).limit(limit)
    ).all()
    return [Reported(report.id, as_utc(report.created_at), as_utc(message.created_at), message.game_id, message.id,
                     player_name(w.name, w.seat), player_name(r.name, r.seat), message.channel,
                     message.deleted_at is not None, report.text, report.reason)
            for report, message, w, r in rows]
