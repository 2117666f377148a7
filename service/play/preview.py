"""What a seat's moves would lead to, without playing them: the turn composer's and the play API's
preview.  It reads the game and writes nothing (no event, snapshot, turn, clock or email).

The moves are played exactly as `handle` would play them (service/play/batch.py), so a confirmed turn
ends where its preview did.  A move whose outcome holds hidden information (a card drawn, a card
revealed: `Batch._hides`) is accepted but not shown: the preview stops just before it, says so, and
offers no decision after it, so nobody can look at the deck and back out.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from service import store
from service.play.batch import Played, as_moves, begin
from service.store import read_session
from service.store.db import get_engine
from service.store.models import GameClock
from service.views import positions
from service.views.positions import Position


@dataclass
class Preview:
    position: Position  # as the seat would see it after the moves shown (before the hidden one)
    played: list[Played]  # the moves accepted, read and worded
    hidden: int | None  # the index of the move whose outcome is known only once it is recorded
    complete: bool | None  # the seat is asked nothing more after these moves (None: not known yet)


def preview(game_id: int, seat: int, moves: list[dict[str, Any] | str], expected_seq: int,
            language: str = "en") -> Preview:
    """The position after `moves` of `seat` from the game as it stood at `expected_seq`, worded in
    `language` (the page's).

    `moves` may be empty (the position now).  Raises GameNotFound, StaleState, and IllegalMoveAt for
    the first move that may not be played (moves after a hidden outcome included)."""
    moves = as_moves(moves, empty=True)
    with read_session(get_engine()) as session:
        game, walk, _ = begin(session, game_id, seat, expected_seq, pure=True, language=language)
        hidden = None
        for index, move in enumerate(moves):
            if walk.play(index, move, judge=True).hidden:
                hidden = index  # the last: no move may follow it (Batch.ended)
        names = store.seat_names(store.players_of(session, game_id))
        clock = session.get(GameClock, game_id)
        hours = clock.deadline_hours if clock is not None else None
        if hidden is None:
            shown = positions.at_state(game, walk.state, seat, walk.seq, names, deadline_hours=hours,
                                        language=language)
            complete: bool | None = walk.ended is not None or not shown.decisions
        else:
            assert walk.previous is not None
            seq = walk.seq - len(walk.played[-1].events)
            shown = positions.at_state(game, walk.previous, seat, seq, names, decisions=False, deadline_hours=hours,
                                        language=language)
            complete = None
    return Preview(shown, walk.played, hidden, complete)
