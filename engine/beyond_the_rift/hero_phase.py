"""The hero phase (section 1.8) as the open window of section 3.2, one atomic decision per move.

Any hero with status "active" may act; an action is fully resolved before another begins, so while an
action is being built (targets asked one at a time), an attack window is open, or a prompt waits, only the
seats concerned have moves.  A hero's choices are listed by `hero_moves`; `perform` carries one out.
"""

from __future__ import annotations

from ..errors import present
from . import model as m
from . import rewards
from .effects import candidates, run_ops, slots_for_ops
from .orders import setting_moves
from .primitives import (
    Ctx,
    attach_damage,
    clear_mods,
    draw_cards,
    draw_response,
    fatigue_in_hand,
    pay,
    remove_terrain,
    set_ap,
)

# ---- what a card can do -----------------------------------------------------------------------------

def modes(state: dict, cid: str) -> list[dict]:
    return m.cdef(state, cid).get("modes", [])


def discardable(state: dict, seat: int) -> list[str]:
    return [c for c in state["heroes"][seat]["hand"] if not m.is_damage(state, c)]


def play_groups(state: dict, cid: str, window: str = "hero_phase") -> list[tuple[int | None, list[int]]]:
    """(move's mode value, mode indexes) a card can be played as outside attacks and defenses:
    AP and Special modes, Reactions whose window is open.  Horizontal split = one group per mode;
    otherwise all modes at once for one payment (section 1.9)."""
    d = m.cdef(state, cid)
    ms = d.get("modes", [])

    def ok(md):
        return md["type"] in ("ap", "special") or (md["type"] == "reaction" and md.get("window") == window)

    if len(ms) == 1:
        return [(None, [0])] if ok(ms[0]) else []
    if d.get("choose_one"):
        return [(i, [i]) for i, md in enumerate(ms) if ok(md)]
    return [(None, list(range(len(ms))))] if all(ok(md) for md in ms) else []


def group_cost(state: dict, cid: str, group: list[int]) -> int:
    return sum(modes(state, cid)[i]["cost"] for i in group)


def is_persistent(md: dict) -> bool:
    return "persistent" in md.get("keywords", [])


def play_slots(state: dict, cid: str, group: list[int]) -> list[dict]:
    slots = []
    for i in group:
        md = modes(state, cid)[i]
        if md["type"] == "ap" and md.get("target", "self") == "hero":
            slots.append({"key": f"ap{i}.0", "kind": "hero", "range": md["range"], "optional": False})
        for sl in slots_for_ops(md.get("effects", []), f"m{i}."):
            slots.append({**sl, "range": md["range"]})
        if is_persistent(md):
            slots.append({"key": "area", "kind": "area", "range": md["range"], "optional": False})
    return slots


def attack_slots(state: dict, cid: str, mode: int, with_target: bool) -> list[dict]:
    md = modes(state, cid)[mode]
    slots = [{"key": "atk", "kind": "attack_target", "range": md["range"], "optional": False}] if with_target else []
    return slots + [{**sl, "range": md["range"]} for sl in slots_for_ops(md.get("effects", []), "")]


def attack_targets(state: dict, seat: int, rng: int) -> list[str]:
    out = [e["id"] for e in state["enemies"] if m.dist_enemy(state, seat, e) <= rng]
    if m.dist_door(state, seat) <= rng:
        out += [t for t in state["terrain"] if m.is_door(state, t)]
    return out


def slot_candidates(state: dict, seat: int, slot: dict) -> list:
    if slot["kind"] == "attack_target":
        return attack_targets(state, seat, slot["range"])
    if slot["kind"] == "pledge_target":  # any target, or one enemy / door in play (range is checked later)
        return ["any"] + [e["id"] for e in state["enemies"]] + [t for t in state["terrain"] if m.is_door(state, t)]
    return candidates(state, seat, slot, slot["range"])


def slots_ok(state: dict, seat: int, slots: list[dict]) -> bool:
    return all(slot.get("optional") or slot_candidates(state, seat, slot) for slot in slots)


