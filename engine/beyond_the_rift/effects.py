"""The interpreter of the effect ops of section 2.1.  Cards, board actions, terrain and items are data;
this module is the only place that knows what an op does.

Targets that need a choice ("hero", "enemy", "quest_enemy" ...) are chosen before anything is paid, as
"slots" of the action under construction (hero_phase.py asks for them one at a time); at resolution the
op reads its slot from `env["chosen"]`.  An op that cannot be carried out is skipped (section 2.1).
Ops that need a decision while resolving (reveal's pick, peeks, choose) open a prompt and leave the rest
of the list as a task, so resolution resumes where it stopped once the player answers.
"""

from __future__ import annotations

from . import model as m
from .primitives import Ctx, attach_damage, check_death, draw_cards, draw_response, persistent, recover, set_ap

CHOOSABLE = ("hero", "enemy", "own_area_enemy", "other_area_enemy", "quest_enemy")


def _walk(ops: list, prefix: str, out: list, in_bonus: bool = False) -> None:
    for i, op in enumerate(ops):
        key = f"{prefix}{i}"
        if op.get("target") in CHOOSABLE:
            out.append({"key": key, "kind": op["target"], "filter": op.get("filter"),
                        "engage": op["op"] == "move_enemy" and op.get("to") == "own_area", "optional": in_bonus,
                        "allies": op["op"] in ("heal_wound", "recover_fatigue", "mod")})
        if op["op"] == "bonus":
            _walk(op["do"], key + ".", out, True)


def slots_for_ops(ops: list, prefix: str) -> list[dict]:
    out: list[dict] = []
    _walk(ops, prefix, out)
    return out


def candidates(state: dict, seat: int, slot: dict, rng: int) -> list:
    """Legal values of a target slot for `seat` using a card (or board action) of range `rng`."""
    kind = slot["kind"]
    if kind in ("hero", "area"):
        out = list(range(state["n"])) if rng >= 2 else [seat]
        if slot.get("allies"):  # H10: hero healing may also treat an ally
            out += ["ally:" + p["card"] for h in out[:] for p in m.allies_of(state, h)]
        return out
    out = []
    for e in state["enemies"]:
        d = m.dist_enemy(state, seat, e)
        if d > rng:
            continue
        if kind == "own_area_enemy" and e["area"] != seat:
            continue
        if kind == "other_area_enemy" and (e["area"] == seat or e["area"] == m.QUEST):
            continue
        if kind == "quest_enemy" and e["area"] != m.QUEST:
            continue
        if slot.get("engage") and not m.hero_engageable(state, e):
            continue
        f = slot.get("filter") or {}
        if "range" in f and m.enemy_stat(state, e, "range") != f["range"]:
            continue
        out.append(e["id"])
    return out


def _enemy_or_ally(ctx: Ctx, tid) -> str | None:
    if tid is None:
        return None
    if isinstance(tid, str) and tid.startswith("ally:"):
        return tid if persistent(ctx, tid[5:]) else None
    return tid if m.enemy(ctx.s, tid) is not None else None


def _target(ctx: Ctx, op: dict, key: str, env: dict):
    t = op.get("target")
    if t == "self":
        return env["seat"]
    if t == "same":
        return env.get("last_hero", env["seat"])
    if t in CHOOSABLE:
        v = env["chosen"].get(key)
        if t == "hero":
            env["last_hero"] = v  # "same" follows it (an ally draws no cards)
            return _enemy_or_ally(ctx, v) if isinstance(v, str) else v
        return _enemy_or_ally(ctx, v)
    if t == "attack_target":
        return _enemy_or_ally(ctx, env.get("attack_target"))
    if t == "spawned_enemy":
        return _enemy_or_ally(ctx, env.get("spawned"))
    if t == "area_owner":
        return env.get("area")
    if t == "this_ally":
        return env.get("ally")
    if t == "attacker":
        return _enemy_or_ally(ctx, env.get("attacker"))
    return None


def run_ops(ctx: Ctx, ops: list, env: dict, prefix: str = "", start: int = 0) -> bool:
    """Resolve ops in order.  Returns False if a prompt opened (the rest is queued as a task)."""
    for i in range(start, len(ops)):
        before = len(ctx.tasks)
        if not run_op(ctx, ops[i], f"{prefix}{i}", env):
            if i + 1 < len(ops):
                # after whatever the op itself queued (a nested bonus list), before older tasks
                ctx.tasks.insert(len(ctx.tasks) - before,
                                 {"k": "ops", "ops": ops, "env": env, "prefix": prefix, "start": i + 1})
            return False
    return True


