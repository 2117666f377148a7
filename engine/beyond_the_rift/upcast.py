"""Events of rules versions 1 and 2, in the shape version 3 writes (the contract's `upcast`).

Versions 1 and 2 wrote display names into events so sentences could be made without the state: `who`,
`enemy_name`, `to_name`, `hero_name`, `area_name`, `door_name`, `terrain_name`, `target_name`, a terrain's
or board action's `name`, an activation step's `text`, a `note`'s `text` and the result's `reason` as a
sentence.  Version 3 keeps facts only and words.py names things from the state, which reads the same:

* the prose fields are dropped;
* `enemy_step` names its step by its place in the activation table (`col` 1-4, `step` index in the cell)
  instead of its text;
* `note` says `why` (its old `text` was already a key);
* a result's `reason` becomes a code (primitives.end); a hero's death names the hero by id (`hero`), as
  the event does not know the seat: evolve turns it into the seat (`seat`) when it applies the result;
* version 1's `enemy_tmp` (a temporary modifier of an enemy) is version 2's `stat_mod`.

Setup states of older versions are brought up to date when applied (evolve._upgrade).
"""

from __future__ import annotations

import re

from .content import CONTENT

OLD = ("1", "2")
PROSE = frozenset(("who", "enemy_name", "to_name", "hero_name", "area_name", "door_name", "terrain_name",
                   "target_name"))
NAMED = ("terrain_in", "terrain_out", "board_action")  # their `name` was a display name too


def _steps() -> dict[tuple[str, str], tuple[int, int]]:
    """(enemy type, step text) -> (column, step index): the first place the text stands in that type's
    rows, over every scenario.  Words read the text back from the game's own scenario at that place, which
    is the same text wherever it stands (tests/engine/beyond_the_rift/test_btr_upcast.py checks it)."""
    out: dict[tuple[str, str], tuple[int, int]] = {}
    for sc in CONTENT.scenarios.values():
        for typ, cells in sc["rows"]:
            for col, cell in enumerate(cells, 1):
                for i, step in enumerate(cell):
                    out.setdefault((typ, step["text"]), (col, i))
    return out


STEPS = _steps()
HERO_NAMES = {b["name"]: b["hero"] for b in CONTENT.boards.values()}
_FIXED = {"the Response deck ran out": "response_deck", "the Wound supply ran out": "wound_supply",
          "the way out is open": "way_out_open", "the road is clear": "road_clear"}


def reason_code(text: str) -> dict:
    """An old result's reason sentence as the code (and facts) version 3 writes."""
    if text in _FIXED:
        return {"reason": _FIXED[text]}
    if re.fullmatch(r"Threat reached \d+", text):
        return {"reason": "threat"}
    died = re.fullmatch(r"(.+) died", text)
    if died and died.group(1) in HERO_NAMES:
        return {"reason": "hero_died", "hero": HERO_NAMES[died.group(1)]}
    if text.endswith(" is defeated"):
        return {"reason": "boss_defeated"}
    return {"reason": text}  # unknown: kept, and words.reason says it as it is


def upcast(ev: dict, rules_version: str) -> dict:
    if rules_version not in OLD:
        return ev
    t = ev["type"]
    out = {k: v for k, v in ev.items() if k not in PROSE}
    if t in NAMED:
        out.pop("name", None)
    elif t == "enemy_step" and "text" in out:
        out["col"], out["step"] = STEPS.get((out["kind"], out.pop("text")), (1, 0))
    elif t == "note" and "text" in out:
        out["why"] = out.pop("text")
    elif t == "result" and isinstance(out["result"].get("reason"), str) and "seat" not in out["result"]:
        res = {k: v for k, v in out["result"].items() if k != "reason"}
        res.update(reason_code(out["result"]["reason"]))
        out["result"] = res
    elif t == "enemy_tmp":
        out = {"type": "stat_mod", "to": ev["enemy"], "stat": ev["stat"], "n": ev["n"], "dur": ev["dur"]}
    return out
