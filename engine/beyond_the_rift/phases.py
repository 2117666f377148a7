"""The automatic parts of a round (quest, draw and end phases, section 1.17-1.19 and 3.4-3.6), the
hand-over from the hero phase, and the loop that works through the task queue until a decision is
needed or the scenario ends."""

from __future__ import annotations

from . import enemy_phase as ep
from . import hero_phase as hp
from . import model as m
from .effects import run_ops
from .primitives import Ctx, clear_mods, draw_cards, end, scenario_op, set_ap
from .reactions import open_window


def task_ops(ctx: Ctx, task: dict) -> None:
    run_ops(ctx, task["ops"], task["env"], task["prefix"], task["start"])


def task_scenario_op(ctx: Ctx, task: dict) -> None:
    scenario_op(ctx, task["op"])


def task_phase(ctx: Ctx, task: dict) -> None:
    if task["phase"] == "enemy":  # pledges lapse at the end of the hero phase
        for seat, h in enumerate(ctx.s["heroes"]):
            if h["pledges"]:
                ctx.emit({"type": "hero_set", "seat": seat, "key": "pledges", "value": [], "why": "lapse"})
    ctx.emit({"type": "phase", "phase": task["phase"], "round": ctx.s["round"]})


def task_quest(ctx: Ctx, task: dict) -> None:
    ctx.emit({"type": "set", "key": "spawned", "value": []})
    for op in m.scenario(ctx.s)["quest"]:
        scenario_op(ctx, op)
    after_quest_spawn_reactions(ctx)


def after_quest_spawn_reactions(ctx: Ctx) -> None:
    """after_quest_spawn Reactions (Smoulder) run from the standing REACT lines only, never a prompt
    (section 3.4); the target is the spawned enemy with the highest attack, one card per hero."""
    s = ctx.s
    for seat, h in enumerate(s["heroes"]):
        spawned = [e for e in (m.enemy(s, x) for x in s["spawned"]) if e is not None]
        if not spawned:
            return
        for c in list(h["hand"]):
            md = next((md for md in hp.modes(s, c) if md["type"] == "reaction"
                       and md.get("window") == "after_quest_spawn"), None)
            if md and md["cost"] <= h["ap"] and s["cards"][c] in h["plan"]["react"]:
                tgt = max(spawned, key=lambda e: (m.enemy_stat(s, e, "attack"), -e["seq"]))
                ep.play_reaction(ctx, seat, c)
                run_ops(ctx, md["effects"], {"seat": seat, "chosen": {}, "spawned": tgt["id"], "card": c})
                break


def task_draw(ctx: Ctx, task: dict) -> None:
    """Section 1.18: AP reset, draw a full hand size, death check (no choice involved, A32), and the
    discard-down deferred to the next hero phase (section 3.5)."""
    s = ctx.s
    hs = m.hand_size(s)
    for seat in range(s["n"]):
        b = m.board(s, seat)
        set_ap(ctx, seat, b["start_ap"] + len(s["heroes"][seat]["hand"]), "draw_phase")
        draw_cards(ctx, seat, hs)
    for seat in range(s["n"]):
        if m.damage_in_hand(s, seat) >= hs:
            end(ctx, "loss", "hero_died", seat=seat)
    for seat in range(s["n"]):
        extra = len(s["heroes"][seat]["hand"]) - hs
        if extra > 0:
            ctx.emit({"type": "hero_set", "seat": seat, "key": "discard_down", "value": extra})


def task_ask(ctx: Ctx, task: dict) -> None:
    """A question that came up while another was open (primitives.may_recover_fatigue): asked now."""
    ctx.prompt = task["prompt"]


def task_end(ctx: Ctx, task: dict) -> None:
    """Scenario effects first, then hero-card end-phase effects hero by hero in the party's TIEBREAK
    order (A38, section 3.6): one task per hero, so each hero's effects finish before the next's."""
    s = ctx.s
    for op in m.scenario(s).get("end", []):
        scenario_op(ctx, op)
    ctx.push([{"k": "end_hero", "seat": seat} for seat in s["tiebreak"]])


