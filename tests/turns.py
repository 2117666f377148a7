"""Whole turns for the play API and composer tests: drive a game to a wanted position through the one
move path, and plan a seat's moves from a state (on copies, with the service's RNG) the way a player
composing a turn would."""

from __future__ import annotations

from collections.abc import Callable

import sqlalchemy as sa

import engine
from service.games import adapter
from service.play import handle
from service.store import get_engine, read_session
from service.store.deal import rng
from service.store.models import Event, Outbox, Snapshot, TurnStart
from tests.service.helpers import current

Policy = Callable[[dict, int, list[dict]], dict]


def first(state: dict, seat: int, legal: list[dict]) -> dict:
    return legal[0]


def decisions(rules: engine.Game, state: dict, seat: int) -> list[dict]:
    return [move for move in rules.legal_moves(state, seat) if rules.move_section(move) is None]


def drive(game_id: int, until: Callable[[dict, int, list[dict]], bool], policy: Policy = first, limit: int = 500):
    """Play the first seat to act's `policy` move by move until `until(state, seat, decisions)`:
    (game row, state, seat)."""
    for _ in range(limit):
        game, state = current(game_id)
        rules = engine.get(game.name)
        assert game.status == "active", "the game ended before the position was reached"
        seat = game.to_act[0]
        legal = decisions(rules, state, seat)
        if until(state, seat, legal):
            return game, state, seat
        handle(game_id, seat, policy(state, seat, legal), game.seq)
    raise AssertionError("the position was not reached")


def after(rules: engine.Game, state: dict, seat: int, move: dict, seed: int, seq: int) -> tuple[dict, list[dict]]:
    """(the state after `move`, its events) without touching `state`."""
    events = rules.play(state, seat, move, rng(seed, seq))
    for event in events:
        state = rules.apply(state, event)
    return state, events


def step_key(rules: engine.Game, state: dict, seat: int, move: dict) -> str:
    """The key of the first step `move` belongs to (Position.first_steps: the text form of the first
    decision of its group)."""
    found = adapter(rules.name)
    group = [m for m in decisions(rules, state, seat) if found.first_step(m) == found.first_step(move)]
    return rules.move_text(state, seat, group[0])


def hidden_outcome(rules: engine.Game, events: list[dict]) -> bool:
    own = adapter(rules.name).preview_own_events
    return any(rules.redact_event(e, None) != e and e["type"] not in own for e in events)


def plan(rules: engine.Game, state: dict, seat: int, seed: int, seq: int, choose: Policy,
         limit: int = 40) -> list[tuple[dict, dict, list[dict]]]:
    """The seat's moves by `choose` until its turn ends or a move's outcome is hidden (included):
    [(state before, move, events)]."""
    steps = []
    number = rules.turn(state).number
    for _ in range(limit):
        legal = decisions(rules, state, seat)
        if seat not in rules.to_act(state) or not legal:
            break
        move = choose(state, seat, legal)
        new_state, events = after(rules, state, seat, move, seed, seq)
        steps.append((state, move, events))
        state, seq = new_state, seq + len(events)
        if rules.turn(state).number != number or hidden_outcome(rules, events) or rules.result(state):
            break
    return steps


def counts(game_id: int) -> dict[str, int]:
    """Rows a move writes, by table: events, outbox, snapshots, turns."""
    with read_session(get_engine()) as session:
        return {
            model.__tablename__: session.execute(
                sa.select(sa.func.count()).select_from(model).where(model.game_id == game_id)
            ).scalar_one()
            for model in (Event, Outbox, Snapshot, TurnStart)
        }


# ---- Riftforce ---------------------------------------------------------------------------------------

RIFTFORCE = engine.get("riftforce")
ASKS = ("target", "move_to", "heal", "aim", "place")  # choices inside an ability


def not_drafting(state, seat, legal):
    return legal[0]["type"] != "pick"


def three_card_play(state, seat, seed, seq):
    """A Play of three cards (one guild or one value) from the position: the moves, each to the first
    location offered."""
    for root in (m for m in decisions(RIFTFORCE, state, seat) if m["type"] == "play"):
        moves, now, at = [root], state, seq
        now, events = after(RIFTFORCE, now, seat, root, seed, at)
        at += len(events)
        while len(moves) < 3 and seat in RIFTFORCE.to_act(now):
            more = [m for m in decisions(RIFTFORCE, now, seat) if m["type"] == "play"]
            if not more:
                break
            moves.append(more[0])
            now, events = after(RIFTFORCE, now, seat, more[0], seed, at)
            at += len(events)
        if len(moves) == 3:
            return moves
    raise AssertionError("no three-card play in this hand")


def activate_with_targets(state, seat, seed, seq):
    """An Activate whose elementals ask for targets, played out with the first choice each time until
    the turn ends: the moves, or None when this position has none."""
    for root in (m for m in decisions(RIFTFORCE, state, seat) if m["type"] == "activate"):
        moves, now, at, asked = [], state, seq, False
        move = root
        for _ in range(12):
            moves.append(move)
            now, events = after(RIFTFORCE, now, seat, move, seed, at)
            at += len(events)
            if seat not in RIFTFORCE.to_act(now) or RIFTFORCE.result(now):
                break
            legal = decisions(RIFTFORCE, now, seat)
            asks = [m for m in legal if m["type"] in ASKS]
            asked = asked or len(asks) > 1
            move = asks[0] if asks else legal[0]
        if asked:
            return moves
    return None
