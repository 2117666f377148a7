"""What the player page shows of the table talk: the messages among the last moves, in time order
(templates/play/_recent.html), and the talk panel with the earlier ones and the message box
(templates/talk/_panel.html); the forms they post to are service/web/talk.py's.

Time order: a message written while the game stood at seq N comes after the game's event N and before
event N + 1 (messages of one seq by the time they were written).  The last moves list shows the events
from its first line on, so the messages written from just before that line are placed among them; the
older ones are the panel's "earlier talk"."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlmodel import Session

from service import store
from service.store.inboxes import key as inbox_key
from service.store.models import Person, Player, TalkOpen, utcnow
from service.talk import messages
from service.views.times import soon_time
from service.web import language

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


@dataclass(frozen=True)
class Entry:
    """One line of the last moves list: a move's sentence, or a message."""

    seq: int
    text: str = ""
    said: messages.Said | None = None


def interleaved(since: list[tuple[int, str]], talk: list[messages.Said]) -> tuple[list[Entry], list[messages.Said]]:
    """(the last moves with the messages written among them, in time order; the messages before them)."""
    if not since:
        return [], list(talk)
    first = since[0][0] - 1  # a message written at the seq before the first line's comes before it
    entries = [Entry(seq, text) for seq, text in since]
    entries += [Entry(said.seq, said=said) for said in talk if said.seq >= first]
    # Events first at their seq (a message at seq N follows event N), then messages by time, then id.
    entries.sort(key=lambda e: (e.seq, e.said is not None, e.said.created_at if e.said else EPOCH,
                                e.said.id if e.said else 0))
    return entries, [said for said in talk if said.seq < first]


def page_talk(session: Session, player: Any, since: list[tuple[int, str]] | None = None, *,
              players: list[Player] | None = None, people: Mapping[str, Person] | None = None) -> dict[str, Any]:
    """What the player page shows of the talk (`since`: the page's last moves, (seq, sentence));
    `players`, `people`: the game's seats and people, read already (store.people_of)."""
    viewer = session.get(Player, player.id)
    assert viewer is not None
    game = store.get_game(session, player.game_id)
    muted = messages.muted_by(session, viewer)
    players = players if players is not None else store.players_of(session, game.id)
    names = store.seat_names(players)
    seen = messages.visible(session, game.id, viewer, players=players, muted=muted)
    zone_name, now = store.person_of(session, viewer.email, people).time_zone, utcnow()
    recent, earlier = interleaved(since or [], seen)
    return {
        "messages": seen,
        "recent": recent,  # the last moves with the messages among them
        "earlier": earlier,  # the panel's: the messages before the last moves
        "recent_talk": sum(entry.said is not None for entry in recent),
        # When each was written, in the reader's zone ("Sun 29 Nov, 09:40"): "away until Monday" needs it.
        "when": {said.id: soon_time(said.created_at, zone_name, now, language.current()) for said in seen},
        "channels": messages.channels(session, viewer, len(players)),
        "team": [names[s] for s in messages.team_of(session, game, viewer.seat, len(players)) if s != viewer.seat],
        "muted": [(p.seat, names[p.seat]) for p in players if inbox_key(p.email) in muted and p.id != viewer.id],
        "open": session.get(TalkOpen, game.id) is not None,
        "max_chars": messages.MAX_CHARS,
    }
