"""Standing orders (section 3.3): each hero's defense plan and the party's settings, changeable in play.

The service never guesses a choice a player could still make; when a deadline passes, or a choice
falls inside the automatic phases, it applies these orders, which are "always visible and editable".
Editing is step-wise like every other decision: one `{"type": "setting", "key": K, "value": V}` move
changes one setting, and `setting_moves` lists every value each setting may take now, so a page can
offer each setting as one drop-down and no free-form text ever reaches the engine.

Plan keys (per hero) are those of setup.DEFAULT_PLAN; `when` lines are the plan's
`WHEN <condition> TARGET attack+N` (first matching line wins, else `margin`).  In play the most used
line, "attacks that deal 2 or more cards", is the setting `heavy_margin`; any other lines come from
the start options.

Two plan keys answer questions asked outside the enemy phase: `recover_fatigue` (H25: when the Door of
"A Debt Paid in Ash" lets each hero put a Fatigue from hand on the Fatigue discard: `ask`, the default,
or `always`) and `rewards` (H26: the items a hero draws on a campaign win: `auto`, the default, hands
them out by the automatic rule of rewards.py without asking; `ask` asks that hero item by item).

Party keys (shared, any hero may change them): `tiebreak` (the step-4 order of target priority and
the order of end-phase effects: `rotate` moves the first hero to the end each round, `first:<seat>`
puts that hero first and stops the rotation), `healchoice` (which enemies an enemy Heal picks when
more qualify, A29) and `hound_target` (whom an ally's end-phase attack picks, section 3.6).
"""

from __future__ import annotations

from . import model as m
from .content import CONTENT

HEALCHOICE = ("most_health", "least_health", "oldest")
HOUND_TARGET = ("lowest_health", "highest_attack", "oldest")
DEFAULT_PARTY = {"tiebreak": "rotate", "healchoice": "most_health", "hound_target": "lowest_health"}
RECOVER_FATIGUE = ("ask", "always")
REWARDS = ("auto", "ask")
# Plan keys added after rules version 1, with the value that is the older versions' fixed behaviour: a
# game set up before them plays on as it began (evolve._upgrade).
UPGRADED_PLAN = {"when": [], "recover_fatigue": "always", "rewards": "auto"}

MARGINS = range(0, 9)
RESERVES = range(0, 9)
MAXSPEND = ("half", "all", 1, 2, 3, 4, 5, 6)
HEAVY = 2  # the heavy_margin line covers attacks that deal at least this many cards


def ordered(order: list[int], tiebreak: str) -> list[int]:
    """The TIEBREAK seat order under the party's `tiebreak` setting: `first:<seat>` puts that hero
    first (the others keep their order); `rotate` leaves it as it is (the round rotates it)."""
    if tiebreak == "rotate":
        return list(order)
    first = int(tiebreak.split(":")[1])
    return [first] + [x for x in order if x != first]


def heavy_margin(plan: dict) -> int | None:
    for line in plan["when"]:
        if line.get("if") == {"damage_at_least": HEAVY}:
            return line["margin"]
    return None


def margin_for(s: dict, plan: dict, e: dict) -> int:
    """TARGET attack+N of the first WHEN line whose condition holds for this enemy, else the plan's."""
    for line in plan["when"]:
        if condition_holds(s, line.get("if", {}), e):
            return line["margin"]
    return plan["margin"]


def condition_holds(s: dict, cond: dict, e: dict) -> bool:
    """All parts of a WHEN / ASK-IF condition hold (an empty condition is `any`)."""
    d = CONTENT.enemies[e["type"]]
    dmg = d["damage"]["wound"] + d["damage"]["fatigue"]
    return ((cond.get("damage_at_least") is None or dmg >= cond["damage_at_least"])
            and (cond.get("attack_at_least") is None or m.enemy_stat(s, e, "attack") >= cond["attack_at_least"])
            and (cond.get("enemy") is None or d["name"] == cond["enemy"]))


def _own_defs(s: dict, seat: int) -> list[str]:
    """Definitions of the cards this hero's deck was built from (standing lines name definitions)."""
    return sorted({s["cards"][c] for c in s["cards"] if s["owner"].get(c) == seat and m.kind(s, c) == "hero"})


def _with_modes(s: dict, seat: int, pred) -> list[str]:
    return [d for d in _own_defs(s, seat) if any(pred(md) for md in CONTENT.cards[d].get("modes", []))]


def offers_recover(s: dict) -> bool:
    """Does this scenario ever let heroes free a Fatigue from hand (H25's question)?"""
    return any(op["op"] == "recover_fatigue" for rule in m.scenario(s)["terrain_rules"].values()
               for op in rule.get("on_remove", []))


