"""The engine contract shared by every game.

A game is a `Game` subclass instance registered under its name.  Everything that crosses the
boundary (events, moves, views, results, states) is plain JSON data: dicts with string keys,
lists, str, int, bool, None.  States are JSON too, so the service can store them as snapshots.

Purity: no game touches a clock, the network, a database or the global RNG.  Randomness enters
only through the `random.Random` passed to `play`, and its outcomes are written into the events,
so `apply` never needs randomness and replay never depends on a RNG implementation.

Speed: `apply` must not change its input, but copying a whole state per event would dominate
replay.  So games implement `evolve(state, event)`, which *mutates* a state it owns, and the
contract's pure `apply` copies once and evolves; `replay` copies once for a whole run of events.
"""

from __future__ import annotations

import copy
import random
from typing import Any, Iterable

State = dict[str, Any]
Event = dict[str, Any]
Move = dict[str, Any]
View = dict[str, Any]


class UnknownGame(KeyError):
    """No game is registered under that name."""

    def __str__(self) -> str:  # KeyError quotes its argument; we want a sentence
        return f"unknown game: {self.args[0]!r}" if self.args else "unknown game"


class IllegalMove(ValueError):
    """A move the rules do not allow (or that is malformed), with a human reason and a stable code.

    `code` is machine-readable and stable across versions (templates and tests key on it);
    `reason` is a sentence fit to show to the player.
    """

    def __init__(self, reason: str, code: str = "illegal", move: Any = None):
        super().__init__(reason)
        self.reason = reason
        self.code = code
        self.move = move


class Game:
    """Base class of a game.  Subclasses set the class attributes and implement the rules."""

    name: str = ""  # registry name, e.g. "riftforce"
    title: str = ""  # for people, e.g. "Riftforce"
    rules_version: str = "1"  # bumped when a rules change would alter the replay of old events
    min_players: int = 1
    max_players: int = 1

    # ---- setup and state evolution -------------------------------------------------------------

    def start(self, players: int, options: dict | None = None, seed: int = 0) -> list[Event]:
        """The setup facts of a new game (deals, draft offers...), as events.

        Raises IllegalMove (code "bad_options") for an unsupported player count or option.
        """
        raise NotImplementedError

    def evolve(self, state: State | None, event: Event) -> State:
        """Apply one event to a state this call may mutate; return the state.

        `state` is None for the first event.  Never validates, never raises on the game's own events.
        """
        raise NotImplementedError

    def copy_state(self, state: State | None) -> State | None:
        """An independent copy of a state (override with something faster than deepcopy)."""
        return copy.deepcopy(state)

    def apply(self, state: State | None, event: Event) -> State:
        """Pure: the state after `event`, leaving `state` untouched."""
        return self.evolve(self.copy_state(state), event)

    # ---- decisions ------------------------------------------------------------------------------

    def to_act(self, state: State) -> list[int]:
        """Seats the game waits on now (empty when the game is over).

        A seat not listed may still have legal moves that nobody waits for (Beyond the Rift: a hero
        who said DONE may reopen or edit standing orders); the service accepts those too.
        """
        raise NotImplementedError

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        """Every legal move of that seat now, each a JSON dict."""
        raise NotImplementedError

    def play(self, state: State, seat: int, move: Move, rng: random.Random) -> list[Event]:
        """Validate a move and return the events it causes; never mutates `state`.

        Raises IllegalMove with a reason for anything the rules do not allow.
        """
        raise NotImplementedError

    def default_move(self, state: State, seat: int) -> Move:
        """The move made for a seat whose deadline passed (documented per game with its rules)."""
        moves = self.legal_moves(state, seat)
        if not moves:
            raise IllegalMove("that seat has nothing to decide", "not_your_turn")
        return moves[0]

    # ---- what people see ------------------------------------------------------------------------

    def view(self, state: State, seat: int | None) -> View:
        """What `seat` may see now; seat None is a spectator (public information only)."""
        raise NotImplementedError

    def result(self, state: State) -> dict | None:
        """None while the game runs; then {"scores": {seat: n}, "winners": [seat, ...], ...}."""
        raise NotImplementedError

    def render_text(self, view: View) -> str:
        """A plain-text rendering of a view, readable in an email and by a screen reader."""
        raise NotImplementedError

    def deadline_share(self, state: State, seat: int) -> float:
        """The share of the game's per-decision deadline that this seat's decision gets: 1.0, except
        for short answers asked in the middle of another phase (Beyond the Rift's defense prompts:
        12 of the hero phase's 48 hours), which the whole table waits on."""
        return 1.0

    def move_section(self, move: Move) -> str | None:
        """None for an ordinary decision; for a standing setting, the name of the setting it changes.

        Pages offer each section's moves as one drop-down apart from the decisions, and emails leave
        them out, so a long list of settings never buries the choice a player is asked to make.
        """
        return None

    def describe_move(self, move: Move, state: State | None = None) -> str:
        """A move in words, for buttons, links and confirm pages ("Play 5 Fire at location 3")."""
        return str(move)

    def describe_event(self, event: Event, seat: int | None = None) -> str | None:
        """The event as a sentence for `seat` (None: a spectator); None if it is not worth a line.

        Must reveal nothing that `seat` may not see (see `redact_event`).
        """
        return None

    def redact_event(self, event: Event, seat: int | None) -> Event:
        """The event as `seat` may see it: hidden contents (other hands, deck order) removed."""
        return event

    def redact_options(self, options: dict, seat: int | None) -> dict:
        """The game's start options as `seat` may see them while the game runs: options can hold hidden
        facts too (Beyond the Rift's campaign carry-over holds the reward deck's order)."""
        return options


_REGISTRY: dict[str, Game] = {}


def register(game: Game) -> Game:
    if not game.name:
        raise ValueError("a game needs a name")
    _REGISTRY[game.name] = game
    return game


def _load_builtin_games() -> None:
    # Imported lazily so `import engine` stays cheap and a broken game cannot break the others'
    # imports at start-up time of unrelated tools.
    import importlib

    for module in ("riftforce", "riftwalker", "beyond_the_rift"):
        try:
            importlib.import_module(f"engine.{module}")
        except ModuleNotFoundError as exc:  # a game not built yet
            if exc.name != f"engine.{module}":
                raise


def get(name: str) -> Game:
    """The game registered under `name`; raises UnknownGame."""
    if name not in _REGISTRY:
        _load_builtin_games()
    try:
        return _REGISTRY[name]
    except KeyError:
        raise UnknownGame(name) from None


def names() -> list[str]:
    _load_builtin_games()
    return sorted(_REGISTRY)


def replay(game: Game, events: Iterable[Event], state: State | None = None) -> State:
    """Fold the game's events into a state, starting from `state` (left untouched) or from nothing."""
    current = game.copy_state(state) if state is not None else None
    for event in events:
        current = game.evolve(current, event)
    if current is None:
        raise ValueError("replay of no events has no state")
    return current
