"""Setting up a scenario (section 1.5): options checked, decks built and shuffled with the seed, the
campaign carry-over (equipped items, unlocked sides) applied.  Returns the setup events."""

from __future__ import annotations

import random
import string
from typing import Any

from ..errors import IllegalMove
from ..kit import jcopy
from . import model as m
from .content import CONTENT, by_heroes
from .evolve import evolve
from .orders import DEFAULT_PARTY, HEALCHOICE, HOUND_TARGET, RECOVER_FATIGUE, REWARDS, ordered
from .primitives import Ctx, draw_cards, new_enemy, spawn_enemies, spawn_terrain

ROSTER = ["brannoc", "isolde", "tamsin", "osric"]
MODES = ("auto", "ask", "ask_if")
DEFAULT_PLAN: dict[str, Any] = {
    # Section 3.3's default plan: TARGET attack+3; MAXSPEND half; ELSE free-cards; USE-WOUNDS no;
    # ALLY never; no AID; no REACT; DISCARD-ORDER special,attack,ap,defense.
    "reserve": 0, "margin": 3, "maxspend": "half", "else": "free-cards", "use_wounds": False,
    "ally": "never", "react": [], "discard_order": ["special", "attack", "ap", "defense"],
    "discard_persistent": False,  # DISCARD-PERSISTENT: may Intimidate take persistent cards in my area
    # ASK-IF condition (the recommended default: damage>=2 or wounds>=handsize-2; null = hand size - 2)
    "ask_if": {"damage_at_least": 2, "wounds_at_least": None, "attack_at_least": None, "enemy": None},
    # standing defense aid: [{"to": seat, "card": card definition id, "damage_at_least": n}]
    "aid": [],
    # WHEN lines: [{"if": {damage_at_least / attack_at_least / enemy}, "margin": n}], first match wins
    "when": [],
    # H25: the Door of "A Debt Paid in Ash" frees a Fatigue from hand: ask me (default) or always discard
    "recover_fatigue": "ask",
    # H26: the items I draw on a campaign win: hand them out by the automatic rule (default) or ask me
    "rewards": "auto",
}
OPTION_KEYS = {"scenario", "heroes", "carry", "equip", "defense_modes", "plans", "party", "response_reshuffle",
               "enemy_defense_floor"}