def attack_modes(state: dict, cid: str, cost_key: str) -> list[int]:
    return [i for i, md in enumerate(modes(state, cid)) if md["type"] == "attack" and md[cost_key] is not None]


def card_move(state: dict, typ: str, cid: str, mode: int | None) -> dict:
    mv: dict[str, str | int] = {"type": typ, "card": cid}
    if mode is not None and len(modes(state, cid)) > 1:
        mv["mode"] = mode
    return mv


def target_distance(state: dict, seat: int, target: str) -> int:
    e = m.enemy(state, target)
    return m.dist_enemy(state, seat, e) if e is not None else m.dist_door(state, seat)


def attack_fixed_total(state: dict, att: dict) -> tuple[int, int]:
    """(fixed part of the attack total, number of "?" symbols) of the cards committed so far."""
    total, q = 0, 0
    for c in att["cards"]:
        v = modes(state, c["card"])[c["mode"]]["value"]
        total += v["n"]
        q += v["q"]
    for w in att["wounds"]:
        total += m.cdef(state, w)["hero"]["n"]
    return total, q


# ---- listing moves ----------------------------------------------------------------------------------

def attack_window_moves(state: dict, seat: int) -> list[dict]:
    att = state["attack"]
    h = state["heroes"][seat]
    tgt = att["target"]
    if m.enemy(state, tgt) is None and tgt not in state["terrain"]:
        return [{"type": "resolve"}] if seat == att["by"] else []
    dist = target_distance(state, seat, tgt)
    moves = []
    if seat == att["by"]:
        for c in h["hand"]:
            for i in attack_modes(state, c, "secondary"):
                md = modes(state, c)[i]
                if md["secondary"] <= h["ap"] and md["range"] >= dist and slots_ok(state, seat, attack_slots(state, c, i, False)):
                    moves.append(card_move(state, "add", c, i))
        fixed, q = attack_fixed_total(state, att)
        for c in h["hand"]:
            hd = m.damage_side(state, c)
            if hd is not None and hd["type"] == "attack" and fixed + q + hd["n"] >= 1:  # A8
                moves.append({"type": "add_wound", "card": c})
        moves.append({"type": "resolve"})
        return moves
    if seat in att["passed"] or h["status"] == "final":
        return []
    for c in h["hand"]:
        for i in attack_modes(state, c, "primary"):
            md = modes(state, c)[i]
            if md["primary"] <= h["ap"] and md["range"] >= dist and slots_ok(state, seat, attack_slots(state, c, i, False)):
                moves.append(card_move(state, "aid", c, i))
    if moves:
        moves.append({"type": "no_aid"})
    return moves


def standing_moves(state: dict, seat: int) -> list[dict]:
    """Defense mode and standing orders: "always editable" (3.1), DONE or not, during prompts and
    attack windows too (game.legal_moves)."""
    h = state["heroes"][seat]
    return [{"type": "mode", "mode": x} for x in ("auto", "ask", "ask_if") if x != h["mode"]] + setting_moves(state, seat)


def pledged_to(state: dict, seat: int) -> list[dict]:
    """Pledges other heroes hold out to this hero's next attack (their cards still in hand)."""
    return [p for o, h in enumerate(state["heroes"]) if o != seat for p in h["pledges"]
            if p["to"] == seat and p["card"] in h["hand"]]


