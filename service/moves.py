"""The one move path, and game creation.

`handle(game_id, seat, move, expected_seq)` is what the web form, the confirm page of an emailed
link, the JSON API and (later) deadline expiry all call.  In one transaction it appends the
engine's events, updates the read model, writes a snapshot when due and writes the outbox rows; after
the commit it nudges the worker.  A stale `expected_seq` raises StaleState and writes nothing.
"""

from __future__ import annotations

import logging
import random
import secrets
from dataclasses import dataclass, field

import engine
from service import notify, outbox, store
from service.db import get_engine, write_session
from service.models import Game, Player

log = logging.getLogger(__name__)


class GameOver(engine.IllegalMove):
    def __init__(self):
        super().__init__("this game is over: nothing can be played any more", "game_over")


@dataclass
class Outcome:
    game_id: int
    seq: int
    events: list[dict]
    to_act: list[int]
    status: str
    result: dict | None
    outbox_ids: list[int] = field(default_factory=list)


def _rng(game: Game, seq: int) -> random.Random:
    # Seeded from the game's seed and the position: a retried move draws the same cards.
    return random.Random(f"{game.seed}:{seq}")


def _snapshot_due(session, game: Game, new_seq: int, before: list[int], after: list[int], every: int) -> bool:
    if set(before) != set(after):  # a turn change: the positions people come back to
        return True
    return new_seq - store.last_snapshot_seq(session, game.id) >= every


def handle(game_id: int, seat: int, move: dict, expected_seq: int, *, kind: str = "move") -> Outcome:
    """Play `move` for `seat` in the game as it stood at `expected_seq`.

    Raises store.GameNotFound, store.StaleState ("the game moved on"), engine.IllegalMove (with
    the engine's reason; GameOver when the game has ended).
    """
    from flask import current_app

    if not isinstance(move, dict):
        raise engine.IllegalMove("a move must be a JSON object", "malformed")
    with write_session(get_engine()) as session:
        game = store.get_game(session, game_id)
        if game.seq != expected_seq:
            raise store.StaleState(game_id, expected_seq, game.seq)
        if game.status != "active":
            raise GameOver()
        rules = engine.get(game.name)
        state, _ = store.load_state(session, game)
        before = rules.to_act(state)
        if seat not in before:
            raise engine.IllegalMove("it is not your turn to decide", "not_your_turn")
        new_events = rules.play(state, seat, move, _rng(game, expected_seq))
        if not new_events:
            raise engine.IllegalMove("that move changes nothing", "illegal")
        for event in new_events:  # `state` is ours alone: evolve in place
            state = rules.evolve(state, event)
        after = rules.to_act(state)
        result = rules.result(state)
        status = "finished" if result is not None else "active"
        store.append(
            session, game, expected_seq, new_events, actor=seat, kind=kind,
            read_model={"to_act": after, "status": status, "result": result},
        )
        if result is not None or _snapshot_due(
            session, game, game.seq, before, after, current_app.config["SNAPSHOT_EVERY"]
        ):
            store.save_snapshot(session, game.id, game.seq, state)
        rows = notify.on_change(
            session, game, notify.players_of(session, game.id), before, after, result is not None
        )
        session.flush()
        outcome = Outcome(game.id, game.seq, list(new_events), after, status, result, [r.id for r in rows])
    outbox.kick(outcome.outbox_ids)
    return outcome


def new_game(
    name: str,
    players: list[tuple[str, str]],
    options: dict | None = None,
    seed: int | None = None,
) -> int:
    """Create a game for (name, email) players in seat order; queue the invitations; its id.

    Raises engine.UnknownGame, engine.IllegalMove (code bad_options) for a bad player count or option.
    """
    rules = engine.get(name)
    options = dict(options or {})
    if not rules.min_players <= len(players) <= rules.max_players:
        raise engine.IllegalMove(
            f"{rules.title or rules.name} needs {rules.min_players} to {rules.max_players} players",
            "bad_options",
        )
    seed = secrets.randbits(48) if seed is None else int(seed)
    setup = rules.start(players=len(players), options=options, seed=seed)
    state = engine.replay(rules, setup)
    result = rules.result(state)
    with write_session(get_engine()) as session:
        game = Game(
            name=name, rules_version=str(rules.rules_version), options=options, seed=seed,
            seq=0, to_act=[], status="active",
        )
        session.add(game)
        session.flush()
        seats = [
            Player(game_id=game.id, seat=seat, name=(who or email.partition("@")[0])[:80], email=email)
            for seat, (who, email) in enumerate(players)
        ]
        session.add_all(seats)
        session.flush()
        store.append(
            session, game, 0, setup, actor=None, kind="setup",
            read_model={
                "to_act": rules.to_act(state),
                "status": "finished" if result is not None else "active",
                "result": result,
            },
        )
        store.save_snapshot(session, game.id, game.seq, state)
        rows = notify.on_create(session, game, seats)
        session.flush()
        game_id, row_ids = game.id, [r.id for r in rows]
    outbox.kick(row_ids)
    return game_id