def offers_rewards(s: dict) -> bool:
    """Will a win of this scenario draw items (H26's question)?  Not on a replayed win (H8)."""
    return (s["campaign"] is not None and bool(m.scenario(s).get("rewards", {}).get("draw_each"))
            and s["scenario"] not in s["campaign"]["won"])


def setting_moves(s: dict, seat: int) -> list[dict]:
    """Every setting change this hero may make now: each key with each value other than the current."""
    plan = s["heroes"][seat]["plan"]
    party = s["party"]
    out: list[tuple[str, object]] = []
    out += [("margin", v) for v in MARGINS if v != plan["margin"]]
    out += [("heavy_margin", v) for v in (None, *MARGINS) if v != heavy_margin(plan)]
    out += [("reserve", v) for v in RESERVES if v != plan["reserve"]]
    out += [("maxspend", v) for v in MAXSPEND if v != plan["maxspend"]]
    out += [("else", v) for v in ("free-cards", "nothing") if v != plan["else"]]
    out += [("use_wounds", not plan["use_wounds"]), ("discard_persistent", not plan["discard_persistent"])]
    out += [("ally", v) for v in ("never", "always", "if-health>damage") if v != plan["ally"]]
    out += [("discard_first", t) for t in ("special", "attack", "ap", "defense", "reaction")
            if plan["discard_order"][:1] != [t]]
    ask = plan["ask_if"]
    out += [("ask_damage", v) for v in (None, 1, 2, 3) if v != ask["damage_at_least"]]
    out += [("ask_wounds", v) for v in (None, *range(1, m.hand_size(s) + 1)) if v != ask["wounds_at_least"]]
    # REACT lines: toggle each Reaction this hero owns; AID lines: each range-2 Defense card per hero.
    out += [("react", d) for d in _with_modes(s, seat, lambda md: md["type"] == "reaction")]
    out += [("aid", {"to": o, "card": d}) for d in _with_modes(s, seat, lambda md: md["type"] == "defense" and md["range"] >= 2)
            for o in range(s["n"]) if o != seat]
    if offers_recover(s):
        out += [("recover_fatigue", v) for v in RECOVER_FATIGUE if v != plan["recover_fatigue"]]
    if offers_rewards(s):
        out += [("rewards", v) for v in REWARDS if v != plan["rewards"]]
    if s["n"] > 1:
        out += [("tiebreak", v) for v in ("rotate", *(f"first:{o}" for o in range(s["n"]))) if v != party["tiebreak"]]
    out += [("healchoice", v) for v in HEALCHOICE if v != party["healchoice"]]
    out += [("hound_target", v) for v in HOUND_TARGET if v != party["hound_target"]]
    return [{"type": "setting", "key": k, "value": v} for k, v in out]


def apply_setting(ctx, seat: int, key: str, value) -> None:
    """Record one setting change as an event that replaces the whole record (plans are shared between
    state copies, so they are never changed in place)."""
    s = ctx.s
    if key in ("tiebreak", "healchoice", "hound_target"):
        ctx.emit({"type": "set", "key": "party", "value": dict(s["party"], **{key: value}), "by": seat,
                  "setting": key})
        if key == "tiebreak" and value != "rotate":
            ctx.emit({"type": "tiebreak", "order": ordered(s["tiebreak"], value)})
        return
    plan = dict(s["heroes"][seat]["plan"])
    if key == "heavy_margin":
        lines = [ln for ln in plan["when"] if ln.get("if") != {"damage_at_least": HEAVY}]
        plan["when"] = ([{"if": {"damage_at_least": HEAVY}, "margin": value}] if value is not None else []) + lines
    elif key == "discard_first":
        plan["discard_order"] = [value] + [t for t in plan["discard_order"] if t != value]
    elif key in ("ask_damage", "ask_wounds"):
        field = {"ask_damage": "damage_at_least", "ask_wounds": "wounds_at_least"}[key]
        plan["ask_if"] = dict(plan["ask_if"], **{field: value})
    elif key == "react":
        plan["react"] = [d for d in plan["react"] if d != value] if value in plan["react"] else plan["react"] + [value]
    elif key == "aid":
        same = [ln for ln in plan["aid"] if ln.get("to") == value["to"] and ln.get("card") == value["card"]]
        plan["aid"] = [ln for ln in plan["aid"] if ln not in same] if same else plan["aid"] + [dict(value)]
    else:
        plan[key] = value
    ctx.emit({"type": "hero_set", "seat": seat, "key": "plan", "value": plan, "why": "setting", "setting": key})
