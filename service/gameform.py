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


def parse_options(lines: list[str]) -> tuple[dict, list[str]]:
    """KEY=VALUE pairs; values that look like JSON scalars (numbers, true/false) become them."""
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
            options[key] = parsed if isinstance(parsed, (int, float, bool)) else value
        except ValueError:
            options[key] = value
    return options, errors


def parse_form(data) -> tuple[GameForm, list[str]]:
    form = GameForm(
        game=(data.get("game") or "").strip(),
        names=[(data.get(f"name{i}") or "").strip()[:80] for i in range(MAX_PLAYERS_IN_FORM)],
        emails=[(data.get(f"email{i}") or "").strip()[:254] for i in range(MAX_PLAYERS_IN_FORM)],
        options_text=(data.get("options") or "")[:2000],
        seed_text=(data.get("seed") or "").strip(),
    )
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
    if form.seed_text:
        try:
            form.seed = int(form.seed_text)
            if not 0 <= form.seed < 2**63:
                raise ValueError
        except ValueError:
            errors.append("The seed must be a whole number (or empty for a random one).")
    return form, errors