def hero_moves(state: dict, seat: int) -> list[dict]:
    h = state["heroes"][seat]
    if h["status"] == "final":
        return standing_moves(state, seat)
    if h["status"] == "done":
        return [{"type": "undone"}] + standing_moves(state, seat)
    b = m.board(state, seat)
    ap = h["ap"]
    moves: list[dict] = []
    disc = discardable(state, seat)
    if h["discard_down"]:
        # The discard-down is the mandatory first decision of the phase (section 3.5); done applies the
        # DISCARD-ORDER default, as the deadline does.  Standing orders (the DISCARD-ORDER itself) may
        # still be changed first.
        return ([{"type": "discard", "card": c} for c in disc] + [{"type": "done"}, {"type": "done_final"}]
                + standing_moves(state, seat))
    refusable = bool(pledged_to(state, seat))
    for c in h["hand"]:
        for i in attack_modes(state, c, "primary"):
            md = modes(state, c)[i]
            if md["primary"] <= ap and slots_ok(state, seat, attack_slots(state, c, i, True)):
                moves.append(card_move(state, "attack", c, i))
                if refusable:  # NOPLEDGE (section 3.2): the attacker may refuse the pledged aid
                    moves.append(dict(card_move(state, "attack", c, i), nopledge=True))
        for mode, group in play_groups(state, c):
            if group_cost(state, c, group) <= ap and slots_ok(state, seat, play_slots(state, c, group)):
                moves.append(card_move(state, "play", c, mode))
        hd = m.damage_side(state, c)
        if hd and hd["type"] == "ap" and ap + hd["n"] >= 0:
            moves.append({"type": "wound", "card": c})
    if ap >= b["draw_cost"]:
        moves.append({"type": "draw"})
    if disc and ap >= b["cycle_cost"]:
        moves.append({"type": "cycle"})
    moves += [{"type": "discard_ap", "card": c} for c in disc]
    for e in state["enemies"]:
        cost = m.enemy_stat(state, e, "engage")
        if cost > ap:
            continue
        if e["area"] == seat:
            moves.append({"type": "disengage", "enemy": e["id"]})
        elif m.hero_engageable(state, e):
            moves.append({"type": "engage", "enemy": e["id"]})
    act = b["action"]
    if h["used_board"] < act["per_round"] and ap >= act["cost"]:
        slots = [{**sl, "range": act["range"]} for sl in slots_for_ops(act["effects"], "b.")]
        if slots_ok(state, seat, slots):
            moves.append({"type": "board"})
    if not m.engaged(state, seat):  # terrain needs a hero not engaged (section 1.20)
        for t in state["terrain"]:
            d = m.cdef(state, t)
            if d.get("door"):
                if ap >= 1:
                    moves.append({"type": "open", "door": t})
            else:
                it = d["interact"]
                limit = it.get("per_hero_per_round")
                if ap >= it["cost_ap"] and (limit is None or h["used_terrain"].count(t) < limit):
                    moves.append({"type": "interact", "terrain": t})
    # Pledges (section 3.2): a standing offer to aid the next attack another hero starts this phase.
    pledged = {p["card"] for p in h["pledges"]}
    for c in h["hand"]:
        if c in pledged:
            moves.append({"type": "unpledge", "card": c})
        elif attack_modes(state, c, "primary"):
            moves += [{"type": "pledge", "card": c, "to": o} for o in range(state["n"]) if o != seat]
    moves += [{"type": "done"}, {"type": "done_final"}]
    return moves + standing_moves(state, seat)


def prompt_moves(state: dict, seat: int) -> list[dict]:
    p = state["prompt"]
    k = p["kind"]
    if k == "choose":
        return [{"type": "choose", "value": v} for v in p["options"]] + [{"type": "cancel"}]
    if k == "amount":
        return [{"type": "spend", "n": n} for n in p["options"]] + [{"type": "cancel"}]
    if k == "cycle":
        out = [{"type": "pick", "card": c} for c in discardable(state, seat) if c not in p["picked"]]
        if p["picked"]:
            out.append({"type": "finish"})
        return out + [{"type": "cancel"}]
    if k == "pick":
        return [{"type": "pick", "card": c} for c in p["options"]] + [{"type": "finish"}]
    if k == "bottom":
        return [{"type": "bottom", "card": c} for c in p["options"]] + [{"type": "keep"}]
    if k == "option":
        return [{"type": "option", "value": v} for v in p["options"]]
    if k == "react":
        return [{"type": "react", "card": c} for c in p["cards"][seat]] + [{"type": "pass"}]
    if k == "recover":  # H25
        return [{"type": "recover", "card": c} for c in fatigue_in_hand(state, seat)] + [{"type": "keep"}]
    if k == "reward":  # H26
        return rewards.choices(state, seat)
    return []


# ---- carrying moves out -----------------------------------------------------------------------------

