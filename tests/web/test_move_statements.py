"""What one JSON move (POST /api/play/<token>) sends the database, end to end through the request,
counted at the driver on SQLite and PostgreSQL (issue #27: "the move at the floor").

The rule: the link's player, with every seat of its game (the answer names them), is one statement
outside any transaction (no BEGIN, no ROLLBACK), and a
decision that keeps the turn is one transaction of four statements: the read of the game with its
state and clock, the compare-and-set UPDATE of `games`, the events, the state row; a timed game's too.
A move that passes the turn adds only what is due: the turn start, the snapshot, the seats, the
clocks' rows and the outbox rows.  On PostgreSQL the BEGIN goes with the game's read, and the
compare-and-set, the events, the state row and the turn start and snapshot are one statement (one
round trip).  The answer (the position the move led to) is made from what the
move holds: nothing is read again after the commit but a timed game's clock as the move left it, one
statement; no read session is opened only to be rolled back.
"""

from __future__ import annotations

import json
import re

import pytest

from service import store
from service.play import handle, new_game
from service.store import get_engine, jsonencode, read_session
from tests import tokens
from tests.conftest import app_on
from tests.service import toygame
from tests.service.helpers import current
from tests.service.statements import counted

PLAYERS = [("Ann", "ann@example.org"), ("Bob", "bob@example.org")]
KEEPS_TURN = ["SELECT", "UPDATE", "INSERT", "UPDATE"]
# PostgreSQL: the compare-and-set with the events and the state row (and when due the turn start and the
# snapshot) in one statement (service/store/current.py `_ADVANCE_PG`)
KEEPS_TURN_PG = ["SELECT", "WITH"]


@pytest.fixture
def backend_client(backend_url, tmp_path):
    with app_on(tmp_path, backend_url) as app:
        yield app.test_client()


def _moves(client, hours):
    """Two moves of seat 0 in a new game, counted: a card (the seat decides on), then the end of its
    turn (the turn passes to seat 1, whose turn email is queued)."""
    game_id = new_game(toygame.NAME, PLAYERS, {"target": 30}, seed=2, deadline_hours=hours)
    with read_session(get_engine()) as session:
        token = tokens.page(next(p for p in store.players_of(session, game_id) if p.seat == 0))
    found = []
    for pick in (lambda legal: legal[0], lambda legal: {"type": "end_turn"}):
        game, state = current(game_id)
        body = json.dumps({"seq": game.seq, "moves": [pick(toygame.GAME.legal_moves(state, 0))]})
        with counted(get_engine()) as sent:
            answer = client.post(f"/api/play/{token}", data=body, content_type="application/json")
        assert answer.status_code == 200, answer.get_data(as_text=True)
        found.append(sent)
    return found


@pytest.mark.parametrize("hours", [None, 24], ids=["untimed", "timed"])
def test_a_json_move_is_the_links_read_and_one_transaction_of_four_statements(backend_client, hours):
    card, end_turn = _moves(backend_client, hours)
    # the link's player, outside any transaction; then the move's one transaction
    # (a timed game's answer adds the seat's clock as the move left it: one read after the commit)
    after = [] if hours is None else [["SELECT"]]
    postgres = get_engine().dialect.name == "postgresql"
    keeps_turn = KEEPS_TURN_PG if postgres else KEEPS_TURN
    assert card.transactions() == [["SELECT"], keeps_turn, *after], card.statements
    assert "ROLLBACK" not in card.statements and card.statements.count("BEGIN") == 1
    if postgres:
        # the link's read; BEGIN with the game's read; the compare-and-set with the events and the state
        # row (written only if it moved the game); COMMIT
        assert card.round_trips == 4 + len(after), card.statements

    token_read, passing, *clock_read = end_turn.transactions()
    assert clock_read == after
    assert token_read == ["SELECT"] and "ROLLBACK" not in end_turn.statements
    # the turn start and snapshot (on PostgreSQL in the compare-and-set's statement), the seats, the
    # outbox row; a timed game's clock rows (the two seats' deadlines replaced, the vacation look-up)
    due = {"INSERT": 3, "SELECT": 1} if hours is None else {"INSERT": 4, "SELECT": 2, "DELETE": 1}
    if postgres:
        assert passing[:2] == KEEPS_TURN_PG and "UPDATE" not in passing
        due["INSERT"] -= 2
    else:
        assert passing[:3] == KEEPS_TURN[:3] and passing.count("UPDATE") == 2
    assert len(passing) == len(keeps_turn) + sum(due.values()), passing
    if postgres:  # the turn start and the snapshot go with the events and the state row
        assert end_turn.round_trips == (6 if hours is None else 10), end_turn.statements


def test_the_move_path_writes_json_and_times_as_sqlalchemy_writes_them(backend_client):
    """The move path's statements run on the DB-API cursor with SQLAlchemy's own conversions: the text
    they store (JSON, timestamps) is what SQLAlchemy stores, as the game's setup, written through the
    ORM, shows; every other reader goes on reading these rows through SQLAlchemy.  The JSON is the
    engine's serializer's text (service/store/jsonencode.py) on both ways."""
    game_id = new_game(toygame.NAME, PLAYERS, {"target": 30}, seed=2)
    game, state = current(game_id)
    handle(game_id, 0, [toygame.GAME.legal_moves(state, 0)[0], {"type": "end_turn"}], game.seq)
    with get_engine().connect() as conn:
        rows = conn.exec_driver_sql(
            "SELECT kind, CAST(payload AS TEXT), CAST(created_at AS TEXT) FROM events WHERE game_id = "
            f"{game_id} ORDER BY seq").all()
        to_act = conn.exec_driver_sql(f"SELECT CAST(to_act AS TEXT) FROM games WHERE id = {game_id}").scalar()
        kept = conn.exec_driver_sql(f"SELECT CAST(state AS TEXT) FROM game_states WHERE game_id = {game_id}").scalar()
    assert {kind for kind, _, _ in rows} == {"setup", "move"}
    for _, payload, _ in rows:
        assert payload == jsonencode.dumps(json.loads(payload))
    assert to_act == jsonencode.dumps([1]) and kept == jsonencode.dumps(current(game_id)[1])
    # (PostgreSQL prints a timestamp's microseconds without their trailing zeros: their count varies)
    shapes = {kind: {re.sub(r"\d+", "9", created) for k, _, created in rows if k == kind} for kind in ("setup", "move")}
    assert len(shapes["move"]) == 1 and shapes["move"] == shapes["setup"], shapes