MODE_TYPES = ["attack", "ap", "defense", "special", "reaction"]
_PLAN_SCHEMA = {
    "type": "object", "description": "a defense plan and standing orders (section 3.3); keys left out keep the default",
    "properties": {
        "reserve": {"type": "integer", "minimum": 0, "default": 0, "description": "AP never spent in the enemy phase"},
        "margin": {"type": "integer", "default": 3, "description": "TARGET attack+N"},
        "maxspend": {"default": "half", "description": "half, all or a number of AP (a string or a whole number)"},
        "else": {"type": "string", "enum": ["free-cards", "nothing"], "default": "free-cards"},
        "use_wounds": {"type": "boolean", "default": False},
        "discard_persistent": {"type": "boolean", "default": False},
        "ally": {"type": "string", "enum": ["never", "always", "if-health>damage"], "default": "never"},
        "react": {"type": "array", "items": {"type": "string"}, "description": "Reaction card definitions (REACT)"},
        "discard_order": {"type": "array", "items": {"type": "string", "enum": MODE_TYPES}},
        "ask_if": {"type": "object", "description": "damage_at_least, wounds_at_least, attack_at_least, enemy"},
        "aid": {"type": "array", "items": {"type": "object"}, "description": "[{to: seat, card: definition}] (AID)"},
        "when": {"type": "array", "items": {"type": "object"}, "description": "[{if: {...}, margin: n}] (WHEN)"},
        "recover_fatigue": {"type": "string", "enum": list(RECOVER_FATIGUE), "default": "ask",
                            "description": "H25: a Fatigue the Door frees from my hand"},
        "rewards": {"type": "string", "enum": list(REWARDS), "default": "auto",
                    "description": "H26: the items I draw on a campaign win"},
    },
}
OPTIONS_SCHEMA = {
    "type": "object", "additionalProperties": False,
    "properties": {
        "scenario": {"type": "string", "enum": list(CONTENT.scenarios), "default": "tutorial",
                     "description": "the tutorial or a scenario of the Old Friends campaign"},
        "heroes": {"type": "array", "items": {"type": "string", "enum": list(CONTENT.hero_ids)},
                   "x-absent": ["default", ""],
                   "description": "one hero per seat (default: brannoc, isolde, tamsin, osric in that order); "
                                  "{\"hero\": id, \"side\": side} plays an unlocked side"},
        "carry": {"type": "object", "description": "the campaign so far: the previous win's result rewards"},
        "equip": {"type": "object", "description": "between scenarios: {hero: {body part: stash item or null}}"},
        "defense_modes": {"type": "array", "items": {"type": "string", "enum": list(MODES)},
                          "x-absent": ["default", ""], "description": "one per hero (default ask_if)"},
        "plans": {"type": "array", "items": _PLAN_SCHEMA, "description": "one per hero"},
        "party": {"type": "object", "description": "the party's standing settings", "properties": {
            "tiebreak": {"type": "string", "default": "rotate", "description": "rotate or first:<seat>"},
            "healchoice": {"type": "string", "enum": list(HEALCHOICE), "default": "most_health"},
            "hound_target": {"type": "string", "enum": list(HOUND_TARGET), "default": "lowest_health"}}},
        "response_reshuffle": {"type": "string", "enum": ["when_empty", "never"], "default": "when_empty",
                               "description": "H1: shuffle the Response discard into a new deck when it runs out"},
        "enemy_defense_floor": {"type": "integer", "enum": [0, 1], "default": 0, "description": "H2"},
    },
}
CONDITION_KEYS = {"damage_at_least", "attack_at_least", "enemy"}


def _int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)  # True is an int to Python, not to a plan


def _condition(c, keys=CONDITION_KEYS) -> bool:
    """A WHEN / ASK-IF condition: thresholds are whole numbers (or null), `enemy` a known enemy name."""
    return isinstance(c, dict) and set(c) <= set(keys) and all(
        v is None or (k == "enemy" and v in {e["name"] for e in CONTENT.enemies.values()}) or (k != "enemy" and _int(v))
        for k, v in c.items())


def _card_with(defid, mode_type: str) -> bool:
    """A hero card definition with a mode of this type (REACT and AID lines name definitions)."""
    d = CONTENT.cards.get(defid) if isinstance(defid, str) else None
    return d is not None and d["kind"] == "hero" and any(md["type"] == mode_type for md in d["modes"])


def check_plan(p, players: int) -> None:
    """A defense plan from the options, checked so that a typo is refused at start, not mid-game (or
    on a page that describes it)."""
    if not isinstance(p, dict) or set(p) - set(DEFAULT_PLAN):
        raise bad(f"plans: keys are {', '.join(DEFAULT_PLAN)}")
    ok = {
        "reserve": lambda v: _int(v) and v >= 0,
        "margin": _int,
        "maxspend": lambda v: v in ("half", "all") or (_int(v) and v >= 0),
        "else": lambda v: v in ("free-cards", "nothing"),
        "use_wounds": lambda v: isinstance(v, bool),
        "discard_persistent": lambda v: isinstance(v, bool),
        "ally": lambda v: v in ("never", "always", "if-health>damage"),
        "react": lambda v: isinstance(v, list) and all(_card_with(x, "reaction") for x in v),
        "discard_order": lambda v: isinstance(v, list) and set(v) <= {"attack", "ap", "defense", "special", "reaction"},
        "ask_if": lambda v: _condition(v, DEFAULT_PLAN["ask_if"]),
        "when": lambda v: isinstance(v, list) and all(
            isinstance(x, dict) and set(x) <= {"if", "margin"} and _int(x.get("margin")) and _condition(x.get("if", {}))
            for x in v),
        "recover_fatigue": lambda v: v in RECOVER_FATIGUE,
        "rewards": lambda v: v in REWARDS,
        "aid": lambda v: isinstance(v, list) and all(
            isinstance(x, dict) and set(x) <= {"to", "card", "damage_at_least"} and _int(x.get("to"))
            and x["to"] in range(players) and _card_with(x.get("card"), "defense")
            and (x.get("damage_at_least") is None or _int(x["damage_at_least"])) for x in v),
    }
    for key, value in p.items():
        if not ok[key](value):
            raise bad(f"plans: bad value for {key}: {value!r}")