def default_discards(state: dict, seat: int, n: int) -> list[str]:
    """DISCARD-ORDER (section 3.3): by type in the plan's order, lowest value first."""
    order = state["heroes"][seat]["plan"]["discard_order"]

    def key(c):
        md = modes(state, c)[0]
        t = md["type"]
        v = md.get("value", 0)
        v = v["n"] + 2 * v["q"] if isinstance(v, dict) else v
        return (order.index(t) if t in order else len(order), v, c)

    return sorted(discardable(state, seat), key=key)[:n]


def apply_default_discard(ctx: Ctx, seat: int) -> None:
    h = ctx.s["heroes"][seat]
    if h["discard_down"]:
        ctx.emit({"type": "discard", "seat": seat, "from": "hand", "cards": default_discards(ctx.s, seat, h["discard_down"]),
                  "why": "hand_size"})
        ctx.emit({"type": "hero_set", "seat": seat, "key": "discard_down", "value": 0})


def hero_action(ctx: Ctx, seat: int, move: dict) -> None:
    """A move of the open hero phase (no prompt, no attack window: answers.perform dispatches)."""
    s = ctx.s
    t = move["type"]
    h = s["heroes"][seat]
    b = m.board(s, seat)
    if t == "discard":
        ctx.emit({"type": "discard", "seat": seat, "from": "hand", "cards": [move["card"]], "why": "hand_size"})
        ctx.emit({"type": "hero_set", "seat": seat, "key": "discard_down", "value": h["discard_down"] - 1})
        return
    if t != "undone":
        apply_default_discard(ctx, seat)
    if t == "attack":
        mode = move.get("mode", attack_modes(s, move["card"], "primary")[0])
        start_action(ctx, {"seat": seat, "what": "attack", "card": move["card"], "mode": mode,
                           "slots": attack_slots(s, move["card"], mode, True), "chosen": {},
                           "nopledge": bool(move.get("nopledge"))})
    elif t == "play":
        group = [g for mode, g in play_groups(s, move["card"]) if mode == move.get("mode")][0]
        start_action(ctx, {"seat": seat, "what": "play", "card": move["card"], "group": group,
                           "slots": play_slots(s, move["card"], group), "chosen": {}})
    elif t == "wound":
        hd = m.cdef(s, move["card"])["hero"]
        ctx.emit({"type": "play", "seat": seat, "card": move["card"], "as": "wound"})
        set_ap(ctx, seat, h["ap"] + hd["n"], "wound")
        ctx.emit({"type": "discard", "seat": seat, "from": "limbo", "cards": [move["card"]]})
    elif t == "draw":
        pay(ctx, seat, b["draw_cost"], "draw")
        draw_cards(ctx, seat, 1)
    elif t == "cycle":
        ctx.prompt = {"kind": "cycle", "seats": [seat], "picked": []}
    elif t == "discard_ap":
        ctx.emit({"type": "discard", "seat": seat, "from": "hand", "cards": [move["card"]], "why": "for_ap"})
        set_ap(ctx, seat, h["ap"] + b["discard_gain"], "discard")
    elif t in ("engage", "disengage"):
        e = m.enemy(s, move["enemy"])
        e = present(e, "a legal engage/disengage (hero_moves) names an enemy in play")
        pay(ctx, seat, m.enemy_stat(s, e, "engage"), t)
        ctx.emit({"type": "enemy_move", "enemy": e["id"], "area": seat if t == "engage" else m.QUEST, "why": t,
                  "by": seat})
    elif t == "board":
        act = b["action"]
        start_action(ctx, {"seat": seat, "what": "board", "card": None,
                           "slots": [{**sl, "range": act["range"]} for sl in slots_for_ops(act["effects"], "b.")],
                           "chosen": {}})
    elif t == "open":
        ctx.prompt = {"kind": "amount", "seats": [seat], "door": move["door"], "options": list(range(1, h["ap"] + 1))}
    elif t == "interact":
        it = m.cdef(s, move["terrain"])["interact"]
        pay(ctx, seat, it["cost_ap"], "terrain")
        ctx.emit({"type": "hero_set", "seat": seat, "key": "used_terrain", "value": h["used_terrain"] + [move["terrain"]]})
        ctx.emit({"type": "interact", "seat": seat, "terrain": move["terrain"]})
        if it["remove"]:
            remove_terrain(ctx, move["terrain"], "interact")
        run_ops(ctx, it["effects"], {"seat": seat, "chosen": {}})
    elif t == "pledge":
        # PLEDGE <card> TO <hero> [ON <enemy>]: the enemy (or door) is asked as a target, "any" allowed
        start_action(ctx, {"seat": seat, "what": "pledge", "card": move["card"], "to": move["to"],
                           "slots": [{"key": "on", "kind": "pledge_target", "optional": False}], "chosen": {}})
    elif t == "unpledge":
        ctx.emit({"type": "hero_set", "seat": seat, "key": "pledges",
                  "value": [p for p in h["pledges"] if p["card"] != move["card"]], "why": "unpledge"})
    elif t in ("done", "done_final", "undone"):
        status = {"done": "done", "done_final": "final", "undone": "active"}[t]
        ctx.emit({"type": "hero_set", "seat": seat, "key": "status", "value": status})


