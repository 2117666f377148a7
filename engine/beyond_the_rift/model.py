"""Read-only questions about a state: card definitions, enemy statistics, range, target priority.

Areas: -1 is the Quest Area, a seat number is that hero's Hero Area (section 1.4).
"""

from __future__ import annotations

import re

from .content import CONTENT, by_heroes

QUEST = -1
FLOORS = {"engage": 0, "attack": 0, "defense": 0, "range": 1}


def cdef(state: dict, cid: str) -> dict:
    """The definition record of a physical card."""
    return CONTENT.cards[state["cards"][cid]]


def kind(state: dict, cid: str) -> str:
    return CONTENT.cards[state["cards"][cid]]["kind"]


def is_damage(state: dict, cid: str) -> bool:
    """Wounds and Fatigue: never discardable by a plain "discard" (golden rule, section 1.3)."""
    return kind(state, cid) in ("wound", "fatigue")


def board(state: dict, seat: int) -> dict:
    h = state["heroes"][seat]
    return CONTENT.board(h["hero"], h["side"])


def hand_size(state: dict) -> int:
    return by_heroes([7, 6, 5, 4], state["n"])


def scenario(state: dict) -> dict:
    return CONTENT.scenarios[state["scenario"]]


def enemy(state: dict, eid: str) -> dict | None:
    for e in state["enemies"]:
        if e["id"] == eid:
            return e
    return None


def terrain_count(state: dict, ttype: str) -> int:
    return sum(1 for c in state["terrain"] if state["cards"][c] == ttype)


def att_mods(state: dict, att: list) -> dict:
    total: dict[str, int] = {}
    for a in att:
        mods = a["mods"] if a.get("mods") is not None else CONTENT.cards[state["cards"][a["card"]]]["enemy_mods"]
        for k, v in mods.items():
            total[k] = total.get(k, 0) + v
    return total


def enemy_stat(state: dict, e: dict, stat: str) -> int:
    """Printed value + attachments + scenario passives + temporary modifiers, floored (A1/H2)."""
    base = CONTENT.enemies[e["type"]][stat]
    value = base + att_mods(state, e["att"]).get(stat, 0)
    for p in scenario(state).get("passives", []):
        if p["op"] == "stat" and p["type"] == e["type"] and p["stat"] == stat and terrain_count(state, p["while_terrain"]):
            value += p["n"]
    for m in e.get("tmp", []):
        if m["stat"] == stat:
            value += m["n"]
    if stat == "defense":
        return max(value, state["options"].get("enemy_defense_floor", 0))
    if stat in FLOORS:
        return max(value, FLOORS[stat])
    return value


def ally_stat(state: dict, p: dict, stat: str) -> int:
    value = p["ally"][stat] + att_mods(state, p["att"]).get(stat, 0) + sum(x["n"] for x in p["tmp"] if x["stat"] == stat)
    return max(value, FLOORS.get(stat, value)) if stat != "health" else value


def hero_engageable(state: dict, e: dict) -> bool:
    """Scenario rule: some enemies cannot be engaged by heroes while a terrain stands (Ritual Circle)."""
    for p in scenario(state).get("passives", []):
        if p["op"] == "no_hero_engage" and p["type"] == e["type"] and terrain_count(state, p["while_terrain"]):
            return False
    return True


def enemies_in(state: dict, area: int) -> list[dict]:
    return [e for e in state["enemies"] if e["area"] == area]


def engaged(state: dict, seat: int) -> bool:
    return any(e["area"] == seat for e in state["enemies"])


def dist_enemy(state: dict, seat: int, e: dict) -> int:
    return 1 if e["area"] == seat else 2


def dist_door(state: dict, seat: int) -> int:
    """A door counts as range 1 for a hero with no enemies in their area, else range 2 (section 1.20)."""
    return 2 if engaged(state, seat) else 1


def dist_hero(seat: int, other: int) -> int:
    return 1 if seat == other else 2