def task_end_hero(ctx: Ctx, task: dict) -> None:
    """One hero's end-phase effects: their allies' end-phase triggers, then the Reaction cards of the
    end_phase window their REACT lines name (the end phase asks nobody)."""
    s = ctx.s
    seat = task["seat"]
    for p in list(s["heroes"][seat]["area"]):
        for trig in (p.get("ally") or {}).get("triggers", []):
            if trig["window"] != "end_phase":
                continue
            own = [e for e in s["enemies"] if e["area"] == seat]
            if not own:
                continue
            # the party's HOUND-TARGET (section 3.6; default lowest health)
            tgt = min(own, key={"lowest_health": lambda e: (m.enemy_stat(s, e, "health"), e["seq"]),
                                "highest_attack": lambda e: (-m.enemy_stat(s, e, "attack"), e["seq"]),
                                "oldest": lambda e: e["seq"]}[s["party"]["hound_target"]])
            chosen = {f"{i}": tgt["id"] for i in range(len(trig["do"]))}
            run_ops(ctx, trig["do"], {"seat": seat, "chosen": chosen, "card": p["card"], "ally": "ally:" + p["card"]})
    if s["result"] is None:
        open_window(ctx, "end_phase", None, None, order=[seat])


def task_end_of_round(ctx: Ctx, task: dict) -> None:
    """Last of all (after every end-phase effect): this round's modifiers and attachments end."""
    s = ctx.s
    clear_mods(ctx, "this_round")
    for e in list(s["enemies"]):
        for a in list(e["att"]):
            if a.get("until") == "end_of_round":
                ctx.emit({"type": "detach", "to": e["id"], "card": a["card"], "why": "end_of_round"})


def task_new_round(ctx: Ctx, task: dict) -> None:
    s = ctx.s
    tb = s["tiebreak"]
    if s["party"]["tiebreak"] == "rotate" and len(tb) > 1:  # rotating seat order (section 3.3)
        ctx.emit({"type": "tiebreak", "order": tb[1:] + tb[:1]})
    for seat, h in enumerate(s["heroes"]):
        for key, value in (("status", "active"), ("used_board", 0), ("used_terrain", [])):
            if h[key] != value:
                ctx.emit({"type": "hero_set", "seat": seat, "key": key, "value": value})
    ctx.emit({"type": "phase", "phase": "hero", "round": s["round"] + 1})


TASKS = {
    "ops": task_ops, "finish_card": lambda ctx, t: hp.finish_card(ctx, t), "scenario_op": task_scenario_op,
    "atk_q": hp.task_atk_q, "atk_def": hp.task_atk_def, "atk_bonus": hp.task_atk_bonus, "atk_end": hp.task_atk_end,
    "phase": task_phase, "enemy_phase": ep.task_enemy_phase, "activate": ep.task_activate, "step": ep.task_step,
    "part": ep.task_part, "cmd": ep.task_cmd, "sa_resolve": ep.task_sa_resolve, "e_attack": ep.task_e_attack,
    "e_attack_resolve": ep.task_e_attack_resolve, "quest": task_quest, "draw": task_draw, "end": task_end,
    "end_hero": task_end_hero, "ask": task_ask, "end_of_round": task_end_of_round, "new_round": task_new_round,
}

ROUND = [{"k": "phase", "phase": "enemy"}, {"k": "enemy_phase"}, {"k": "phase", "phase": "quest"}, {"k": "quest"},
         {"k": "phase", "phase": "draw"}, {"k": "draw"}, {"k": "phase", "phase": "end"}, {"k": "end"},
         {"k": "end_of_round"}, {"k": "new_round"}]


def run(ctx: Ctx) -> None:
    """Work through queued tasks until a prompt waits or nothing is left; close the hero phase when
    every hero is done, and carry on through the automatic phases."""
    s = ctx.s
    while s["result"] is None:
        if ctx.prompt is not None:
            return
        if ctx.tasks:
            task = ctx.tasks.pop(0)
            TASKS[task["k"]](ctx, task)
            continue
        # the tasks/prompt/action in the state lag behind ctx until finish(); compare with ctx's copies
        if (s["phase"] == "hero" and s["attack"] is None and ctx.action is None
                and all(h["status"] != "active" for h in s["heroes"])):
            ctx.push([dict(t) for t in ROUND])
            continue
        return