def start_action(ctx: Ctx, action: dict) -> None:
    ctx.action = action
    advance_action(ctx)


def advance_action(ctx: Ctx) -> None:
    a = ctx.action
    seat = a["seat"]
    for slot in a["slots"]:
        if slot["key"] in a["chosen"]:
            continue
        cands = slot_candidates(ctx.s, seat, slot)
        if len(cands) <= 1:
            a["chosen"][slot["key"]] = cands[0] if cands else None
            continue
        ctx.prompt = {"kind": "choose", "seats": [seat], "slot": slot["key"], "options": cands}
        return
    ctx.action = None
    commit(ctx, a)


def commit(ctx: Ctx, a: dict) -> None:
    s = ctx.s
    seat = a["seat"]
    cid = a["card"]
    what = a["what"]
    if what in ("attack", "add", "aid"):
        md = modes(s, cid)[a["mode"]]
        pay(ctx, seat, md["secondary"] if what == "add" else md["primary"], what)
        ctx.emit({"type": "play", "seat": seat, "card": cid, "as": what})
        entry = {"card": cid, "seat": seat, "mode": a["mode"], "chosen": {k: v for k, v in a["chosen"].items() if k != "atk"}}
        if what == "attack":
            att = {"by": seat, "target": a["chosen"]["atk"], "cards": [entry], "passed": [], "wounds": [], "q": [],
                   "hit": None}
        else:
            att = dict(s["attack"], cards=s["attack"]["cards"] + [entry])
        ctx.emit({"type": "attack_state", "attack": att})
        if what == "attack" and not a.get("nopledge"):
            honour_pledges(ctx, seat)
    elif what == "pledge":
        on = a["chosen"]["on"]
        pledge = {"card": cid, "to": a["to"], **({"on": on} if on != "any" else {})}
        ctx.emit({"type": "hero_set", "seat": seat, "key": "pledges", "value": s["heroes"][seat]["pledges"] + [pledge],
                  "why": "pledge"})
    elif what == "play":
        pay(ctx, seat, group_cost(s, cid, a["group"]), "play")
        ctx.emit({"type": "play", "seat": seat, "card": cid, "as": "play", "modes": a["group"],
                  "targets": a["chosen"]})
        env = {"seat": seat, "chosen": a["chosen"], "card": cid}
        tasks = []
        for i in a["group"]:
            md = modes(s, cid)[i]
            if md["type"] == "ap":
                tasks.append({"k": "ops", "ops": [{"op": "gain_ap", "n": md["value"], "target": md.get("target", "self")
                                                   if md.get("target", "self") == "self" else "hero"}],
                              "env": env, "prefix": f"ap{i}.", "start": 0})
            if md.get("effects"):
                tasks.append({"k": "ops", "ops": md["effects"], "env": env, "prefix": f"m{i}.", "start": 0})
        tasks.append({"k": "finish_card", "card": cid, "seat": seat, "area": a["chosen"].get("area"), "group": a["group"]})
        ctx.push(tasks)
    elif what == "board":
        act = m.board(s, seat)["action"]
        pay(ctx, seat, act["cost"], "board")
        ctx.emit({"type": "hero_set", "seat": seat, "key": "used_board", "value": s["heroes"][seat]["used_board"] + 1})
        ctx.emit({"type": "board_action", "seat": seat, "targets": a["chosen"]})
        ctx.push([{"k": "ops", "ops": act["effects"], "env": {"seat": seat, "chosen": a["chosen"]}, "prefix": "b.",
                   "start": 0}])


