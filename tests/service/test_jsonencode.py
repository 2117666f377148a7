"""Stored JSON is written by msgspec (service/store/jsonencode.py) with the values json.dumps writes:
every JSON value an engine or the service stores reads back as it read back before, and what msgspec
refuses is written (or refused) by json.dumps as before."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from service.store import jsondecode, jsonencode
from tests.service.test_jsondecode import typed

# JSON data as the engines' contract holds them to (json.loads(json.dumps(x)) == x: no NaN, no infinity),
# integers beyond 64 bits and text of any character included.
STORED = st.recursive(
    st.none() | st.booleans() | st.integers() | st.integers(min_value=-(2**200), max_value=2**200)
    | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(), inner, max_size=5)
    | st.dictionaries(st.integers(), inner, max_size=3),
    max_leaves=30,
)


@given(STORED)
def test_stored_json_reads_back_as_json_dumps_text_reads_back(value):
    text = jsonencode.dumps(value)
    assert isinstance(text, str)
    assert typed(json.loads(text)) == typed(json.loads(json.dumps(value)))
    assert typed(jsondecode.loads(text)) == typed(json.loads(json.dumps(value)))


def test_stored_json_is_compact_and_keeps_what_is_not_ascii():
    assert jsonencode.dumps({"a": [1, 2], "name": "Zoë 李"}) == '{"a":[1,2],"name":"Zoë 李"}'


@pytest.mark.parametrize("value", [{True: 1, None: 2}, {"x": "\ud800"}, [2**70, -(2**70)], (1, 2)],
                         ids=["bool-and-none-keys", "lone-surrogate", "big-integers", "tuple"])
def test_what_msgspec_refuses_or_writes_otherwise_is_json_dumps_value(value):
    assert json.loads(jsonencode.dumps(value)) == json.loads(json.dumps(value))


def test_an_object_of_no_json_type_is_refused_as_json_dumps_refuses_it():
    with pytest.raises(TypeError):
        jsonencode.dumps({"x": object()})
