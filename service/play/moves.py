"""The one move path, and game creation.

`handle(game_id, seat, move, expected_seq)` is what the web form, the confirm page of an emailed
link, the JSON API and deadline expiry all call.  In one transaction it appends the engine's events,
updates the read model, records a turn that began, writes a snapshot when due, moves the clocks on and
writes the outbox rows; after the commit it nudges the worker.  A stale `expected_seq` raises
StaleState and writes nothing.
"""

from __future__ import annotations

import logging
import random
import secrets
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from flask import current_app

import engine
from service import store
from service.clocks import seats as clocks
from service.clocks.settings import parse_settings
from service.errors import StaleState
from service.mail import outbox
from service.play import emails, ending
from service.store import write_session
from service.store.db import get_engine
from service.store.models import Game, Player, utcnow

log = logging.getLogger(__name__)


class GameOver(engine.IllegalMove):
    def __init__(self) -> None:
        super().__init__("this game is over: nothing can be played any more", "game_over")


@dataclass
class Outcome:
    game_id: int
    seq: int
    events: list[dict[str, Any]]
    to_act: list[int]
    status: str
    result: Mapping[str, Any] | None
    outbox_ids: list[int] = field(default_factory=list)


def rng(seed: int, seq: int) -> random.Random:
    """The RNG of the move made after `seq` events: seeded from the game's seed and the position, so a
    retried move draws the same cards (tests/engine/contract.py plays golden files the same way)."""
    return random.Random(f"{seed}:{seq}")


def _snapshot_due(snapshot_seq: int, new_seq: int, before: Collection[int], after: Collection[int],
                  every: int) -> bool:
    if set(before) != set(after):  # a turn change: the positions people come back to
        return True
    return new_seq - snapshot_seq >= every


def _play(rules: engine.Game, state: dict[str, Any], seat: int, move: dict[str, Any],
          random_source: random.Random) -> list[dict[str, Any]]:
    try:
        return rules.play(state, seat, move, random_source)
    except engine.IllegalMove:
        raise
    except (KeyError, IndexError, TypeError, ValueError, AttributeError) as exc:
        # Moves arrive from outside (forms, links); an engine that trips over a malformed one
        # must still give the player a 4xx, and we want to hear about it.
        log.warning("%s raised %r on move %r", rules.name, exc, move, exc_info=True)
        raise engine.IllegalMove("that move could not be understood", "malformed") from exc


def handle(
    game_id: int, seat: int, move: dict[str, Any], expected_seq: int, *, kind: str = "move",
    now: datetime | None = None,
) -> Outcome:
    """Play `move` for `seat` in the game as it stood at `expected_seq`.

    Raises GameNotFound, StaleState ("the game moved on"), engine.IllegalMove (with the engine's
    reason; GameOver when the game has ended).  `kind` "timeout": the deadline sweep plays for a seat
    whose time ran out; `now`: the time the move counts as made at (the sweep's clock; default the wall
    clock), where the next seats' deadlines start.
    """
    if not isinstance(move, dict):
        raise engine.IllegalMove("a move must be a JSON object", "malformed")
    with write_session(get_engine()) as session:
        game = store.get_game(session, game_id)
        if game.seq != expected_seq:
            raise StaleState(game_id, expected_seq, game.seq)
        if game.status != "active":
            raise GameOver()
        rules = engine.get(game.name)
        state, snapshot_seq = store.load_state(session, game)
        before = rules.to_act(state)
        turn_before = rules.turn(state)
        # a seat the game does not wait on may still have moves (engine/core.py: to_act)
        if seat not in before and not rules.legal_moves(state, seat):
            raise engine.IllegalMove("it is not your turn to decide", "not_your_turn")
        new_events = _play(rules, state, seat, move, rng(game.seed, expected_seq))
        if not new_events:
            raise engine.IllegalMove("that move changes nothing", "illegal")
        turn_began = None  # the seq after which the turn in progress at the end began, if it began now
        number = turn_before.number
        for offset, event in enumerate(new_events, start=1):  # `state` is ours alone: evolve in place
            state = rules.evolve(state, event)
            now_number = rules.turn(state).number
            if now_number != number:
                number, turn_began = now_number, expected_seq + offset
        after = rules.to_act(state)
        result = rules.result(state)
        status = "finished" if result is not None else "active"
        store.append(
            session, game, expected_seq, new_events, actor=seat, kind=kind,
            read_model={"to_act": after, "status": status, "result": result},
        )
        turn = rules.turn(state)
        starts: set[int] = set()
        if turn_began is not None:
            store.record_turn(session, game_id, turn_began, turn)
            starts = set(turn.seats)
        if result is not None or _snapshot_due(
            snapshot_seq, game.seq, before, after, current_app.config["SNAPSHOT_EVERY"]
        ):
            store.save_snapshot(session, game, state)
        players = store.players_of(session, game_id)
        # The clocks follow the turns (service/clocks).  A result stops them and marks the end as due:
        # the end-of-game task records it once and sends the game_over emails.
        clocks.after_move(
            session, game, players, seat, before, after, starts | (set(after) - set(before)), kind,
            result is not None, now or utcnow(), shares={s: rules.deadline_share(state, s) for s in after},
        )
        rows = []
        ended = set(before) - set(after)
        if result is None and (ended or starts or set(after) - set(before)):
            rows = emails.on_change(session, game, players, seat, before, after, starts,
                                    rules.teams(state) if ended else [])
        outcome = Outcome(game_id, game.seq, list(new_events), after, status, result, outbox.ids(session, rows))
    outbox.kick(outcome.outbox_ids)
    if result is not None:
        ending.kick(game_id)
    return outcome


def new_game(
    name: str,
    players: list[tuple[str, str]],
    options: dict[str, Any] | None = None,
    seed: int | None = None,
    *,
    deadline_hours: Any = None,
    policy: str = "auto",
    reminders: Any = None,
    now: datetime | None = None,
) -> int:
    """Create a game for (name, email) players in seat order; queue the invitations; its id.

    `deadline_hours` None: no time control; else each turn's deadline, with the timeout `policy`
    and the `reminders` ladder (hours before the deadline), see service/clocks.

    Raises engine.UnknownGame, engine.IllegalMove (code bad_options) for a bad player count or option.
    """
    try:
        hours, policy, ladder = parse_settings(deadline_hours, policy, reminders)
    except ValueError as exc:
        raise engine.IllegalMove(str(exc), "bad_options") from exc
    rules = engine.get(name)
    options = dict(options or {})
    if not rules.min_players <= len(players) <= rules.max_players:
        raise engine.IllegalMove(
            f"{rules.title or rules.name} needs {rules.min_players} to {rules.max_players} players.",
            "bad_options",
        )
    seed = secrets.randbits(48) if seed is None else int(seed)
    setup = rules.start(players=len(players), options=options, seed=seed)
    state = engine.replay(rules, setup)
    result = rules.result(state)
    turn = rules.turn(state)
    with write_session(get_engine()) as session:
        game = Game(
            name=name, rules_version=str(rules.rules_version), options=options, seed=seed,
            seq=0, to_act=[], status="active",
        )
        session.add(game)
        session.flush()
        assert game.id is not None
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
        store.record_turn(session, game.id, game.seq, turn)
        store.save_snapshot(session, game, state)
        rows = emails.on_create(session, game, seats, game.to_act if result is None else [])
        clocks.on_create(session, game, seats, hours, policy, ladder, now or utcnow(),
                         shares={s: rules.deadline_share(state, s) for s in rules.to_act(state)})
        game_id, row_ids = game.id, outbox.ids(session, rows)
    outbox.kick(row_ids)
    return game_id
