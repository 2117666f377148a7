"""Parser of the enemy activation table grammar (rules file section 2.9).

A cell such as ``"Support Orc Archer and all Orc Archer: Disengage / Orc: Attack"`` becomes a list of
steps ``[{"do": action, "else": action | None}]``; an action is ``{"and": [part, ...]}``; a part is one
keyword dict (``{"op": "support", "type": "O2"}`` ...).  Names are resolved to enemy type ids or family
names here, so a typo in the content pack fails at load time, not in the middle of a game.
"""

from __future__ import annotations

import re


class ActivationError(ValueError):
    pass


_PRIORITIES = {"most cards in hand": "most_cards", "most ap": "most_ap", "fewest cards in hand": "fewest_cards",
               "most wounds": "most_wounds"}


def _resolve_type(text: str, names: dict[str, str], families: list[str]) -> str:
    """An enemy name ("Orc Archer") -> its type id; a family ("Cultist") -> "family:cultist"."""
    key = text.strip().lower()
    if key in names:
        return names[key]
    fam = key[:-1] if key.endswith("s") and key[:-1] in families else key
    if fam in families:
        return "family:" + fam
    raise ActivationError(f"unknown enemy type or family {text!r}")


def parse_part(text: str, names: dict[str, str], families: list[str]) -> dict:
    t = text.strip()
    low = t.lower()
    m = re.match(r"^all (.+?):\s*(.+)$", t, re.I)
    if m:
        typ = _resolve_type(m.group(1), names, families)
        if typ.startswith("family:"):
            raise ActivationError(f"'all' needs an enemy name, not a family: {t!r}")
        return {"op": "all_named", "type": typ, "act": parse_part(m.group(2), names, families)}
    m = re.match(r"^(\w+):\s*(.+)$", t)
    if m and m.group(1).lower() in families:
        return {"op": "family", "family": m.group(1).lower(), "act": parse_part(m.group(2), names, families)}
    m = re.match(r"^(attack|engage)(?:\s*\((.+)\))?$", low)
    if m:
        part = {"op": m.group(1)}
        if m.group(2):
            if m.group(2).strip() not in _PRIORITIES:
                raise ActivationError(f"unknown target priority {m.group(2)!r}")
            part["priority"] = _PRIORITIES[m.group(2).strip()]
        return part
    if low == "disengage":
        return {"op": "disengage"}
    if low == "re-engage":
        return {"op": "reengage"}
    if low == "poison":
        return {"op": "poison"}
    if low == "nothing":
        return {"op": "nothing"}
    m = re.match(r"^(intimidate|obstruct)\s+(\d+)$", low)
    if m:
        return {"op": m.group(1), "n": int(m.group(2))}
    m = re.match(r"^(summon|support)\s+(.+)$", t, re.I)
    if m:
        typ = _resolve_type(m.group(2), names, families)
        if m.group(1).lower() == "summon" and typ.startswith("family:"):
            raise ActivationError(f"summon needs an enemy name: {t!r}")
        return {"op": m.group(1).lower(), "type": typ}
    m = re.match(r"^heal\s+(.+)\s+(\d+)$", t, re.I)
    if m:
        return {"op": "heal", "type": _resolve_type(m.group(1), names, families), "n": int(m.group(2))}
    raise ActivationError(f"cannot read activation step {t!r}")


def parse_action(text: str, names: dict[str, str], families: list[str]) -> dict:
    return {"and": [parse_part(p, names, families) for p in re.split(r"\s+and\s+", text.strip())]}


def parse_cell(cell: str, names: dict[str, str], families: list[str]) -> list[dict]:
    steps = []
    for raw in cell.split(";"):
        alts = raw.split(" / ")
        if len(alts) > 2 or not raw.strip():
            raise ActivationError(f"bad activation step {raw!r}")
        steps.append({"text": raw.strip(), "do": parse_action(alts[0], names, families),
                      "else": parse_action(alts[1], names, families) if len(alts) == 2 else None})
    return steps


# H5: a type the table does not list (a summon, say) uses this row in every column.
DEFAULT_ROW = "Attack / Engage"
