"""The options `start` accepts: their JSON Schema (forms and the command line read it) and their
check.  "mode" is duel (2 players; "guilds" base|all), team (3-4 players, team.py) or solo
(1 player, solo.py: "stars", "and", "trainer_guilds": "choose" | "random" | 4 guilds).  Team
and solo always use all 18 guilds."""

from __future__ import annotations

from typing import Any

from engine.errors import IllegalMove

from . import solo, team
from .cards import ALL_GUILDS

GUILD_OPTIONS = ("base", "all")
MODES = ("duel", "team", "solo")


def options_schema() -> dict[str, Any]:
    star = {"type": "integer", "minimum": 1, "maximum": 4, "default": 1}
    return {
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "mode": {"type": "string", "enum": list(MODES), "default": "duel",
                     "description": "duel (2 players), team (3 or 4 players) or solo (1 player "
                                    "against the trainer)"},
            "guilds": {"type": "string", "enum": list(GUILD_OPTIONS), "default": "base",
                       "description": "duel only: the 10 base guilds, or all 18 with the Beyond "
                                      "draft (team and solo always use all 18)"},
            "stars": {"type": "object", "additionalProperties": False,
                      "description": "solo: the challenge level (1-4 stars) of the trainer's 5s, "
                                     "6s and 7s",
                      "properties": {"5": star, "6": star, "7": star}},
            "and": {"type": "object", "additionalProperties": False,
                    "x-absent": ["none", "no", ""],
                    "description": "solo: the & card on the bots of one number, with end A or "
                                   "B (left out: no & card)",
                    "properties": {"number": {"type": "integer", "enum": [5, 6, 7]},
                                   "end": {"type": "string", "enum": ["A", "B"]}}},
            "trainer_guilds": {
                "anyOf": [{"type": "string", "enum": list(solo.TRAINER_CHOICES)},
                          {"type": "array", "minItems": 4, "maxItems": 4,
                           "items": {"type": "string", "enum": list(ALL_GUILDS)}}],
                "default": "choose",
                "description": "solo: the trainer's 4 guilds, from the 14 you do not keep: "
                               "\"choose\" (you choose them after your keep), \"random\", or 4 "
                               "named guilds (one you keep is replaced by your choice)"},
        },
    }


def normalize_options(players: Any, options: dict | None) -> dict:
    """The options as the setup event records them; IllegalMove ("bad_options") for anything else."""
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
