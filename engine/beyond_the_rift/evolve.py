"""Applying events to a state (the contract's `evolve`) and the fast state copy.

Events are facts: they carry every random outcome (shuffled orders, drawn cards) and every choice, so
applying them needs no randomness and no validation.  Each handler mutates the state it is given.

Turns are counted here too (`_count_turn`), from the events alone, so a log of any rules version counts
them the same way: a turn begins at the first moment someone is waited on after a moment nobody was
(the automatic phases between two hero phases, the stretch of the enemy phase between two prompts).

Whole records: the state takes the event's own value, uncopied, for records that are only ever replaced
whole, never changed in place, by evolve or by anyone holding a state: a hero's plan and the party's
settings (orders.py builds a new record for each setting; copy_live shares them between state copies),
the task queue, prompt and action (Ctx works on its own copies and writes them back as a new "flow"
event), an attack and a defense (hero_phase.py and enemy_phase.py build the next one with dict(old, ...)).
The event keeps its value too (in the log, in a move's answer): neither side changes it, so sharing is
safe, and a replay does not pay for copying it (a plan copied per standing-order change was ~80% of a
replay of a game whose players change their orders often).  Everything else an event hands over is
copied (spawn's enemy record, allies, results), or is a scalar: those records change in place later.
"""

from __future__ import annotations

from typing import Any

from ..kit import jcopy
from .content import CONTENT
from .orders import DEFAULT_PARTY, UPGRADED_PLAN


def _copy_area(area: list) -> list:
    return [{**p, "att": [dict(a) for a in p["att"]], "tmp": list(p["tmp"])} for p in area]


def copy_state(s: dict | None) -> dict | None:
    return None if s is None else copy_live(s)


def copy_live(s: dict) -> dict:
    """Hand-written copy of the state, structure by structure (about 20 times faster than deepcopy).
    Records that no event ever changes in place (plans, party settings, options, the campaign carry-over)
    are shared: events replace them whole."""
    out = dict(s)
    out["heroes"] = [{**h, "hand": list(h["hand"]), "deck": list(h["deck"]), "discard": list(h["discard"]),
                      "area": _copy_area(h["area"]), "used_terrain": list(h["used_terrain"]),
                      "pledges": [dict(p) for p in h["pledges"]],
                      "plan": h["plan"]} for h in s["heroes"]]
    out["enemies"] = [{**e, "att": [dict(a) for a in e["att"]], "tmp": list(e["tmp"])} for e in s["enemies"]]
    out["terrain"] = list(s["terrain"])
    out["removed_terrain"] = list(s["removed_terrain"])
    out["defeated"] = list(s["defeated"])
    out["entered"] = list(s["entered"])
    out["piles"] = {k: list(v) for k, v in s["piles"].items()}
    out["summon"] = {k: list(v) for k, v in s["summon"].items()}
    out["aside"] = list(s["aside"])
    out["limbo"] = list(s["limbo"])
    out["tiebreak"] = list(s["tiebreak"])
    out["party"] = s["party"]
    out["spawned"] = list(s["spawned"])
    out["cards"] = dict(s["cards"])
    out["owner"] = dict(s["owner"])
    out["options"] = s["options"]
    out["campaign"] = s["campaign"]
    for key in ("attack", "defense", "prompt", "action", "tasks", "result", "reward"):
        out[key] = jcopy(s[key])
    return out


# Keys of "set" events whose value is a whole record (module doc): the party's settings; and those of
# the setup (never set today, but copy_live shares them the same way)
_WHOLE = frozenset({"party", "options", "campaign"})


def _home(s: dict, cid: str) -> list:
    """The discard pile a card returns to: hero cards and (played) Wounds to the owner's discard,
    Fatigue to the Fatigue discard (section 1.16)."""
    k = CONTENT.cards[s["cards"][cid]]["kind"]
    if k == "fatigue":
        return s["piles"]["fatigue_discard"]
    if k == "wound":
        owner = s["owner"].get(cid)
        return s["heroes"][owner]["discard"] if owner is not None else s["piles"]["wound_discard"]
    return s["heroes"][s["owner"][cid]]["discard"]