def check_party(p, players: int) -> dict:
    """The party's standing settings from the options (orders.py), defaults filled in."""
    if not isinstance(p, dict) or set(p) - set(DEFAULT_PARTY):
        raise bad(f"party: keys are {', '.join(DEFAULT_PARTY)}")
    party = {**DEFAULT_PARTY, **p}
    if party["tiebreak"] not in ["rotate"] + [f"first:{o}" for o in range(players)]:
        raise bad("party: tiebreak is rotate or first:<seat>")
    if party["healchoice"] not in HEALCHOICE or party["hound_target"] not in HOUND_TARGET:
        raise bad(f"party: healchoice is one of {', '.join(HEALCHOICE)}; hound_target one of {', '.join(HOUND_TARGET)}")
    return party


def bad(msg: str) -> IllegalMove:
    return IllegalMove(msg, "bad_options")


def empty_campaign(cid: str) -> dict:
    return {"campaign": cid, "won": [], "stash": [], "equipped": {}, "unlocked_sides": {}, "reward_deck": None}


def _campaign_state(sc: dict, carry: dict | None, rng: random.Random) -> dict | None:
    if not sc["campaign"]:
        return None
    camp = CONTENT.campaigns[sc["campaign"]]
    c = empty_campaign(camp["id"])
    if carry:
        if not isinstance(carry, dict) or carry.get("campaign") != camp["id"]:
            raise bad(f"the carry-over is not from the {camp['title']} campaign")
        for key in ("won", "stash", "equipped", "unlocked_sides", "reward_deck"):
            if key in carry:
                c[key] = jcopy(carry[key])  # equipping edits the campaign state: never the caller's options
        if not isinstance(c["won"], list) or not isinstance(c["stash"], list) or not isinstance(c["equipped"], dict):
            raise bad("malformed campaign carry-over")
        for it in c["stash"] + [i for parts in c["equipped"].values() for i in parts.values()] + (c["reward_deck"] or []):
            if it not in CONTENT.items:
                raise bad(f"unknown item {it!r} in the carry-over")
    if c["reward_deck"] is None:
        reward_deck = list(camp["reward_deck"])
        rng.shuffle(reward_deck)
        c["reward_deck"] = reward_deck
    return c


def _apply_equip(camp: dict, equip: dict, heroes: list[str]) -> None:
    """Between scenarios any hero may equip or unequip stash items (section 1.21)."""
    if not isinstance(equip, dict):
        raise bad("equip must map hero -> {part: item or null}")
    for hero, parts in equip.items():
        if hero not in heroes or not isinstance(parts, dict):
            raise bad(f"cannot equip {hero!r}: not a hero of this party")
        mine = camp["equipped"].setdefault(hero, {})
        for part, item in parts.items():
            if part not in ("head", "torso", "left_arm", "right_arm", "legs"):
                raise bad(f"unknown body part {part!r}")
            if mine.get(part):
                camp["stash"].append(mine.pop(part))
            if item is None:
                continue
            if item not in camp["stash"]:
                raise bad(f"{item!r} is not in the party's stash")
            it = CONTENT.items[item]
            if it["part"] != part or not CONTENT.item_allowed(item, hero):
                raise bad(f"{it['name']} cannot be equipped by {hero} on {part}")
            camp["stash"].remove(item)
            mine[part] = item


def _letters(i: int) -> str:
    return string.ascii_lowercase[i] if i < 26 else f"{i}"