def run_op(ctx: Ctx, op: dict, key: str, env: dict) -> bool:
    s = ctx.s
    o = op["op"]
    seat = env["seat"]
    if o in ("gain_ap", "lose_ap"):
        tgt = _target(ctx, op, key, env)
        if isinstance(tgt, int):
            sign = 1 if o == "gain_ap" else -1
            set_ap(ctx, tgt, s["heroes"][tgt]["ap"] + sign * op["n"], o)
    elif o == "draw":
        tgt = _target(ctx, op, key, env)
        if isinstance(tgt, int):
            draw_cards(ctx, tgt, op["n"])
    elif o in ("heal_wound", "recover_fatigue"):
        what = "wound" if o == "heal_wound" else "fatigue"
        tgt = _target(ctx, op, key, env) if op.get("target") != "each_hero" else None
        if isinstance(tgt, str):  # an ally: its most recent attached Wound / Fatigue goes to the discard
            p = persistent(ctx, tgt[5:])
            if p is not None:  # None: that ally is no longer in play ("same"/"this_ally" targets are not re-checked)
                for a in [a for a in p["att"] if m.kind(s, a["card"]) == what][::-1][:op["n"]]:
                    ctx.emit({"type": "detach", "to": tgt, "card": a["card"], "why": "healed"})
        elif op.get("target") == "each_hero":
            for h in range(s["n"]):
                recover(ctx, h, what, op["n"])
        elif isinstance(tgt, int):
            recover(ctx, tgt, what, op["n"])
    elif o in ("attach_wound", "attach_fatigue"):
        tgt = _target(ctx, op, key, env)
        if isinstance(tgt, str):
            attach_damage(ctx, tgt, "wound" if o == "attach_wound" else "fatigue", op["n"])
    elif o == "attach_self":
        tgt = _target(ctx, op, key, env)
        card = env.get("card")
        if isinstance(tgt, str) and card in s["limbo"]:
            ctx.emit({"type": "attach", "to": tgt, "card": card, "from": "limbo", "mods": op["mods"],
                      "until": op["until"]})
            check_death(ctx, tgt)
    elif o == "move_enemy":
        tgt = _target(ctx, op, key, env)
        e = m.enemy(s, tgt) if isinstance(tgt, str) else None
        if e is not None:
            area = seat if op["to"] == "own_area" else m.QUEST
            if e["area"] != area and (area == m.QUEST or m.hero_engageable(s, e)):
                ctx.emit({"type": "enemy_move", "enemy": e["id"], "area": area, "why": "card"})
    elif o == "mod":  # a temporary stat change of an enemy or an ally, until its `dur` ends (clear_mods)
        tgt = _target(ctx, op, key, env)
        if isinstance(tgt, str):
            ctx.emit({"type": "stat_mod", "to": tgt, "stat": op["stat"], "n": op["n"], "dur": op["dur"]})
            check_death(ctx, tgt)
    elif o == "defense_bonus":
        env["bonus"] = op["n"]
    elif o == "ally":
        env["ally"] = {**op["stats"], "triggers": op.get("triggers", [])}
    elif o == "persistent":
        env["persistent"] = True
    elif o == "cancel":
        env["cancel"] = list(op["what"])
    elif o == "response_pick":
        env["response_pick"] = op
    elif o == "bonus":
        hit = env.get("hit")
        if op["when"] == "always" or (op["when"] == "hit" and hit) or (op["when"] == "miss" and hit is False):
            return run_ops(ctx, op["do"], env, key + ".")
    elif o == "reveal":
        h = s["heroes"][seat]
        cards = h["deck"][:op["n"]]  # reveal never triggers the fatigue reshuffle (section 1.6)
        if cards:
            ctx.emit({"type": "reveal", "seat": seat, "cards": cards})
            match = [c for c in cards if _matches(s, c, op.get("filter", "any"))]
            if op.get("per"):
                for _ in match:
                    run_ops(ctx, op["per"], env, key + "p")
            if op.get("pick") and match:
                ctx.prompt = {"kind": "pick", "seats": [seat], "options": match, "left": op["pick"],
                              "revealed": cards}
                return False
            ctx.emit({"type": "discard", "seat": seat, "from": "limbo", "cards": cards, "why": "revealed"})
    elif o == "peek_response":
        top = s["piles"]["response"][:op["n"]]
        if top:
            ctx.emit({"type": "peek", "seat": seat, "pile": "response", "cards": top,
                      "values": [m.cdef(s, c)["value"] for c in top]})
            if op.get("may_bottom"):
                ctx.prompt = {"kind": "bottom", "seats": [seat], "options": top, "pile": "response"}
                return False
    elif o == "peek_deck":
        h = s["heroes"][seat]
        if h["deck"]:
            ctx.emit({"type": "peek", "seat": seat, "pile": "deck", "cards": h["deck"][:1]})
            if op.get("may_discard"):
                ctx.prompt = {"kind": "bottom", "seats": [seat], "options": h["deck"][:1], "pile": "deck"}
                return False
    elif o == "ally_attack":
        tgt = _target(ctx, op, key, env)
        e = m.enemy(s, tgt) if isinstance(tgt, str) else None
        if e is not None:
            r = draw_response(ctx, "ally_attack_defense")
            defense = m.enemy_stat(s, e, "defense") + r["value"]
            hit = op["value"] > defense  # H23: no Response card for the ally, tie to the enemy
            ctx.emit({"type": "ally_attack", "ally": env.get("card"), "enemy": tgt, "attack": op["value"],
                      "defense": defense, "hit": hit})
            if hit:
                attach_damage(ctx, tgt, "wound", 1)
    elif o == "choose":
        ctx.prompt = {"kind": "option", "seats": [seat], "options": list(range(len(op["options"]))),
                      "ops": op["options"], "env": env, "prefix": key + "."}
        return False
    return True


def _matches(state: dict, cid: str, flt: str) -> bool:
    if flt == "any":
        return True
    d = m.cdef(state, cid)
    return any(md["type"] == flt for md in d.get("modes", []))
