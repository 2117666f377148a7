"""The engine contract shared by every game.

A game is a `Game` subclass instance registered under its name.  Everything that crosses the
boundary (events, moves, views, results, states) is plain JSON data: dicts with string keys,
lists, str, int, bool, None.  States are JSON too, so the service can store them as snapshots.

Purity: no game touches a clock, the network, a database or the global RNG.  Randomness enters
only through the `random.Random` passed to `play`, and its outcomes are written into the events,
so `apply` never needs randomness and replay never depends on a RNG implementation.

Events are facts (ids, numbers, seats), never words: no display names, no sentences.  Words are
made when they are shown, from the event and the state it happened in (`describe_event`), by the
game's `words` module, the only place with prose; so wording can change, and be translated, without
touching a stored log.  A log written under an older `rules_version` is brought up to date event by
event by `upcast` before anything reads it.

Turns are the game's to say (`turn`): the service never infers them from event types or from who
moved.  Timeouts too (`timeout_move`): the game says what a seat that ran out of time plays.

Speed: `apply` must not change its input, but copying a whole state per event would dominate
replay.  So games implement `evolve(state, event)`, which *mutates* a state it owns, and the
contract's pure `apply` copies once and evolves; `replay` copies once for a whole run of events.
"""

from __future__ import annotations

import copy
import importlib
import random
from collections.abc import Iterable
from typing import Any, ClassVar

from engine import kit
from engine.errors import IllegalMove, UnknownGame
from engine.messages import Message
from engine.shapes import Event, Move, Result, State, Turn, View

__all__ = ["BUILTIN", "Event", "Game", "IllegalMove", "Message", "Move", "Result", "State", "Turn", "UnknownGame", "View",
           "get", "names", "register", "replay"]

