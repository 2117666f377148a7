"""A declined rematch on both backends (service/play/rematch.py `decline`): the row goes, a closure stays,
the others' notices are queued, a new ask is a new row (the unique game constraint holds) whose emails
are told from the declined question's, and all accepting starts the game."""

from __future__ import annotations

import pytest
import sqlalchemy as sa

from service.errors import Conflict
from service.play import new_game, rematch
from service.store import get_engine, read_session
from service.store.models import Game, Outbox, Player, Rematch, RematchClosure
from tests.conftest import app_on
from tests.consent import preconsent
from tests.service import toygame
from tests.service.helpers import play_to_end


def test_decline_then_ask_anew_on_both_backends(tmp_path, backend_url):
    with app_on(tmp_path, backend_url):
        people = [("Ann", "ann@example.org"), ("Bo", "bo@example.org"), ("Cy", "cy@example.org")]
        preconsent(*(email for _, email in people))
        game_id = new_game(toygame.NAME, people, {"target": 5}, seed=3)
        play_to_end(game_id)
        with read_session(get_engine()) as session:
            ann, bo, cy = session.execute(sa.select(Player).where(Player.game_id == game_id)
                                          .order_by(Player.seat)).scalars().all()
        with pytest.raises(Conflict):
            rematch.decline(game_id, bo.id)  # nothing asked yet
        first = rematch.ask(game_id, ann.id, "random")
        rematch.accept(game_id, cy.id)
        closed = rematch.decline(game_id, bo.id)
        assert (closed.asked_by, closed.declined_by, closed.seating) == (0, 1, "random")
        with read_session(get_engine()) as session:
            assert session.execute(sa.select(Rematch)).scalars().all() == []
            notices = session.execute(sa.select(Outbox.player_id).where(Outbox.kind == "rematch_declined")
                                      .order_by(Outbox.player_id)).scalars().all()
            assert notices == [ann.id, cy.id]
        again = rematch.ask(game_id, cy.id, "kept")
        assert again.accepted == [2] and (again.id != first.id or backend_url.startswith("sqlite"))
        with read_session(get_engine()) as session:
            asked = session.execute(sa.select(Outbox.params).where(Outbox.kind == "rematch")
                                    .order_by(Outbox.id)).scalars().all()
            assert asked[-2:] == [{"rematch": again.id, "round": 1}] * 2
            assert session.execute(sa.select(sa.func.count()).select_from(RematchClosure)).scalar_one() == 1
        rematch.accept(game_id, ann.id)
        started = rematch.accept(game_id, bo.id)
        assert started.new_game_id is not None
        with pytest.raises(Conflict):
            rematch.decline(game_id, ann.id)
        with read_session(get_engine()) as session:
            assert session.get(Game, started.new_game_id).status == "active"
