"""Every line of a game's history in words, written once and used by pages, emails and history.

- Engine events (kind "setup", "move", "timeout"): the engine's `describe_event(event, seat)`,
  which by contract reveals nothing that seat may not see.  A timeout's events are the default
  move the service made for the seat, so the engine's sentence gets a note saying so.
- Service events (kind "system", e.g. the end of a game decided by the service): engines never see
  them, so their words come from the table below.
- Journal entries (reminders, vacations, pauses; service/journal.py): worded by the deadline
  module that writes them (service/deadlines.py `describe`), also used by its notice emails.

Service payloads hold public details only (service/journal.py), and the words below use only
seats, player names and the few fields named here, so nothing hidden can pass through them.
"""

from __future__ import annotations

from typing import Any, Mapping, Optional

import engine

# Events that engines never see (kind "system"): type -> sentence.  {who} is the seat's player.
# "game_finished" is the recorded end of a game (service/ending.py); its payload holds the result.
SYSTEM_SENTENCES = {
    "game_finished": "The game is over.",
    "abandoned": "The game was abandoned.",
    "cancelled": "The game was cancelled.",
}

TIMEOUT_NOTE = " (Time ran out: the service made this move.)"

# Payload fields of service rows that may name a seat.
SEAT_FIELDS = ("seat", "player", "by_seat")


def who(seat: Optional[int], viewer: Optional[int], names: Mapping[int, str] | None) -> str:
    """"you" for the viewer, else the player's name (public), else "Player N"."""
    if seat is None:
        return "Someone"
    if viewer is not None and seat == viewer:
        return "You"
    if names and seat in names:
        return names[seat]
    return f"Player {seat + 1}"


def _seat_of(payload: Mapping[str, Any], fallback: Optional[int]) -> Optional[int]:
    for key in SEAT_FIELDS:
        if isinstance(payload.get(key), int) and not isinstance(payload.get(key), bool):
            return payload[key]
    return fallback


def _fill(template: str, seat: Optional[int], viewer: Optional[int], names) -> str:
    return template.format(who=who(seat, viewer, names))


def _words(kind: str) -> str:
    return kind.replace("_", " ").strip().capitalize() or "Something happened"


def system_sentence(payload: Mapping[str, Any], actor: Optional[int], viewer: Optional[int], names=None) -> str:
    kind = str(payload.get("type") or payload.get("kind") or "")
    seat = _seat_of(payload, actor)
    template = SYSTEM_SENTENCES.get(kind)
    if template is None:
        # An unknown kind still gets a line (history must not silently drop anything), worded
        # from its name only: its other fields are not known to be public.
        return f"{_words(kind)}."
    sentence = _fill(template, seat, viewer, names)
    result = payload.get("result")
    if kind == "game_finished" and isinstance(result, dict):
        return _finished(result, viewer, names)
    reason = payload.get("reason")
    if isinstance(reason, str) and reason and "{" not in reason:
        sentence = f"{sentence[:-1]} ({reason.replace('_', ' ')})."
    return sentence


def _finished(result: Mapping[str, Any], viewer: Optional[int], names) -> str:
    forfeited = result.get("forfeited")
    start = "The game is over"
    if isinstance(forfeited, int) and not isinstance(forfeited, bool):
        subject = who(forfeited, viewer, names)
        start = f"{subject} ran out of time and forfeited; the game is over"
    winners = [w for w in result.get("winners") or [] if isinstance(w, int)]
    if not winners:
        return f"{start}, without a winner."
    named = [who(w, viewer, names) for w in winners]
    text = named[0] if len(named) == 1 else ", ".join(named[:-1]) + " and " + named[-1]
    return f"{start}: {text} won."


def event_sentence(
    rules: engine.Game, payload: dict, kind: str, actor: Optional[int], viewer: Optional[int],
    names: Mapping[int, str] | None = None,
) -> Optional[str]:
    """The event as a sentence for `viewer` (None: a spectator); None if it is not worth a line."""
    if kind == "system":
        return system_sentence(payload, actor, viewer, names)
    text = rules.describe_event(payload, viewer)
    if text and kind == "timeout":
        text = text + TIMEOUT_NOTE
    return text


def journal_sentence(entry: Any, viewer: Optional[int], names: Mapping[int, str] | None = None) -> str:
    """A journal entry (reminder, vacation, pause...) in words: the deadline module words its own
    entries (service/deadlines.py `describe`), so pages, notices and history say the same."""
    try:
        from service.deadlines import describe
    except ImportError:  # a checkout without time control writes no journal entries of its own
        return f"{_words(str(entry.kind))}."
    return describe(entry, dict(names or {}))
