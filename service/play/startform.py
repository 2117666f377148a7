"""Starting a game from what people type: the web form, and the command line's addresses and options.
Plain data in, a list of human messages out; nothing here touches the database.  What differs per
game (a fieldset, option shorthands) is the game's adapter's (service/games)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from service import jsontext
from service.clocks.settings import parse_settings
from service.errors import Invalid
from service.games import Adapter, FormData, adapter, every
from service.lang import N_, Nf_, Nn_, Words
from service.names import name_problem
from service.play import bots

MAX_PLAYERS_IN_FORM = 4


@dataclass
class GameForm:
    game: str = ""  # the engine name chosen
    mode: str = ""  # the game's mode as the form shows it (its adapter's Mode.name; "" for its default)
    names: list[str] = field(default_factory=lambda: [""] * MAX_PLAYERS_IN_FORM)
    emails: list[str] = field(default_factory=lambda: [""] * MAX_PLAYERS_IN_FORM)
    # A row filled from the signed-in person's address book (service/people/address_book.py): its
    # reference, shown in the form instead of the address (which the browser never gets).
    refs: list[str] = field(default_factory=lambda: [""] * MAX_PLAYERS_IN_FORM)
    options_text: str = ""
    players: list[tuple[str, str]] = field(default_factory=list)
    options: dict[str, Any] = field(default_factory=dict)
    # No seed: the deal of a game started here comes from a secret drawn for it (service/store/deal.py),
    # never from anything typed here (a seed field once let a creator compute every hand).
    # Each game's fieldset as submitted (game -> field name -> text), to show it again after a mistake.
    fieldsets: dict[str, dict[str, str]] = field(default_factory=dict)
    # Time control (service/clocks): hours per turn ("" for none) and the timeout policy.
    deadline_text: str = "72"  # what the form offers
    policy: str = "auto"
    deadline_hours: int | None = None
    reminders: list[int] = field(default_factory=lambda: [24, 2])

    def fields(self, game: str) -> dict[str, str]:
        return self.fieldsets.get(game, {})

    def rows(self, counts: tuple[int, ...]) -> int:
        """How many player rows the form shows for a mode taking `counts` players: as many as it
        takes at most, and any row typed in beyond them (kept after a change of mode, to be seen)."""
        typed = [row for row in range(MAX_PLAYERS_IN_FORM) if self.names[row] or self.emails[row] or self.refs[row]]
        return min(MAX_PLAYERS_IN_FORM, max([max(counts), *(row + 1 for row in typed)]))


def parse_options(lines: list[str]) -> tuple[dict[str, Any], list[str]]:
    """KEY=VALUE pairs; values that look like JSON scalars (numbers, true/false), objects or arrays
    become them (`stars={"5": 2}`, `heroes=["brannoc"]`); anything else stays a string.  A dotted
    key fills a nested object, which spares shell quoting: `stars.5=2 and.end=A`."""
    options: dict[str, Any] = {}
    errors: list[str] = []
    for line in lines:
        line = line.strip()
        if not line:
            continue
        key, sep, value = line.partition("=")
        key = key.strip()
        if not sep or not key:
            errors.append(Nf_("Option %(line)s is not KEY=VALUE.", line=repr(line)))
            continue
        value = value.strip()
        try:
            parsed = jsontext.loads(value)
            if not isinstance(parsed, (int, float, bool, dict, list)):
                parsed = value
        except ValueError:
            parsed = value
        *path, last = key.split(".")
        if not last or any(not part for part in path):
            errors.append(Nf_("Option %(line)s has an empty part in its key.", line=repr(line)))
            continue
        target = options
        for part in path:
            if not isinstance(target.get(part), dict):
                target[part] = {}
            target = target[part]
        target[last] = parsed
    return options, errors


def parse_players(items: list[str]) -> list[tuple[str, str]]:
    """Command-line addresses, each EMAIL or NAME=EMAIL, in seat order; raises Invalid naming a bad one."""
    players = []
    for item in items:
        name, sep, email = item.rpartition("=")
        problem = name_problem(name) if sep else None
        if problem:
            raise Invalid(problem)
        players.append((name.strip() if sep else "", bots.seat_address(email.strip())))
    repeated = repeated_addresses([email for _, email in players])
    if repeated:
        raise Invalid(" ".join(repeated))
    return players


def repeated_addresses(emails: list[str]) -> list[str]:
    """One message per address given for more than one player (compared without case: one inbox).
    `emails` by player as numbered where they were typed (the form's rows, the command line's
    order), "" where none was given."""
    rows: dict[str, list[int]] = {}
    for row, email in enumerate(emails):
        if email and not bots.is_seat(email):  # any number of bots may play
            rows.setdefault(email.casefold(), []).append(row)
    return [
        Nf_("%(email)s is entered for players %(players)s; each player needs an address of their own.",
            email=emails[found[0]], players=_and(found))
        for found in rows.values() if len(found) > 1
    ]


def _and(rows: list[int]) -> Words:
    """"1 and 2", "1, 2 and 3": the players' numbers as a list in the reader's language (a `Words` of
    `Words`, each worded where the message is shown: "1、2和3")."""
    numbers = [str(row + 1) for row in rows]
    listed = numbers[0]
    for number in numbers[1:-1]:
        listed = Nf_("%(list)s, %(next)s", list=listed, next=number)
    return Nf_("%(list)s and %(last)s", list=listed, last=numbers[-1])


def _count_words(adapter: Adapter, entered: int) -> Words | None:
    """The game's player count against the addresses entered (None when it fits)."""
    rules = adapter.rules
    if rules.min_players <= entered <= rules.max_players:
        return None
    game = rules.title or rules.name
    if rules.min_players == rules.max_players:
        return Nn_("%(game)s needs %(wanted)d players; you entered %(num)d email address.",
                   "%(game)s needs %(wanted)d players; you entered %(num)d email addresses.",
                   entered, game=game, wanted=rules.min_players)
    return Nn_("%(game)s needs %(low)d to %(high)d players; you entered %(num)d email address.",
               "%(game)s needs %(low)d to %(high)d players; you entered %(num)d email addresses.",
               entered, game=game, low=rules.min_players, high=rules.max_players)