def honour_pledges(ctx: Ctx, attacker: int) -> None:
    """Pledged cards join the attack at once, paid from the pledger's AP at this moment, if still legal
    (card in hand, enough AP, the target within its range from the pledger) and, for a pledge made ON
    one enemy, if that enemy is the target.  Their bonus targets, if any, take the first legal choice:
    nobody is asked in the middle of someone else's attack.  The attacker refuses them all by
    attacking with `nopledge` (section 3.2's NOPLEDGE)."""
    s = ctx.s
    for seat, h in enumerate(s["heroes"]):
        for p in list(h["pledges"]):
            att = s["attack"]
            if p["to"] != attacker or p["card"] not in h["hand"] or p.get("on", att["target"]) != att["target"]:
                continue
            dist = target_distance(s, seat, att["target"])
            ok = [i for i in attack_modes(s, p["card"], "primary")
                  if modes(s, p["card"])[i]["primary"] <= h["ap"] and modes(s, p["card"])[i]["range"] >= dist]
            if not ok:
                continue
            chosen = {}
            for slot in attack_slots(s, p["card"], ok[0], False):
                cands = slot_candidates(s, seat, slot)
                chosen[slot["key"]] = cands[0] if cands else None
            ctx.emit({"type": "hero_set", "seat": seat, "key": "pledges",
                      "value": [q for q in h["pledges"] if q["card"] != p["card"]], "why": "pledge_used"})
            commit(ctx, {"seat": seat, "what": "aid", "card": p["card"], "mode": ok[0], "chosen": chosen})


def finish_card(ctx: Ctx, task: dict) -> None:
    """After its effects: a persistent card goes into the chosen Hero Area, anything else to the discard."""
    s = ctx.s
    cid = task["card"]
    if cid not in s["limbo"]:
        return  # attached to an enemy by its own effect
    for i in task["group"]:
        md = modes(s, cid)[i]
        if is_persistent(md):
            ally, bonus = None, None
            for op in md.get("effects", []):
                if op["op"] == "ally":
                    ally = {**op["stats"], "triggers": op.get("triggers", [])}
                if op["op"] == "defense_bonus":
                    bonus = op["n"]
            area = task["area"] if task["area"] is not None else task["seat"]
            ctx.emit({"type": "persist", "card": cid, "area": area, "owner": task["seat"], "ally": ally, "bonus": bonus})
            return
    ctx.emit({"type": "discard", "seat": task["seat"], "from": "limbo", "cards": [cid]})


def answer_prompt(ctx: Ctx, seat: int, move: dict) -> None:
    """The answer to a question of the hero phase or of a card's effect (answers.py routes the others)."""
    s = ctx.s
    p = ctx.prompt
    t = move["type"]
    k = p["kind"]
    if k == "choose":
        if t == "cancel":
            ctx.prompt = None
            ctx.action = None
            return
        ctx.prompt = None
        ctx.action["chosen"][p["slot"]] = move["value"]
        advance_action(ctx)
    elif k == "amount":
        ctx.prompt = None
        if t == "spend":
            open_door(ctx, seat, p["door"], move["n"])
    elif k == "cycle":
        if t == "pick":
            p["picked"].append(move["card"])
        elif t == "cancel":
            ctx.prompt = None
        else:
            ctx.prompt = None
            pay(ctx, seat, m.board(s, seat)["cycle_cost"], "cycle")
            ctx.emit({"type": "discard", "seat": seat, "from": "hand", "cards": p["picked"], "why": "cycle"})
            draw_cards(ctx, seat, len(p["picked"]))
    elif k == "pick":
        if t == "pick":
            ctx.emit({"type": "to_hand", "seat": seat, "card": move["card"]})
            p["options"].remove(move["card"])
            p["left"] -= 1
        if t == "finish" or p["left"] <= 0 or not p["options"]:
            ctx.prompt = None
            rest = [c for c in p["revealed"] if c in s["limbo"]]
            if rest:
                ctx.emit({"type": "discard", "seat": seat, "from": "limbo", "cards": rest, "why": "revealed"})
    elif k == "bottom":
        ctx.prompt = None
        if t == "bottom":
            if p["pile"] == "response":
                ctx.emit({"type": "response_bottom", "seat": seat, "card": move["card"]})
            else:
                ctx.emit({"type": "deck_discard", "seat": seat, "card": move["card"]})
    elif k == "option":
        ctx.prompt = None
        run_ops(ctx, p["ops"][move["value"]], p["env"], f"{p['prefix']}{move['value']}.")
    elif k == "recover":
        answer_recover(ctx, seat, move)
    elif k == "reward":
        rewards.answer(ctx, seat, move)
    elif k == "react" and p["window"] == "own_attack_response":
        answer_keen_eye(ctx, seat, move)


