"""Riftforce in the service: the start form's mode and difficulty, and the words for a solo result."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.riftforce import words
from service.games.base import Adapter, FormData

MODES = {"duel": (2,), "team": (3, 4), "solo": (1,)}
MODE_WORDS = {"duel": "The duel is for 2 players", "team": "Team play is for 3 or 4 players",
              "solo": "Solo against the trainer is for 1 player"}


class Riftforce(Adapter):
    listing_order = 1
    solo_against = "the trainer"  # solo play: the automatic trainer holds no seat
    form_template = "games/riftforce/_form.html"
    cli_help = ("Riftforce: --option mode=team (3-4 addresses; seats 1 and 3 are one team, 2 and 4 the "
                "other), --option mode=solo (1 address) with --option stars.5=2 --option stars.6=1 "
                "--option stars.7=1 --option and.number=6 --option and.end=A --option "
                "trainer_guilds=random (or 4 guilds such as fire,water,ice,plant; left out, or choose: "
                "you choose the trainer's 4 after your keep).")

    @property
    def form_fields(self) -> tuple[str, ...]:
        return ("mode", "guilds", "stars5", "stars6", "stars7", "and_number", "and_end",
                "trainer") + tuple(f"trainer_{g}" for g in self.guilds())

    def guilds(self) -> list[str]:
        """Every guild, in the engine's order (its options schema lists them for the trainer)."""
        branches = self.rules.options_schema()["properties"]["trainer_guilds"]["anyOf"]
        return list(next(b for b in branches if b["type"] == "array")["items"]["enum"])

    def form_choices(self) -> dict[str, Any]:
        return {"guilds": self.guilds()}

    def form_options(self, data: FormData, typed: dict[str, Any], players: int) -> tuple[dict[str, Any], list[str]]:
        """The fieldset as options (the options box wins where it sets the same key), and the mistakes
        a person should hear about before the engine is asked."""
        options: dict[str, Any] = {}
        errors: list[str] = []
        mode = typed.get("mode") or (data.get("mode") or "").strip() or "duel"
        if not isinstance(mode, str) or mode not in MODES:
            return {}, [f"Choose a Riftforce mode: duel, team or solo (not {mode!r})."]
        if mode != "duel":
            options["mode"] = mode
        if players and players not in MODES[mode]:
            errors.append(f"{MODE_WORDS[mode]}; you entered {players} email address"
                          f"{'es' if players != 1 else ''}.")
        if mode == "duel":
            guilds = (data.get("guilds") or "").strip()
            if guilds:
                options["guilds"] = guilds
        if mode == "solo":
            self._solo_options(data, options, errors)
        options.update(typed)
        return options, errors

    def _solo_options(self, data: FormData, options: dict[str, Any], errors: list[str]) -> None:
        stars = {}
        for number in ("5", "6", "7"):
            value = (data.get(f"stars{number}") or "").strip()
            if value:
                if value not in ("1", "2", "3", "4"):
                    errors.append(f"The challenge level of the {number}s must be 1 to 4 stars.")
                else:
                    stars[number] = int(value)
        if stars:
            options["stars"] = stars
        and_number = (data.get("and_number") or "").strip()
        if and_number:
            end = (data.get("and_end") or "A").strip()
            if and_number not in ("5", "6", "7") or end not in ("A", "B"):
                errors.append("The & card goes on the 5s, 6s or 7s, with end A or B.")
            else:
                options["and"] = {"number": int(and_number), "end": end}
        # The trainer's 4 guilds (rules §11: the player's choice among the 14 not kept): chosen
        # after the keep (the default, left out of the options), at random, or the 4 ticked.
        how = (data.get("trainer") or "").strip()
        chosen = [g for g in self.guilds() if data.get(f"trainer_{g}")]
        if how not in ("", "choose", "random", "named"):
            errors.append("Choose how the trainer gets its guilds: after your keep, at random, or the 4 ticked.")
        elif how == "random" and chosen:
            errors.append(f"You ticked {len(chosen)} guild{'s' if len(chosen) != 1 else ''} for the "
                          f"trainer but chose a random 4: choose \u201cthe 4 ticked\u201d, or untick them.")
        elif how == "random":
            options["trainer_guilds"] = "random"
        elif chosen or how == "named":
            # Ticked guilds name the trainer's 4 unless a random 4 was chosen.
            if len(chosen) != 4:
                errors.append(f"Tick exactly 4 guilds for the trainer (you ticked {len(chosen)}), or "
                              f"choose its guilds after your keep.")
            else:
                options["trainer_guilds"] = chosen

    def first_step(self, move: Mapping[str, Any]) -> tuple[tuple[str, Any], ...]:
        """Solo's guilds for the trainer are each a choice of their own (an email links each one by
        its name, "Give Acid to the trainer"), not one "Give…" step."""
        if move.get("type") == "give":
            return (("type", "give"), ("guild", move.get("guild")))
        return super().first_step(move)

    def result_words(self, result: Mapping[str, Any] | None, names: Mapping[int, str]) -> str:
        if result and not result.get("winners") and isinstance(result.get("trainer"), int):
            # Solo: the automatic trainer holds no seat, so it is never among the winners.
            mine = max(result.get("scores", {}).values(), default=0)
            return f"The trainer won, {result['trainer']} to {mine}."
        return super().result_words(result, names)

    def board_words(self, view: Mapping[str, Any]) -> dict[str, Any]:
        """What the board template words from the engine (engine/riftforce/words.py): each guild's
        letters, what the seat to act is asked, and, given the template's `names`, players named
        ("You" for the viewer), team play's initials on cards and the last action."""
        v = dict(view)
        mode = None if v["mode"] == "duel" else v["mode"]
        return {
            "letters": words.GUILD_LETTERS,
            "asked": words.asked_words(v),
            "label": lambda seat, names=None: words.named(seat, v["seat"], mode, names),
            "tags": lambda names=None: words.name_tags(len(v["players"]), names),
            "last_words": lambda names=None: words.last_words(v, names or {}),
            # Solo: how the trainer's guilds are decided after the keep (the start option).
            "trainer_rule": words.trainer_rule(v["options"].get("trainer_guilds", "choose"), v["seat"])
            if mode == "solo" else None,
        }

    view_has_hand = True

    def chart_target(self, view: Mapping[str, Any]) -> float | None:
        return view.get("target")  # the Riftforce that triggers the end


ADAPTER = Riftforce("riftforce", board_template="games/riftforce/board.html")
