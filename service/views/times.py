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
    """An absolute time in the person's zone, unambiguous in an email ("Tue 24 Nov 2026, 14:00 CET")."""
    return moment.astimezone(zone(zone_name)).strftime("%a %d %b %Y, %H:%M %Z")


def short_time(moment: datetime, zone_name: str | None) -> str:
    """A deadline in one short phrase of the reader's zone, for a subject-sized first line: "Thu 28 Nov
    18:00 your time" in the zone the person chose, "Thu 28 Nov 18:00 UTC" while they chose none."""
    place = zone(zone_name)
    words = moment.astimezone(place).strftime("%a %d %b %H:%M").replace(" 0", " ", 1)
    return f"{words} UTC" if place.key == "UTC" else f"{words} your time"