def _att_home(s: dict, att: dict) -> None:
    """An attachment leaving play: Wounds/Fatigue to their own discard piles, hero cards to the owner."""
    cid = att["card"]
    k = CONTENT.cards[s["cards"][cid]]["kind"]
    if k == "wound":
        s["piles"]["wound_discard"].append(cid)
    elif k == "fatigue":
        s["piles"]["fatigue_discard"].append(cid)
    else:
        s["heroes"][s["owner"][cid]]["discard"].append(cid)


def _holder(s: dict, target: str) -> Any:  # a record the log names: never missing
    """An enemy record, or a persistent (ally) record addressed as "ally:<card>"."""
    if target.startswith("ally:"):
        cid = target[5:]
        for h in s["heroes"]:
            for p in h["area"]:
                if p["card"] == cid:
                    return p
        return None
    for e in s["enemies"]:
        if e["id"] == target:
            return e
    return None


def _zone(s: dict, seat, zone: str) -> list:
    return s["limbo"] if zone == "limbo" else s["heroes"][seat][zone]


def _rm(lst: list, x) -> None:
    lst.remove(x)


def _upgrade(s: dict) -> dict:
    """Fill in what later rules versions added to the state, so games set up under an older version
    replay: the party's settings and the H25/H26 standing orders (their defaults are the older versions'
    fixed behaviour), WHEN lines, allies' modifiers; and the bookkeeping evolve keeps for itself (the
    turn count, the pending rewards).  (Version-1 snapshots were dropped by the service's migration 0005.)"""
    s.setdefault("party", dict(DEFAULT_PARTY))
    for h in s["heroes"]:
        for key, value in UPGRADED_PLAN.items():
            h["plan"].setdefault(key, value)
        for p in h["area"]:
            p.setdefault("tmp", [])
    s.setdefault("reward", None)
    # turns: 0 begun so far, and nobody is waited on during the setup (the first hero phase is turn 1)
    s.setdefault("turns", 0)
    s.setdefault("turn_seats", [])
    s.setdefault("idle", True)
    return s


def _count_turn(s: dict) -> None:
    """A moment with nobody waited on (while the scenario goes on) ends the turn; the next moment someone
    is waited on begins a new one, for the seats waited on then.  The same rule the service applied
    before engines said turns themselves (a move was "idle" if such a moment fell inside it)."""
    if s["result"] is not None:
        return
    if s["prompt"] is None and s["attack"] is None and (s["phase"] != "hero" or not _anyone_active(s)):
        s["idle"] = True
    elif s["idle"]:
        s["idle"] = False
        s["turns"] += 1
        if s["prompt"] is not None:
            s["turn_seats"] = list(s["prompt"]["seats"])
        elif s["attack"] is not None:
            s["turn_seats"] = [s["attack"]["by"]]  # aiders join an attack window, they begin no turn
        else:
            s["turn_seats"] = [i for i, h in enumerate(s["heroes"]) if h["status"] == "active"]


def _anyone_active(s: dict) -> bool:
    for h in s["heroes"]:  # noqa: SIM110 - a plain loop: any() over a generator is slower, and replay runs it
        if h["status"] == "active":
            return True
    return False