def build_state(players: int, options: dict | None, seed: int) -> tuple[dict, random.Random]:
    options = dict(options or {})
    unknown = set(options) - OPTION_KEYS
    if unknown:
        raise bad(f"unknown option(s): {', '.join(sorted(unknown))}")
    if not isinstance(players, int) or not 1 <= players <= 4:
        raise bad("Beyond the Rift is for 1 to 4 heroes")
    sid = options.get("scenario", "tutorial")
    if sid not in CONTENT.scenarios:
        raise bad(f"unknown scenario {sid!r}; choose one of {', '.join(CONTENT.scenarios)}")
    sc = CONTENT.scenarios[sid]
    rng = random.Random(seed)

    picks = options.get("heroes")
    if picks is None:
        picks = ROSTER[:players]
    if not isinstance(picks, list) or len(picks) != players:
        raise bad(f"choose exactly {players} heroes")
    heroes, sides = [], []
    for p in picks:
        hero, side = (p, "standard") if isinstance(p, str) else (p.get("hero"), p.get("side", "standard"))
        if hero not in CONTENT.hero_ids:
            raise bad(f"unknown hero {hero!r}")
        if f"{hero}/{side}" not in CONTENT.boards:
            raise bad(f"{hero} has no side {side!r}")
        heroes.append(hero)
        sides.append(side)
    if len(set(heroes)) != len(heroes):
        raise bad("each hero can be chosen once")

    camp = _campaign_state(sc, options.get("carry"), rng)
    if camp is not None:
        cdata = CONTENT.campaigns[camp["campaign"]]
        if cdata["requires_hero"] not in heroes:
            raise bad(f"the {cdata['title']} campaign needs {CONTENT.board(cdata['requires_hero'], 'standard')['name']}")
        missing = [r for r in sc["requires"] if r not in camp["won"]]
        if missing:
            raise bad(f"{sc['title']} needs {', '.join(CONTENT.scenarios[r]['title'] for r in missing)} won first")
        _apply_equip(camp, options.get("equip", {}), heroes)
    elif options.get("carry") or options.get("equip"):
        raise bad("the tutorial takes no campaign carry-over")
    for hero, side in zip(heroes, sides):
        if side != "standard" and side not in ((camp or {}).get("unlocked_sides", {}).get(hero, [])):
            raise bad(f"{hero}'s {side} side is not unlocked")

    modes = options.get("defense_modes", ["ask_if"] * players)
    if not isinstance(modes, list) or len(modes) != players or any(x not in MODES for x in modes):
        raise bad("defense_modes: one of auto/ask/ask_if per hero")
    plans = options.get("plans", [{}] * players)
    if not isinstance(plans, list) or len(plans) != players:
        raise bad("plans: one dict per hero")
    for p in plans:
        check_plan(p, players)
    party = check_party(options.get("party", {}), players)
    tiebreak = ordered(list(range(players)), party["tiebreak"])
    if options.get("response_reshuffle", "when_empty") not in ("when_empty", "never"):
        raise bad("response_reshuffle: when_empty or never")
    if options.get("enemy_defense_floor", 0) not in (0, 1):
        raise bad("enemy_defense_floor: 0 or 1")

    cards: dict[str, str] = {}
    owner: dict[str, int] = {}
    hero_states = []
    for seat, (hero, side) in enumerate(zip(heroes, sides)):
        equipped = (camp or {}).get("equipped", {}).get(hero, {})
        defs = [d for d in CONTENT.decks[hero] if CONTENT.cards[d].get("part") not in equipped]
        for item in equipped.values():
            defs += [c["id"] for c in CONTENT.items[item]["cards"]]
        deck = []
        for d in defs:
            for i in range(CONTENT.cards[d]["count"]):
                cid = d + _letters(i)
                cards[cid] = d
                owner[cid] = seat
                deck.append(cid)
        rng.shuffle(deck)
        b = CONTENT.board(hero, side)
        hero_states.append({
            "hero": hero, "side": side, "hand": [], "deck": deck, "discard": [], "ap": b["start_ap"],
            "status": "active", "area": [], "pledges": [], "used_board": 0, "used_terrain": [], "discard_down": 0,
            "mode": modes[seat], "plan": {**DEFAULT_PLAN, **plans[seat],
                                          "ask_if": {**DEFAULT_PLAN["ask_if"], **plans[seat].get("ask_if", {})}}, "equipped": dict(equipped)})

    n = players
    count: dict[str, int] = {}

    def inst(typ: str) -> str:
        i = count.get(typ, 0)
        count[typ] = i + 1
        cid = typ + _letters(i)
        cards[cid] = typ
        return cid

    enemy_deck = [inst(t) for t, k in sc["enemy_deck"] for _ in range(by_heroes(k, n))]
    rng.shuffle(enemy_deck)
    bottom = sc.get("enemy_deck_bottom")
    if bottom:
        k = bottom["into_bottom"] - len(bottom["insert"])
        tail = enemy_deck[len(enemy_deck) - k:] + [inst(t) for t in bottom["insert"]]
        rng.shuffle(tail)
        enemy_deck = enemy_deck[:len(enemy_deck) - k] + tail
    summon = {t: [inst(t) for _ in range(k)] for t, k in sc["summon_pool"].items()}
    aside = [inst(t) for t in sc.get("set_aside", [])]
    quest_enemies = [inst(t) for t in sc["quest_area"]["enemies"]]

    td = sc["terrain_deck"]
    terrain_deck = [inst(t) for t in td.get("shuffled", [])]
    rng.shuffle(terrain_deck)
    terrain_deck += [inst(t) for t in td.get("bottom", []) + td.get("ordered", [])]
    quest_terrain = [inst(t) for t in sc["quest_area"]["terrain"]]

    response = []
    for i, r in enumerate(CONTENT.response):
        cid = f"R{i + 1:02d}"
        cards[cid] = f"R{r['value']}{'S' if r['sigil'] else ''}"
        response.append(cid)
    rng.shuffle(response)
    wounds = list(CONTENT.wounds)
    fatigue = list(CONTENT.fatigue)
    for c in wounds + fatigue:
        cards[c] = c
    rng.shuffle(wounds)
    rng.shuffle(fatigue)  # the rulebook does not say to shuffle Fatigue; we do (section 1.5)

    state = {
        "scenario": sid, "n": n, "round": 1, "phase": "setup", "threat": sc["threat"], "heroes": hero_states,
        "enemies": [], "terrain": quest_terrain, "removed_terrain": [], "defeated": [], "entered": [],
        "piles": {"enemy": enemy_deck, "terrain": terrain_deck, "response": response, "response_discard": [],
                  "wound": wounds, "wound_discard": [], "fatigue": fatigue, "fatigue_discard": []},
        "summon": summon, "aside": aside + quest_enemies, "cards": cards, "owner": owner, "limbo": [], "next_e": 1,
        "tiebreak": tiebreak, "party": party, "spawned": [], "attack": None, "defense": None, "prompt": None,
        "action": None, "tasks": [], "result": None, "campaign": camp,
        "options": {k: options[k] for k in ("response_reshuffle", "enemy_defense_floor") if k in options},
    }
    return state, rng


def start_events(players: int, options: dict | None, seed: int) -> list[dict]:
    state, rng = build_state(players, options, seed)
    first = {"type": "setup", "state": state}
    ctx = Ctx(evolve(None, first), rng)
    ctx.events.append(first)
    s = ctx.s
    sc = m.scenario(s)
    for cid in list(s["aside"]):  # enemies the scenario puts into the Quest Area at setup (Captain Hask)
        if s["cards"][cid] in sc["quest_area"]["enemies"] and s["cards"][cid] not in sc.get("set_aside", []):
            ctx.emit({"type": "spawn", "enemy": new_enemy(ctx, cid), "from": "aside"})
    spawn_enemies(ctx, by_heroes(sc["setup_spawn"]["enemies"], s["n"]))
    spawn_terrain(ctx, sc["setup_spawn"]["terrain"])
    for seat in range(s["n"]):
        draw_cards(ctx, seat, m.hand_size(s))
    ctx.emit({"type": "set", "key": "spawned", "value": []})
    ctx.emit({"type": "phase", "phase": "hero", "round": 1})
    return ctx.finish()
