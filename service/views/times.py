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
