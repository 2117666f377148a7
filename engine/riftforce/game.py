"""The Riftforce `Game`: the engine contract (engine/core.py) wired to this package's modules."""

from __future__ import annotations

import random
from typing import Any

from engine.core import Game, IllegalMove

from . import moves, solo, state, team, text, view
from .cards import ALL_GUILDS, BASE_GUILDS

# Options: "mode" duel (2 players; "guilds" base|all), team (3-4 players, team.py) or solo
# (1 player, solo.py: "stars", "and", "trainer_guilds").  Team and solo always use all 18 guilds.
GUILD_OPTIONS = ("base", "all")
MODES = ("duel", "team", "solo")


def normalize_options(players: Any, options: dict | None) -> dict:
    options = {} if options is None else options
    if not isinstance(options, dict):
        raise IllegalMove("options must be a JSON object", "bad_options")
    mode = options.get("mode", "duel")
    if mode not in MODES:
        raise IllegalMove("mode must be \"duel\", \"team\" or \"solo\"", "bad_options")
    if isinstance(players, bool) or not isinstance(players, int):
        raise IllegalMove("the number of players must be a whole number", "bad_options")
    if mode == "team":
        return team.normalize_options(players, options)
    if mode == "solo":
        return solo.normalize_options(players, options)
    if players != 2:
        raise IllegalMove("the Riftforce duel is for 2 players (team play 3-4, solo 1)",
                          "bad_options")
    if set(options) - {"guilds", "mode"}:
        raise IllegalMove("unknown option; Riftforce takes guilds=base|all", "bad_options")
    guilds = options.get("guilds", "base")
    if guilds not in GUILD_OPTIONS:
        raise IllegalMove("guilds must be \"base\" or \"all\"", "bad_options")
    return {"guilds": guilds}


class Riftforce(Game):
    name = "riftforce"
    title = "Riftforce"
    rules_version = "1"
    min_players = 1
    max_players = 4

    def start(self, players: int, options: dict | None = None, seed: int = 0) -> list[dict]:
        opts = normalize_options(players, options)
        rng = random.Random(seed)
        if opts.get("mode") == "team":
            return team.start_events(players, opts, rng)
        if opts.get("mode") == "solo":
            return solo.start_events(opts, rng)
        if opts["guilds"] == "base":
            # Base draft (rules §3): 1 removed unseen, 1 dealt to each, the other 7 shown.
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

    def evolve(self, s, event):
        return state.evolve(s, event)

    def copy_state(self, s):
        return state.copy_state(s)

    def apply(self, s, event):
        return state.apply(s, event)

    def to_act(self, s) -> list[int]:
        return [] if s["phase"] == "over" or s["turn"] is None else [s["turn"]]

    def legal_moves(self, s, seat) -> list[dict]:
        return moves.legal_moves(s, seat)

    def play(self, s, seat, move, rng: random.Random) -> list[dict]:
        return moves.play(s, seat, move, rng)

    def default_move(self, s, seat) -> dict:
        return moves.default_move(s, seat)

    def view(self, s, seat):
        return view.view(s, seat)

    def result(self, s):
        return view.result(s)

    def render_text(self, v) -> str:
        return text.render_text(v)

    def describe_move(self, move, s=None) -> str:
        return view.describe_move(move, s)

    def describe_event(self, event, seat=None):
        return view.describe_event(event, seat)

    def redact_event(self, event, seat):
        return view.redact_event(event, seat)
