"""Helpers to read the app's HTML in tests."""

from __future__ import annotations

import html
import re

CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')


def csrf_token(page: str) -> str:
    match = CSRF.search(page)
    assert match, "the page has no CSRF token"
    return match.group(1)


def move_values(page: str) -> list[str]:
    """The raw `value` of each move radio button (a JSON move), unescaped."""
    return [html.unescape(v) for v in re.findall(r'<input type="radio" name="move" value="([^"]*)"', page)]


def setting_values(page: str) -> list[str]:
    """The raw `value` of each option of the standing-settings drop-downs (a JSON move), unescaped
    (not the time zone list's options: only those of a <select name="move">)."""
    selects = re.findall(r'<select name="move".*?</select>', page, re.S)
    return [html.unescape(v) for found in selects for v in re.findall(r'<option value="([^"]+)"', found)]


def text(response) -> str:
    return response.get_data(as_text=True)


# A game's start form (GET /games/new lists the games; each has a form of its own).  Any game's form
# carries the session's CSRF token, which every post to POST /games/new needs.
START_FORM = "/games/new/riftforce"


def start_form(game: str) -> str:
    return f"/games/new/{game}"
