"""The rules' building blocks, each emitting the events that record it: drawing with the exhaustion rule,
Response draws, damage, attachments, deaths, threat, spawns, win and loss.

`Ctx` is one `play` call in progress: it owns a working copy of the state, applies each event to it as it
is emitted (so later rules read an up-to-date state) and keeps the task queue and the open prompt, which
are written back as one bookkeeping "flow" event when the call ends.
"""

from __future__ import annotations

import random

from . import model as m
from .content import CONTENT
from .evolve import evolve, jcopy


class Stop(Exception):
    """The scenario ended (win or loss): abandon whatever was being resolved."""


class Ctx:
    def __init__(self, state: dict, rng: random.Random):
        self.s = state
        self.rng = rng
        self.events: list[dict] = []
        self.tasks: list[dict] = jcopy(state["tasks"])
        self.prompt = jcopy(state["prompt"])
        self.action = jcopy(state["action"])

    def emit(self, ev: dict) -> None:
        # names ride along so that describe_event can speak without the state
        if isinstance(ev.get("seat"), int) and "who" not in ev:
            ev["who"] = m.hero_name(self.s, ev["seat"])
        if isinstance(ev.get("enemy"), str) and "enemy_name" not in ev:
            e = m.enemy(self.s, ev["enemy"])
            if e is not None:
                ev["enemy_name"] = CONTENT.enemies[e["type"]]["name"]
        if ev["type"] in ("attach", "detach") and not ev["to"].startswith("ally:"):
            e = m.enemy(self.s, ev["to"])
            if e is not None:
                ev["to_name"] = m.enemy_name(self.s, e)
        if isinstance(ev.get("hero"), int) and "hero_name" not in ev:
            ev["hero_name"] = m.hero_name(self.s, ev["hero"])
        if ev["type"] in ("enemy_move", "persist") and ev["area"] >= 0:
            ev["area_name"] = m.hero_name(self.s, ev["area"])
        for key in ("door", "terrain"):
            if isinstance(ev.get(key), str) and ev[key] in self.s["cards"]:
                ev[key + "_name"] = m.terrain_name(self.s, ev[key])
        if ev["type"] in ("terrain_in", "terrain_out"):
            ev["name"] = m.terrain_name(self.s, ev["card"])
        evolve(self.s, ev)
        self.events.append(ev)
        if ev["type"] == "result":
            raise Stop()

    def push(self, tasks: list[dict]) -> None:
        self.tasks[0:0] = tasks

    def sync(self) -> None:
        """Write the task queue, prompt and action back into the state as a "flow" event, if changed.
        Done at the end of every call and also as soon as a move closes a prompt: the states between
        a call's events then show who is waited on at each moment, so the service sees the moment
        nobody is (service/moves.py: every seat's clock restarts after it)."""
        s = self.s
        if s["result"] is None and (self.tasks != s["tasks"] or self.prompt != s["prompt"] or self.action != s["action"]):
            ev = {"type": "flow", "tasks": jcopy(self.tasks), "prompt": jcopy(self.prompt), "action": jcopy(self.action)}
            evolve(s, ev)
            self.events.append(ev)

    def finish(self) -> list[dict]:
        self.sync()
        return self.events

    def shuffled(self, cards: list) -> list:
        out = list(cards)
        self.rng.shuffle(out)
        return out


# ---- ending ----------------------------------------------------------------------------------------

def end(ctx: Ctx, outcome: str, reason: str) -> None:
    from .rewards import rewards_for  # the reward draw needs the campaign state only on a win

    res = {"outcome": outcome, "reason": reason, "round": ctx.s["round"]}
    if outcome == "win":
        res["rewards"], res["campaign"] = rewards_for(ctx.s)
    ctx.emit({"type": "result", "result": res})


# ---- piles -----------------------------------------------------------------------------------------

def _refill(ctx: Ctx, pile: str) -> bool:
    """Wound/Fatigue/Response deck empty: shuffle its discard into a new deck (section 1.6, H1)."""
    piles = ctx.s["piles"]
    if piles[pile]:
        return True
    if pile == "response" and ctx.s["options"].get("response_reshuffle", "when_empty") == "never":
        return False
    if not piles[pile + "_discard"]:
        return False
    ctx.emit({"type": "pile_shuffle", "pile": pile, "order": ctx.shuffled(piles[pile + "_discard"])})
    return True


def draw_response(ctx: Ctx, why: str) -> dict:
    if not _refill(ctx, "response"):
        end(ctx, "loss", "the Response deck ran out")
    cid = ctx.s["piles"]["response"][0]
    d = m.cdef(ctx.s, cid)
    ev = {"type": "response", "card": cid, "value": d["value"], "sigil": d["sigil"], "why": why}
    ctx.emit(ev)
    return ev


