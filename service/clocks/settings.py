"""A game's time control as people give it (the start form, the command line): hours per turn, what
happens when a deadline passes, and the reminder ladder."""

from __future__ import annotations

from typing import Any

from service.errors import Invalid

DEFAULT_REMINDERS = (24, 2)
POLICIES = ("auto", "skip", "forfeit", "pause", "bot")
MAX_HOURS = 24 * 60


class ClockError(Invalid):
    """Bad time-control input; the message is for people."""


def parse_settings(hours: Any, policy: Any, reminders: Any) -> tuple[int | None, str, list[int]]:
    """Validated (hours, policy, ladder) from command-line or form text; raises ClockError."""
    if hours in (None, "", "none", "0", 0):
        parsed_hours = None
    else:
        try:
            parsed_hours = int(str(hours).strip())
        except ValueError:
            raise ClockError("The deadline must be a whole number of hours (or empty for none).") from None
        if not 1 <= parsed_hours <= MAX_HOURS:
            raise ClockError(f"The deadline must be between 1 and {MAX_HOURS} hours.")
    policy = (policy or "auto").strip().lower()
    if policy not in POLICIES:
        raise ClockError(f"The timeout policy must be one of: {', '.join(POLICIES)}.")
    if reminders is None:
        ladder = list(DEFAULT_REMINDERS)
    else:
        text = reminders if isinstance(reminders, str) else ",".join(str(r) for r in reminders)
        try:
            ladder = sorted({int(part) for part in text.split(",") if part.strip()}, reverse=True)
        except ValueError:
            raise ClockError("Reminders are hours before the deadline, like 24,2.") from None
        if any(not 1 <= h <= MAX_HOURS for h in ladder) or len(ladder) > 5:
            raise ClockError(f"Give at most 5 reminders, each 1 to {MAX_HOURS} hours before the deadline.")
    return parsed_hours, policy, ladder
