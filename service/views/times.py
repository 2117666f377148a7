"""Times as people read them: an absolute time in the reader's own time zone, and in their language
(`language`: service/lang.py; English keeps its own compact forms, the others are CLDR's by Babel,
with 24-hour times in every language)."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from babel.dates import format_skeleton

from service.lang import ENGLISH, translations


def _cldr(local: datetime, skeleton: str, language: str) -> str:
    return format_skeleton(skeleton, local, locale=language)


def zone(name: str | None) -> ZoneInfo:
    try:
        return ZoneInfo(name or "UTC")
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


def local_time(moment: datetime, zone_name: str | None, language: str = ENGLISH) -> str:
    """An absolute time in the person's zone, unambiguous in an email ("Tue 4 Nov 2026, 14:00 CET"): the
    one form of a time in every email, its first line included, and on the pages."""
    local = moment.astimezone(zone(zone_name))
    if language != ENGLISH:
        comma = " " if language.startswith("zh") else ", "
        return f"{_cldr(local, 'yMMMEd', language)}{comma}{_cldr(local, 'Hm', language)} {local:%Z}"
    return f"{local:%a} {local.day} {local:%b %Y, %H:%M %Z}"


def soon_time(moment: datetime, zone_name: str | None, now: datetime, language: str = ENGLISH) -> str:
    """A time near `now` as a list of games says it, short: "Sat 14:00" within the coming week (the
    weekday names it), "Sat 14 Nov, 14:00" further away or in the past."""
    local, today = moment.astimezone(zone(zone_name)), now.astimezone(zone(zone_name))
    this_week = 0 <= (local.date() - today.date()).days < 7
    if language != ENGLISH:
        return f"{_cldr(local, 'E' if this_week else 'MMMEd', language)} {_cldr(local, 'Hm', language)}"
    if this_week:
        return f"{local:%a %H:%M}"
    return f"{local:%a} {local.day} {local:%b, %H:%M}"


def day_words(moment: datetime, zone_name: str | None, language: str = ENGLISH) -> str:
    """The day of a time in the reader's zone: "Tue 4 Nov 2026"."""
    local = moment.astimezone(zone(zone_name))
    if language != ENGLISH:
        return _cldr(local, "yMMMEd", language)
    return f"{local:%a} {local.day} {local:%b %Y}"


def span_words(seconds: float, language: str = ENGLISH) -> str:
    """A length of time, rounded as people say it: "under an hour", "5 hours", "2 days" (CLDR's plural
    forms in each language: Ukrainian has three)."""
    words = translations(language)
    hours = seconds / 3600
    if hours < 1:
        return words.gettext("under an hour")
    if hours < 48:
        count = round(hours)
        return words.ngettext("%(num)d hour", "%(num)d hours", count) % {"num": count}
    days = round(hours / 24)
    return words.ngettext("%(num)d day", "%(num)d days", days) % {"num": days}