def answer_recover(ctx: Ctx, seat: int, move: dict) -> None:
    """H25: a hero asked puts one Fatigue from hand on the Fatigue discard, or keeps them all.  The others
    asked answer in any order; the prompt closes with the last answer."""
    p = ctx.prompt
    if move["type"] == "recover":
        ctx.emit({"type": "heal", "seat": seat, "card": move["card"], "pile": "fatigue"})
        p["left"][seat] -= 1
    if move["type"] == "keep" or p["left"][seat] <= 0 or not fatigue_in_hand(ctx.s, seat):
        p["seats"].remove(seat)
        p["left"][seat] = 0
    if not p["seats"]:
        ctx.prompt = None


def open_door(ctx: Ctx, seat: int, door: str, spend: int) -> None:
    """Open with AP: success if the AP spent beats lock + one Response card; a tie fails; the AP is lost
    either way (section 1.20, A15/A16)."""
    pay(ctx, seat, spend, "open")
    r = draw_response(ctx, "door")
    lock, _ = m.door_values(ctx.s, door)
    ok = spend > lock + r["value"]
    ctx.emit({"type": "door_open", "seat": seat, "door": door, "spent": spend, "value": lock + r["value"], "ok": ok})
    if ok:
        remove_terrain(ctx, door, "opened")


# ---- the attack window ------------------------------------------------------------------------------

def attack_window(ctx: Ctx, seat: int, move: dict) -> None:
    s = ctx.s
    att = s["attack"]
    t = move["type"]
    if t in ("add", "aid"):
        mode = move.get("mode", attack_modes(s, move["card"], "secondary" if t == "add" else "primary")[0])
        start_action(ctx, {"seat": seat, "what": t, "card": move["card"], "mode": mode,
                           "slots": attack_slots(s, move["card"], mode, False), "chosen": {}})
    elif t == "add_wound":
        ctx.emit({"type": "play", "seat": seat, "card": move["card"], "as": "attack_wound"})
        ctx.emit({"type": "attack_state", "attack": dict(att, wounds=att["wounds"] + [move["card"]])})
    elif t == "no_aid":
        ctx.emit({"type": "attack_state", "attack": dict(att, passed=att["passed"] + [seat])})
    elif t == "resolve":
        tasks = []
        for c in att["cards"]:
            for _ in range(modes(s, c["card"])[c["mode"]]["value"]["q"]):
                tasks.append({"k": "atk_q", "card": c["card"]})  # A11: one per "?", in commit order
        tasks.append({"k": "atk_def"})
        tasks += [{"k": "atk_bonus", "i": i} for i in range(len(att["cards"]))]
        tasks.append({"k": "atk_end"})
        ctx.push(tasks)


def keen_eye_cards(s: dict, seat: int) -> list[str]:
    h = s["heroes"][seat]
    return [c for c in h["hand"] if any(md["type"] == "reaction" and md.get("window") == "own_attack_response"
                                         and md["cost"] <= h["ap"] for md in modes(s, c))]


