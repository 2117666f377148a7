"""Whether a game's stored records agree with each other: what `flask verify` runs over every game,
after a restore or whenever a database is in doubt.

A game holds when its replay from event 1 (snapshots ignored) equals its state as the service loads
it (latest snapshot plus the events after it) and its current-state row (when that row is up to
date), its read model (status, seats to act, result) is what the engine says of that state, and its
seq is its last event's, and its secret's SHA-256 is its commitment (service/store/deal.py).  Problems
are short lines naming what disagrees, never a state's contents nor a secret (they hold hidden cards).

`replay_deal` goes further for one game (`flask verify --game N`): the setup and every move's random
draws replayed from the game's secret must give the stored log.
"""

from __future__ import annotations

import sqlalchemy as sa
from sqlmodel import Session, col

import engine
from service.store import current, deal
from service.store.log import events, load_state, replay_from_start
from service.store.models import Event, Game
from service.store.rows import players_of


def problems(session: Session, game: Game) -> list[str]:
    found = []
    if deal.commit(game.secret) != game.commitment:
        found.append(f"game {game.id}: its secret's SHA-256 is not its commitment")
    last = session.execute(sa.select(sa.func.max(col(Event.seq))).where(col(Event.game_id) == game.id)).scalar()
    if game.seq != last:
        return [*found, f"game {game.id}: its seq is {game.seq} but its last event is {last}"]
    rules = engine.get(game.name)
    loaded, _ = load_state(session, game, state_row=False)
    replayed = replay_from_start(session, game)
    if replayed != loaded:
        found.append(f"game {game.id}: the replay from event 1 differs from the state its snapshots give")
    kept = current.fresh_state(session.connection(), game.id, game.seq, rules.rules_version)
    if kept is not None and kept[0] != replayed:
        found.append(f"game {game.id}: the replay from event 1 differs from its current-state row")
    result = rules.result(loaded)
    if game.status in ("open", "expired", "cancelled") and result is None:  # a lobby's game not started (service/play/lobby.py)
        return found if game.to_act == [] else [*found, f"game {game.id}: it has not started but has seats to act"]
    if game.status != ("active" if result is None else "finished"):
        found.append(f"game {game.id}: its status is {game.status!r} but the engine says {'active' if result is None else 'finished'}")
    if game.to_act != rules.to_act(loaded):
        found.append(f"game {game.id}: the seats to act are {game.to_act}, the engine says {rules.to_act(loaded)}")
    if game.result != result:
        found.append(f"game {game.id}: its recorded result differs from the engine's")
    return found


def replay_deal(session: Session, game: Game) -> deal.Replayed:
    """The game's log replayed from its secret (service/store/deal.py `replay_problems`)."""
    rows = [deal.Row(row.seq, row.kind, row.actor, row.payload) for row in events(session, game)]
    return deal.replay_problems(engine.get(game.name), game.secret, len(players_of(session, game.id)),
                                game.options, rows)
