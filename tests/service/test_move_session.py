"""The move's write transaction (service/store/db.py `move_session`): what goes through its connection
and what goes through the ORM Session it opens on demand are one transaction, committed together or
rolled back together, on SQLite and PostgreSQL; a move that needs no ORM opens no Session."""

from __future__ import annotations

from contextlib import nullcontext

import pytest
import sqlalchemy as sa
from sqlalchemy import event

from service import store
from service.play import new_game
from service.store import current, get_engine, read_session
from service.store.db import move_session, one_connection, unbound
from service.store.models import Game, Player
from service.store.prepared import execute_text

PLAYERS = [("Ann", "ann@example.org"), ("Bob", "bob@example.org")]
GAMES = Game.__table__  # type: ignore[attr-defined]


def _written(game_id):
    with read_session(get_engine()) as session:
        game = store.get_game(session, game_id)
        names = sorted(p.name for p in store.players_of(session, game_id))
        return game.history_public, names


def test_the_connection_and_the_session_on_demand_commit_together(backend_app):
    game_id = new_game("riftforce", PLAYERS, seed=2)
    with move_session(get_engine()) as session:
        session.connection().execute(sa.update(GAMES).where(GAMES.c.id == game_id).values(history_public=False))
        player = session.get(Player, next(p.id for p in store.players_of(session, game_id) if p.seat == 0))
        player.name = "Ann B"  # pending in the ORM Session until the end: flushed before the commit
    assert _written(game_id) == (False, ["Ann B", "Bob"])


def test_an_exception_rolls_back_what_both_wrote(backend_app):
    game_id = new_game("riftforce", PLAYERS, seed=2)
    with pytest.raises(RuntimeError), move_session(get_engine()) as session:
        session.connection().execute(sa.update(GAMES).where(GAMES.c.id == game_id).values(history_public=False))
        player = session.get(Player, next(p.id for p in store.players_of(session, game_id) if p.seat == 0))
        player.name = "Ann B"
        session.flush()
        raise RuntimeError("the move failed")
    assert _written(game_id) == (True, ["Ann", "Bob"])  # (public by default)


def test_a_move_that_needs_only_the_connection_opens_no_orm_session(backend_app):
    game_id = new_game("riftforce", PLAYERS, seed=2)
    with move_session(get_engine()) as session:
        session.connection().execute(sa.update(GAMES).where(GAMES.c.id == game_id).values(history_public=False))
        assert session._session is None  # type: ignore[attr-defined]
    assert _written(game_id)[0] is False


def test_one_connection_gives_the_links_read_and_the_move_one_checkout(backend_app):
    """`one_connection`: the read outside any transaction and the move's transaction on the same pooled
    connection, checked out once; a move that fails is rolled back and leaves the connection to the next."""
    engine = get_engine()
    checkouts = []

    def counted(*_):
        checkouts.append(1)

    event.listen(engine, "checkout", counted)
    try:
        with one_connection(engine):
            with unbound(engine) as read:
                execute_text(read, "SELECT 1")
                used = read.connection.dbapi_connection
            with pytest.raises(RuntimeError), move_session(engine) as session:
                assert session.connection().connection.dbapi_connection is used
                raise RuntimeError
            with move_session(engine) as session:
                assert session.connection().in_transaction()
                assert session.connection().connection.dbapi_connection is used
    finally:
        event.remove(engine, "checkout", counted)
    assert len(checkouts) == 1


def test_a_json_move_refused_before_it_reads_takes_no_connection(backend_app):
    """`one_connection` checks its connection out when first asked: a forged link or a malformed body
    is answered (403, 4xx) without taking a connection from the pool for a stranger's request."""
    engine = get_engine()
    checkouts = []

    def counted(*_):
        checkouts.append(1)

    client = backend_app.test_client()
    event.listen(engine, "checkout", counted)
    try:
        with one_connection(engine):
            pass
        forged = client.post("/api/play/not-a-token", json={"seq": 1, "moves": []})
        wrong_type = client.post("/api/play/not-a-token", data="x", content_type="text/plain")
    finally:
        event.remove(engine, "checkout", counted)
    assert forged.status_code == 403 and 400 <= wrong_type.status_code < 500
    assert checkouts == []


def _autocommit(engine):
    """Whether a pooled connection of `engine` is in autocommit (every one, as the pool holds them)."""
    if engine.dialect.name != "postgresql":
        return []
    with engine.connect() as conn:
        return [conn.connection.driver_connection.autocommit]


@pytest.mark.parametrize("ending", ["commit", "exception", "bad read"])
def test_the_begin_sent_with_the_first_read_opens_the_same_transaction(backend_app, ending):
    """On PostgreSQL the move's BEGIN goes with its first statement (service/store/prepared.py
    `begin_with_first_statement`): what follows is in that one transaction, committed or rolled back
    whole, and the connection goes back to the pool as it came (not in autocommit)."""
    engine = get_engine()
    if ending == "bad read" and engine.dialect.name == "sqlite":
        pytest.skip("SQLite compares any text with an integer")
    game_id = new_game("riftforce", PLAYERS, seed=2)
    txids = []
    with pytest.raises(Exception) if ending != "commit" else nullcontext(), move_session(engine) as session:
        conn = session.connection()
        if ending == "bad read":  # the server refuses the read (its BEGIN went with it)
            current._READ.rows(conn, {"game_id": "not a number"})
        current.read(conn, game_id)
        if engine.dialect.name == "postgresql":
            txids.append(conn.exec_driver_sql("SELECT txid_current()").scalar())
            txids.append(conn.exec_driver_sql("SELECT txid_current()").scalar())
        conn.execute(sa.update(GAMES).where(GAMES.c.id == game_id).values(history_public=False))
        player = session.get(Player, next(p.id for p in store.players_of(session, game_id) if p.seat == 0))
        player.name = "Ann B"
        if ending == "exception":
            raise RuntimeError("the move failed")
    assert len(set(txids)) <= 1  # one transaction, not one a statement
    if ending == "commit":
        assert _written(game_id) == (False, ["Ann B", "Bob"])
    else:
        assert _written(game_id) == (True, ["Ann", "Bob"])
    assert _autocommit(engine) in ([], [False])


def test_a_move_whose_first_statement_is_not_ours_begins_as_always(backend_app):
    """SQLAlchemy's own statement first: the driver begins the transaction itself, and nothing runs
    outside it (rolled back whole)."""
    game_id = new_game("riftforce", PLAYERS, seed=2)
    with pytest.raises(RuntimeError), move_session(get_engine()) as session:
        session.connection().execute(sa.update(GAMES).where(GAMES.c.id == game_id).values(history_public=False))
        current.read(session.connection(), game_id)
        raise RuntimeError("the move failed")
    assert _written(game_id)[0] is True
    assert _autocommit(get_engine()) in ([], [False])
