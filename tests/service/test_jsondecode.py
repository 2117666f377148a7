"""Stored JSON reads as json.loads reads it, whichever decoder ran (service/store/jsondecode.py): the
rule that lets replay and every JSON column use msgspec without a stored value reading differently."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from service import store
from service.play import new_game
from service.store import get_engine, jsondecode, read_session, write_session
from service.store.log import _engine_payloads
from tests.service import toygame


def typed(value):
    """The value with every number's type kept (1 and 1.0 and True compare equal in Python; they must
    not here), NaN as a word (it equals nothing, not even itself)."""
    if isinstance(value, dict):
        return ("dict", [(key, typed(item)) for key, item in value.items()])
    if isinstance(value, list):
        return ("list", [typed(item) for item in value])
    if isinstance(value, float) and math.isnan(value):
        return ("float", "nan")
    return (type(value).__name__, value)


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.integers(min_value=-(2**200), max_value=2**200)
    | st.floats(allow_nan=True, allow_infinity=True) | st.text(),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(), inner, max_size=5),
    max_leaves=30,
)


@given(JSON_VALUES)
def test_every_value_json_dumps_writes_reads_back_as_json_loads_reads_it(value):
    text = json.dumps(value)  # what the columns hold: the writes are json.dumps's, unchanged
    assert typed(jsondecode.loads(text)) == typed(json.loads(text))
    assert typed(jsondecode.loads(text.encode())) == typed(json.loads(text))  # psycopg hands bytes


@given(st.lists(JSON_VALUES, max_size=8))
def test_a_batch_reads_as_each_text_alone(values):
    texts = [json.dumps(value) for value in values]
    assert typed(jsondecode.loads_all(texts)) == typed([json.loads(text) for text in texts])


@pytest.mark.parametrize("text", [
    "[NaN]", "[Infinity, -Infinity]", "[1e400]", '["\\ud800"]', '{"a": "\\udfff x"}',  # msgspec refuses these
    "[18446744073709551616]", "[-9223372036854775809]", "[123456789012345678901234567890]",  # orjson: floats
    '{"a": 1, "a": 2}', "[-0.0, 0.1, 1.0, 1E2, 5e-324]", '["caf\\u00e9 \\ud83d\\ude00"]',
    "[" * 2000 + "]" * 2000,  # deeper than msgspec goes; json.loads says what it is
])
def test_what_msgspec_refuses_or_reads_differently_elsewhere_reads_as_json_loads(text):
    try:
        expected = typed(json.loads(text))
    except RecursionError:
        with pytest.raises(RecursionError):
            jsondecode.loads(text)
        return
    assert typed(jsondecode.loads(text)) == expected
    assert typed(jsondecode.loads_all([text, "1"])) == typed([json.loads(text), 1])


def test_what_no_decoder_reads_is_still_a_value_error():
    with pytest.raises(ValueError):
        jsondecode.loads('{"a": ')


ODD = [
    {"type": "odd", "big": 2**70, "small": -(2**65), "u64": 2**64 - 1},
    {"type": "odd", "lone": "\ud800", "pair": "caf\u00e9 \U0001f600", "nul": "\x00"},
    {"type": "odd", "floats": [0.1, -0.0, 1.0, 1e300, 5e-324], "1": {"nested": [[[]]]}},
]


def test_stored_events_read_back_as_written_on_every_path(backend_app):
    """Payloads beyond what the engines write today (integers past 64 bits, a lone surrogate) come
    back from the log's lean read, the history's read and the ORM's JSON column as json.loads of
    the stored text gives them, on SQLite and PostgreSQL."""
    game_id = new_game(toygame.NAME, [("Ann", "ann@example.org"), ("Bob", "bob@example.org")], {"target": 6}, seed=3)
    with write_session(get_engine()) as session:
        game = store.get_game(session, game_id)
        first = game.seq
        store.append(session, game, game.seq, ODD, actor=0, kind="move",
                     read_model={"to_act": [0], "status": "active", "result": None})
    expected = typed([json.loads(json.dumps(payload)) for payload in ODD])
    with read_session(get_engine()) as session:
        game = store.get_game(session, game_id)
        assert typed(_engine_payloads(session, game, first, game.seq)) == expected
        assert typed([row.payload for row in store.events(session, game, after=first)]) == expected
        assert typed([row.payload for row in store.stored_events(session, game_id, after=first)]) == expected


def test_loads_all_never_shifts_rows_when_a_text_is_not_one_whole_value():
    """The texts are decoded joined into one array: a stored text holding two values ("1,2") must not
    give every later row its neighbour's value, it fails as json.loads would fail on it."""
    assert jsondecode.loads_all(['{"a": 1}', "[2]", "3"]) == [{"a": 1}, [2], 3]
    with pytest.raises(ValueError):
        jsondecode.loads_all(["1,2", "3"])


def test_the_collector_is_paused_only_by_the_call_that_paused_it():
    """A bulk decode holds the cyclic collector off and gives it back, also after a failure; one nested
    in another (or in a thread that found it off) leaves it as it found it."""
    import gc

    assert gc.isenabled()
    with jsondecode.collector_paused():
        assert not gc.isenabled()
        with jsondecode.collector_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()  # the inner one found it off: still off for the outer one
    assert gc.isenabled()
    with pytest.raises(RuntimeError), jsondecode.collector_paused():
        raise RuntimeError
    assert gc.isenabled()
    assert jsondecode.loads_all(['{"a": [1]}', "[]"]) == [{"a": [1]}, []] and gc.isenabled()
