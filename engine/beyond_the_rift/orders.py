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


# ---- in words -----------------------------------------------------------------------------------------

SECTIONS = {
    "mode": "Defense mode",
    "margin": "Defense target: enemy attack + N",
    "heavy_margin": "Defense target against attacks dealing 2+ cards",
    "reserve": "AP kept in reserve during the enemy phase",
    "maxspend": "Most AP spent on one defense",
    "else": "When the target is out of reach",
    "use_wounds": "Defense-kind Wounds in my defense",
    "discard_persistent": "Intimidate may take my persistent cards",
    "ally": "Send attacks to my ally",
    "discard_first": "Discard first (Intimidate, hand size)",
    "ask_damage": "Ask me when an attack deals at least",
    "ask_wounds": "Ask me when Wounds+Fatigue in my hand reach",
    "react": "Standing reactions (REACT)",
    "aid": "Standing defense aid (AID)",
    "tiebreak": "Party: tie-break order",
    "healchoice": "Party: which enemies an enemy Heal picks",
    "hound_target": "Party: whom an ally attacks in the end phase",
}
WORDS = {
    "free-cards": "play only free Defense cards", "nothing": "play nothing", "half": "half of my AP",
    "all": "all my AP", "never": "never", "always": "always", "if-health>damage": "only if it survives",
    "auto": "defend automatically by my plan", "ask": "ask me at every enemy attack",
    "ask_if": "ask me only at dangerous enemy attacks", "rotate": "rotate each round", "most_health": "most health left", "least_health": "least health left",
    "oldest": "oldest first", "lowest_health": "lowest health", "highest_attack": "highest attack",
    True: "yes", False: "no", None: "off",
}


def describe_value(key: str, value, state: dict | None) -> str:
    if key in ("react", "aid"):
        name = CONTENT.cards[value if key == "react" else value["card"]]["name"]
        if key == "react":
            return f"toggle {name}"
        to = m.hero_name(state, value["to"]) if state else f"hero {value['to'] + 1}"
        return f"toggle {name} for {to}"
    if key == "tiebreak" and isinstance(value, str) and value.startswith("first:"):
        seat = int(value.split(":")[1])
        return f"{m.hero_name(state, seat) if state else f'hero {seat + 1}'} first"
    if key == "heavy_margin" and value is None:
        return "same as any attack"
    if key in ("margin", "heavy_margin") and isinstance(value, int):
        return f"attack + {value}"
    if key == "discard_first":
        return {"ap": "AP cards"}.get(value, f"{value} cards")
    if key == "ask_damage" and isinstance(value, int):
        return f"{value} card{'s' if value != 1 else ''}"
    if key == "ask_wounds" and value is None:
        return "hand size - 2"
    if key == "maxspend" and isinstance(value, int):
        return f"{value} AP"
    if isinstance(value, bool) or value is None:  # before any int: True == 1 and False == 0 as dict keys
        return WORDS[value]
    if isinstance(value, str):
        return WORDS.get(value, value)
    return str(value)


def describe_setting(mv: dict, state: dict | None) -> str:
    return f"{SECTIONS.get(mv.get('key'), str(mv.get('key')))}: {describe_value(mv.get('key'), mv.get('value'), state)}"


def summary(s: dict, seat: int) -> list[dict]:
    """This hero's standing orders and the party's, in words, for their own view."""
    plan, party = s["heroes"][seat]["plan"], s["party"]
    ask = plan["ask_if"]
    current = [
        ("mode", describe_value("mode", s["heroes"][seat]["mode"], s)),
        ("margin", describe_value("margin", plan["margin"], s)),
        ("heavy_margin", describe_value("heavy_margin", heavy_margin(plan), s)),
        ("reserve", str(plan["reserve"])), ("maxspend", describe_value("maxspend", plan["maxspend"], s)),
        ("else", describe_value("else", plan["else"], s)), ("use_wounds", describe_value("use_wounds", plan["use_wounds"], s)),
        ("ally", describe_value("ally", plan["ally"], s)),
        ("discard_first", ", ".join(plan["discard_order"])),
        ("discard_persistent", describe_value("discard_persistent", plan["discard_persistent"], s)),
        ("ask_damage", describe_value("ask_damage", ask["damage_at_least"], s)),
        ("ask_wounds", describe_value("ask_wounds", ask["wounds_at_least"], s)),
        ("react", ", ".join(CONTENT.cards[d]["name"] for d in plan["react"]) or "none"),
        ("aid", ", ".join(f"{CONTENT.cards[ln['card']]['name']} for {m.hero_name(s, ln['to'])}" for ln in plan["aid"])
         or "none"),
        ("tiebreak", ", ".join(m.hero_name(s, x) for x in s["tiebreak"])
         + (" (rotates each round)" if party["tiebreak"] == "rotate" else " (fixed)")),
        ("healchoice", describe_value("healchoice", party["healchoice"], s)),
        ("hound_target", describe_value("hound_target", party["hound_target"], s)),
    ]
    other = [ln for ln in plan["when"] if ln.get("if") != {"damage_at_least": HEAVY}]
    if other:
        current.insert(2, ("when", "; ".join(f"{', '.join(f'{k} {v}' for k, v in ln.get('if', {}).items()) or 'any'}: "
                                             f"attack + {ln['margin']}" for ln in other)))
    return [{"name": SECTIONS.get(k, "Other WHEN lines"), "value": v} for k, v in current]