def supply(ctx: Ctx, want: str, for_enemy: bool) -> tuple[str, str] | None:
    """The top card of the Wound or Fatigue supply, with the running-out rules of section 1.16:
    no Fatigue -> a Wound instead (heroes only); no Wound -> the heroes lose."""
    if want == "fatigue":
        if _refill(ctx, "fatigue"):
            return "fatigue", ctx.s["piles"]["fatigue"][0]
        if for_enemy:
            return None
    if _refill(ctx, "wound"):
        return "wound", ctx.s["piles"]["wound"][0]
    end(ctx, "loss", "the Wound supply ran out")
    return None


def draw_cards(ctx: Ctx, seat: int, n: int) -> None:
    """Draw one card at a time; a draw meeting an empty deck first shuffles two Fatigue into the
    discard to make the new deck (section 1.6, A2/A3)."""
    for _ in range(n):
        h = ctx.s["heroes"][seat]
        if not h["deck"]:
            for _ in range(2):
                pile, cid = supply(ctx, "fatigue", for_enemy=False)
                ctx.emit({"type": "add_to_discard", "seat": seat, "card": cid, "pile": pile})
            ctx.emit({"type": "hero_shuffle", "seat": seat, "order": ctx.shuffled(h["discard"])})
        ctx.emit({"type": "draw", "seat": seat, "cards": [ctx.s["heroes"][seat]["deck"][0]]})


def set_ap(ctx: Ctx, seat: int, value: int, why: str = "") -> None:
    value = max(0, min(20, value))
    old = ctx.s["heroes"][seat]["ap"]
    if value != old:
        ctx.emit({"type": "ap", "seat": seat, "ap": value, "delta": value - old, "why": why})


def pay(ctx: Ctx, seat: int, n: int, why: str) -> None:
    if n:
        set_ap(ctx, seat, ctx.s["heroes"][seat]["ap"] - n, why)


def change_threat(ctx: Ctx, n: int) -> None:
    value = max(0, min(12, ctx.s["threat"] + n))  # H19
    if value != ctx.s["threat"]:
        ctx.emit({"type": "threat", "threat": value, "delta": n})
    if ctx.s["threat"] >= m.scenario(ctx.s)["threat_loss"]:
        end(ctx, "loss", f"Threat reached {ctx.s['threat']}")


# ---- damage ----------------------------------------------------------------------------------------

def hero_takes(ctx: Ctx, seat: int, damage: dict) -> None:
    """Damage goes straight into hand, Wounds first, then Fatigue (section 1.14)."""
    for want in ["wound"] * damage.get("wound", 0) + ["fatigue"] * damage.get("fatigue", 0):
        pile, cid = supply(ctx, want, for_enemy=False)
        ctx.emit({"type": "take", "seat": seat, "card": cid, "pile": pile})


def attach_damage(ctx: Ctx, target: str, want: str, n: int = 1) -> None:
    for _ in range(n):
        if m.enemy(ctx.s, target) is None and not target.startswith("ally:"):
            return
        got = supply(ctx, want, for_enemy=True)
        if got is None:  # no Fatigue left for an enemy: nothing happens
            return
        ctx.emit({"type": "attach", "to": target, "card": got[1], "from": got[0]})
    check_death(ctx, target)


def persistent(ctx: Ctx, cid: str) -> dict | None:
    for h in ctx.s["heroes"]:
        for p in h["area"]:
            if p["card"] == cid:
                return p
    return None


def check_death(ctx: Ctx, target: str) -> None:
    """Health at or below 0 after attachments kills (A1, A40)."""
    if target.startswith("ally:"):
        p = persistent(ctx, target[5:])
        if p is not None and m.ally_stat(ctx.s, p, "health") <= 0:
            ctx.emit({"type": "persist_gone", "card": p["card"], "why": "ally_dies"})
        return
    e = m.enemy(ctx.s, target)
    if e is not None and m.enemy_stat(ctx.s, e, "health") <= 0:
        ctx.emit({"type": "enemy_dies", "enemy": e["id"], "kind": e["type"]})
        check_win(ctx)


def check_win(ctx: Ctx) -> None:
    win = m.scenario(ctx.s)["win"]
    if "defeated" in win and win["defeated"] in ctx.s["defeated"]:
        end(ctx, "win", f"{CONTENT.enemies[win['defeated']]['name']} is defeated")
    if "terrain_removed" in win and win["terrain_removed"] in ctx.s["removed_terrain"]:
        end(ctx, "win", "the way out is open")


