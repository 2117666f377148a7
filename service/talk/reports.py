"""Reported messages, for the operator (`flask --app service reports`)."""

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
    at: datetime
    game_id: int
    message_id: int
    writer: str
    reporter: str
    channel: str
    deleted: bool
    text: str
    reason: str

    def line(self) -> str:
        text = self.text if len(self.text) <= SHOWN else self.text[:SHOWN - 1] + "…"
        shown = "(deleted)" if self.deleted else repr(text)  # repr: one line, nothing a terminal obeys
        reason = f" reason={self.reason!r}" if self.reason else ""
        return (f"#{self.id} {self.at:%Y-%m-%d %H:%M} game {self.game_id} message {self.message_id} "
                f"[{self.channel}] by {self.writer}, reported by {self.reporter}{reason}: {shown}")


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
    return [Reported(report.id, as_utc(report.created_at), message.game_id, message.id,
                     f"{player_name(w.name, w.seat)} <{w.email}>", f"{player_name(r.name, r.seat)} <{r.email}>",
                     message.channel, message.deleted_at is not None, message.text, report.reason)
            for report, message, w, r in rows]
