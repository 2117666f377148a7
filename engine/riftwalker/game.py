"""The `Game` subclass: the engine contract wired to the modules that implement it."""

from __future__ import annotations

import random
from typing import ClassVar

from engine.core import Game, Turn
from engine.errors import IllegalMove

from . import bot as bots
from . import flow, messages, notation, redact, scoring, views, words
from .state import copy_state
from .state import evolve as _evolve

# Seat-bearing fields of the events: the acting seat, the owner of the card or rift it changes, the
# owner of the rift a card is tucked beneath.
_SEAT_FIELDS = ("seat", "owner", "host_owner")


class Riftwalker(Game):
    name = "riftwalker"
    title = "Riftwalker"
    rules_version = "1"  # the event shapes have not changed since the first version
    min_players = 2
    max_players = 4

    # engine/bots.py: ~0.2 s (normal) and ~1 s (strong) a decision, measured with bench/bots.py
    bot_budgets: ClassVar[dict[str, tuple[int, int]]] = {"easy": (0, 0), "normal": (450, 12), "strong": (2200, 16)}

    def options_schema(self):
        return {"type": "object", "properties": {}, "additionalProperties": False,
                "description": "Riftwalker has no options: 2 to 4 players, the seed decides the rest."}

    def start(self, players, options=None, seed=0):
        if type(players) is not int or not self.min_players <= players <= self.max_players:
            raise IllegalMove("Riftwalker is for 2 to 4 players", "bad_options")
        if options:
            raise IllegalMove(f"Riftwalker has no options (got {sorted(options)})", "bad_options")
        return flow.start_events(players, seed)

    # The module's function itself, not a method calling it: replay calls it once per event.
    evolve = staticmethod(_evolve)

    def copy_state(self, state):
        return copy_state(state)

    def to_act(self, state):
        seat, _ = flow.decision(state)
        return [] if seat is None else [seat]

    def turn(self, state):
        """One turn per player's turn (§4), numbered from 1 by the "turn" events.  An opponent's
        decision inside it (a discard from their own hand) is only in `to_act`; the seats stay the
        active player's.  Phases: element, rift (the power of a rift explored or shifted resolves
        inside the rift step), burst, refresh; "over" once the game is finished."""
        current = state["turn"]
        if state["over"] or current is None:
            # a snapshot stored before the state counted its turns has no "turns": 0, not a crash
            return Turn(state.get("turns", 0), "over", ())
        step = current["step"]
        phase = "rift" if state["stack"] else ("element" if step == "element_place" else step)
        return Turn(current["number"], phase, (current["seat"],))

    def legal_moves(self, state, seat):
        who, moves = flow.decision(state)
        return [dict(m) for m in moves] if who == seat else []

    def play(self, state, seat, move, rng: random.Random | None = None):
        # rng is unused: every random outcome (shuffles, faces, first player) is fixed at setup and
        # recorded in the setup events; draws and searches read the recorded deck order.
        events, _ = flow.play(state, seat, move)
        return events

    def default_move(self, state, seat):
        """H8, see the package docstring: flip slot 0; skip; discard nothing."""
        who, moves = flow.decision(state)
        if who != seat or not moves:
            raise IllegalMove("that seat has nothing to decide", "not_your_turn")
        in_element_step = not state["stack"] and state["turn"]["step"] == "element"
        for preferred in ({"type": "flip", "slot": 0} if in_element_step else {"type": "skip"},
                          {"type": "done"}):
            if preferred in moves:
                return dict(preferred)
        return dict(moves[0])

    def move_text(self, state, seat, move):
        return notation.move_text(state, seat, move)

    def parse_move(self, state, seat, text):
        return notation.parse_move(state, seat, text)

    def determinize(self, state, seat, rng):
        return bots.determinize(state, seat, rng)

    def evaluate(self, state, seat):
        return bots.evaluate(state, seat)

    def view(self, state, seat):
        return views.view(state, seat)

    def result(self, state):
        return scoring.result(state)

    def public_scores(self, view):
        """Points in the score piles while the game runs (bonus counts only at the end, §6); the
        final points with bonus once it is over."""
        if view["result"] is not None:
            return {int(seat): points for seat, points in view["result"]["scores"].items()}
        return {entry["seat"]: entry["points"] for entry in view["seats"]}

    def seats_affected(self, event, state):
        seats = {event.get(key) for key in _SEAT_FIELDS}
        return sorted(s for s in seats if type(s) is int)

    def render_text(self, view):
        return words.render_text(view)

    def describe_move(self, move, state=None):
        return words.describe_move(move, state)

    def describe_event(self, event, seat=None, state=None):
        return words.describe_event(event, seat, state)

    message_keys = messages.KEYS

    def event_messages(self, event, seat=None, state=None):
        return messages.event_messages(event, seat, state)

    def move_message(self, move, state=None):
        return messages.move_message(move, state)

    def redact_event(self, event, seat):
        return redact.redact_event(event, seat)
