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
from datetime import datetime

import sqlalchemy as sa
from flask import current_app

import engine
from service import deadlines, ending, notify, outbox, store
from service.db import get_engine, write_session
from service.models import Deadline, Game, Player, utcnow

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


def _snapshot_due(snapshot_seq: int, new_seq: int, before: list[int], after: list[int], every: int) -> bool:
    if set(before) != set(after):  # a turn change: the positions people come back to
        return True
    return new_seq - snapshot_seq >= every


def _play(rules: engine.Game, state: dict, seat: int, move: dict, rng: random.Random) -> list[dict]:
    try:
        return rules.play(state, seat, move, rng)
    except engine.IllegalMove:
        raise
    except (KeyError, IndexError, TypeError, ValueError, AttributeError) as exc:
        # Moves arrive from outside (forms, links); an engine that trips over a malformed one
        # must still give the player a 4xx, and we want to hear about it.
        log.warning("%s raised %r on move %r", rules.name, exc, move, exc_info=True)
        raise engine.IllegalMove("that move could not be understood", "malformed") from exc


def handle(
    game_id: int, seat: int, move: dict, expected_seq: int, *, kind: str = "move", now: datetime | None = None,
) -> Outcome:
    """Play `move` for `seat` in the game as it stood at `expected_seq`.

    Raises store.GameNotFound, store.StaleState ("the game moved on"), engine.IllegalMove (with
    the engine's reason; GameOver when the game has ended).  `kind` "timeout": the deadline sweep
    plays for a seat whose time ran out; `now`: the time the move counts as made at (the sweep's
    clock; default the wall clock), where the next seats' deadlines start.
    """
    if not isinstance(move, dict):
        raise engine.IllegalMove("a move must be a JSON object", "malformed")
    with write_session(get_engine()) as session:
        game = store.get_game(session, game_id)
        if game.seq != expected_seq:
            raise store.StaleState(game_id, expected_seq, game.seq)
        if game.status != "active":
            raise GameOver()
        rules = engine.get(game.name)
        state, snapshot_seq = store.load_state(session, game)
        before = rules.to_act(state)
        # a seat the game does not wait on may still have moves (engine/core.py: to_act)
        if seat not in before and not rules.legal_moves(state, seat):
            raise engine.IllegalMove("it is not your turn to decide", "not_your_turn")
        new_events = _play(rules, state, seat, move, _rng(game, expected_seq))
        if not new_events:
            raise engine.IllegalMove("that move changes nothing", "illegal")
        idle = False
        for index, event in enumerate(new_events):  # `state` is ours alone: evolve in place
            state = rules.evolve(state, event)
            # A moment inside the move where nobody had anything to decide (Beyond the Rift's
            # automatic phases): every seat to act afterwards starts a new turn (service/notify.py).
            if not idle and index < len(new_events) - 1 and not rules.to_act(state) and rules.result(state) is None:
                idle = True
        after = rules.to_act(state)
        result = rules.result(state)
        status = "finished" if result is not None else "active"
        store.append(
            session, game, expected_seq, new_events, actor=seat, kind=kind,
            read_model={"to_act": after, "status": status, "result": result},
        )
        if result is not None or _snapshot_due(
            snapshot_seq, game.seq, before, after, current_app.config["SNAPSHOT_EVERY"]
        ):
            store.save_snapshot(session, game.id, game.seq, state)
        # The clocks follow the turns (service/deadlines.py).  A result stops them and marks the end
        # as due: the end-of-game task records it once and sends the game_over emails.
        if idle:
            # After an idle moment every seat to act starts a new turn, so every clock restarts (the
            # last DONE hero stays to act into the next round); the seats that left stop theirs.
            session.execute(sa.delete(Deadline).where(
                Deadline.game_id == game.id, Deadline.seat.in_(sorted(set(before) - set(after)))))
        deadlines.after_move(
            session, game, seat, [] if idle else before, after, kind, result is not None, now or utcnow(),
            events=new_events, shares={s: rules.deadline_share(state, s) for s in after},
        )
        rows = []
        ended = set(before) - set(after)
        # Only then can anyone get an email: a new turn, a seat's turn ended (partners), the end.
        if result is None and (ended or idle or notify.newly_to_act(before, after, new_events, seat)):
            # Teams come from the public view, and only when a turn ended (partner emails).
            team_seats = notify.teams(rules.view(state, None)) if ended and result is None else None
            rows = notify.on_change(
                session, game, notify.players_of(session, game.id), before, after, result is not None,
                events=new_events, team_seats=team_seats, actor=seat, idle=idle,
            )
            session.flush()
        outcome = Outcome(game.id, game.seq, list(new_events), after, status, result, [r.id for r in rows])
    outbox.kick(outcome.outbox_ids)
    if result is not None:
        ending.kick(game_id)
    return outcome


def new_game(
    name: str,
    players: list[tuple[str, str]],
    options: dict | None = None,
    seed: int | None = None,
    *,
    deadline_hours: int | None = None,
    policy: str = "auto",
    reminders: list[int] | None = None,
    now: datetime | None = None,
) -> int:
    """Create a game for (name, email) players in seat order; queue the invitations; its id.

    `deadline_hours` None: no time control; else each turn's deadline, with the timeout `policy`
    and the `reminders` ladder (hours before the deadline), see service/deadlines.py.

    Raises engine.UnknownGame, engine.IllegalMove (code bad_options) for a bad player count or option.
    """
    try:
        deadline_hours, policy, reminders = deadlines.parse_settings(deadline_hours, policy, reminders)
    except deadlines.DeadlineError as exc:
        raise engine.IllegalMove(str(exc), "bad_options") from exc
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
        deadlines.on_create(session, game, seats, deadline_hours, policy, reminders, now or utcnow(),
                            shares={s: rules.deadline_share(state, s) for s in rules.to_act(state)})
        session.flush()
        game_id, row_ids = game.id, [r.id for r in rows]
    outbox.kick(row_ids)
    return game_id
