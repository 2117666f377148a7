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

import gc
import json
from collections.abc import Iterator
from contextlib import contextmanager
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


@contextmanager
def collector_paused() -> Iterator[None]:
    """The cyclic garbage collector held off for a bulk decode (and a replay of what it decoded).

    Decoding a log makes thousands of containers that all survive (plain JSON: no cycles, freed by
    reference counting), so every collection the allocations trigger walks them for nothing: ~12
    young and one middle collection per 2,000-event replay, a quarter of the decode's CPU time and
    ~10% of a replay's (bench/replay.py).  Process-wide, so only ever re-enabled by the call that
    disabled it: of two threads replaying at once, the second sees it off and leaves it so."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def loads_all(texts: list[str]) -> list[Any]:
    """The values of `texts` (each one whole JSON value, as the database stored it), decoded in one
    call over the joined texts: one pass of the C decoder instead of one call per row."""
    if not texts:
        return []
    # The brackets go on the first and last texts, not around the joined text: each concatenation of a
    # log's few hundred KB is a fresh allocation (page faults and a copy), ~0.2 ms a replay.
    joined = ",".join(["[" + texts[0], *texts[1:-1], texts[-1] + "]"]) if len(texts) > 1 else f"[{texts[0]}]"
    with collector_paused():
        values = loads(joined)
    if len(values) != len(texts):  # a text that was not one whole value would shift every later row
        return [loads(text) for text in texts]
    return values  # type: ignore[no-any-return]
