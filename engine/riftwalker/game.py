"""The `Game` subclass: the engine contract wired to the modules that implement it."""

from __future__ import annotations

import random

from engine.core import Game, IllegalMove

from . import flow, scoring, text
from .state import copy_state, evolve


class Riftwalker(Game):
    name = "riftwalker"
    title = "Riftwalker"
    rules_version = "1"
    min_players = 2
    max_players = 4

    def start(self, players, options=None, seed=0):
        if type(players) is not int or not self.min_players <= players <= self.max_players:
            raise IllegalMove("Riftwalker is for 2 to 4 players", "bad_options")
        if options:
            raise IllegalMove(f"Riftwalker has no options (got {sorted(options)})", "bad_options")
        return flow.start_events(players, seed)

    def evolve(self, state, event):
        return evolve(state, event)

    def copy_state(self, state):
        return copy_state(state)

    def to_act(self, state):
        seat, _ = flow.decision(state)
        return [] if seat is None else [seat]

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

    def view(self, state, seat):
        return text.view(state, seat)

    def result(self, state):
        return scoring.result(state)

    def render_text(self, view):
        return text.render_text(view)

    def describe_move(self, move, state=None):
        return text.describe_move(move, state)

    def describe_event(self, event, seat=None):
        return text.describe_event(event, seat)

    def redact_event(self, event, seat):
        return text.redact_event(event, seat)
