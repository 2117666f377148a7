"""A game's time control as people give it (the start form, the command line): hours per turn, what
happens when a deadline passes, and the reminder ladder."""

from __future__ import annotations

from typing import Any

from service.errors import Invalid
from service.lang import N_, Nf_

DEFAULT_REMINDERS = (24, 2)
POLICIES = ("auto", "skip", "forfeit", "pause", "bot")
MAX_HOURS = 24 * 60


class ClockError(Invalid):
    """Bad time-control input; the message is for people (marked for the catalogs: pages say it in their
    reader's language)."""


def parse_settings(hours: Any, policy: Any, reminders: Any) -> tuple[int | None, str, list[int]]:
    """Validated (hours, policy, ladder) from command-line or form text; raises ClockError."""
    if hours in (None, "", "none", "0", 0):
        parsed_hours = None
    else:
        try:
            parsed_hours = int(str(hours).strip())
        except ValueError:
            raise ClockError(N_("The deadline must be a whole number of hours (or empty for none).")) from None
        if not 1 <= parsed_hours <= MAX_HOURS:
            raise ClockError(Nf_("The deadline must be between 1 and %(most)d hours.", most=MAX_HOURS))
    policy = (policy or "auto").strip().lower()
    if policy not in POLICIES:
        raise ClockError(Nf_("The timeout policy must be one of: %(policies)s.", policies=", ".join(POLICIES)))
    if reminders is None:
        ladder = list(DEFAULT_REMINDERS)
    else:
        text = reminders if isinstance(reminders, str) else ",".join(str(r) for r in reminders)
        try:
            ladder = sorted({int(part) for part in text.split(",") if part.strip()}, reverse=True)
        except ValueError:
            raise ClockError(N_("Reminders are hours before the deadline, like 24,2.")) from None
        if any(not 1 <= h <= MAX_HOURS for h in ladder) or len(ladder) > 5:
            raise ClockError(Nf_("Give at most 5 reminders, each 1 to %(most)d hours before the deadline.", most=MAX_HOURS))
    return parsed_hours, policy, ladder
