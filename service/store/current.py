"""The move path's reads and writes: Core statements on the caller's connection, no ORM objects.

A move reads one row (the game, its current state and whether its clock needs work, joined) and the
seats when it needs them, then writes a handful: the compare-and-set UPDATE of `games`, and once it
moved the game, the events in one statement, the `game_states` row, and a turn start and snapshot when
due (on PostgreSQL all of them, the compare-and-set included, are one statement: `advance`).
Everything runs in the caller's
transaction, so the guarantees of service/store/log.py hold unchanged: of two writers that read seq
N exactly one appends N+1 (the UPDATE's `WHERE seq = N`, backed by UNIQUE(game_id, seq)), and the
state row, like the snapshots, is only a cache: it is trusted while its seq and rules_version are the
game's, and rebuilt from the log when not.

The rows come back as small dataclasses (`GameRow`, `PlayerRow`) with the attributes of the ORM
classes they stand for, so the functions that word emails and move clocks take either.

The statements of every move (the read, the writes, the seats, a link's player) run on the DB-API cursor
(service/store/prepared.py): SQLAlchemy's Python around each execution cost more than their SQL.  The
sweep's batch read (`read_due`, a list of ids and a row lock) stays a Core statement: it runs once per
batch, not per move.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import sqlalchemy as sa

import engine
from service.errors import GameNotFound, StaleState
from service.store.models import Deadline, Event, Game, GameClock, GameState, Player, Snapshot, TurnStart
from service.store.prepared import Conn, Prepared, together
from service.store.rows import MAX_ID

GAMES = Game.__table__  # type: ignore[attr-defined]
STATES = GameState.__table__  # type: ignore[attr-defined]
CLOCKS = GameClock.__table__  # type: ignore[attr-defined]
PLAYERS = Player.__table__  # type: ignore[attr-defined]
EVENTS = Event.__table__  # type: ignore[attr-defined]
SNAPSHOTS = Snapshot.__table__  # type: ignore[attr-defined]
TURNS = TurnStart.__table__  # type: ignore[attr-defined]
DEADLINES = Deadline.__table__  # type: ignore[attr-defined]


@dataclass(slots=True)
class GameRow:
    """A `games` row as the move path reads it (the ORM `Game`'s attributes)."""

    id: int
    name: str
    rules_version: str
    options: dict[str, Any]
    secret: str = field(repr=False)  # never in the repr: a log or a traceback may print it
    commitment: str
    seq: int
    status: str
    to_act: list[int]
    result: Mapping[str, Any] | None
    created_at: datetime
    history_public: bool


@dataclass(slots=True)
class PlayerRow:
    """A `players` row (the ORM `Player`'s attributes)."""

    id: int
    game_id: int
    seat: int
    name: str
    email: str
    address_key: str
    turn_emails: bool
    link_generation: int
    consent: str
    row_key: str | None  # read with the rest: a link's key is checked without another query


@dataclass(slots=True)
class ClockRow:
    """A `game_clocks` row's time control (the ORM `GameClock`'s attributes of that name)."""

    deadline_hours: int | None
    policy: str
    reminders: list[int]
    paused_at: datetime | None
    timeout_streak: int


# What the functions that word emails and move clocks accept: an ORM row or the move path's.
AnyGame = Game | GameRow
AnyPlayer = Player | PlayerRow


@dataclass(slots=True)
class Loaded:
    game: GameRow
    state: dict[str, Any] | None  # the state after game.seq, when the state row holds it
    kept: bool  # whether the game has a state row (to update) at all
    snapshot_seq: int  # the seq of its latest snapshot, as the state row knows it (0: not known)
    clock: ClockRow | None  # None: a game from before deadlines existed (untimed)

    @property
    def clock_idle(self) -> bool:
        """No clock to move on: untimed, not paused, no timeout streak."""
        clock = self.clock
        return clock is None or (clock.deadline_hours is None and clock.paused_at is None and not clock.timeout_streak)


_GAME_COLUMNS = [GAMES.c[name] for name in GameRow.__slots__]
_LOADED_COLUMNS = [
    *_GAME_COLUMNS,
    STATES.c.seq.label("state_seq"), STATES.c.rules_version.label("state_version"), STATES.c.state,
    STATES.c.snapshot_seq,
    CLOCKS.c.game_id.label("clock"), *[CLOCKS.c[name] for name in ClockRow.__slots__],
]
_LOADED_FROM = GAMES.outerjoin(STATES, STATES.c.game_id == GAMES.c.id).outerjoin(CLOCKS, CLOCKS.c.game_id == GAMES.c.id)
_READ = Prepared(sa.select(*_LOADED_COLUMNS).select_from(_LOADED_FROM).where(GAMES.c.id == sa.bindparam("game_id")))
_PLAYERS = Prepared(
    sa.select(*[PLAYERS.c[name] for name in PlayerRow.__slots__])
    .where(PLAYERS.c.game_id == sa.bindparam("game_id"))
    .order_by(PLAYERS.c.seat)
)
_GAME_WIDTH, _CLOCK_WIDTH = len(_GAME_COLUMNS), len(ClockRow.__slots__)


def read(conn: sa.Connection, game_id: int) -> Loaded:
    """The game (GameNotFound if there is none) with its current state when the state row holds the
    state after the game's seq made by today's engine."""
    if not 0 < game_id < MAX_ID:
        raise GameNotFound(game_id)
    rows = _READ.rows(conn, {"game_id": game_id})
    if not rows:
        raise GameNotFound(game_id)
    return _loaded(rows[0])


def _loaded(row: Sequence[Any], start: int = 0) -> Loaded:
    """`row` holds `_LOADED_COLUMNS` from position `start` on: the game's, the state's, the clock's."""
    end = start + _GAME_WIDTH
    game = GameRow(*row[start:end])
    state_seq, state_version, state, snapshot_seq, has_clock = row[end:end + 5]
    fresh = state_seq == game.seq and state_version == engine.get(game.name).rules_version
    clock = None if has_clock is None else ClockRow(*row[end + 5:end + 5 + _CLOCK_WIDTH])
    return Loaded(game, state if fresh else None, state_seq is not None, snapshot_seq or 0, clock)


@dataclass(slots=True)
class Due:
    """A deadline row as the sweep reads it, with everything it decides on: the seat's player, the
    game's clock settings and the game as `read` loads it (the move path takes that as it is)."""

    id: int
    seat: int
    due_at: datetime | None
    reminders_done: int
    player: PlayerRow
    loaded: Loaded  # its `clock` holds the game's time control (None: a game without a clock row)


_DUE = (
    sa.select(
        DEADLINES.c.id.label("deadline_id"), DEADLINES.c.seat.label("deadline_seat"), DEADLINES.c.due_at,
        DEADLINES.c.reminders_done,
        *[PLAYERS.c[name].label(f"player_{name}") for name in PlayerRow.__slots__],
        *_LOADED_COLUMNS,
    )
    .select_from(_LOADED_FROM.join(DEADLINES, DEADLINES.c.game_id == GAMES.c.id)
                 .join(PLAYERS, PLAYERS.c.id == DEADLINES.c.player_id))
    .where(DEADLINES.c.id.in_(sa.bindparam("ids", expanding=True)))
    .order_by(GAMES.c.id, DEADLINES.c.id)
    .with_for_update(of=GAMES)
)
_DUE_HEAD = 4 + len(PlayerRow.__slots__)  # the columns before the game's


def read_due(conn: sa.Connection, deadline_ids: Sequence[int]) -> list[Due]:
    """The deadline rows of `deadline_ids` that still exist, each with its game loaded as `read`
    loads it, in one query (the sweep's batch).  The games rows are locked (PostgreSQL; FOR UPDATE, in
    game order, so two sweeps sharing a game never deadlock each other): a player's move on one of them
    waits for the batch's commit, so the batch never reminds or pauses for a turn played meanwhile, and
    the move then finds the position the sweep left (StaleState if the sweep moved).  SQLite's write
    transaction holds the whole database anyway."""
    if not deadline_ids:
        return []
    found = []
    for row in conn.execute(_DUE, {"ids": list(deadline_ids)}):
        player = PlayerRow(*row[4:_DUE_HEAD])
        found.append(Due(row.deadline_id, row.deadline_seat, row.due_at, row.reminders_done, player,
                         _loaded(row, _DUE_HEAD)))
    return found


_PLAYER = Prepared(sa.select(*[PLAYERS.c[name] for name in PlayerRow.__slots__])
                   .where(PLAYERS.c.id == sa.bindparam("player_id")))


def player(conn: Conn, player_id: int) -> PlayerRow | None:
    """The seat a signed link names (None: no such player here)."""
    rows = _PLAYER.rows(conn, {"player_id": player_id}) if 0 < player_id < MAX_ID else []
    return PlayerRow(*rows[0]) if rows else None


# The seats of the game of the seat a link names, in seat order: a JSON move or GET answers with every
# seat's name, so the link's read brings them all in its one statement.
_TABLE_OF = Prepared(
    sa.select(*[PLAYERS.c[name] for name in PlayerRow.__slots__])
    .where(PLAYERS.c.game_id == sa.select(PLAYERS.c.game_id).where(PLAYERS.c.id == sa.bindparam("player_id"))
           .scalar_subquery())
    .order_by(PLAYERS.c.seat)
)


def table_of(conn: Conn, player_id: int) -> tuple[PlayerRow | None, list[PlayerRow]]:
    """The seat a signed link names (None: no such player here) and every seat of its game."""
    seats = [PlayerRow(*row) for row in _TABLE_OF.rows(conn, {"player_id": player_id})] if 0 < player_id < MAX_ID else []
    return next((seat for seat in seats if seat.id == player_id), None), seats


# A seat's clock as the play API answers it: the game's time control and the seat's deadline row (its
# due time; NULL while stopped), or no row at all (untimed, or no deadline) — one statement.
_SEAT_CLOCK = Prepared(
    sa.select(CLOCKS.c.deadline_hours, CLOCKS.c.policy, CLOCKS.c.paused_at, DEADLINES.c.id, DEADLINES.c.due_at)
    .select_from(CLOCKS.outerjoin(DEADLINES, sa.and_(DEADLINES.c.game_id == CLOCKS.c.game_id,
                                                     DEADLINES.c.seat == sa.bindparam("seat"))))
    .where(CLOCKS.c.game_id == sa.bindparam("game_id"))
)


@dataclass(slots=True)
class SeatClock:
    deadline_hours: int | None
    policy: str
    paused_at: datetime | None
    deadline: bool  # whether the seat has a deadline row
    due_at: datetime | None  # None with a row: the seat's clock is stopped


def seat_clock(conn: Conn, game_id: int, seat: int) -> SeatClock | None:
    """The game's time control with the seat's deadline (None: the game has no clock row)."""
    rows = _SEAT_CLOCK.rows(conn, {"game_id": game_id, "seat": seat})
    if not rows:
        return None
    hours, policy, paused_at, deadline_id, due_at = rows[0]
    return SeatClock(hours, policy, paused_at, deadline_id is not None, due_at)


def players(conn: sa.Connection, game_id: int) -> list[PlayerRow]:
    return [PlayerRow(*row) for row in _PLAYERS.rows(conn, {"game_id": game_id})]


# (every email and page of the position now reads it: on the DB-API cursor too)
_FRESH = Prepared(sa.select(STATES.c.state, STATES.c.snapshot_seq).where(
    STATES.c.game_id == sa.bindparam("game_id"), STATES.c.seq == sa.bindparam("seq"),
    STATES.c.rules_version == sa.bindparam("rules_version")))


def fresh_state(conn: Conn, game_id: int, seq: int, rules_version: str) -> tuple[dict[str, Any], int] | None:
    """The state after `seq` from the game's state row, and its latest snapshot's seq, when the row
    holds that state as an engine of `rules_version` made it."""
    rows = _FRESH.rows(conn, {"game_id": game_id, "seq": seq, "rules_version": rules_version})
    return None if not rows else (rows[0][0], rows[0][1])


_MOVE_ON = Prepared(
    sa.update(GAMES)
    .where(GAMES.c.id == sa.bindparam("b_game_id"), GAMES.c.seq == sa.bindparam("b_seq"))
    .values(seq=sa.bindparam("new_seq"), updated_at=sa.bindparam("at"), to_act=sa.bindparam("to_act"),
            status=sa.bindparam("status"), result=sa.bindparam("result"))
)
_APPEND = Prepared(sa.insert(EVENTS), ["game_id", "seq", "type", "payload", "actor", "kind", "created_at"])
_STATE_UPDATE = Prepared(
    sa.update(STATES).where(STATES.c.game_id == sa.bindparam("b_game_id"))
    .values(seq=sa.bindparam("seq"), rules_version=sa.bindparam("rules_version"), state=sa.bindparam("state"),
            snapshot_seq=sa.bindparam("snapshot_seq"))
)
_STATE_INSERT = Prepared(sa.insert(STATES), ["game_id", "seq", "rules_version", "state", "snapshot_seq"])
_SNAPSHOT = Prepared(sa.insert(SNAPSHOTS), ["game_id", "seq", "state", "created_at", "rules_version"])
_TURN = Prepared(sa.insert(TURNS), ["game_id", "seq", "number", "seats"])


# PostgreSQL's `advance`: the compare-and-set and every write it guards in one statement (one round
# trip), as data-modifying CTEs.  Each write selects from `moved`, the games row the UPDATE moved (none:
# the game moved on), so a stale move writes nothing, as on SQLite where the UPDATE runs alone first.
# The optional writes (turn start, snapshot, a state row to insert rather than update) are switched by
# parameters, not by the text: one statement, prepared once per connection by psycopg.  The events
# go in through unnest(): any number of them, the same text.
_ADVANCE_PG = Prepared(sa.text("""WITH moved AS (
    UPDATE games SET seq = :new_seq, status = :status, to_act = :to_act, result = :result, updated_at = :at
    WHERE games.id = :game_id AND games.seq = :expected_seq
    RETURNING games.id
), appended AS (
    INSERT INTO events (game_id, seq, type, payload, actor, kind, created_at)
    SELECT moved.id, :expected_seq + e.n, e.type, e.payload, :actor, :kind, :at
    FROM moved, unnest(:types, :payloads) WITH ORDINALITY AS e(type, payload, n)
    ORDER BY e.n
), turn AS (
    INSERT INTO turns (game_id, seq, number, seats)
    SELECT moved.id, :turn_seq, :turn_number, :turn_seats FROM moved WHERE :turn
), snapshot AS (
    INSERT INTO snapshots (game_id, seq, state, rules_version, created_at)
    SELECT moved.id, :new_seq, :state, :rules_version, :at FROM moved WHERE :snapshot
), kept AS (
    UPDATE game_states SET seq = :new_seq, rules_version = :rules_version, state = :state,
        snapshot_seq = :snapshot_seq
    WHERE game_states.game_id IN (SELECT moved.id FROM moved) AND :kept
), made AS (
    INSERT INTO game_states (game_id, seq, rules_version, state, snapshot_seq)
    SELECT moved.id, :new_seq, :rules_version, :state, :snapshot_seq FROM moved WHERE NOT :kept
)
SELECT count(*) FROM moved
""").bindparams(
    *[sa.bindparam(name, type_=sa.Integer) for name in (
        "new_seq", "game_id", "expected_seq", "actor", "turn_seq", "turn_number", "snapshot_seq")],
    *[sa.bindparam(name, type_=sa.Boolean) for name in ("turn", "snapshot", "kept")],
    sa.bindparam("status", type_=GAMES.c.status.type), sa.bindparam("to_act", type_=GAMES.c.to_act.type),
    sa.bindparam("result", type_=GAMES.c.result.type), sa.bindparam("at", type_=GAMES.c.updated_at.type),
    sa.bindparam("types", type_=sa.ARRAY(EVENTS.c.type.type)),
    sa.bindparam("payloads", type_=sa.ARRAY(EVENTS.c.payload.type)),
    sa.bindparam("kind", type_=EVENTS.c.kind.type), sa.bindparam("turn_seats", type_=TURNS.c.seats.type),
    sa.bindparam("state", type_=STATES.c.state.type), sa.bindparam("rules_version", type_=STATES.c.rules_version.type),
))


def event_type(event: dict[str, Any]) -> str:
    """An event's `type` column: its type, cut to the column's 60 characters (the payload keeps it whole)."""
    return str(event.get("type", "event"))[:60]


@dataclass(slots=True)
class Written:
    """What a move writes besides its events: the state after it (`kept`: whether the game has a state
    row to update), the snapshot of that state when one is due, the turn start when a turn began."""

    rules_version: str
    state: dict[str, Any]
    kept: bool
    snapshot_seq: int  # the latest snapshot's, this move's own when `snapshot`
    snapshot: bool
    turn: tuple[int, int, list[int]] | None  # (the seq after which it began, its number, its seats)


def advance(
    conn: sa.Connection, game: GameRow, expected_seq: int, new_events: list[dict[str, Any]], *,
    actor: int | None, kind: str, to_act: list[int], result: Mapping[str, Any] | None, at: datetime,
    written: Written,
) -> None:
    """Append events after `expected_seq`, move the read model on (the seats `to_act`, the `result`)
    and write what `written` holds, or raise StaleState; `game` follows (its seq and read model are the
    new ones).

    Nothing but the compare-and-set UPDATE is written unless it moved the games row from
    `expected_seq`, so a stale move writes nothing whatever its caller then does (the sweep's batch
    goes on in the same transaction).  On SQLite (and for a move without events) the UPDATE runs
    first, on its own, then the rest: the events and the state row always, the turn start and snapshot
    when due.  On PostgreSQL all of it is one statement, each write conditional on the row the UPDATE
    moved (`_ADVANCE_PG`; it waits on the games row's lock as the UPDATE alone did, then finds the
    game moved on).  An event already at one of the new seqs (a writer that bypassed the games row:
    nothing of ours does) raises StaleState after the UPDATE went out: the caller's transaction must
    then be rolled back (PostgreSQL has aborted it already)."""
    new_seq = expected_seq + len(new_events)
    status = "active" if result is None else "finished"
    if conn.dialect.name == "postgresql" and new_events:
        _advance_in_one(conn, game, expected_seq, new_events, actor=actor, kind=kind, to_act=to_act, status=status,
                        result=result, at=at, written=written)
        game.seq, game.to_act, game.status, game.result = new_seq, to_act, status, result
        return
    moved = _MOVE_ON.run(conn, {"b_game_id": game.id, "b_seq": expected_seq, "new_seq": new_seq, "at": at,
                                "to_act": to_act, "status": status, "result": result})
    count = moved.rowcount
    moved.close()
    if count != 1:
        raise StaleState(game.id, expected_seq)
    try:
        with together(conn):
            _APPEND.run_many(conn, [
                {"game_id": game.id, "seq": expected_seq + offset, "type": event_type(event),
                 "payload": event, "actor": actor, "kind": kind, "created_at": at}
                for offset, event in enumerate(new_events, start=1)
            ])
            if written.turn is not None:
                turn_began(conn, game.id, *written.turn)
            if written.snapshot:
                snapshot(conn, game.id, new_seq, written.rules_version, written.state, at)
            keep_state(conn, game.id, new_seq, written.rules_version, written.state, exists=written.kept,
                       snapshot_seq=written.snapshot_seq)
    except sa.exc.IntegrityError as exc:
        if _table_of(exc) not in ("events", None):
            raise
        # a writer that bypassed the games row; the UNIQUE holds anyway
        raise StaleState(game.id, expected_seq) from exc
    game.seq, game.to_act, game.status, game.result = new_seq, to_act, status, result


def _advance_in_one(
    conn: sa.Connection, game: GameRow, expected_seq: int, new_events: list[dict[str, Any]], *,
    actor: int | None, kind: str, to_act: list[int], status: str, result: Mapping[str, Any] | None, at: datetime,
    written: Written,
) -> None:
    """`advance` on PostgreSQL: `_ADVANCE_PG`, one statement, one round trip; StaleState when it moved
    no games row (then it wrote nothing)."""
    turn = written.turn
    try:
        [(count,)] = _ADVANCE_PG.rows(conn, {
            "game_id": game.id, "expected_seq": expected_seq, "new_seq": expected_seq + len(new_events),
            "status": status, "to_act": to_act, "result": result, "at": at, "actor": actor, "kind": kind,
            "types": [event_type(event) for event in new_events], "payloads": new_events,
            "turn": turn is not None, "turn_seq": turn and turn[0], "turn_number": turn and turn[1],
            "turn_seats": turn and turn[2], "snapshot": written.snapshot, "state": written.state,
            "rules_version": written.rules_version, "snapshot_seq": written.snapshot_seq, "kept": written.kept,
        })
    except sa.exc.IntegrityError as exc:
        if _table_of(exc) not in ("events", None):
            raise
        raise StaleState(game.id, expected_seq) from exc  # a writer that bypassed the games row
    if count != 1:
        raise StaleState(game.id, expected_seq)


def _table_of(exc: sa.exc.IntegrityError) -> str | None:
    """The table whose constraint failed, when the driver says (psycopg's diagnostics; SQLite's message
    names it after "failed: ")."""
    diag = getattr(exc.orig, "diag", None)
    if diag is not None:
        return diag.table_name  # type: ignore[no-any-return]
    text = str(exc.orig)
    return text.partition("failed: ")[2].partition(".")[0] or None


def keep_state(conn: sa.Connection, game_id: int, seq: int, rules_version: str, state: dict[str, Any], *,
               exists: bool, snapshot_seq: int) -> None:
    """Write the game's state row: `state` is the state after `seq`."""
    values = {"seq": seq, "rules_version": rules_version, "state": state, "snapshot_seq": snapshot_seq}
    if exists:
        _STATE_UPDATE.run(conn, {"b_game_id": game_id, **values})
    else:
        _STATE_INSERT.run(conn, {"game_id": game_id, **values})


def snapshot(conn: sa.Connection, game_id: int, seq: int, rules_version: str, state: dict[str, Any],
             at: datetime) -> None:
    _SNAPSHOT.run(conn, {"game_id": game_id, "seq": seq, "state": state, "created_at": at,
                         "rules_version": rules_version})


def turn_began(conn: sa.Connection, game_id: int, seq: int, number: int, seats: list[int]) -> None:
    _TURN.run(conn, {"game_id": game_id, "seq": seq, "number": number, "seats": seats})
