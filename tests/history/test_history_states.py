"""The states behind history views: the per-process cache of position states (service/views/history.py
`state_at`) and the lean read of the log under it (service/store/log.py), on SQLite and PostgreSQL."""

from __future__ import annotations

import pytest
import sqlalchemy as sa

import engine
from service import store
from service.play import new_game
from service.store import get_engine, read_session, write_session
from service.store.models import Game, GameState, Snapshot
from service.views import history
from tests.conftest import app_on
from tests.service import toygame
from tests.service.helpers import play_one

PLAYERS = [("Ann", "ann@example.org"), ("Bob", "bob@example.org")]


@pytest.fixture
def backend_app(backend_url, tmp_path):
    with app_on(tmp_path, backend_url, SNAPSHOT_EVERY=4) as app:
        yield app


def toy_game(decisions: int, seed: int = 3) -> int:
    game_id = new_game(toygame.NAME, PLAYERS, {"target": 40}, seed=seed)
    for _ in range(decisions):
        play_one(game_id, pick=lambda moves: moves[-1])
    return game_id


def game_of(game_id: int) -> Game:
    with read_session(get_engine()) as session:
        return store.get_game(session, game_id)


def payloads(game_id: int) -> list[dict]:
    with read_session(get_engine()) as session:
        return [row.payload for row in store.events(session, game_of(game_id))]


def test_a_cached_state_equals_the_loaded_one_and_the_replay_at_every_position(backend_app):
    game_id = toy_game(12)
    game, log = game_of(game_id), payloads(game_id)
    for seq in range(1, game.seq + 1):
        expected = engine.replay(toygame.GAME, log[:seq])
        for _ in range(2):  # the first look fills the cache, the second is served from it
            with read_session(get_engine()) as session:
                assert history.state_at(session, game, seq) == expected
                assert store.load_state(session, game, seq)[0] == expected
        with read_session(get_engine()) as session:
            drawn = engine.replay(toygame.GAME, log[:history.shown_seq(session, game, seq)])  # no half setups
            for viewer in (None, 0, 1):
                assert history.position_at(session, game, viewer, seq).view == toygame.GAME.view(drawn, viewer)
        with read_session(get_engine()) as session:
            assert store.replay_from_start(session, game) == engine.replay(toygame.GAME, log)


def test_a_state_handed_out_is_the_callers_own(backend_app):
    game = game_of(toy_game(4))
    with read_session(get_engine()) as session:
        first = history.state_at(session, game, game.seq)
        expected = toygame.GAME.copy_state(first)
        first["hands"][0].append("k99x")  # what evolving in place would do to a shared state
        first["scores"][1] = 1000
        assert history.state_at(session, game, game.seq) == expected


def test_the_cache_never_serves_another_databases_game_with_the_same_id(tmp_path, migrated_sqlite):
    import shutil

    states = []
    for name, seed in (("one", 3), ("two", 4)):
        path = tmp_path / f"{name}.sqlite"
        shutil.copy(migrated_sqlite, path)
        with app_on(tmp_path / name, f"sqlite:///{path}"):
            game_id = toy_game(2, seed=seed)
            assert game_id == 1
            game = game_of(game_id)
            with read_session(get_engine()) as session:
                states.append((history.state_at(session, game, game.seq),
                               store.load_state(session, game, game.seq)[0]))
    (cached_one, loaded_one), (cached_two, loaded_two) = states
    assert cached_one == loaded_one and cached_two == loaded_two and loaded_one != loaded_two


def test_the_cache_never_serves_a_state_of_an_older_engine(backend_app, monkeypatch):
    game = game_of(toy_game(4))
    with read_session(get_engine()) as session:
        old = history.state_at(session, game, game.seq)
    assert "rebuilt_by" not in old

    evolve = toygame.GAME.evolve

    def evolve_v2(state, event):
        state = evolve(state, event)
        state["rebuilt_by"] = "2"
        return state

    monkeypatch.setattr(toygame.GAME, "rules_version", "2")
    monkeypatch.setattr(toygame.GAME, "evolve", evolve_v2)
    with read_session(get_engine()) as session:
        assert history.state_at(session, game, game.seq) == {**old, "rebuilt_by": "2"}


def test_events_of_an_older_rules_version_are_upcast_on_every_read(backend_app, monkeypatch):
    """A game set up under rules "0", whose "played" events today's rules read as worth ten times
    their stored points: every read path (replay from the start, the nearest snapshot and the events
    after it, the views' cache, the event rows) hands out today's shapes."""
    game_id = toy_game(6)
    as_stored = payloads(game_id)
    with write_session(get_engine()) as session:
        session.execute(sa.update(Game).where(Game.id == game_id).values(rules_version="0"))
        session.execute(sa.delete(Snapshot).where(Snapshot.game_id == game_id))  # made from stored shapes
        session.execute(sa.delete(GameState).where(GameState.game_id == game_id))  # the same

    def upcast(event, version):
        assert version == "0"
        return {**event, "points": event["points"] * 10} if event["type"] == "played" else event

    monkeypatch.setattr(toygame.GAME, "upcast", upcast)
    game = game_of(game_id)
    upcast_log = [upcast(event, "0") for event in as_stored]
    assert upcast_log != as_stored
    today = engine.replay(toygame.GAME, upcast_log)
    assert sum(today["scores"]) == 10 * sum(engine.replay(toygame.GAME, as_stored)["scores"]) > 0
    with write_session(get_engine()) as session:  # today's engine snapshots a position midway
        session.execute(sa.insert(Snapshot).values(
            game_id=game_id, seq=5, state=engine.replay(toygame.GAME, upcast_log[:5]),
            rules_version=toygame.GAME.rules_version))
    with read_session(get_engine()) as session:
        assert store.replay_from_start(session, game) == today
        assert store.load_state(session, game) == (today, 5)
        assert history.state_at(session, game, game.seq) == today
        assert [row.payload for row in store.events(session, game)] == upcast_log
