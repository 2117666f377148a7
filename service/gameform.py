"""The "start a game" form: parsing and validation, shared by the web form (the CLI has its own
options).  Plain data in, a list of human messages out; nothing here touches the database."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

MAX_PLAYERS_IN_FORM = 4
# Deliberately simple: one @, no spaces, a dot in the domain or "localhost".
EMAIL = re.compile(r"^[^@\s<>,;]+@([^@\s<>,;.]+\.)*[^@\s<>,;.]+$")


@dataclass
class GameForm:
    game: str = "riftforce"
    names: list[str] = field(default_factory=lambda: [""] * MAX_PLAYERS_IN_FORM)
    emails: list[str] = field(default_factory=lambda: [""] * MAX_PLAYERS_IN_FORM)
    options_text: str = ""
    seed_text: str = ""
    players: list[tuple[str, str]] = field(default_factory=list)
    options: dict = field(default_factory=dict)
    seed: int | None = None
    # The Riftforce fieldset as submitted (field name -> text), to show it again after a mistake.
    riftforce: dict = field(default_factory=dict)
    # The Beyond the Rift fieldset as submitted (field name -> text), likewise.
    beyond: dict = field(default_factory=dict)
    # Time control (service/deadlines.py): hours per turn ("" for none) and the timeout policy.
    deadline_text: str = "72"
    policy: str = "auto"
    deadline_hours: int | None = None
    reminders: list[int] = field(default_factory=lambda: [24, 2])

    def riftforce_guild_list(self) -> list[str]:
        return riftforce_guilds()

    def beyond_choices(self) -> dict:
        return beyond_choices()


def parse_options(lines: list[str]) -> tuple[dict, list[str]]:
    """KEY=VALUE pairs; values that look like JSON scalars (numbers, true/false), objects or arrays
    become them (`stars={"5": 2}`, `heroes=["brannoc"]`); anything else stays a string.  A dotted
    key fills a nested object, which spares shell quoting: `stars.5=2 and.end=A`."""
    import json

    options, errors = {}, []
    for line in lines:
        line = line.strip()
        if not line:
            continue
        key, sep, value = line.partition("=")
        key = key.strip()
        if not sep or not key:
            errors.append(f"Option {line!r} is not KEY=VALUE.")
            continue
        value = value.strip()
        try:
            parsed = json.loads(value)
            if not isinstance(parsed, (int, float, bool, dict, list)):
                parsed = value
        except ValueError:
            parsed = value
        *path, last = key.split(".")
        if not last or any(not part for part in path):
            errors.append(f"Option {line!r} has an empty part in its key.")
            continue
        target = options
        for part in path:
            if not isinstance(target.get(part), dict):
                target[part] = {}
            target = target[part]
        target[last] = parsed
    return options, errors


# Riftforce's modes (engine/riftforce, VIEW.md): the form's own fields, and shorthands the CLI and
# the options box accept, turned into the engine's options.  The engine still validates them.
RIFTFORCE_MODES = {"duel": (2,), "team": (3, 4), "solo": (1,)}
RIFTFORCE_MODE_WORDS = {"duel": "The duel is for 2 players", "team": "Team play is for 3 or 4 players",
                        "solo": "Solo against the trainer is for 1 player"}


RIFTFORCE_FIELDS = ("mode", "guilds", "stars5", "stars6", "stars7", "and_number", "and_end")


def riftforce_guilds() -> list[str]:
    from engine.riftforce.cards import ALL_GUILDS

    return list(ALL_GUILDS)


def riftforce_shorthands(options: dict) -> dict:
    """`trainer_guilds=fire,water,ice,plant` (a comma list) or `trainer_guilds=random`, and
    `and=none`: the spellings a person types, as the engine's JSON values."""
    options = dict(options)
    guilds = options.get("trainer_guilds")
    if isinstance(guilds, str):
        if guilds.strip().lower() in ("", "random"):
            del options["trainer_guilds"]
        else:
            options["trainer_guilds"] = [g.strip().lower() for g in guilds.split(",") if g.strip()]
    if isinstance(options.get("and"), str) and options["and"].strip().lower() in ("", "none", "no"):
        options["and"] = None
    return options


def riftforce_form_options(data, typed: dict, players: int) -> tuple[dict, list[str]]:
    """The Riftforce fieldset of the start form as options (the options box wins where it sets the
    same key), and the mistakes a person should hear about before the engine is asked."""
    options, errors = {}, []
    mode = typed.get("mode") or (data.get("mode") or "").strip() or "duel"
    if not isinstance(mode, str) or mode not in RIFTFORCE_MODES:
        return {}, [f"Choose a Riftforce mode: duel, team or solo (not {mode!r})."]
    if mode != "duel":
        options["mode"] = mode
    if players and players not in RIFTFORCE_MODES[mode]:
        errors.append(f"{RIFTFORCE_MODE_WORDS[mode]}; you entered {players} email address"
                      f"{'es' if players != 1 else ''}.")
    if mode == "duel":
        guilds = (data.get("guilds") or "").strip()
        if guilds:
            options["guilds"] = guilds
    if mode == "solo":
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
        chosen = [g for g in riftforce_guilds() if data.get(f"trainer_{g}")]
        if chosen:
            if len(chosen) != 4:
                errors.append(f"Choose exactly 4 guilds for the trainer, or none for a random 4 "
                              f"(you chose {len(chosen)}).")
            else:
                options["trainer_guilds"] = chosen
    options.update(typed)
    return options, errors


