"""Outside JSON is bounded before it is parsed (service/jsontext.py)."""

from __future__ import annotations

import pytest

from service import jsontext


def test_plain_json_reads_as_json():
    assert jsontext.loads('{"type": "play", "cards": ["a", "b"], "n": 3}') == {"type": "play", "cards": ["a", "b"], "n": 3}


@pytest.mark.parametrize("text", ["[" * 1000 + "]" * 1000, '{"a": ' * 17 + "1" + "}" * 17])
def test_nesting_deeper_than_the_limit_is_refused_before_parsing(text):
    with pytest.raises(jsontext.TooDeep):
        jsontext.loads(text)


def test_brackets_inside_strings_do_not_count():
    assert jsontext.loads('["' + "[" * 100 + '\\"[["]') == ["[" * 100 + '"[[']


def test_exactly_the_limit_is_allowed():
    assert jsontext.loads("[" * jsontext.MAX_DEPTH + "]" * jsontext.MAX_DEPTH)


@pytest.mark.parametrize("text", ["NaN", "[Infinity]", "-Infinity", "{", ""])
def test_what_is_not_plain_json_is_a_value_error(text):
    with pytest.raises(ValueError):
        jsontext.loads(text)
