"""Stored JSON decoded: msgspec's decoder, with json.loads deciding whatever msgspec refuses.

A replay from the database is mostly decoding (bench/replay.py): msgspec reads the events' JSON in about
half the time json.loads takes.  It gives the very values json.loads gives for every JSON that both
read; where they differ, msgspec refuses (NaN and Infinity, numbers beyond a double such as 1e400, a
lone surrogate escape, nesting deeper than it allows) and json.loads then reads the text, so what a
reader gets never depends on which decoder ran (tests/service/test_jsondecode.py).  orjson, as fast
here, reads an integer beyond 64 bits as a float without a word, so it is not used.

What is written: service/store/jsonencode.py (msgspec's compact text, the values json.dumps writes).
"""

from __future__ import annotations

import json
from typing import Any

import msgspec

_DECODER = msgspec.json.Decoder()
# msgspec's DecodeError (and its ValidationError: a number out of range) is a ValueError, as is the
# UnicodeEncodeError of a str holding a lone surrogate.
_REFUSED = (ValueError, RecursionError)


def loads(text: str | bytes) -> Any:
    """The value of one JSON text, as json.loads reads it."""
    try:
        return _DECODER.decode(text)
    except _REFUSED:
        return json.loads(text)


def loads_all(texts: list[str]) -> list[Any]:
    """The values of `texts` (each one whole JSON value, as the database stored it), decoded in one
    call over the joined texts: one pass of the C decoder instead of one call per row."""
    if not texts:
        return []
    values = loads("[" + ",".join(texts) + "]")
    if len(values) != len(texts):  # a text that was not one whole value would shift every later row
        return [loads(text) for text in texts]
    return values  # type: ignore[no-any-return]
