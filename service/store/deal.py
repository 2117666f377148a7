"""A game's randomness: one secret per game, committed to when the game starts, revealed when it ends.

Everything random in a game comes from its secret, a decimal integer kept as text:
- the setup is the engine's `start(players, options, seed=start_seed(secret))`, i.e. `int(secret)`;
- the move made after `seq` events draws from `rng(secret, seq)`, i.e. `random.Random(f"{secret}:{seq}")`.
So anyone who knows the secret can recompute every deal and every draw of the game.  That is why it is
kept from the players while the game runs and shown to them once it is over.

Two kinds of secret, told apart by size:
- drawn (`draw`): 256 bits from the operating system's random source, at least SEED_LIMIT.  Every
  game a player starts (the form, a campaign's next game) gets one; nothing anyone typed or saw
  goes into it.  Its SHA-256 (`commit`) is published from the start (pages, JSON, the first email),
  so after the end anyone can check that the revealed secret is the one committed to, and that it
  reproduces the log (`replay_problems`, `flask verify --game N`): the deal was not chosen.
- a seed (below SEED_LIMIT): the operator's `new-game --seed N` and the tests, for a reproducible
  deal, and every game made before secrets existed (migration 0010a: their 48-bit seed, whose text
  is their secret, so `rng` and `start_seed` give exactly what the seed gave).  Such a deal is known
  to whoever chose the seed and a 48-bit one can be searched for, so its commitment proves nothing
  and is not shown while the game runs: it would let anyone test guesses of the seed.
"""

from __future__ import annotations

import hashlib
import random
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple, Protocol

import engine
from service.store.log import SYSTEM  # the kind of the service's own events, which engines never see

SEED_LIMIT = 2**63  # seeds are below it (they fitted the old BIGINT column); drawn secrets at or above
SECRET_BITS = 256


def draw() -> str:
    """A fresh secret from the operating system's random source (`secrets`): about 256 bits."""
    return str(SEED_LIMIT + secrets.randbelow(2**SECRET_BITS - SEED_LIMIT))


def of_seed(seed: int) -> str:
    """The secret of a game dealt from a chosen seed; ValueError outside 0 <= seed < SEED_LIMIT."""
    if not 0 <= seed < SEED_LIMIT:
        raise ValueError(f"a seed is a whole number from 0 to {SEED_LIMIT - 1}")
    return str(seed)


def commit(secret: str) -> str:
    """The commitment to a secret: the SHA-256 of its text, in hex."""
    return hashlib.sha256(secret.encode("ascii")).hexdigest()


def drawn(secret: str) -> bool:
    """Whether the secret was drawn for the game (else it is a seed: chosen, or from before 0010a)."""
    return int(secret) >= SEED_LIMIT


def start_seed(secret: str) -> int:
    """The seed the engine's `start` gets."""
    return int(secret)


def rng(secret: str | int, seq: int) -> random.Random:
    """The RNG of the move made after `seq` events: from the game's secret and the position, so a
    retried move draws the same cards (tests/engine/contract.py plays golden files the same way).  A
    seed given as an int is the same as its secret."""
    return random.Random(f"{secret}:{seq}")


class HasDeal(Protocol):
    @property
    def secret(self) -> str: ...
    @property
    def commitment(self) -> str: ...
    @property
    def status(self) -> str: ...


@dataclass(frozen=True, slots=True)
class Shown:
    """What of a game's randomness may be shown now, to anyone (players and spectators alike)."""

    drawn: bool  # the secret was drawn for the game (not a seed)
    commitment: str | None  # the SHA-256 in hex: from the start for a drawn secret, else once over
    secret: str | None  # once the game is over

    def public(self) -> dict[str, Any]:
        """The JSON fields: `commitment` ("sha256:<hex>" or null), `secret` once over."""
        data: dict[str, Any] = {"commitment": None if self.commitment is None else f"sha256:{self.commitment}"}
        if self.secret is not None:
            data["secret"] = self.secret
        return data


def shown(game: HasDeal) -> Shown:
    over = game.status == "finished"
    fresh = drawn(game.secret)
    return Shown(fresh, game.commitment if fresh or over else None, game.secret if over else None)


# ---- checking a finished game's log against its secret ---------------------------------------------


class Row(NamedTuple):
    """An event of the log as the check reads it: the payload in the engine's current shape."""

    seq: int
    kind: str  # setup | move | timeout | system
    actor: int | None
    payload: dict[str, Any]


@dataclass
class Replayed:
    """What `replay_problems` found: `problems` empty when the secret reproduces the whole log."""

    problems: list[str]
    setup: int = 0  # how many setup events the secret dealt
    moves: int = 0  # how many moves it explained (each one legal move with its position's RNG)


Explanation = tuple[int, list[dict[str, Any]]]  # (the index after a move's events, those events)


