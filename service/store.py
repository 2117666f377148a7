"""The event store: append-only events per game with optimistic concurrency, and snapshots.

Appending is a compare-and-set on the game's `seq` (a conditional UPDATE of the games row) backed
by UNIQUE(game_id, seq) on the events: of two writers that both read seq N, exactly one appends
N+1 and the other gets `StaleState` ("the game moved on") and writes nothing.

Rebuilding a state = the latest snapshot at or before the wanted seq + the events after it.
Snapshots are a cache: without any, the state is replayed from event 1 and is the same.
"""

from __future__ import annotations

from typing import Any, Iterable, Sequence

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.attributes import set_committed_value
from sqlmodel import Session, select

import engine
from service.models import Event, Game, Snapshot, utcnow
from service import sentences


class StoreError(Exception):
    """Base of the store's errors; each maps to a 4xx answer."""


class GameNotFound(StoreError, LookupError):
    def __init__(self, game_id: Any):
        super().__init__(f"there is no game {game_id}")
        self.game_id = game_id


class StaleState(StoreError):
    """The game moved on since the caller looked at it (its expected seq is not the current one)."""

    def __init__(self, game_id: int, expected_seq: int, current_seq: int | None = None):
        super().__init__("the game moved on since this page or link was made")
        self.game_id = game_id
        self.expected_seq = expected_seq
        self.current_seq = current_seq


def get_game(session: Session, game_id: int) -> Game:
    if not 0 < game_id < 2**62:  # beyond any id, and beyond what the databases' integers hold
        raise GameNotFound(game_id)
    game = session.get(Game, game_id)
    if game is None:
        raise GameNotFound(game_id)
    return game


def events(session: Session, game_id: int, after: int = 0, upto: int | None = None) -> list[Event]:
    """Event rows with after < seq <= upto, in order."""
    query = select(Event).where(Event.game_id == game_id, Event.seq > after)
    if upto is not None:
        query = query.where(Event.seq <= upto)
    return list(session.exec(query.order_by(Event.seq)))


def load_state(session: Session, game: Game, upto: int | None = None) -> tuple[dict, int]:
    """The state after event `upto` (default: now) and the seq of the snapshot it started from."""
    upto = game.seq if upto is None else upto
    if not 1 <= upto <= game.seq:
        raise ValueError(f"game {game.id} has no position {upto}")
    rules = engine.get(game.name)
    # Plain column queries, not ORM objects: this is on every move's path.
    snapshot = session.execute(
        sa.select(Snapshot.seq, Snapshot.state)
        .where(Snapshot.game_id == game.id, Snapshot.seq <= upto)
        .order_by(Snapshot.seq.desc())
        .limit(1)
    ).first()
    base_seq = snapshot.seq if snapshot else 0
    later = session.execute(
        sa.select(Event.payload)
        # System events (the recorded end of a game) are the service's, never the engine's.
        .where(Event.game_id == game.id, Event.seq > base_seq, Event.seq <= upto, Event.kind != "system")
        .order_by(Event.seq)
    ).scalars().all()
    if snapshot is None:
        return engine.replay(rules, later), 0
    # The snapshot's JSON was just decoded for us alone, so the game may evolve it in place.
    state = snapshot.state
    for event in later:
        state = rules.evolve(state, event)
    return state, base_seq


def replay_from_start(session: Session, game: Game) -> dict:
    """The state rebuilt from event 1, ignoring snapshots (the reference the snapshots must match)."""
    return engine.replay(
        engine.get(game.name), [row.payload for row in events(session, game.id) if row.kind != "system"]
    )


def append(
    session: Session,
    game: Game,
    expected_seq: int,
    new_events: Sequence[dict],
    *,
    actor: int | None,
    kind: str,
    read_model: dict[str, Any],
) -> None:
    """Append events after `expected_seq` and move the game's read model on, or raise StaleState.

    `read_model` holds the new values of the games row (to_act, status, result).  The caller's
    transaction commits or rolls back everything together.
    """
    new_seq = expected_seq + len(new_events)
    moved = session.execute(
        sa.update(Game)
        .where(Game.id == game.id, Game.seq == expected_seq)
        .values(seq=new_seq, updated_at=utcnow(), **read_model)
        .execution_options(synchronize_session=False)
    )
    if moved.rowcount != 1:
        raise StaleState(game.id, expected_seq)
    now = utcnow()
    rows = [
        {
            "game_id": game.id,
            "seq": expected_seq + offset,
            "type": str(event.get("type", "event"))[:60],
            "payload": event,
            "actor": actor,
            "kind": kind,
            "created_at": now,
        }
        for offset, event in enumerate(new_events, start=1)
    ]
    try:
        # A Core insert: no ORM objects to build and track for rows we never read back here.
        session.execute(sa.insert(Event), rows)
    except IntegrityError as exc:  # a writer that bypassed the games row; the UNIQUE holds anyway
        raise StaleState(game.id, expected_seq) from exc
    # Mirror the UPDATE on the loaded object without marking it dirty (no second UPDATE).
    set_committed_value(game, "seq", new_seq)
    for key, value in read_model.items():
        set_committed_value(game, key, value)


def save_snapshot(session: Session, game_id: int, seq: int, state: dict) -> None:
    session.execute(sa.insert(Snapshot), [{"game_id": game_id, "seq": seq, "state": state, "created_at": utcnow()}])


def last_snapshot_seq(session: Session, game_id: int) -> int:
    return session.exec(
        select(sa.func.coalesce(sa.func.max(Snapshot.seq), 0)).where(Snapshot.game_id == game_id)
    ).one()


def last_own_seq(session: Session, game_id: int, seat: int, before: int) -> int:
    """The seq of the seat's last own event before `before` (0 if none): "since your last turn"."""
    return session.exec(
        select(sa.func.coalesce(sa.func.max(Event.seq), 0)).where(
            Event.game_id == game_id, Event.actor == seat, Event.seq < before
        )
    ).one()


def recent_events(session: Session, game_id: int, limit: int) -> list[Event]:
    rows = session.exec(
        select(Event).where(Event.game_id == game_id).order_by(Event.seq.desc()).limit(limit)
    )
    return list(reversed(list(rows)))


def describe(rules: engine.Game, rows: Iterable[Event], seat: int | None) -> list[tuple[int, str]]:
    """(seq, sentence) for the events worth a line, as `seat` may read them."""
    lines = []
    for row in rows:
        # One sentence table for every page, email and the history (service/sentences.py): the
        # engine's describe_event for its events, the service's words for system/timeout ones.
        text = sentences.event_sentence(rules, row.payload, row.kind, row.actor, seat)
        if text:
            lines.append((row.seq, text))
    return lines
