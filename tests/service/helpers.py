"""Small helpers for driving games in tests."""

from __future__ import annotations

import sqlalchemy as sa
from sqlmodel import select

import engine
from service import store
from service.store import get_engine, read_session, write_session
from service.store.models import Outbox


def current(game_id: int):
    """(game row, state) as of now."""
    with read_session(get_engine()) as session:
        game = store.get_game(session, game_id)
        state, _ = store.load_state(session, game)
    return game, state


def play_one(game_id: int, pick=lambda moves: moves[0]):
    """Play one decision for the first seat to act; the Outcome."""
    from service.play import handle

    game, state = current(game_id)
    rules = engine.get(game.name)
    seat = game.to_act[0]
    return handle(game_id, seat, pick(rules.legal_moves(state, seat)), game.seq)


def play_to_end(game_id: int, pick=lambda moves: moves[0], limit: int = 5000) -> int:
    for steps in range(limit):
        game, _ = current(game_id)
        if game.status != "active":
            # What the worker does right after the final move: record the end once and queue the
            # game_over emails (service/play/ending.py).
            from service.play import ending
            from service.store.models import utcnow

            ending.record_end(game_id, utcnow())
            return steps
        play_one(game_id, pick)
    raise AssertionError("the game did not end")


def outbox_rows(game_id: int | None = None) -> list[Outbox]:
    with read_session(get_engine()) as session:
        query = select(Outbox).order_by(Outbox.id)
        if game_id is not None:
            query = query.where(Outbox.game_id == game_id)
        return list(session.exec(query))


def set_row(row_id: int, **values) -> None:
    """Change an outbox row directly (a state a drill needs: failed, stuck, long retrying)."""
    with write_session(get_engine()) as session:
        session.execute(sa.update(Outbox).where(Outbox.id == row_id).values(**values))


def row_of(row_id: int) -> Outbox:
    with read_session(get_engine()) as session:
        return session.get(Outbox, row_id)


def deal_forms_from(monkeypatch, seed: int) -> None:
    """Make the games started in this test (the form's among them) deal from `seed`, as the operator's
    `new-game --seed` does.  The form takes no seed: each game's deal comes from a secret drawn for it
    (service/store/deal.py); a test whose checks need a known deal asks for one here."""
    from service.store import deal

    monkeypatch.setattr(deal, "draw", lambda: deal.of_seed(seed))