def parse_form(data: FormData) -> tuple[GameForm, list[str]]:
    form = GameForm(
        game=(data.get("game") or "").strip(),
        names=[(data.get(f"name{i}") or "").strip()[:80] for i in range(MAX_PLAYERS_IN_FORM)],
        emails=[(data.get(f"email{i}") or "").strip()[:254] for i in range(MAX_PLAYERS_IN_FORM)],
        options_text=(data.get("options") or "")[:2000],
        mode=(data.get("mode") or "").strip()[:20],
    )
    for each in every():  # every fieldset as submitted, shown again after a mistake
        form.fieldsets[each.name] = {key: (data.get(key) or "").strip()[:40] for key in each.form_fields
                                     if data.get(key)}
    try:
        chosen: Adapter | None = adapter(form.game)
    except KeyError:  # engine.UnknownGame: said when the game is started
        chosen = None
    errors = []
    # Say only what is wrong: a mistyped address is one mistake, so the player count is checked
    # against every address entered (a bad one still names a player), not only the good ones.
    entered = 0
    normal = [""] * len(form.emails)  # each row's address as stored, "" where none or a bad one
    for row, (name, email) in enumerate(zip(form.names, form.emails)):
        # A name goes into every email of the game, to the other players too: only what can be shown
        # as typed (service/names.py), so nobody's name carries a link.
        problem = name_problem(name)
        if problem:
            errors.append(problem)
        if not email:
            if name:
                errors.append(Nf_("%(name)s needs an email address.", name=name))
            continue
        entered += 1
        try:
            normal[row] = bots.seat_address(email)  # `bot` / `bot:LEVEL`: a bot seat
        except Invalid as exc:
            errors.append(exc.message)
            continue
        form.players.append((name, normal[row]))
    if not entered:
        errors.append(N_("Enter at least one player's email address."))
    errors += repeated_addresses(normal)
    if chosen is not None and entered:
        count_error = _count_words(chosen, entered)
        if count_error:
            errors.append(count_error)
    form.options, option_errors = parse_options(form.options_text.splitlines())
    errors += option_errors
    if chosen is not None and not option_errors:
        form.options, game_errors = chosen.form_options(data, chosen.cli_options(form.options), entered)
        errors += game_errors
    form.deadline_text = (data.get("deadline") or "").strip()[:10]
    form.policy = (data.get("policy") or "auto").strip()[:20]
    try:
        form.deadline_hours, form.policy, form.reminders = parse_settings(form.deadline_text, form.policy, None)
    except Invalid as exc:
        errors.append(exc.message)  # (marked: the page says it in its reader's language)
    return form, errors