def evolve(s: dict | None, ev: dict) -> dict:
    t = ev["type"]
    if t == "setup":
        return _upgrade(jcopy(ev["state"]))
    if s is None:
        raise ValueError("a game's first event is its setup")
    if t == "hero_set" and ev["key"] == "plan":  # first: often most of a log (a plan edited setting by setting)
        s["heroes"][ev["seat"]]["plan"] = ev["value"]  # a whole record (module doc), as in the branch below
        return s
    h: Any = s["heroes"][ev["seat"]] if "seat" in ev and isinstance(ev.get("seat"), int) else None
    # _count_turn follows the events that can change whom the game waits on (game.to_act): the phase,
    # a hero's status, the prompt, an attack, the win (the end itself stops the count)
    if t == "phase":
        s["phase"] = ev["phase"]
        s["round"] = ev["round"]
        _count_turn(s)
    elif t == "ap":
        h["ap"] = ev["ap"]
    elif t == "hero_set":
        key = ev["key"]
        h[key] = ev["value"] if key == "plan" else jcopy(ev["value"])  # a plan: a whole record (module doc)
        if key == "status":
            _count_turn(s)
    elif t == "set":
        key = ev["key"]
        s[key] = ev["value"] if key in _WHOLE else jcopy(ev["value"])
    elif t == "flow":
        s["tasks"] = ev["tasks"]
        s["prompt"] = ev["prompt"]
        s["action"] = ev["action"]
        _count_turn(s)
    elif t == "attack_state":
        s["attack"] = ev["attack"]
        _count_turn(s)
    elif t == "defense_state":
        s["defense"] = ev["defense"]
    elif t == "draw":
        for c in ev["cards"]:
            _rm(h["deck"], c)
            h["hand"].append(c)
    elif t == "add_to_discard":
        _rm(s["piles"][ev["pile"]], ev["card"])
        s["owner"][ev["card"]] = ev["seat"]
        h["discard"].append(ev["card"])
    elif t == "hero_shuffle":
        h["deck"] = list(ev["order"])
        h["discard"] = []
    elif t == "pile_shuffle":
        s["piles"][ev["pile"]] = list(ev["order"])
        s["piles"][ev["pile"] + "_discard"] = []
    elif t == "response":
        _rm(s["piles"]["response"], ev["card"])
        s["piles"]["response_discard"].append(ev["card"])
    elif t == "response_bottom":
        _rm(s["piles"]["response"], ev["card"])
        s["piles"]["response"].append(ev["card"])
    elif t == "deck_discard":
        _rm(h["deck"], ev["card"])
        h["discard"].append(ev["card"])
    elif t == "take":
        _rm(s["piles"][ev["pile"]], ev["card"])
        s["owner"][ev["card"]] = ev["seat"]
        h["hand"].append(ev["card"])
    elif t == "deck_top":
        _rm(s["piles"][ev["pile"]], ev["card"])
        s["owner"][ev["card"]] = ev["seat"]
        h["deck"].insert(0, ev["card"])
    elif t == "play":
        _rm(h["hand"], ev["card"])
        s["limbo"].append(ev["card"])
    elif t == "reveal":
        for c in ev["cards"]:
            _rm(h["deck"], c)
            s["limbo"].append(c)
    elif t == "to_hand":
        _rm(s["limbo"], ev["card"])
        h["hand"].append(ev["card"])
    elif t == "discard":
        src = _zone(s, ev.get("seat"), ev["from"])
        for c in ev["cards"]:
            _rm(src, c)
            _home(s, c).append(c)
            if CONTENT.cards[s["cards"][c]]["kind"] == "fatigue":
                s["owner"].pop(c, None)
    elif t == "heal":
        _rm(h["hand"], ev["card"])
        s["owner"].pop(ev["card"], None)
        s["piles"][ev["pile"] + "_discard"].append(ev["card"])
    elif t == "spawn":
        rec = jcopy(ev["enemy"])
        src = ev["from"]
        if src == "deck":
            _rm(s["piles"]["enemy"], rec["card"])
        elif src == "summon":
            _rm(s["summon"][rec["type"]], rec["card"])
        elif src == "aside":
            _rm(s["aside"], rec["card"])
        s["enemies"].append(rec)
        s["next_e"] = max(s["next_e"], int(rec["id"][1:]) + 1)
        if rec["type"] not in s["entered"]:
            s["entered"].append(rec["type"])
        s["spawned"].append(rec["id"])
    elif t == "terrain_in":
        if ev["from"] == "deck":
            _rm(s["piles"]["terrain"], ev["card"])
        s["terrain"].append(ev["card"])
    elif t == "terrain_out":
        _rm(s["terrain"], ev["card"])
        s["removed_terrain"].append(s["cards"][ev["card"]])
    elif t == "enemy_move":
        _holder(s, ev["enemy"])["area"] = ev["area"]
    elif t == "attach":
        rec = _holder(s, ev["to"])
        src = ev["from"]
        if src == "limbo":
            _rm(s["limbo"], ev["card"])
        else:
            _rm(s["piles"][src], ev["card"])
        rec["att"].append({"card": ev["card"], "mods": ev.get("mods"), "until": ev.get("until")})
    elif t == "detach":
        rec = _holder(s, ev["to"])
        for a in rec["att"]:
            if a["card"] == ev["card"]:
                rec["att"].remove(a)
                _att_home(s, a)
                break
    elif t == "enemy_dies":
        rec = _holder(s, ev["enemy"])
        for a in rec["att"]:
            _att_home(s, a)
        s["enemies"].remove(rec)
        s["defeated"].append(rec["type"])
    elif t in ("stat_mod", "enemy_tmp"):  # enemy_tmp: rules version 1's name, enemies only
        _holder(s, ev.get("to") or ev["enemy"])["tmp"].append({"stat": ev["stat"], "n": ev["n"], "dur": ev["dur"]})
    elif t == "clear_tmp":
        for rec in s["enemies"] + [p for hh in s["heroes"] for p in hh["area"]]:
            rec["tmp"] = [x for x in rec["tmp"] if x["dur"] not in ev["durs"]]
    elif t == "persist":
        _rm(s["limbo"], ev["card"])
        s["heroes"][ev["area"]]["area"].append(
            {"card": ev["card"], "ally": jcopy(ev.get("ally")), "bonus": ev.get("bonus"), "att": [], "tmp": []})
    elif t == "persist_gone":
        for hh in s["heroes"]:
            for p in hh["area"]:
                if p["card"] == ev["card"]:
                    hh["area"].remove(p)
                    for a in p["att"]:
                        _att_home(s, a)
                    s["heroes"][s["owner"][p["card"]]]["discard"].append(p["card"])
                    break
    elif t == "threat":
        s["threat"] = ev["threat"]
    elif t == "tiebreak":
        s["tiebreak"] = list(ev["order"])
    elif t == "result":
        res = jcopy(ev["result"])
        if "hero" in res:  # a death recorded by rules version 1 or 2 (upcast.py): the seat of that hero
            hero = res.pop("hero")
            res["seat"] = next(i for i, hh in enumerate(s["heroes"]) if hh["hero"] == hero)
        s["result"] = res
        s["phase"] = "over"
        s["tasks"] = []
        s["prompt"] = None
        s["action"] = None
        s["reward"] = None
    elif t == "won":
        _won(s, ev)
        _count_turn(s)
    elif t == "reward_draw":
        r = s["reward"]
        for item in ev["items"]:
            _rm(r["camp"]["reward_deck"], item)
        r["seat"] = ev["seat"]
        r["got"] = list(ev["items"])
        r["hand"] = list(ev["items"])
        r["kept"] = 0
    elif t == "reward":
        _reward(s, ev)
    # Narrative events (attack_result, enemy_step, enemy_attack, special, peek, note, ...) change nothing.
    return s