def remove_terrain(ctx: Ctx, cid: str, how: str) -> None:
    rule = m.terrain_rule(ctx.s, cid)
    ctx.emit({"type": "terrain_out", "card": cid, "how": how})
    for op in rule.get("on_remove", []):
        scenario_op(ctx, op)
    check_win(ctx)


def clear_mods(ctx: Ctx, dur: str) -> None:
    """Temporary modifiers (the `mod` op) of this duration end: on enemies and allies alike."""
    s = ctx.s
    holders = s["enemies"] + [p for h in s["heroes"] for p in h["area"]]
    if any(x["dur"] == dur for rec in holders for x in rec["tmp"]):
        ctx.emit({"type": "clear_tmp", "durs": [dur]})
        # a health bonus that ends may leave an enemy or ally at 0 or below: it dies now (A1, A40)
        for target in [e["id"] for e in s["enemies"]] + ["ally:" + p["card"] for h in s["heroes"] for p in h["area"] if p.get("ally")]:
            check_death(ctx, target)


# ---- spawns ----------------------------------------------------------------------------------------

def new_enemy(ctx: Ctx, card: str, area: int = m.QUEST) -> dict:
    s = ctx.s
    return {"id": f"E{s['next_e']}", "card": card, "type": s["cards"][card], "area": area, "att": [], "tmp": [],
            "seq": s["next_e"]}


def spawn_enemies(ctx: Ctx, n: int) -> None:
    for _ in range(n):
        if not ctx.s["piles"]["enemy"]:
            return
        ctx.emit({"type": "spawn", "enemy": new_enemy(ctx, ctx.s["piles"]["enemy"][0]), "from": "deck"})


def spawn_terrain(ctx: Ctx, n: int) -> None:
    for _ in range(n):
        if not ctx.s["piles"]["terrain"]:
            return
        ctx.emit({"type": "terrain_in", "card": ctx.s["piles"]["terrain"][0], "from": "deck"})


def scenario_op(ctx: Ctx, op: dict) -> None:
    """Quest-phase, end-phase, sigil and on-removal instructions of a scenario."""
    s = ctx.s
    o = op["op"]
    if o == "threat":
        change_threat(ctx, op["n"])
    elif o == "spawn":
        n = 0
        if "by_threat" in op:
            for lo, hi, counts in op["by_threat"]:
                if lo <= s["threat"] <= hi:
                    n = m.by_heroes(counts, s["n"])
        else:
            n = m.by_heroes(op["n"], s["n"])
        if "plus_if_threat" in op and s["threat"] >= op["plus_if_threat"][0]:
            n += op["plus_if_threat"][1]
        if "plus_per_terrain" in op:
            n += m.terrain_count(s, op["plus_per_terrain"])
        spawn_enemies(ctx, n)
    elif o == "spawn_terrain_if_none":
        if not s["terrain"]:
            spawn_terrain(ctx, 1)
    elif o == "arrive":
        if op["type"] not in s["entered"] and s["threat"] >= m.by_heroes(op["threat_at_least"], s["n"]):
            for cid in s["aside"]:
                if s["cards"][cid] == op["type"]:
                    ctx.emit({"type": "spawn", "enemy": new_enemy(ctx, cid), "from": "aside"})
                    break
    elif o == "lose_if_threat":
        if s["threat"] >= op["at_least"]:
            end(ctx, "loss", f"Threat reached {s['threat']}")
    elif o == "win_if":
        if m.terrain_count(s, op["no_terrain"]) == 0 and op["terrain_removed"] in s["removed_terrain"]:
            end(ctx, "win", "the road is clear")
    elif o == "recover_fatigue":
        # "each hero may move 1 Fatigue from hand": always good for the hero, so done for everyone.
        for seat in range(s["n"]):
            recover(ctx, seat, "fatigue", op["n"])
    elif o == "all_named":
        from .enemy_phase import command_tasks

        ctx.push(command_tasks(ctx, [e for e in s["enemies"] if e["type"] == op["type"]], op["parsed"][0]["do"]["and"][0]))


def recover(ctx: Ctx, seat: int, what: str, n: int) -> None:
    """heal_wound / recover_fatigue: from hand to the Wound / Fatigue discard (A31)."""
    for _ in range(n):
        cards = [c for c in ctx.s["heroes"][seat]["hand"] if m.kind(ctx.s, c) == what]
        if not cards:
            return
        ctx.emit({"type": "heal", "seat": seat, "card": cards[-1], "pile": what})