def replay_problems(rules: engine.Game, secret: str, players: int, options: dict[str, Any] | None,
                    rows: Sequence[Row]) -> Replayed:
    """Replay a game's randomness from `secret`: the setup must be what `start` deals with it, and
    every move's events what some legal move of its seat gives with the RNG of its position.

    The log holds the events, not the moves that caused them, so each run of a seat's events is
    explained by trying that seat's legal moves at the position (each with `rng(secret, seq)`): one
    must give exactly the next stored events.  Where several give a prefix of them (a batch of
    moves), the longest is tried first and the others are kept to come back to.  Problems are short
    lines naming the first event that no legal move explains; never a state's contents."""
    done = Replayed([])
    count = 0
    while count < len(rows) and rows[count].kind == "setup":
        count += 1
    try:
        dealt = rules.start(players=players, options=dict(options or {}), seed=start_seed(secret))
    except engine.IllegalMove as exc:
        done.problems.append(f"the engine refuses the game's start with this secret: {exc.reason}")
        return done
    if [row.payload for row in rows[:count]] != dealt:
        done.problems.append(f"the setup (events 1 to {count}) is not what the secret deals")
        return done
    done.setup = count
    state = engine.replay(rules, dealt)
    at = furthest = count
    path: list[int] = []  # where each move explained so far begins
    branches: list[tuple[int, Any, list[Explanation]]] = []  # (index, state there, the other explanations)
    found: list[Explanation] | None = None
    while at < len(rows):
        if rows[at].kind == SYSTEM:  # the service's own record of the end: no engine's doing
            at += 1
            continue
        if found is None:
            found = _explanations(rules, secret, state, rows, at)
        if not found:
            if not branches:
                done.problems.append(f"event {rows[furthest].seq} ({_who(rows[furthest])}) is not what any legal "
                                     "move gives with the secret's random draws at that position")
                return done
            at, state, found = branches.pop()
            path = [start for start in path if start < at]
            continue
        (end, events), others = found[0], found[1:]
        if others:
            branches.append((at, rules.copy_state(state), others))
        for event in events:
            state = rules.evolve(state, event)
        path.append(at)
        at, found = end, None
        furthest = max(furthest, min(at, len(rows) - 1))
    done.moves = len(path)
    return done


def _who(row: Row) -> str:
    return f"a {row.kind} of seat {row.actor}" if row.actor is not None else f"a {row.kind} event"


def _explanations(rules: engine.Game, secret: str, state: Any, rows: Sequence[Row], at: int) -> list[Explanation]:
    """The legal moves of the seat whose event is at `rows[at]` that give exactly the next stored
    events with the RNG of that position, longest first."""
    first = rows[at]
    seat = first.actor
    if seat is None:
        return []
    run = at
    while run < len(rows) and rows[run].actor == seat and rows[run].kind == first.kind:
        run += 1
    stored = [row.payload for row in rows[at:run]]
    found: dict[int, list[dict[str, Any]]] = {}
    for move in rules.legal_moves(state, seat):
        try:
            events = rules.play(state, seat, move, rng(secret, first.seq - 1))
        except engine.IllegalMove:
            continue
        if events and events == stored[:len(events)]:
            found.setdefault(at + len(events), events)
    return sorted(found.items(), key=lambda item: -item[0])


# ---- a downloaded game record (service/views/history.py `record`) -----------------------------------


@dataclass
class RecordDeal:
    """What a complete game record holds for the deal check, to run without the service's database."""

    game_id: Any
    name: str
    rules_version: str  # the rules the game was set up under
    secret: str
    commitment: str | None  # hex, as the record states it (None: a record of format 1, before commitments)
    players: int
    options: dict[str, Any]
    rows: list[Row]


def read_record(data: Any) -> RecordDeal:
    """The deal of a downloaded game record (format 2; format 1's `seed` is its secret); ValueError
    saying what is missing or wrong."""
    if not isinstance(data, dict) or data.get("format") not in ("riftpost-game-record/1", "riftpost-game-record/2"):
        raise ValueError("this is not a Riftpost game record")
    if not data.get("complete"):
        raise ValueError("this record is not complete: a game's secret and every hidden fact are in its "
                         "record once the game is over")
    secret = data.get("secret", data.get("seed"))
    if isinstance(secret, int) and not isinstance(secret, bool):
        secret = str(secret)
    if not isinstance(secret, str) or not secret.isdigit():
        raise ValueError("this record holds no secret")
    commitment = data.get("commitment")
    if isinstance(commitment, str) and commitment.startswith("sha256:"):
        commitment = commitment.removeprefix("sha256:")
    elif commitment is not None:
        raise ValueError("this record's commitment is not a SHA-256 (sha256:<hex>)")
    try:
        rows = [Row(int(e["seq"]), str(e["kind"]), e["actor"], e["event"]) for e in data["events"]]
        return RecordDeal(data.get("id"), str(data["game"]), str(data.get("rules_version")), secret, commitment,
                          len(data["players"]), dict(data.get("options") or {}), rows)
    except (KeyError, TypeError, ValueError) as exc:
        raise ValueError(f"this record is damaged ({exc!r})") from None