def _won(s: dict, ev: dict) -> None:
    """The scenario is won and its rewards are being handed out (H26): what was being resolved is dropped
    (H13), the campaign state being built starts from the carried one with this scenario won."""
    camp = jcopy(s["campaign"])
    if s["scenario"] not in camp["won"]:
        camp["won"].append(s["scenario"])
    s["reward"] = {"result": jcopy(ev["result"]), "camp": camp, "drawn": [], "seat": None, "got": [], "hand": [],
                   "kept": 0}
    s["phase"] = "rewards"
    s["tasks"] = []
    s["prompt"] = None
    s["action"] = None
    s["attack"] = None
    s["defense"] = None


def _reward(s: dict, ev: dict) -> None:
    """One drawn item placed: equipped on a hero (`to` is the body part; `on` the hero's seat when it is
    not the drawer), into the stash, or back under the reward deck."""
    r = s["reward"]
    camp = r["camp"]
    item, to = ev["item"], ev["to"]
    r["hand"].remove(item)
    drawer = s["heroes"][ev["seat"]]["hero"]
    holder = s["heroes"][ev.get("on", ev["seat"])]["hero"]
    camp["equipped"].setdefault(drawer, {})  # the automatic rule always gave the drawer an entry
    if to == "reward_deck":
        camp["reward_deck"].append(item)
    elif to == "stash":
        camp["stash"].append(item)
        r["kept"] += 1
    else:
        camp["equipped"].setdefault(holder, {})[to] = item
        r["kept"] += 1
    entry = {"hero": holder if to not in ("stash", "reward_deck") else drawer, "item": item, "to": to}
    if entry["hero"] != drawer:
        entry["by"] = drawer
    r["drawn"].append(entry)
