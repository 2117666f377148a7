"""Times as people read them: an absolute time in the reader's own time zone."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError


def zone(name: str | None) -> ZoneInfo:
    try:
        return ZoneInfo(name or "UTC")
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


def local_time(moment: datetime, zone_name: str | None) -> str:
    """An absolute time in the person's zone, unambiguous in an email ("Tue 4 Nov 2026, 14:00 CET"): the
    one form of a time in every email, its first line included, and on the pages."""
    local = moment.astimezone(zone(zone_name))
    return f"{local:%a} {local.day} {local:%b %Y, %H:%M %Z}"


def soon_time(moment: datetime, zone_name: str | None, now: datetime) -> str:
    """A time near `now` as a list of games says it, short: "Sat 14:00" within the coming week (the
    weekday names it), "Sat 14 Nov, 14:00" further away or in the past."""
    local, today = moment.astimezone(zone(zone_name)), now.astimezone(zone(zone_name))
    if 0 <= (local.date() - today.date()).days < 7:
        return f"{local:%a %H:%M}"
    return f"{local:%a} {local.day} {local:%b, %H:%M}"


def day_words(moment: datetime, zone_name: str | None) -> str:
    """The day of a time in the reader's zone: "Tue 4 Nov 2026"."""
    local = moment.astimezone(zone(zone_name))
    return f"{local:%a} {local.day} {local:%b %Y}"


def span_words(seconds: float) -> str:
    """A length of time, rounded as people say it: "under an hour", "5 hours", "2 days"."""
    hours = seconds / 3600
    if hours < 1:
        return "under an hour"
    if hours < 48:
        count = round(hours)
        return f"{count} hour{'s' if count != 1 else ''}"
    return f"{round(hours / 24)} days"
