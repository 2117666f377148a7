"""The Riftforce `Game`: the engine contract (engine/core.py) wired to this package's modules."""

from __future__ import annotations

import random
from typing import ClassVar

from engine.core import Game, Turn

from . import bot as bots
from . import events, messages, moves, notation, solo, team, words
from . import state as states
from . import view as views
from .cards import ALL_GUILDS, BASE_GUILDS
from .options import normalize_options, options_schema


class Riftforce(Game):
    name = "riftforce"
    title = "Riftforce"
    rules_version = events.RULES_VERSION
    min_players = 1
    max_players = 4
    # "skip" ends a Play or an Activate in progress; a turn itself cannot be skipped (Check & Draw,
    # the "auto" choice, is what a seat that ran out of time does at the start of its turn).
    pass_types = ("end_play", "done")

    # ---- setup and state evolution ---------------------------------------------------------------

    # engine/bots.py: ~0.2 s (normal) and ~1 s (strong) a decision, measured with bench/bots.py.
    # Short playouts (4 steps: about the rest of an action) leave the worth to `evaluate` (bot.py),
    # which counts damage on the way to a kill: random steps beyond that add noise, not sight (a
    # 4-step search won 32/40 against the same search with 12; docs/bots.md).  Successive halving
    # spends more of a bigger budget on the contenders, so strong's 5 times the playouts tell.
    bot_budgets: ClassVar[dict[str, tuple[int, int]]] = {"easy": (0, 0), "normal": (1600, 4), "strong": (8000, 4)}
    bot_halving = True

    def options_schema(self):
        return options_schema()

    def start(self, players: int, options: dict | None = None, seed: int = 0) -> list[dict]:
        opts = normalize_options(players, options)
        rng = random.Random(seed)
        if opts.get("mode") == "team":
            return team.start_events(players, opts, rng)
        if opts.get("mode") == "solo":
            return solo.start_events(opts, rng)
        if opts["guilds"] == "base":
            # Base draft (rules §3): 1 removed unseen, 1 dealt to each (its player's secret until
            # the draft ends: Q16), the other 7 shown.
            pool = BASE_GUILDS[:]
            rng.shuffle(pool)
            removed, dealt, offer = pool[:1], pool[1:3], pool[3:]
        else:
            # Beyond 2-player draft (rules §9): 1 random each, 6 + 2 shown, 8 left in the box.
            pool = ALL_GUILDS[:]
            rng.shuffle(pool)
            removed, dealt, offer = [], pool[:2], pool[2:10]
        first = rng.randrange(2)  # the start marker toss
        return [
            {"type": "setup", "players": 2, "mode": "duel", "options": opts},
            {"type": "draft", "removed": removed, "dealt": dealt, "offer": offer, "first": first},
        ]

    def upcast(self, event, rules_version):
        return events.upcast(event, rules_version)

    def evolve(self, state, event):
        return states.evolve(state, event)

    def copy_state(self, state):
        return states.copy_state(state)

    def apply(self, state, event):
        return states.apply(state, event)

    # ---- decisions -------------------------------------------------------------------------------

    def to_act(self, state) -> list[int]:
        return [] if state["phase"] == "over" or state["turn"] is None else [state["turn"]]

    def turn(self, state) -> Turn:
        """One seat decides at a time.  A turn begins with every draft pick that hands the draft
        to another seat (solo's keep-4 picks are one turn) and with every `turn` event: each action in the duel
        and team play, and in solo the player's next action after the trainer's plan, though the
        same seat acts again.  Follow-up decisions (further cards of a Play, elementals of an
        Activate, choices inside an ability or for the trainer's plan) are the same turn."""
        seats = () if state["phase"] == "over" or state["turn"] is None else (state["turn"],)
        return Turn(state.get("turns", 0), state["phase"], seats)

    def teams(self, state) -> list[list[int]]:
        if state["mode"] != "team":
            return []
        return [[0, 2], [1, 3]] if state["players"] == 4 else [[0, 2]]

    def legal_moves(self, state, seat) -> list[dict]:
        return moves.legal_moves(state, seat)

    def play(self, state, seat, move, rng: random.Random) -> list[dict]:
        return moves.play(state, seat, move, rng)

    def default_move(self, state, seat) -> dict:
        return moves.default_move(state, seat)

    # ---- moves as text ---------------------------------------------------------------------------

    def move_text(self, state, seat, move) -> str:
        return notation.move_text(move)

    def parse_move(self, state, seat, text) -> dict:
        return notation.parse_move(state, seat, text)

    # ---- what people see -------------------------------------------------------------------------

    def determinize(self, state, seat, rng):
        return bots.determinize(state, seat, rng)

    def evaluate(self, state, seat):
        return bots.evaluate(state, seat)

    def view(self, state, seat):
        return views.view(state, seat)

    def result(self, state):
        return views.result(state)

    def public_scores(self, view):
        return views.public_scores(view)

    def seats_affected(self, event, state):
        return events.seats_affected(event, state)

    def render_text(self, view, names=None) -> str:
        """The board as text; `names` (seat -> player name, optional) names the players."""
        return words.render_text(view, names)

    def describe_move(self, move, state=None) -> str:
        return words.describe_move(move, state)

    def describe_event(self, event, seat, state):
        return words.describe_event(event, seat, state)

    message_keys = messages.KEYS

    def event_messages(self, event, seat, state):
        return messages.event_messages(event, seat, state)

    def move_message(self, move, state=None):
        return messages.move_message(move, state)

    def redact_event(self, event, seat):
        return events.redact_event(event, seat)
