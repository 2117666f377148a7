"""engine.kit.jcopy: an equal copy of plain JSON data sharing no container with the original (engines
evolve the copies in place), keys in the same order."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from engine.kit import jcopy

scalars = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5)
json_values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=5)
                           | st.dictionaries(st.text(max_size=5), inner, max_size=5), max_leaves=40)


def containers(x, found):
    if type(x) is dict:
        found.append(x)
        for v in x.values():
            containers(v, found)
    elif type(x) is list:
        found.append(x)
        for v in x:
            containers(v, found)
    return found


@given(json_values)
def test_an_equal_copy_sharing_no_container(value):
    copied = jcopy(value)
    assert copied == value
    assert repr(copied) == repr(value)  # the same keys in the same order, the same types
    assert not {id(c) for c in containers(copied, [])} & {id(c) for c in containers(value, [])}
