"""Random playouts of team play for 3 and 4 players (issue 7, "Tests").

Each game must finish and conserve every card; in every 3rd game, at sampled steps, wrong-seat,
junk and stale moves raise IllegalMove.  (JSON, replay and hidden hands, a teammate's included:
the shared contract suite, tests/engine/test_contract.py.)"""

from __future__ import annotations

import multiprocessing
import os

import pytest

from .modes import play_and_check

GAMES = 200  # per player count
PROCESSES = int(os.environ.get("RIFTFORCE_PLAYOUT_PROCESSES", min(2, os.cpu_count() or 1)))


def _chunk(args):
    players, start, stop = args
    return play_and_check(players, range(start, stop))


def run_playouts(players, games):
    half = games // 2
    jobs = [(players, 0, half), (players, half, games)]
    if PROCESSES > 1 and "fork" in multiprocessing.get_all_start_methods():
        with multiprocessing.get_context("fork").Pool(PROCESSES) as pool:
            return pool.map(_chunk, jobs, chunksize=1)
    return [_chunk(job) for job in jobs]


@pytest.mark.slow
@pytest.mark.parametrize("players", [3, 4])
def test_team_random_playouts_finish_replay_and_conserve_cards(players):
    """§10 playouts: hundreds of seeded games end by score (round finished, untied) or in the
    stalemate of house rule Q14, conserve cards and reject junk."""
    outcomes = run_playouts(players, GAMES)
    # Random players often dump every card on the board with nobody holding a zone: the
    # stalemate of house rule Q14 (team._dead) ends those; most games still reach the real end.
    score_ends = sum(r.get("score", 0) for r, _ in outcomes)
    assert score_ends > GAMES // 2
    assert max(w for _, w in outcomes) <= 80  # decisions stay button-sized (6 locations)
