"""Random playouts of solo play against the trainer (issue 7, "Tests"), with the difficulty
varied per seed (every star level of 5, 6 and 7, no & card or either end)."""

from __future__ import annotations

import pytest

from .modes import solo_options
from .test_riftforce_team_playouts import run_playouts

GAMES = 300


@pytest.mark.slow
def test_solo_random_playouts_finish_replay_and_conserve_cards():
    """§11 playouts: every game ends with the current plan finished and the scores untied,
    conserves the player's and the trainer's cards and rejects junk."""
    outcomes = run_playouts(1, GAMES)
    assert sum(r.get("score", 0) for r, _ in outcomes) == GAMES
    levels = {(n, solo_options(seed)["stars"][n]) for seed in range(GAMES) for n in ("5", "6", "7")}
    assert len(levels) == 12
