"""The event log: append-only events per game with optimistic concurrency, snapshots and turn starts.

Appending is a compare-and-set on the game's `seq` (a conditional UPDATE of the games row) backed
by UNIQUE(game_id, seq) on the events: of two writers that both read seq N, exactly one appends
N+1 and the other gets `StaleState` ("the game moved on") and writes nothing.

Rebuilding a state = the latest snapshot at or before the wanted seq that the current engine made,
plus the events after it.  Snapshots are a cache: without any, the state is replayed from event 1 and
is the same.  Events of a game set up under an older `rules_version` pass through the engine's
`upcast` on the way out, so everything above the store reads them in today's shape.

Nothing here words anything: sentences are made by service/views.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any, NamedTuple

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.attributes import set_committed_value
from sqlmodel import Session, col, select

import engine
from service.errors import StaleState
from service.store import current, jsondecode
from service.store.current import AnyGame
from service.store.models import Event, Game, Snapshot, TurnStart, utcnow
from service.store.prepared import Prepared

# Events of this kind are the service's own (the recorded end of a game): engines never see them.
SYSTEM = "system"


def upcaster(game: AnyGame, rules: engine.Game) -> Callable[[dict[str, Any]], dict[str, Any]] | None:
    """A function bringing this game's stored events to the engine's current shape (None: nothing to do)."""
    if game.rules_version == rules.rules_version:
        return None
    version = game.rules_version
    return lambda payload: rules.upcast(payload, version)


def stored_events(session: Session, game_id: int, after: int = 0, upto: int | None = None) -> list[Event]:
    """Event rows with after < seq <= upto, in order, as stored (see `events` for today's shapes)."""
    query = select(Event).where(col(Event.game_id) == game_id, col(Event.seq) > after)
    if upto is not None:
        query = query.where(col(Event.seq) <= upto)
    return list(session.exec(query.order_by(col(Event.seq))))


class LogRow(NamedTuple):
    """An event as `events` hands it out: its row's columns, the payload in today's shape.  A plain
    tuple, not an ORM object: a long game's history reads thousands of them at once."""

    seq: int
    type: str
    payload: dict[str, Any]
    actor: int | None
    kind: str
    created_at: datetime | None


def events(session: Session, game: AnyGame, after: int = 0, upto: int | None = None) -> list[LogRow]:
    """The events with after < seq <= upto, in order, their payloads upcast (the database is not
    changed), decoded for the caller alone."""
    assert game.id is not None
    found = _LOG_ROWS.rows(session.connection(), {"game_id": game.id, "after": after,
                                                  "upto": _NO_END if upto is None else upto})
    payloads = jsondecode.loads_all([row[2] for row in found])
    upcast = upcaster(game, engine.get(game.name))
    if upcast is not None:
        payloads = [payload if row[4] == SYSTEM else upcast(payload) for row, payload in zip(found, payloads, strict=True)]
    return [LogRow(seq, kind_of, payload, actor, kind, created_at)
            for (seq, kind_of, _, actor, kind, created_at), payload in zip(found, payloads, strict=True)]


# The lean read of a log (replay and history's hot path): Core, not ORM rows, and the JSON fetched
# as text (a CAST, so neither the driver nor SQLAlchemy decodes it row by row) and decoded by one
# call over the joined texts (jsondecode.loads_all): the C decoder then does all of the work.  The
# statements are built once, with bound parameters (building a select costs more than running it on
# a small game), and run on the DB-API cursor (service/store/prepared.py): every email and page reads
# the log, and SQLAlchemy's Python around an execution cost more than the read of a small game; the
# rows come as the driver gives them (building a Row per event cost a quarter of a replay's read,
# bench/replay.py).
_EVENTS = Event.__table__  # type: ignore[attr-defined]  # SQLModel declares no type for it
_SNAPSHOTS = Snapshot.__table__  # type: ignore[attr-defined]
_TURNS = TurnStart.__table__  # type: ignore[attr-defined]
_PAYLOAD_TEXTS = Prepared(
    sa.select(sa.cast(_EVENTS.c.payload, sa.Text))
    .where(_EVENTS.c.game_id == sa.bindparam("game_id"), _EVENTS.c.seq > sa.bindparam("after"),
           _EVENTS.c.seq <= sa.bindparam("upto"), _EVENTS.c.kind != SYSTEM)
    .order_by(_EVENTS.c.seq)
)
_NO_END = 2**31 - 1  # "up to the last event": seq is a 32-bit integer column
_LOG_ROWS = Prepared(
    sa.select(_EVENTS.c.seq, _EVENTS.c.type, sa.cast(_EVENTS.c.payload, sa.Text), _EVENTS.c.actor, _EVENTS.c.kind,
              _EVENTS.c.created_at)
    .where(_EVENTS.c.game_id == sa.bindparam("game_id"), _EVENTS.c.seq > sa.bindparam("after"),
           _EVENTS.c.seq <= sa.bindparam("upto"))
    .order_by(_EVENTS.c.seq)
)
_NEAREST_SNAPSHOT = Prepared(
    sa.select(_SNAPSHOTS.c.seq, sa.cast(_SNAPSHOTS.c.state, sa.Text))
    .where(_SNAPSHOTS.c.game_id == sa.bindparam("game_id"), _SNAPSHOTS.c.seq <= sa.bindparam("upto"),
           _SNAPSHOTS.c.rules_version == sa.bindparam("rules_version"))
    .order_by(_SNAPSHOTS.c.seq.desc())
    .limit(1)
)


def _payload_texts(session: Session, game_id: int, after: int, upto: int) -> list[str]:
    """The engines' events with after < seq <= upto, in order, as their stored JSON texts."""
    return [text for (text,) in _PAYLOAD_TEXTS.rows(session.connection(), {"game_id": game_id, "after": after,
                                                                           "upto": upto})]


def _engine_payloads(session: Session, game: AnyGame, after: int, upto: int) -> list[dict[str, Any]]:
    """The engine's events after `after` up to `upto`, in today's shapes, decoded for the caller
    alone (nothing shared: an engine may keep parts of them in a state it evolves in place)."""
    assert game.id is not None
    payloads: list[dict[str, Any]] = jsondecode.loads_all(_payload_texts(session, game.id, after, upto))
    upcast = upcaster(game, engine.get(game.name))
    return payloads if upcast is None else [upcast(p) for p in payloads]


def load_state(session: Session, game: AnyGame, upto: int | None = None, *,
               state_row: bool = True) -> tuple[dict[str, Any], int]:
    """The state after event `upto` (default: now) and the seq of the snapshot it started from (of the
    latest snapshot, when the state row gave it).  `state_row` False: from the snapshots and events
    only (what `flask verify` compares).

    The state is the caller's own (decoded for it alone), so it may be evolved in place."""
    upto = game.seq if upto is None else upto
    if not 1 <= upto <= game.seq:
        raise ValueError(f"game {game.id} has no position {upto}")
    rules = engine.get(game.name)
    if state_row and upto == game.seq:  # the position now: one row, when the state row holds it
        found = current.fresh_state(session.connection(), game.id, upto, rules.rules_version)
        if found is not None:
            return found
    snapshots = _NEAREST_SNAPSHOT.rows(session.connection(),
                                       {"game_id": game.id, "upto": upto, "rules_version": rules.rules_version})
    snapshot = snapshots[0] if snapshots else None
    # The JSON is decoded for us alone, so the game may evolve it in place; no collections meanwhile
    # (jsondecode.collector_paused: the decoded events and the state are all live, and acyclic).
    with jsondecode.collector_paused():
        base_seq, state = (snapshot[0], jsondecode.loads(snapshot[1])) if snapshot else (0, None)
        for event in _engine_payloads(session, game, base_seq, upto) if base_seq < upto else ():
            state = rules.evolve(state, event)
    if state is None:
        raise ValueError(f"game {game.id} has no events up to {upto}")
    return state, base_seq


def replay_from_start(session: Session, game: AnyGame) -> dict[str, Any]:
    """The state rebuilt from event 1, ignoring snapshots (the reference the snapshots must match)."""
    with jsondecode.collector_paused():  # as in load_state
        return engine.replay(engine.get(game.name), _engine_payloads(session, game, 0, game.seq))


def append(
    session: Session,
    game: Game,
    expected_seq: int,
    new_events: Sequence[dict[str, Any]],
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
        .where(col(Game.id) == game.id, col(Game.seq) == expected_seq)
        .values(seq=new_seq, updated_at=utcnow(), **read_model)
        .execution_options(synchronize_session=False)
    )
    if moved.rowcount != 1:  # type: ignore[attr-defined]  # an UPDATE's result is a CursorResult
        raise StaleState(game.id, expected_seq)
    now = utcnow()
    rows = [
        {
            "game_id": game.id,
            "seq": expected_seq + offset,
            "type": current.event_type(event),
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


def last_snapshot_seq(session: Session, game_id: int) -> int:
    return session.exec(
        select(sa.func.coalesce(sa.func.max(col(Snapshot.seq)), 0)).where(col(Snapshot.game_id) == game_id)
    ).one()


# ---- turns -----------------------------------------------------------------------------------------


# Asked by every turn email (what happened since, the clock line) and move: built once, on the DB-API
# cursor (as the log's reads above).
_TURN_STARTS = Prepared(
    sa.select(_TURNS.c.seq, _TURNS.c.seats)
    .where(_TURNS.c.game_id == sa.bindparam("game_id"), _TURNS.c.seq <= sa.bindparam("upto"))
    .order_by(_TURNS.c.seq.desc())
    .limit(64)
)
_LAST_OWN = Prepared(
    sa.select(sa.func.coalesce(sa.func.max(_EVENTS.c.seq), 0))
    .where(_EVENTS.c.game_id == sa.bindparam("game_id"), _EVENTS.c.actor == sa.bindparam("seat"),
           _EVENTS.c.seq < sa.bindparam("before"))
)


def turn_starts(session: Session, game_id: int, seat: int, upto: int, limit: int = 2) -> list[int]:
    """The seqs where the seat's latest turns began, at or before `upto`, newest first (Prepared: the
    session is not flushed first, service/store/prepared.py)."""
    rows = _TURN_STARTS.rows(session.connection(), {"game_id": game_id, "upto": upto})
    return [seq for seq, seats in rows if seat in seats][:limit]


# ---- who did what ------------------------------------------------------------------------------------


def last_own_seq(session: Session, game_id: int, seat: int, before: int) -> int:
    """The seq of the seat's last own event before `before` (0 if none): "since your last turn"
    (Prepared: the session is not flushed first)."""
    [(seq,)] = _LAST_OWN.rows(session.connection(), {"game_id": game_id, "seat": seat, "before": before})
    return int(seq)


def actor_at(session: Session, game_id: int, seq: int) -> int | None:
    """The seat whose decision appended event `seq`."""
    return session.exec(select(col(Event.actor)).where(col(Event.game_id) == game_id, col(Event.seq) == seq)).first()


def run_start(session: Session, game_id: int, seq: int, actor: int | None) -> int:
    """The seq just before the unbroken run of `actor`'s events that ends at `seq` (a whole turn of
    follow-up decisions, and nothing earlier)."""
    return session.exec(
        select(sa.func.coalesce(sa.func.max(col(Event.seq)), 0)).where(
            col(Event.game_id) == game_id, col(Event.seq) <= seq,
            sa.or_(col(Event.actor).is_(None), col(Event.actor) != actor),
        )
    ).one()


def recent_events(session: Session, game: Game, limit: int) -> list[LogRow]:
    first = max(0, game.seq - limit)
    return events(session, game, after=first)


def setup_end(session: Session, game: Game) -> int:
    """The seq of the last setup event: the first position anyone ever saw."""
    last = session.execute(
        sa.select(sa.func.max(col(Event.seq))).where(col(Event.game_id) == game.id, col(Event.kind) == "setup")
    ).scalar_one()
    return last or 1


def end_event(session: Session, game_id: int) -> Event | None:
    """The service's record of the end of the game (a system event), if written."""
    return session.execute(
        sa.select(Event).where(col(Event.game_id) == game_id, col(Event.kind) == SYSTEM, col(Event.type) == END_EVENT).limit(1)
    ).scalar_one_or_none()


END_EVENT = "game_finished"
