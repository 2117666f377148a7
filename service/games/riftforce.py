"""Riftforce in the service: the start form's mode and difficulty, and the words for a solo result."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.messages import Message, msg
from engine.riftforce import messages, words
from engine.riftforce.messages import summary_message
from service import lang
from service.games import riftforce_text
from service.games.base import Adapter, FormData, GameCatalog, Mode
from service.games.riftforce_catalog import CATALOG
from service.games.riftforce_tiles import Tiles
from service.lang import N_, Nf_, Nn_

MODES = {"duel": (2,), "team": (3, 4), "solo": (1,)}


def count_error(mode: str, players: int) -> lang.Words:
    """A mode's player count against the addresses entered, as the start form's error says it (a
    `lang.Words`: worded in the reader's language where it is shown, issue #26)."""
    if mode == "team":
        return Nn_("Team play is for 3 or 4 players; you entered %(num)d email address.",
                   "Team play is for 3 or 4 players; you entered %(num)d email addresses.", players)
    if mode == "solo":
        return Nn_("Solo against the trainer is for 1 player; you entered %(num)d email address.",
                   "Solo against the trainer is for 1 player; you entered %(num)d email addresses.", players)
    return Nn_("The duel is for 2 players; you entered %(num)d email address.",
               "The duel is for 2 players; you entered %(num)d email addresses.", players)


class Riftforce(Adapter):
    listing_order = 1
    summary = N_("Elementals of four guilds fight over a row of rift locations: destroy your opponent's, hold "
                 "locations, and be first to 12 Riftforce.")
    rules_template = "games/riftforce/rules.html"
    catalog: GameCatalog | None = CATALOG
    free_options = False  # every option has a field of its own
    solo_against = N_("the trainer")  # solo play: the automatic trainer holds no seat
    form_template = "games/riftforce/_form.html"
    cli_help = ("Riftforce: --option mode=team (3-4 addresses; seats 1 and 3 are one team, 2 and 4 the "
                "other), --option mode=solo (1 address) with --option stars.5=2 --option stars.6=1 "
                "--option stars.7=1 --option and.number=6 --option and.end=A --option "
                "trainer_guilds=random (or 4 guilds such as fire,water,ice,plant; left out, or choose: "
                "you choose the trainer's 4 after your keep).")

    def modes(self) -> list[Mode]:
        return [
            Mode("duel", N_("Duel"), MODES["duel"], N_("One against one over 5 locations, 4 guilds each."),
                 N_("Riftforce duel")),
            Mode("team", N_("Team play"), MODES["team"],
                 N_("Two teams over 6 locations, a shared score; with 3 players one plays alone against a pair."),
                 N_("Riftforce team play")),
            Mode("solo", N_("Solo"), MODES["solo"], N_("You against the trainer, whose bots follow a face-up plan."),
                 N_("Riftforce solo")),
        ]

    def teams_of(self, options: Mapping[str, Any], players: int) -> list[list[int]]:
        # The engine's own teams (engine/riftforce/game.py `teams`), which read only these two facts.
        return self.rules.teams({"mode": options.get("mode") or "duel", "players": players})

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
            return {}, [Nf_("Choose a Riftforce mode: duel, team or solo (not %(mode)s).", mode=repr(mode))]
        if mode != "duel":
            options["mode"] = mode
        if players and players not in MODES[mode]:
            errors.append(count_error(mode, players))
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
                    errors.append(Nf_("The challenge level of the %(number)ss must be 1 to 4 stars.", number=number))
                else:
                    stars[number] = int(value)
        if stars:
            options["stars"] = stars
        and_number = (data.get("and_number") or "").strip()
        if and_number:
            end = (data.get("and_end") or "A").strip()
            if and_number not in ("5", "6", "7") or end not in ("A", "B"):
                errors.append(N_("The & card goes on the 5s, 6s or 7s, with end A or B."))
            else:
                options["and"] = {"number": int(and_number), "end": end}
        # The trainer's 4 guilds (rules §11: the player's choice among the 14 not kept): chosen
        # after the keep (the default, left out of the options), at random, or the 4 ticked.
        how = (data.get("trainer") or "").strip()
        chosen = [g for g in self.guilds() if data.get(f"trainer_{g}")]
        if how not in ("", "choose", "random", "named"):
            errors.append(N_("Choose how the trainer gets its guilds: after your keep, at random, or the 4 ticked."))
        elif how == "random" and chosen:
            errors.append(Nn_("You ticked %(num)d guild for the trainer but chose a random 4: choose \u201cthe 4 "
                              "ticked\u201d, or untick them.",
                              "You ticked %(num)d guilds for the trainer but chose a random 4: choose \u201cthe 4 "
                              "ticked\u201d, or untick them.", len(chosen)))
        elif how == "random":
            options["trainer_guilds"] = "random"
        elif chosen or how == "named":
            # Ticked guilds name the trainer's 4 unless a random 4 was chosen.
            if len(chosen) != 4:
                errors.append(Nf_("Tick exactly 4 guilds for the trainer (you ticked %(num)d), or choose its "
                                  "guilds after your keep.", num=len(chosen)))
            else:
                options["trainer_guilds"] = chosen

    def first_step(self, move: Mapping[str, Any]) -> tuple[tuple[str, Any], ...]:
        """Each summoner (guild) on offer in the draft, and solo's guilds for the trainer, is a choice of
        its own (an email links each one by its name, "Pick Fire", "Give Acid to the trainer"), not one
        "Pick…" or "Give…" step."""
        if move.get("type") in ("pick", "give"):
            return (("type", move.get("type")), ("guild", move.get("guild")))
        return super().first_step(move)

    def result_words(self, result: Mapping[str, Any] | None, names: Mapping[int, str], viewer: int | None = None,
                     language: str = lang.ENGLISH, why: str | None = None) -> str:
        if result and not result.get("winners") and isinstance(result.get("trainer"), int):
            # Solo: the automatic trainer holds no seat, so it is never among the winners.
            mine = max(result.get("scores", {}).values(), default=0)
            return lang.translations(language).gettext("The trainer won, %(trainer)s to %(mine)s.") % {
                "trainer": result["trainer"], "mine": mine}
        return super().result_words(result, names, viewer, language, why)

    def board_words(self, view: Mapping[str, Any]) -> dict[str, Any]:
        """What the board template words from the engine, as messages for its `words` (the reader's
        language): what the seat to act is asked, the last action, solo's rule for the trainer's guilds
        (the start option); `message_of` reads a message the view carries as JSON (a plan card's), `damage`
        makes a card's damage one; `tags`, given the template's `names`, team play's initials on cards."""
        v = dict(view)
        last = v.get("last_message")
        return {
            "asked_message": messages.asked_message(v),
            "last_message": Message.from_json(last) if last else None,
            "message_of": Message.from_json,
            "damage": messages.damage,
            "card_tiles": Tiles,  # the cards and guild chips (templates/games/riftforce/_parts.html)
            "trainer_name": msg("trainer"),
            "tags": lambda names=None: words.name_tags(len(v["players"]), names),
            "trainer_message": messages.trainer_rule(v["options"].get("trainer_guilds", "choose"))
            if v["mode"] == "solo" else None,
        }

    view_has_hand = True
    board_translated = True

    def text_board(self, view: Mapping[str, Any], words: Any) -> str | None:
        return riftforce_text.render(dict(view), words, words.names)

    # ---- what happened since ---------------------------------------------------------------------
    # What an action did besides the cards it names: an ability's damage, moves, captures, a destroyed
    # elemental and its points (a Check's points are in its summary).
    EFFECTS = frozenset({"damage", "heal", "move", "destroyed", "captured"})

    def doer(self, event: Mapping[str, Any], actor: int, state: Mapping[str, Any] | None) -> int | None:
        """Solo: the trainer's plan, carried out after the player's action (from its `plan` event to its
        `plan_end`, the player's answers to the plan's questions included), is the trainer's doing."""
        if state is not None and state.get("mode") == "solo" and (
                event.get("type") == "plan" or state.get("plan") is not None):
            return None
        return actor

    def weight(self, event: Mapping[str, Any]) -> int:
        """A destroyed or captured elemental, points and the end are news."""
        return 2 if event.get("type") in ("destroyed", "captured", "score", "game_over") else 1

    def note(self, event: Mapping[str, Any], state: Mapping[str, Any] | None, viewer: int | None,
             names: Mapping[int, str]) -> Any:
        """The whole action in a sentence, from the public summary that closes it (the view's last
        action): every card of a Play, what an Activate discarded and activated, what a Check scored
        and drew; with the action's kind."""
        if event.get("type") != "action_end" or state is None:
            return None
        return {"action": event["summary"]["action"], "message": summary_message(event["summary"], dict(state))}

    def headline(self, run: Sequence[Any], viewer: int | None) -> list[str | Message] | None:
        """An action: its summary (a message, worded by the caller) and what it did ("Ana discarded Ice 7
        and activated Ice 5.", "Ana's Ice 5 dealt 3 damage to your Fire 6.", ...); the trainer's plan: the
        plan and what its bots did."""
        action = next((event.note for event in run if event.note), None)
        if action is not None:
            # A Check's points are in its summary; any other action's points are for a destroyed enemy.
            effects = self.EFFECTS | ({"score"} if action["action"] != "check" else set())
            return [action["message"], *(event.text for event in run if event.text and event.type in effects)]
        if any(event.type == "plan" for event in run):
            # What the trainer's bots did first (what it destroyed and scored, then damage, then the bots
            # it placed and that acted), the plan they followed last.
            order = {"destroyed": 0, "captured": 0, "score": 0, "damage": 1, "move": 1, "heal": 1, "enter": 2,
                     "activated": 2, "plan": 3}
            told = [event for event in run if event.text and event.type in order]
            return [str(event.text) for event in sorted(told, key=lambda event: order[event.type])]
        return None


ADAPTER = Riftforce("riftforce", board_template="games/riftforce/board.html")