class Game:
    """Base class of a game.  Subclasses set the class attributes and implement the rules."""

    name: str = ""  # registry name, e.g. "riftforce"
    title: str = ""  # for people, e.g. "Riftforce"
    rules_version: str = "1"  # bumped when a rules change would alter the replay of old events
    min_players: int = 1
    max_players: int = 1
    # Move types that pass a decision without doing anything, for the "skip" timeout policy.
    pass_types: tuple[str, ...] = ("pass", "skip")
    # A bot's search budget per level: (playouts per decision, random steps per playout), set per game
    # so that a decision takes about the level's time (engine/bots.py; measured with bench/bots.py).
    bot_budgets: ClassVar[dict[str, tuple[int, int]]] = {"easy": (0, 0), "normal": (60, 12), "strong": (300, 16)}
    # engine/bots.py: share the playouts by successive halving (the worse half of the moves drops out
    # round by round) rather than equally among all the moves.
    bot_halving: ClassVar[bool] = False

    # ---- setup and state evolution -------------------------------------------------------------

    def options_schema(self) -> dict[str, Any]:
        """The options `start` accepts, as a JSON Schema (draft 2020-12 subset: type, enum, items,
        properties, minimum, maximum, minItems, maxItems, anyOf, default, description).  Forms and
        the command line read it; `start` still validates.  An array of strings may be typed as a
        comma list; a property that is either a word or an array (`anyOf` a string `enum` and an
        array) reads a typed word of that enum as the word, anything else as a comma list; a
        property with `"x-absent": [words...]` is left out when one of those words is typed (e.g.
        "random")."""
        return {"type": "object", "properties": {}, "additionalProperties": False}

    def start(self, players: int, options: dict[str, Any] | None = None, seed: int = 0) -> list[Event]:
        """The setup facts of a new game (deals, draft offers...), as events.

        Raises IllegalMove (code "bad_options") for an unsupported player count or option.
        """
        raise NotImplementedError

    def upcast(self, event: Event, rules_version: str) -> Event:
        """An event of a game set up under `rules_version` (older than this engine's), as this
        version would have written it.  Never mutates `event`.  The default: unchanged.

        The store applies it to every event of a game set up under an older version, those this
        engine appended since included: an event already in today's shape must come back unchanged.
        """
        return event

    def evolve(self, state: State | None, event: Event) -> State:
        """Apply one event to a state this call may mutate; return the state.

        `state` is None for the first event.  Never validates, never raises on the game's own events,
        never mutates `event` nor keeps a reference into it that a later event could change (the
        service replays the very event objects it shows and exports).
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

    def turn(self, state: State) -> Turn:
        """Whose turn it is and how many turns have begun (see `Turn`)."""
        raise NotImplementedError

    def teams(self, state: State) -> list[list[int]]:
        """The seats playing as one side, one list per team with more than one seat ([] for a game
        without teams): teammates hear what their partner did."""
        return []

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

    def timeout_move(self, state: State, seat: int, policy: str = "auto") -> Move:
        """What a seat whose time ran out plays, under the game's timeout `policy`:

        - "auto": `default_move`, the game's documented safe choice;
        - "skip": a legal move of one of `pass_types` where the rules offer one, else as "auto".

        Raises IllegalMove (code "not_your_turn") when the seat has nothing to decide.
        """
        if policy == "skip":
            for move in self.legal_moves(state, seat):
                if move.get("type") in self.pass_types:
                    return move
        return self.default_move(state, seat)

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

    # ---- bots (engine/bots.py) ------------------------------------------------------------------

    def determinize(self, state: State, seat: int, rng: random.Random) -> State:
        """A full state `seat` cannot tell from `state`, for a bot's search: everything hidden from
        `seat` (other hands, deck orders, face-down cards) pooled in a canonical order and dealt back at
        random into the same places, so the result depends on `state` only through `view(state, seat)`
        (and `rng`).  Never mutates `state`."""
        raise NotImplementedError

    def bot_skips(self, state: State, seat: int, move: Move) -> bool:
        """True for a legal move a bot never considers (nor plays in its playouts): one that only
        stalls, e.g. a free move its free opposite undoes, which a search that fears the end of the
        turn would play back and forth for ever.  A person may still play it."""
        return False

    def evaluate(self, state: State, seat: int) -> float:
        """A cheap estimate in [0, 1] of how well the game stands for `seat` (0.5: even), which cuts a
        bot's playouts short; read only what that seat's side could know matters (scores, board)."""
        return 0.5

    # ---- moves as text --------------------------------------------------------------------------

    def move_text(self, state: State, seat: int, move: Move) -> str:
        """A short text form of a legal move that `parse_move` reads back to the same dict (as
        python-chess's `Move.uci()` / `Move.from_uci()`): for replies by email, the turn composer
        and bots.  The default is `type key=value ...` (kit.move_text); games may spell it better.
        """
        return kit.move_text(move)

    def parse_move(self, state: State, seat: int, text: str) -> Move:
        """The move `text` spells (see `move_text`); whether it is legal is `play`'s to say.

        Raises IllegalMove (code "unreadable") for a text that spells no move of this game.
        """
        return kit.parse_move(text)

    # ---- what people see ------------------------------------------------------------------------

    def view(self, state: State, seat: int | None) -> View:
        """What `seat` may see now; seat None is a spectator (public information only)."""
        raise NotImplementedError

    def result(self, state: State) -> Result | None:
        """None while the game runs; then the `Result` (kit.result builds one)."""
        raise NotImplementedError

    def public_scores(self, view: View) -> dict[int, float] | None:
        """The score of every seat that a spectator `view` shows (for the score chart), or None
        for a game without scores to chart."""
        return None

    def seats_affected(self, event: Event, state: State | None) -> list[int]:
        """The seats an event changes something of (their cards, their pieces, their score), for
        "this affected you" marks; `state` is the state it was applied to, as for `describe_event`.
        The acting seat may be among them."""
        return []

    def render_text(self, view: View) -> str:
        """A plain-text rendering of a view, readable in an email and by a screen reader."""
        raise NotImplementedError

    def describe_move(self, move: Move, state: State | None = None) -> str:
        """A move in words, for buttons, links and confirm pages ("Play 5 Fire at location 3")."""
        return str(move)

    def describe_event(self, event: Event, seat: int | None, state: State | None) -> str | None:
        """The event as a sentence for `seat` (None: a spectator), worded from `state`, the state the
        event was applied to (None only for the first event of a game); None if it is not worth a line.

        Must reveal nothing that `seat` may not see (see `redact_event`), although `state` is whole.
        """
        return None

    # ---- what people see, as messages (issue #26; engine/messages.py) ---------------------------------
    # Additive to the contract: a game that speaks in messages overrides these three; one that does not
    # yet keeps the defaults (None: "no messages, use the sentences above"), and the service falls back
    # to `describe_event` / `describe_move` for it.  A game that overrides them words every event and
    # move in messages: the service then never reads its sentences.

    # The catalog keys (service/translations/<language>/LC_MESSAGES/<name>.po, context = key) every
    # message of the game may use, nested ones included: tools/check_catalogs.py holds each to a
    # translation in every language.  Empty: the game has no messages yet.
    message_keys: ClassVar[frozenset[str]] = frozenset()

    def event_messages(self, event: Event, seat: int | None, state: State | None) -> list[Message] | None:
        """`describe_event` as messages: the event for `seat` (None: a spectator), from the state it was
        applied to; [] if it is not worth a line; None when the game has no messages (the default).
        Must reveal nothing that `seat` may not see, as `describe_event`."""
        return None

    def move_message(self, move: Move, state: State | None = None) -> Message | None:
        """`describe_move` as a message; None when the game has no messages (the default)."""
        return None

    def redact_event(self, event: Event, seat: int | None) -> Event:
        """The event as `seat` may see it: hidden contents (other hands, deck order) removed."""
        return event

    def redact_options(self, options: dict[str, Any], seat: int | None) -> dict[str, Any]:
        """The game's start options as `seat` may see them while the game runs: options can hold hidden
        facts too (Beyond the Rift's campaign carry-over holds the reward deck's order)."""
        return options


_REGISTRY: dict[str, Game] = {}
BUILTIN = ("riftforce", "riftwalker", "beyond_the_rift")


def register(game: Game) -> Game:
    if not game.name:
        raise ValueError("a game needs a name")
    _REGISTRY[game.name] = game
    return game


def _load_builtin_games() -> None:
    # Imported on first use so `import engine` stays cheap and a process that plays one game never
    # loads the others' card data.
    for module in BUILTIN:
        importlib.import_module(f"engine.{module}")


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
    evolve = game.evolve  # looked up once: a bound method made per event was ~5% of an engine's replay
    for event in events:
        current = evolve(current, event)
    if current is None:
        raise ValueError("replay of no events has no state")
    return current
