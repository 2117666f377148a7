"""The store: the tables, the event log with its snapshots and turn starts, the journal, and database
sessions.  No wording lives here (service/views makes the words)."""

from service.store.db import get_engine, make_engine, read_session, write_session
from service.store.journal import entries as journal_entries
from service.store.journal import record as journal_record
from service.store.log import (
    END_EVENT,
    SYSTEM,
    actor_at,
    append,
    end_event,
    events,
    last_own_seq,
    last_snapshot_seq,
    load_state,
    recent_events,
    replay_from_start,
    run_start,
    setup_end,
    stored_events,
    turn_starts,
)
from service.store.rows import (
    GamePage,
    game_page,
    get_game,
    get_player,
    people_of,
    person_for_update,
    person_of,
    player_names,
    players_of,
    seat_names,
)

__all__ = [
    "END_EVENT",
    "SYSTEM",
    "GamePage",
    "actor_at",
    "append",
    "end_event",
    "events",
    "game_page",
    "get_engine",
    "get_game",
    "get_player",
    "journal_entries",
    "journal_record",
    "last_own_seq",
    "last_snapshot_seq",
    "load_state",
    "make_engine",
    "people_of",
    "person_for_update",
    "person_of",
    "player_names",
    "players_of",
    "read_session",
    "recent_events",
    "replay_from_start",
    "run_start",
    "seat_names",
    "setup_end",
    "stored_events",
    "turn_starts",
    "write_session",
]
