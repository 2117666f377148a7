"""Time zones as people pick them: the names we know, a name as a person types it, and a short list of
the zones near a person's own.

The list of every zone (554 names) made half of the player page's HTML, so the page offers a short
list (the zones of the person's region that keep their time or come nearest it, at most SHORT) and a
field where any zone is typed: by its name ("Asia/Taipei") or its city ("taipei", "New York").  The
page's script fills the field's suggestions from `names()` (GET /time-zones); without it, `resolve`
understands what was typed and a name it does not know gets the nearest ones it does.
"""

from __future__ import annotations

import difflib
import re
from datetime import UTC, datetime
from functools import lru_cache
from zoneinfo import ZoneInfo, available_timezones

from markupsafe import Markup, escape

SHORT = 60  # options of the short list, at most
# The short list of a person with no region (UTC, Etc/…): well-known zones around the world.
WORLD = (
    "Pacific/Honolulu", "America/Anchorage", "America/Los_Angeles", "America/Denver", "America/Phoenix",
    "America/Chicago", "America/Mexico_City", "America/New_York", "America/Bogota", "America/Halifax",
    "America/Santiago", "America/Sao_Paulo", "America/Argentina/Buenos_Aires", "America/St_Johns",
    "Atlantic/Azores", "Europe/London", "Europe/Lisbon", "Africa/Lagos", "Europe/Paris", "Europe/Berlin",
    "Europe/Warsaw", "Africa/Cairo", "Africa/Johannesburg", "Europe/Kyiv", "Europe/Istanbul",
    "Europe/Moscow", "Africa/Nairobi", "Asia/Tehran", "Asia/Dubai", "Asia/Karachi", "Asia/Kolkata",
    "Asia/Kathmandu", "Asia/Dhaka", "Asia/Bangkok", "Asia/Jakarta", "Asia/Shanghai", "Asia/Singapore",
    "Asia/Taipei", "Asia/Manila", "Asia/Tokyo", "Asia/Seoul", "Australia/Perth", "Australia/Adelaide",
    "Australia/Brisbane", "Australia/Sydney", "Pacific/Auckland", "UTC",
)


@lru_cache(maxsize=1)
def names() -> tuple[str, ...]:
    """Every zone a person may choose: the IANA names with a region, and UTC."""
    return tuple(sorted(name for name in available_timezones() if "/" in name or name == "UTC"))


def _key(text: str) -> str:
    """A name as typed, compared loosely: any case, spaces for underscores."""
    return re.sub(r"[\s_]+", "_", text.strip()).casefold()


@lru_cache(maxsize=1)
def _by_key() -> tuple[dict[str, str], dict[str, list[str]]]:
    full: dict[str, str] = {}
    cities: dict[str, list[str]] = {}
    # Fewest parts first: "Buenos Aires" is America/Buenos_Aires before America/Argentina/Buenos_Aires.
    for name in sorted(names(), key=lambda n: (n.count("/"), n)):
        full[_key(name)] = name
        cities.setdefault(_key(name.rsplit("/", 1)[-1]), []).append(name)
    return full, cities


def resolve(typed: str) -> str | None:
    """The zone a person meant: its exact name, the name in any case, or its city; None if none."""
    text = typed.strip()
    if text in names():
        return text
    full, cities = _by_key()
    key = _key(text)
    if key in full:
        return full[key]
    found = cities.get(key)
    return found[0] if found else None


def unknown(typed: str) -> str:
    """What to tell a person whose zone we do not know: how to type one, and the nearest we know."""
    full, cities = _by_key()
    key = _key(typed)
    close = difflib.get_close_matches(key, list(full) + list(cities), n=3, cutoff=0.75)
    meant = list(dict.fromkeys(full.get(k) or cities[k][0] for k in close))
    words = (f"{typed.strip()[:64]!r} is not a time zone we know. Type a zone's name (Europe/Paris) or "
             "its city (Paris)")
    return words + (f": did you mean {' or '.join(meant)}?" if meant else ".")


def region(name: str) -> str | None:
    """The first part of a zone's name ("Europe" of Europe/Kyiv); None for UTC and the Etc/ zones."""
    first = name.split("/", 1)[0]
    return first if "/" in name and first != "Etc" else None


def _offset(zone: ZoneInfo, moment: datetime) -> int:
    found = moment.astimezone(zone).utcoffset()
    return int(found.total_seconds()) if found is not None else 0


def offset_words(seconds: int) -> str:
    """"UTC+2", "UTC−3" (a minus sign, read out as "minus"), "UTC+5:30", "UTC"."""
    if seconds == 0:
        return "UTC"
    sign = "+" if seconds > 0 else "−"
    hours, minutes = divmod(abs(seconds) // 60, 60)
    return f"UTC{sign}{hours}" + (f":{minutes:02d}" if minutes else "")


def label(name: str, now: datetime) -> str:
    """An option's words: the zone's name, readably, with its offset now ("America/New York (UTC−5)")."""
    if name == "UTC":
        return name
    return f"{name.replace('_', ' ')} ({offset_words(_offset(ZoneInfo(name), now))})"


def nearby(name: str, now: datetime) -> list[tuple[str, str]]:
    """The short list for a person in zone `name`: (zone, label) pairs, the zone itself and UTC among them.

    The zones of the person's region, those that keep the person's time in January and July first,
    then those one step further away, a whole step at a time while the list stays within SHORT; a
    person with no region gets WORLD.  Ordered by name, WORLD by offset (west to east)."""
    hour = now.astimezone(UTC).replace(minute=0, second=0, microsecond=0)
    return list(_nearby(name, hour))


def options(name: str, now: datetime) -> Markup:
    """The short list (`nearby`) as the time zone form's `<option>`s, `name`'s selected: made once an
    hour per zone (issue #27: up to 60 options, escaped one by one by the template on every page)."""
    return _options(name, now.astimezone(UTC).replace(minute=0, second=0, microsecond=0))


@lru_cache(maxsize=256)
def _options(name: str, hour: datetime) -> Markup:
    return Markup("".join(f'<option value="{escape(zone)}"{" selected" if zone == name else ""}>{escape(label)}</option>'
                          for zone, label in _nearby(name, hour)))


@lru_cache(maxsize=256)
def _nearby(name: str, now: datetime) -> tuple[tuple[str, str], ...]:
    area = region(name) if name in names() else None
    if area is None:
        world = [zone for zone in WORLD if zone in names()]
        chosen = sorted(world, key=lambda zone: (_offset(ZoneInfo(zone), now), zone))
        if name not in chosen and name in names():
            chosen.insert(0, name)
        return tuple((zone, label(zone, now)) for zone in chosen)
    seasons = [datetime(now.year, 1, 15, tzinfo=UTC), datetime(now.year, 7, 15, tzinfo=UTC)]
    mine = [_offset(ZoneInfo(name), moment) for moment in seasons]
    steps: dict[int, list[str]] = {}
    for zone in names():
        if zone.startswith(area + "/"):
            distance = sum(abs(_offset(ZoneInfo(zone), moment) - own) for moment, own in zip(seasons, mine))
            steps.setdefault(distance, []).append(zone)
    chosen = [name]
    room = SHORT - 2  # the zone itself and UTC
    for distance in sorted(steps):
        others = [zone for zone in steps[distance] if zone != name]
        if len(others) > room - (len(chosen) - 1):
            if len(chosen) == 1:  # not even the zones of the person's own time fit: the first of them
                chosen += others[: room]
            break
        chosen += others
    return tuple((zone, label(zone, now)) for zone in [*sorted(chosen), "UTC"])
