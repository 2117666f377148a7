"""JSON read from people and clients (forms, the play API, start options), bounded before it is
parsed: the standard parser recurses once per level, so a text nested a thousand deep would raise
RecursionError (a 500) instead of the clear 4xx every bad input gets."""

from __future__ import annotations

import json
from typing import Any

MAX_DEPTH = 16  # deeper than any move, option or request body of ours


class TooDeep(ValueError):
    """The text nests arrays and objects deeper than allowed."""


def depth_over(text: str, limit: int) -> bool:
    """Whether arrays and objects nest deeper than `limit` (strings and their escapes skipped)."""
    if text.count("[") + text.count("{") <= limit:
        return False  # (an upper bound of the depth, brackets in strings counted too: a move's body, at once)
    depth, in_string, escaped = 0, False, False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > limit:
                return True
        elif char in "]}":
            depth -= 1
    return False


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def loads(text: str, *, max_depth: int = MAX_DEPTH) -> Any:
    """`json.loads` for outside input: ValueError (TooDeep for nesting over `max_depth`) for anything
    that is not plain JSON, NaN and Infinity included."""
    if depth_over(text, max_depth):
        raise TooDeep(f"The JSON nests deeper than {max_depth} levels.")
    if text.startswith("\ufeff"):  # as json.loads refuses it
        raise json.JSONDecodeError("Unexpected UTF-8 BOM (decode using utf-8-sig)", text, 0)
    return _DECODER.decode(text)


# json.loads with an argument makes a decoder per call: one, made once
_DECODER = json.JSONDecoder(parse_constant=_no_constant)