def wounds_in_hand(state: dict, seat: int) -> int:
    return sum(1 for c in state["heroes"][seat]["hand"] if kind(state, c) == "wound")


def damage_in_hand(state: dict, seat: int) -> int:
    return sum(1 for c in state["heroes"][seat]["hand"] if is_damage(state, c))


def ranking(state: dict, priority: str | None = None) -> list[int]:
    """Target priority (section 1.15) as a full ranking, fixed for one enemy's activation (A19).

    1 fewest enemies in the Hero Area; 2 fewest cards in hand; 3 most Wounds in hand; 4 the party's
    standing tie-break order (rotating seat order).  A step's own priority, if given, comes first.
    """
    tb = state["tiebreak"]

    def key(seat: int):
        h = state["heroes"][seat]
        base = (len(enemies_in(state, seat)), len(h["hand"]), -wounds_in_hand(state, seat), tb.index(seat))
        if priority == "most_cards":
            return (-len(h["hand"]),) + base
        if priority == "fewest_cards":
            return (len(h["hand"]),) + base
        if priority == "most_ap":
            return (-h["ap"],) + base
        if priority == "most_wounds":
            return (-wounds_in_hand(state, seat),) + base
        return base

    return sorted(range(state["n"]), key=key)


def enemy_can_reach(state: dict, e: dict, seat: int) -> bool:
    """Enemy range 1: only the hero it is engaged with; range 2: any hero (section 1.4)."""
    return enemy_stat(state, e, "range") >= 2 or e["area"] == seat


def allies_of(state: dict, seat: int) -> list[dict]:
    return [p for p in state["heroes"][seat]["area"] if p.get("ally")]


def response_counts(state: dict) -> dict:
    """Composition of the remaining Response deck (public: the discards are face up)."""
    counts: dict[str, int] = {}
    for c in state["piles"]["response"]:
        v = str(CONTENT.cards[state["cards"][c]]["value"])
        counts[v] = counts.get(v, 0) + 1
    return counts


def card_name(state: dict, cid: str) -> str:
    return cdef(state, cid)["name"]


def def_of(cid: str) -> dict | None:
    """A card's definition from its physical id alone (ids are the definition id plus a letter), for
    views and words of events whose state no longer holds the card."""
    if cid in CONTENT.cards:
        return CONTENT.cards[cid]
    base = re.sub(r"[a-z]+$|\d+$", "", cid) if not cid.startswith("IT-") else re.sub(r"[a-z]+$", "", cid)
    return CONTENT.cards.get(base)


def cname(cid) -> str:
    """A card's name from its physical id (the card data's name)."""
    if not isinstance(cid, str):
        return "a card"
    d = def_of(cid)
    return d["name"] if d else cid


def terrain_rule(state: dict, cid: str) -> dict:
    return scenario(state)["terrain_rules"].get(state["cards"][cid], {})


def terrain_name(state: dict, cid: str) -> str:
    return terrain_rule(state, cid).get("name") or cdef(state, cid)["name"]


def is_door(state: dict, cid: str) -> bool:
    return bool(cdef(state, cid).get("door"))


def door_values(state: dict, cid: str) -> tuple[int, int]:
    """(lock, defense) of a door: A16, one number given means both."""
    r = terrain_rule(state, cid)
    lock = r.get("lock", r.get("defense", 0))
    return lock, r.get("defense", lock)


def enemy_name(state: dict, e: dict) -> str:
    return f"{CONTENT.enemies[e['type']]['name']} {e['id']}"


def hero_name(state: dict, seat: int) -> str:
    return board(state, seat)["name"]


def damage_side(state: dict, cid: str) -> dict | None:
    """The hero side of a Wound/Fatigue card ({"type": ap|attack|defense, "n": ...}); None for others."""
    d = CONTENT.cards[state["cards"][cid]]
    return d["hero"] if d["kind"] in ("wound", "fatigue") else None