# Beyond the Rift (engine/beyond_the_rift): the scenario and a hero per seat.  The engine checks the
# combination (a campaign scenario needs the one before it won; no hero twice) and says what is wrong.
BEYOND_FIELDS = ("btr_scenario",) + tuple(f"btr_hero{i}" for i in range(MAX_PLAYERS_IN_FORM))


def beyond_choices() -> dict:
    """{"scenarios": [(id, title)], "heroes": [(id, name)]} from the content pack."""
    from engine.beyond_the_rift.content import CONTENT

    return {
        "scenarios": [(sid, sc.get("title", sid)) for sid, sc in CONTENT.scenarios.items()],
        "heroes": [(hid, CONTENT.board(hid, "standard")["name"]) for hid in CONTENT.hero_ids],
    }


def beyond_shorthands(options: dict) -> dict:
    """`heroes=brannoc,osric` (a comma list, as typed on a command line) as the engine's JSON list."""
    options = dict(options)
    if isinstance(options.get("heroes"), str):
        options["heroes"] = [h.strip().lower() for h in options["heroes"].split(",") if h.strip()]
    return options


def beyond_form_options(data, typed: dict, players: int) -> tuple[dict, list[str]]:
    """The Beyond the Rift fieldset as options (the options box wins where it sets the same key)."""
    options, errors = {}, []
    scenario = (data.get("btr_scenario") or "").strip()
    if scenario:
        options["scenario"] = scenario
    heroes = [(data.get(f"btr_hero{i}") or "").strip().lower() for i in range(MAX_PLAYERS_IN_FORM)]
    chosen = [h for h in heroes[:players] if h]
    if chosen and "heroes" not in typed:
        if len(chosen) != players or any(heroes[players:]):
            errors.append(f"Beyond the Rift: choose the heroes of all {players} players in seat order, "
                          f"or none for the usual party.")
        else:
            options["heroes"] = chosen
    options.update(typed)
    return options, errors


def parse_form(data) -> tuple[GameForm, list[str]]:
    form = GameForm(
        game=(data.get("game") or "").strip(),
        names=[(data.get(f"name{i}") or "").strip()[:80] for i in range(MAX_PLAYERS_IN_FORM)],
        emails=[(data.get(f"email{i}") or "").strip()[:254] for i in range(MAX_PLAYERS_IN_FORM)],
        options_text=(data.get("options") or "")[:2000],
        seed_text=(data.get("seed") or "").strip(),
    )
    form.riftforce = {
        key: (data.get(key) or "").strip()[:20]
        for key in RIFTFORCE_FIELDS + tuple(f"trainer_{g}" for g in riftforce_guilds())
        if data.get(key)
    }
    form.beyond = {key: (data.get(key) or "").strip()[:40] for key in BEYOND_FIELDS if data.get(key)}
    errors = []
    for name, email in zip(form.names, form.emails):
        if not email:
            if name:
                errors.append(f"{name} needs an email address.")
            continue
        if not EMAIL.match(email):
            errors.append(f"{email!r} is not an email address.")
            continue
        form.players.append((name, email))
    if not form.players:
        errors.append("Enter at least one player's email address.")
    form.options, option_errors = parse_options(form.options_text.splitlines())
    errors += option_errors
    if form.game == "riftforce" and not option_errors:
        form.options, mode_errors = riftforce_form_options(
            data, riftforce_shorthands(form.options), len(form.players))
        errors += mode_errors
    if form.game == "beyond-the-rift" and not option_errors:
        form.options, beyond_errors = beyond_form_options(data, beyond_shorthands(form.options), len(form.players))
        errors += beyond_errors
    form.deadline_text = (data.get("deadline") or "").strip()[:10]
    form.policy = (data.get("policy") or "auto").strip()[:20]
    from service.deadlines import DeadlineError, parse_settings

    try:
        form.deadline_hours, form.policy, form.reminders = parse_settings(form.deadline_text, form.policy, None)
    except DeadlineError as exc:
        errors.append(str(exc))
    if form.seed_text:
        try:
            form.seed = int(form.seed_text)
            if not 0 <= form.seed < 2**63:
                raise ValueError
        except ValueError:
            errors.append("The seed must be a whole number (or empty for a random one).")
    return form, errors
