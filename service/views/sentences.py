"""Every line of a game's history in words, written once and used by pages, emails and history.

- Engine events (kind "setup", "move", "timeout"): the engine's `describe_event(event, seat, state)`,
  worded from the state the event was applied to, and by contract revealing nothing that seat may
  not see.  A timeout's events are the default move the service made for the seat, so the engine's
  sentence gets a note saying so.
- Service events (kind "system", e.g. the end of a game decided by the service): engines never see
  them, so their words come from the table below.
- Journal entries (reminders, vacations, pauses; service/store/journal.py): `journal_sentence`, also
  the words of the notice emails that tell about them.

Service payloads hold public details only, and the words below use only seats, player names and
the few fields named here, so nothing hidden can pass through them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import engine
from service.store.models import JournalEntry

# Events that engines never see (kind "system"): type -> sentence.  {who} is the seat's player.
# "game_finished" is the recorded end of a game (service/play/ending.py); its payload holds the result.
SYSTEM_SENTENCES = {
    "game_finished": "The game is over.",
    "abandoned": "The game was abandoned.",
    "cancelled": "The game was cancelled.",
}

TIMEOUT_NOTE = " (Time ran out: the service made this move.)"

# Payload fields of service rows that may name a seat.
SEAT_FIELDS = ("seat", "player", "by_seat")

# What happens when a deadline passes, per timeout policy (service/clocks), for pages and emails.
POLICY_WORDS = {
    "auto": "If the deadline passes, the game's safe default move is played for you.",
    "skip": "If the deadline passes, your turn is passed where the rules allow it (else the default move is played).",
    "forfeit": "If the deadline passes, you forfeit the game.",
    "pause": "If the deadline passes, the game is paused and everyone is told.",
}

Names = Mapping[int, str] | None


def who(seat: int | None, viewer: int | None, names: Names) -> str:
    """"You" for the viewer, else the player's name (public), else "Player N"."""
    if seat is None:
        return "Someone"
    if viewer is not None and seat == viewer:
        return "You"
    if names and seat in names:
        return names[seat]
    return f"Player {seat + 1}"


def _seat_of(payload: Mapping[str, Any], fallback: int | None) -> int | None:
    for key in SEAT_FIELDS:
        if isinstance(payload.get(key), int) and not isinstance(payload.get(key), bool):
            return payload[key]
    return fallback


def _words(kind: str) -> str:
    return kind.replace("_", " ").strip().capitalize() or "Something happened"


def system_sentence(payload: Mapping[str, Any], actor: int | None, viewer: int | None, names: Names = None) -> str:
    kind = str(payload.get("type") or payload.get("kind") or "")
    template = SYSTEM_SENTENCES.get(kind)
    if template is None:
        # An unknown kind still gets a line (history must not silently drop anything), worded
        # from its name only: its other fields are not known to be public.
        return f"{_words(kind)}."
    result = payload.get("result")
    if kind == "game_finished" and isinstance(result, Mapping):
        return _finished(result, viewer, names)
    sentence = template.format(who=who(_seat_of(payload, actor), viewer, names))
    reason = payload.get("reason")
    if isinstance(reason, str) and reason and "{" not in reason:
        sentence = f"{sentence[:-1]} ({reason.replace('_', ' ')})."
    return sentence


def _finished(result: Mapping[str, Any], viewer: int | None, names: Names) -> str:
    forfeited = result.get("forfeited")
    start = "The game is over"
    if isinstance(forfeited, int) and not isinstance(forfeited, bool):
        start = f"{who(forfeited, viewer, names)} ran out of time and forfeited; the game is over"
    winners = [w for w in result.get("winners") or [] if isinstance(w, int)]
    if not winners:
        return f"{start}, without a winner."
    named = [who(w, viewer, names) for w in winners]
    text = named[0] if len(named) == 1 else ", ".join(named[:-1]) + " and " + named[-1]
    return f"{start}: {text} won."


def event_sentence(
    rules: engine.Game, payload: dict[str, Any], kind: str, actor: int | None, viewer: int | None,
    state: dict[str, Any] | None, names: Names = None,
) -> str | None:
    """The event as a sentence for `viewer` (None: a spectator), `state` being the state it was applied
    to (the engine words it from there); None if it is not worth a line."""
    if kind == "system":
        return system_sentence(payload, actor, viewer, names)
    text = rules.describe_event(payload, viewer, state)
    if text and kind == "timeout":
        text = text + TIMEOUT_NOTE
    return text


def journal_sentence(entry: JournalEntry, names: Names = None) -> str:
    """A journal entry (reminder, vacation, pause...) as one sentence for players and the history."""
    names = dict(names or {})
    whom = names.get(entry.seat, f"seat {entry.seat + 1}") if entry.seat is not None else ""
    data = entry.payload or {}
    if entry.kind == "reminder":
        return f"{whom} was reminded: {data.get('hours')} hours left to move."
    if entry.kind == "vacation_start":
        return f"{whom} is on vacation: their clock is stopped until they are back."
    if entry.kind == "vacation_end":
        return f"{whom} is back from vacation: their clock runs again."
    if entry.kind == "paused":
        if data.get("reason") == "timeouts":
            return (f"The game is paused: every player's turns timed out {data.get('rounds')} rounds "
                    "in a row. It resumes, with fresh clocks, when anyone plays.")
        return f"The game is paused: {whom} ran out of time. It resumes, with fresh clocks, when {whom} plays."
    if entry.kind == "resumed":
        return f"The game resumed: {data.get('by') or whom} played. The clocks run again."
    if entry.kind == "forfeit":
        return f"{whom} ran out of time and forfeited the game."
    return str(entry.kind).replace("_", " ")
