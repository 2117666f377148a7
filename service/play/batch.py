"""One seat's moves played in order on one state: what `handle` records and `preview` shows.

Each move is played with the RNG of its own position (`rng(secret, seq before it)`, service/store/deal.py), exactly as if the
moves had been sent one by one, so a replay of the log is the same either way.  A batch stops where the
seat's turn stops: after a move that ends the game, begins a new turn or leaves the seat with nothing
asked, a further move is illegal ("turn_over"), and so is a move after one whose outcome holds hidden
information (see `hides`): what a draw brings is known only once it is recorded, so a request cannot
try moves that depend on it and back out.

Moves come as JSON objects or as their text forms (the engine's `parse_move`, read at the position
they are played from).
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from sqlmodel import Session

import engine
from service import store
from service.errors import IllegalMoveAt, StaleState
from service.games import adapter
from service.lang import N_, Nf_
from service.store.current import AnyGame
from service.store.deal import rng
from service.store.models import Game
from service.views.sentences import move_fact, move_words

log = logging.getLogger(__name__)

# At most this many moves in one request: a whole turn is a handful (Beyond the Rift's longest hero
# turns are a few dozen decisions).
MAX_MOVES = 64
MAX_TEXT = 400  # characters of one move's text form


class GameOver(IllegalMoveAt):
    def __init__(self) -> None:
        super().__init__(0, "this game is over: nothing can be played any more", "game_over")


def begin(session: Session, game_id: int, seat: int, expected_seq: int, *,
          pure: bool = False, language: str = "en") -> tuple[Game, Batch, int]:
    """The game as it stood at `expected_seq`, a Batch to play `seat`'s moves on from its state, and
    the seq of the snapshot that state was loaded from: how a preview begins (`handle`
    reads the game through service/store/current.py instead).
    Raises GameNotFound, StaleState ("the game moved on"), GameOver."""
    game = store.get_game(session, game_id)
    if game.seq != expected_seq:
        raise StaleState(game_id, expected_seq, game.seq)
    if game.status != "active":
        raise GameOver()
    state, snapshot_seq = store.load_state(session, game)
    walk = Batch(engine.get(game.name), game.secret, state, seat, expected_seq,
                 secrets=lambda: secrets_of(session, game, seat), pure=pure, language=language)
    return game, walk, snapshot_seq


def as_moves(moves: Any, *, empty: bool = False) -> list[dict[str, Any] | str]:
    """A list of moves from one move (a dict), or a list of dicts and text forms; else IllegalMoveAt.
    `empty`: an empty list is allowed (a preview of the position now)."""
    if isinstance(moves, dict):
        return [moves]
    if not isinstance(moves, list) or not (moves or empty):
        raise IllegalMoveAt(0, N_("send at least one move: a JSON object or its text form"), "malformed")
    if len(moves) > MAX_MOVES:
        raise IllegalMoveAt(MAX_MOVES, Nf_("at most %(num)d moves can be sent at once", num=MAX_MOVES), "malformed")
    for index, move in enumerate(moves):
        if not isinstance(move, dict | str):
            raise IllegalMoveAt(index, "a move must be a JSON object or its text form", "malformed")
    return moves


def _engine_play(rules: engine.Game, state: dict[str, Any], seat: int, move: dict[str, Any],
                 random_source: random.Random) -> list[dict[str, Any]]:
    try:
        return rules.play(state, seat, move, random_source)
    except engine.IllegalMove:
        raise
    except (KeyError, IndexError, TypeError, ValueError, AttributeError) as exc:
        # Moves arrive from outside (forms, links, the API); an engine that trips over a malformed one
        # must still give the player a 4xx, and we want to hear about it.
        log.warning("%s raised %r on move %r", rules.name, exc, move, exc_info=True)
        raise engine.IllegalMove("that move could not be understood", "malformed") from exc


# ---- hidden information -----------------------------------------------------------------------------


def strings(data: Any, out: set[str] | None = None) -> set[str]:
    """Every string value in JSON data (dict keys left out): card ids and the like."""
    out = set() if out is None else out
    if isinstance(data, str):
        out.add(data)
    elif isinstance(data, dict):
        for value in data.values():
            strings(value, out)
    elif isinstance(data, list):
        for value in data:
            strings(value, out)
    return out


def withheld(rules: engine.Game, event: dict[str, Any], seat: int) -> set[str]:
    """The strings of an event that its redaction for `seat` takes out (cards it may not see)."""
    redacted = rules.redact_event(event, seat)
    if redacted == event:  # most events: nothing to take out
        return set()
    return strings(event) - strings(redacted)


def secrets_of(session: Session, game: AnyGame, seat: int) -> set[str]:
    """Every string the game has kept from `seat` so far: what the redaction of each event (and of the
    start options) for that seat took out.  Card ids in a deck, another hand, a face-down pile."""
    rules = engine.get(game.name)
    secret = strings(game.options) - strings(rules.redact_options(dict(game.options), seat))
    for row in store.events(session, game):
        if row.kind != store.SYSTEM:
            secret |= withheld(rules, row.payload, seat)
    return secret


# ---- the walk ---------------------------------------------------------------------------------------


@dataclass
class Played:
    index: int
    move: dict[str, Any]
    text: str  # its text form at the position it was played from
    label: str  # in words
    events: list[dict[str, Any]]
    hidden: bool = False  # its outcome holds hidden information (judged only when asked)
    fact: str | dict[str, Any] = ""  # the move as stored data says it (sentences.move_fact): worded later


@dataclass
class Batch:
    """The moves of one seat, played one after the other on `state`.

    `pure`: keep each state (a preview, which also needs the state before a hidden step); otherwise
    the state is evolved in place (it must be the caller's own).  `secrets`: loads what the game kept
    from the seat before the batch (`secrets_of`), for judging hidden outcomes."""

    rules: engine.Game
    secret: str  # the game's (service/store/deal.py): where each move's RNG comes from
    state: dict[str, Any]
    seat: int
    seq: int  # the seq before the next move
    secrets: Callable[[], set[str]]
    pure: bool = False
    language: str = "en"  # the moves' labels (Played.label): the reader's, in a page's preview
    before: list[int] = field(init=False)  # the seats to act before the first move
    previous: dict[str, Any] | None = field(init=False, default=None)  # pure: the state before the last move
    played: list[Played] = field(init=False, default_factory=list)
    events: list[dict[str, Any]] = field(init=False, default_factory=list)
    turn_began: int | None = field(init=False, default=None)  # the seq after which a turn began, if one did
    ended: engine.IllegalMove | None = field(init=False, default=None)  # why no further move may follow
    _number: int = field(init=False)
    _secret: set[str] | None = field(init=False, default=None)
    _own: frozenset[str] = field(init=False)

    def __post_init__(self) -> None:
        self.before = self.rules.to_act(self.state)
        self._number = self.rules.turn(self.state).number
        self._own = frozenset(adapter(self.rules.name).preview_own_events)

    def play(self, index: int, raw: dict[str, Any] | str, *, judge: bool) -> Played:
        """Play one move; IllegalMoveAt(index) if it may not be played.  `judge`: find out whether its
        outcome holds hidden information (a draw, a reveal), which ends what may follow."""
        rules, seat = self.rules, self.seat
        try:
            self._may_play(index)
            move = self._read(raw)
            waited_on = seat in rules.to_act(self.state)
            known = self._shown() if judge else set()
            new_events = _engine_play(rules, self.state, seat, move, rng(self.secret, self.seq))
            if not new_events:
                raise engine.IllegalMove("that move changes nothing", "illegal")
            text, label = rules.move_text(self.state, seat, move), move_words(rules, move, self.state, None, seat,
                                                                                self.language)
            fact = move_fact(rules, move, self.state)
        except engine.IllegalMove as exc:
            raise IllegalMoveAt.of(exc, index) from exc
        self.previous = self.state if self.pure else None
        state = rules.copy_state(self.state) if self.pure else self.state
        assert state is not None
        for event in new_events:
            state = rules.evolve(state, event)
            self.seq += 1
            number = rules.turn(state).number
            if number != self._number:
                self._number, self.turn_began = number, self.seq
        self.state = state
        self.events += new_events
        played = Played(index, move, text, label, list(new_events), fact=fact)
        if self._secret is not None or judge:
            if self._secret is None:
                self._secret = set(self.secrets())
            for event in new_events:
                self._secret |= withheld(rules, event, seat)
        if judge:
            played.hidden = self._hides(new_events, known)
        self.played.append(played)
        self.ended = self._why_ended(waited_on, played.hidden)
        return played

    def _read(self, raw: dict[str, Any] | str) -> dict[str, Any]:
        if isinstance(raw, dict):
            return raw
        if len(raw) > MAX_TEXT:
            raise engine.IllegalMove(Nf_("a move's text form is at most %(num)d characters", num=MAX_TEXT), "unreadable")
        try:
            move = self.rules.parse_move(self.state, self.seat, raw)
        except engine.IllegalMove:
            raise
        except (KeyError, IndexError, TypeError, ValueError, AttributeError) as exc:
            log.warning("%s raised %r reading %r", self.rules.name, exc, raw, exc_info=True)
            raise engine.IllegalMove(Nf_("%(move)s is not a move", move=repr(raw[:80])), "unreadable") from exc
        if not isinstance(move, dict):
            raise engine.IllegalMove(Nf_("%(move)s is not a move", move=repr(raw[:80])), "unreadable")
        return move

    def _may_play(self, index: int) -> None:
        if self.ended is not None:
            raise self.ended
        # a seat the game does not wait on may still have moves (engine/core.py: to_act)
        if self.seat not in self.rules.to_act(self.state) and not self.rules.legal_moves(self.state, self.seat):
            if index:
                raise engine.IllegalMove("you have nothing more to decide now", "turn_over")
            raise engine.IllegalMove("it is not your turn to decide", "not_your_turn")

    def _why_ended(self, waited_on: bool, hidden: bool) -> engine.IllegalMove | None:
        rules, state = self.rules, self.state
        # A hidden outcome first, whatever else it led to: a different answer (game over, another's
        # turn) for a move sent after it would tell what was drawn or revealed before it is recorded.
        if hidden:
            return engine.IllegalMove("the move before this one brings something not known yet (a card drawn "
                                      "or revealed): confirm the moves up to it, then choose the next from the "
                                      "new position", "after_hidden")
        if rules.result(state) is not None:
            return engine.IllegalMove("the game ended with the move before this one", "game_over")
        if self.turn_began is not None:
            return engine.IllegalMove("your turn ended with the move before this one (a new turn began): "
                                      "send this move on its own from the new position", "turn_over")
        if waited_on and self.seat not in rules.to_act(state):
            return engine.IllegalMove("your turn ended with the move before this one: the game waits on "
                                      "someone else now", "turn_over")
        return None

    def _shown(self) -> set[str]:
        """What the seat sees now: its view and its decisions."""
        return strings(self.rules.view(self.state, self.seat), strings(self.rules.legal_moves(self.state, self.seat)))

    def _hides(self, new_events: Iterable[dict[str, Any]], known: set[str]) -> bool:
        """Whether the outcome of a move holds hidden information, so it must not be shown before it is
        recorded.  Two tests, either is enough:
        - an event a spectator may not see as it is (`redact_event(event, None) != event`: a draw, a
          shuffle), unless its type is one the game's adapter names as the mover's own doing
          (`preview_own_events`, e.g. a card discarded face down from one's own hand);
        - a reveal: the seat's view or decisions afterwards show something the game had kept from it
          (a string some redaction took out, say the next card of a deck) that it did not see before."""
        rules = self.rules
        if any(rules.redact_event(event, None) != event and event.get("type") not in self._own for event in new_events):
            return True
        assert self._secret is not None
        return bool((self._shown() - known) & self._secret)
