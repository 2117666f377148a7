"""The engine's invariants (`engine.errors.present`) hold under `python -OO`, which the Procfile's worker
runs with and which strips asserts: a broken one fails the move instead of being written as an event."""

from __future__ import annotations

import subprocess
import sys

import pytest

from engine.errors import present


def test_present_hands_back_what_is_there_and_fails_on_nothing():
    assert present(0, "zero is there") == 0
    with pytest.raises(AssertionError, match="the attacker is in play"):
        present(None, "the attacker is in play")


def test_present_fails_under_python_oo_where_an_assert_would_not():
    code = ("from engine.errors import present\n"
            "assert False, 'stripped'\n"
            "present(None, 'still checked')\n")
    done = subprocess.run([sys.executable, "-OO", "-c", code], capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 1 and "AssertionError: still checked" in done.stderr, done.stderr
