"""The rules' building blocks, each emitting the events that record it: drawing with the exhaustion rule,
Response draws, damage, attachments, deaths, threat, spawns, win and loss.

`Ctx` is one `play` call in progress (a kit.Sink): it owns a working copy of the state, applies each event
to it as it is emitted (so later rules read an up-to-date state) and keeps the task queue and the open
prompt, which are written back as one bookkeeping "flow" event when the call ends.  Events are facts: ids,
numbers, seats and keys; words.py makes the sentences from them and the state.
"""

from __future__ import annotations

import random
from typing import Literal, NoReturn, overload

from ..kit import Sink, jcopy
from . import model as m
from . import rewards
from .evolve import evolve


class Stop(Exception):
    """The scenario ended (win or loss), or its rewards wait on a hero: abandon whatever was being resolved."""


class Ctx(Sink):
    def __init__(self, state: dict, rng: random.Random):
        super().__init__(state, evolve)
        self.rng = rng
        self.tasks: list[dict] = jcopy(state["tasks"])
        self.prompt = jcopy(state["prompt"])
        self.action = jcopy(state["action"])

    def emit(self, ev: dict) -> None:
        super().emit(ev)
        if ev["type"] == "result":
            raise Stop()

    def push(self, tasks: list[dict]) -> None:
        self.tasks[0:0] = tasks

    def sync(self) -> None:
        """Write the task queue, prompt and action back into the state as a "flow" event, if changed.
        Done at the end of every call and also as soon as a move closes a prompt: the states between
        a call's events then show who is waited on at each moment, so the moment nobody is (where a
        new turn begins, evolve._count_turn) is in the log."""
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
# Reasons are codes (words.REASONS words them): response_deck, wound_supply, threat, hero_died (with the
# dead hero's seat), boss_defeated, way_out_open, road_clear.

def end(ctx: Ctx, outcome: str, reason: str, **facts) -> NoReturn:
    """The scenario ends (H12, H13: at once, whatever was being resolved); a win first hands out its
    campaign rewards, which may wait on a hero (H26).  Never returns: it always raises Stop."""
    res = {"outcome": outcome, "reason": reason, "round": ctx.s["round"], **facts}
    if outcome == "win" and rewards.start(ctx, res):
        raise Stop()
    ctx.emit({"type": "result", "result": res})  # Ctx.emit raises Stop on a "result" event
    raise AssertionError("unreachable: Ctx.emit raised Stop")


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
        end(ctx, "loss", "response_deck")
    cid = ctx.s["piles"]["response"][0]
    d = m.cdef(ctx.s, cid)
    ev = {"type": "response", "card": cid, "value": d["value"], "sigil": d["sigil"], "why": why}
    ctx.emit(ev)
    return ev


@overload
def supply(ctx: Ctx, want: str, for_enemy: Literal[False]) -> tuple[str, str]: ...


@overload
def supply(ctx: Ctx, want: str, for_enemy: Literal[True]) -> tuple[str, str] | None: ...


def supply(ctx: Ctx, want: str, for_enemy: bool) -> tuple[str, str] | None:
    """The top card of the Wound or Fatigue supply, with the running-out rules of section 1.16:
    no Fatigue -> a Wound instead (heroes only); no Wound -> the heroes lose.  Returns (pile, card), or
    None only for an enemy wanting Fatigue when none is left (a hero is never left without: `end` raises)."""
    if want == "fatigue":
        if _refill(ctx, "fatigue"):
            return "fatigue", ctx.s["piles"]["fatigue"][0]
        if for_enemy:
            return None
    if _refill(ctx, "wound"):
        return "wound", ctx.s["piles"]["wound"][0]
    end(ctx, "loss", "wound_supply")


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
        end(ctx, "loss", "threat")


# ---- damage ----------------------------------------------------------------------------------------

def hero_takes(ctx: Ctx, seat: int, damage: dict) -> None:
    """Damage goes straight into hand, Wounds first, then Fatigue (section 1.14)."""
    for want in ["wound"] * damage.get("wound", 0) + ["fatigue"] * damage.get("fatigue", 0):
        pile, cid = supply(ctx, want, for_enemy=False)
        ctx.emit({"type": "take", "seat": seat, "card": cid, "pile": pile})


def attach_damage(ctx: Ctx, target: str, want: str, n: int = 1) -> None:
    for _ in range(n):
        # a target gone from play takes nothing more (an ally the first Wound of a hit killed)
        gone = persistent(ctx, target[5:]) is None if target.startswith("ally:") else m.enemy(ctx.s, target) is None
        if gone:
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
        end(ctx, "win", "boss_defeated")
    if "terrain_removed" in win and win["terrain_removed"] in ctx.s["removed_terrain"]:
        end(ctx, "win", "way_out_open")


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
            end(ctx, "loss", "threat")
    elif o == "win_if":
        if m.terrain_count(s, op["no_terrain"]) == 0 and op["terrain_removed"] in s["removed_terrain"]:
            end(ctx, "win", "road_clear")
    elif o == "recover_fatigue":
        may_recover_fatigue(ctx, op["n"])
    elif o == "all_named":
        ctx.push(command_tasks(ctx, [e for e in s["enemies"] if e["type"] == op["type"]], op["parsed"][0]["do"]["and"][0]))


def command_tasks(ctx: Ctx, enemies: list[dict], part: dict) -> list[dict]:
    """Commanded enemies act oldest first, each as itself (enemy_phase.task_cmd)."""
    return [{"k": "cmd", "e": x["id"], "part": part} for x in sorted(enemies, key=lambda x: x["seq"])]


def may_recover_fatigue(ctx: Ctx, n: int) -> None:
    """H25: "each hero may move N Fatigue from hand to the Fatigue discard".  A hero whose standing order
    says `always` does at once (the last Fatigue in hand, as rules version 2 did for everyone); every
    other hero holding a Fatigue is asked, all at once (prompt "recover": recover <card> or keep)."""
    s = ctx.s
    ask = []
    for seat in range(s["n"]):
        if not fatigue_in_hand(s, seat):
            continue
        if s["heroes"][seat]["plan"]["recover_fatigue"] == "always":
            recover(ctx, seat, "fatigue", n)
        else:
            ask.append(seat)
    if ask:
        # asked in the hero phase (only heroes remove doors); a prompt already open is never replaced
        prompt = {"kind": "recover", "seats": ask, "left": [n if i in ask else 0 for i in range(s["n"])]}
        if ctx.prompt is None:
            ctx.prompt = prompt
        else:
            ctx.push([{"k": "ask", "prompt": prompt}])


def fatigue_in_hand(s: dict, seat: int) -> list[str]:
    return [c for c in s["heroes"][seat]["hand"] if m.kind(s, c) == "fatigue"]


def recover(ctx: Ctx, seat: int, what: str, n: int) -> None:
    """heal_wound / recover_fatigue: from hand to the Wound / Fatigue discard (A31)."""
    for _ in range(n):
        cards = [c for c in ctx.s["heroes"][seat]["hand"] if m.kind(ctx.s, c) == what]
        if not cards:
            return
        ctx.emit({"type": "heal", "seat": seat, "card": cards[-1], "pile": what})