def task_atk_q(ctx: Ctx, task: dict) -> None:
    att = ctx.s["attack"]
    r = draw_response(ctx, "attack_q")
    ctx.emit({"type": "attack_state", "attack": dict(att, q=att["q"] + [r["value"]])})
    cards = keen_eye_cards(ctx.s, att["by"])
    if cards:
        ctx.prompt = {"kind": "react", "seats": [att["by"]], "window": "own_attack_response",
                      "cards": [cards if i == att["by"] else [] for i in range(ctx.s["n"])], "drawn": r["value"]}


def answer_keen_eye(ctx: Ctx, seat: int, move: dict) -> None:
    """A Reaction of window own_attack_response with `response_pick{draw, keep}`: the "?" card just drawn
    counts as the first of the `draw` cards; the others are drawn now and the highest (or lowest) is
    kept for that "?" (our reading of "draw 2, keep highest, replaces that one ? draw")."""
    p = ctx.prompt
    ctx.prompt = None
    if move["type"] != "react":
        return
    s = ctx.s
    md = [md for md in modes(s, move["card"]) if md["type"] == "reaction"][0]
    pick = [op for op in md.get("effects", []) if op["op"] == "response_pick"]
    pay(ctx, seat, md["cost"], "reaction")
    ctx.emit({"type": "play", "seat": seat, "card": move["card"], "as": "reaction"})
    values = [p["drawn"]]
    if pick:
        for _ in range(pick[0]["draw"] - 1):
            values.append(draw_response(ctx, "attack_q_pick")["value"])
        att = s["attack"]
        keep = max(values) if pick[0]["keep"] == "highest" else min(values)
        ctx.emit({"type": "attack_state", "attack": dict(att, q=att["q"][:-1] + [keep])})
    ctx.emit({"type": "discard", "seat": seat, "from": "limbo", "cards": [move["card"]]})


def task_atk_def(ctx: Ctx, task: dict) -> None:
    s = ctx.s
    att = s["attack"]
    fixed, _ = attack_fixed_total(s, att)
    total = fixed + sum(att["q"])
    tgt = att["target"]
    e = m.enemy(s, tgt)
    if e is None and tgt not in s["terrain"]:
        ctx.emit({"type": "attack_state", "attack": dict(att, hit=False)})
        return  # the target left play before the attack resolved
    r = draw_response(ctx, "enemy_defense" if e else "door_defense")
    base = m.enemy_stat(s, e, "defense") if e else m.door_values(s, tgt)[1]
    defense = base + r["value"]
    hit = total > defense  # ties go to the defender
    ctx.emit({"type": "attack_result", "seat": att["by"], "target": tgt, "attack": total, "defense": defense,
              "hit": hit, "cards": [c["card"] for c in att["cards"]] + att["wounds"], "q": att["q"]})
    ctx.emit({"type": "attack_state", "attack": dict(att, hit=hit)})
    if hit:
        if e is not None:
            dmg = m.board(s, att["by"])["damage"]
            if dmg.get("wound"):
                attach_damage(ctx, tgt, "wound", dmg["wound"])
            if dmg.get("fatigue"):
                attach_damage(ctx, tgt, "fatigue", dmg["fatigue"])
        else:
            remove_terrain(ctx, tgt, "destroyed")


def task_atk_bonus(ctx: Ctx, task: dict) -> None:
    s = ctx.s
    att = s["attack"]
    c = att["cards"][task["i"]]
    md = modes(s, c["card"])[c["mode"]]
    if md.get("effects"):
        env = {"seat": c["seat"], "chosen": c["chosen"], "attack_target": att["target"], "hit": att["hit"],
               "card": c["card"]}
        run_ops(ctx, md["effects"], env, "")


def task_atk_end(ctx: Ctx, task: dict) -> None:
    s = ctx.s
    att = s["attack"]
    left = [c["card"] for c in att["cards"] if c["card"] in s["limbo"]] + [w for w in att["wounds"] if w in s["limbo"]]
    if left:
        ctx.emit({"type": "discard", "seat": att["by"], "from": "limbo", "cards": left})
    ctx.emit({"type": "attack_state", "attack": None})
    clear_mods(ctx, "this_attack")
