"""Stored JSON encoded: msgspec's encoder, compact, with json.dumps writing whatever msgspec refuses.

Every JSON column is written through `dumps` (service/store/db.py `make_engine`); a move writes about a
dozen (the state row, its events, the read model, a snapshot, the outbox's params).  msgspec writes a
Riftforce state in about a quarter of json.dumps's time and an event in a tenth (~16 -> ~4 µs, ~4 ->
~0.4 µs), compact (no space after a separator; UTF-8 rather than \\u escapes).  The stored text changes
form, never value: every reader parses it (service/store/jsondecode.py; on PostgreSQL the driver's JSON
loader), and no query looks inside the text or compares it.

The values are the same JSON values json.dumps writes for everything stored: JSON data, which the
engines' contract holds their states, events and results to (tests/engine/test_contract.py:
`json.loads(json.dumps(x)) == x`, so no NaN, set or tuple), and the service's own (seats, scores,
an email's params).  What msgspec refuses, json.dumps writes (or refuses) exactly as before: a dict key
that is a bool or None, a lone surrogate, an object of no JSON type (tests/service/test_jsonencode.py).
Two things msgspec writes that json.dumps would not, neither of which any writer here makes: a float
NaN or infinity (null, where json.dumps writes NaN, which PostgreSQL's json refuses anyway), and a set,
bytes, a date or a dataclass (where json.dumps raises TypeError).
"""

from __future__ import annotations

import json
from typing import Any

import msgspec

_ENCODE = msgspec.json.Encoder().encode
# msgspec's EncodeError (and the UnicodeEncodeError of a lone surrogate) is a ValueError; an unsupported
# type or key raises TypeError.
_REFUSED = (TypeError, ValueError, OverflowError, RecursionError)


def dumps(value: Any) -> str:
    """The JSON text of `value`, as json.loads reads json.dumps(value) back."""
    try:
        return _ENCODE(value).decode()
    except _REFUSED:
        return json.dumps(value)
