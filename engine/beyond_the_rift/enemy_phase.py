"""The enemy phase (sections 1.13-1.15, 3.3): activation table, every keyword, target priority, the
"unable = no board change" fallback rule, and enemy attacks with their defense decisions.

Resolution is a queue of small JSON tasks (activate an enemy, perform a step, perform a keyword, resolve
an attack), so the phase can stop at a defense prompt and resume exactly there on the next move.
"""

from __future__ import annotations

from ..errors import present
from . import model as m
from .content import CONTENT
from .hero_phase import default_discards, modes
from .orders import condition_holds, margin_for
from .primitives import (
    Ctx,
    attach_damage,
    clear_mods,
    command_tasks,
    draw_response,
    hero_takes,
    new_enemy,
    pay,
    set_ap,
    supply,
)
from .reactions import open_window


def rows(state: dict) -> dict:
    return dict(m.scenario(state)["rows"])


def matches(e: dict, typ: str) -> bool:
    if typ.startswith("family:"):
        return CONTENT.enemies[e["type"]]["family"] == typ[7:]
    return e["type"] == typ


def task_enemy_phase(ctx: Ctx, task: dict) -> None:
    s = ctx.s
    if not s["enemies"]:
        ctx.emit({"type": "note", "why": "no_enemies"})
        return  # no enemy in play: no Response card, nothing happens (section 1.13)
    r = draw_response(ctx, "activation")
    col = min(4, max(1, r["value"]))
    ctx.emit({"type": "activation", "value": r["value"], "sigil": r["sigil"]})
    tasks = []
    for typ, _cells in m.scenario(s)["rows"]:
        for e in sorted((e for e in s["enemies"] if e["type"] == typ), key=lambda e: e["seq"]):
            tasks.append({"k": "activate", "e": e["id"], "col": col})  # A24: oldest first, newcomers wait
    if r["sigil"]:
        tasks += [{"k": "scenario_op", "op": op} for op in m.scenario(s).get("sigil", [])]
    ctx.push(tasks)


def task_activate(ctx: Ctx, task: dict) -> None:
    e = m.enemy(ctx.s, task["e"])
    if e is None:
        return
    rank = m.ranking(ctx.s)  # fixed before the enemy's first step (A19)
    cells = rows(ctx.s)[e["type"]][task["col"] - 1]
    ctx.push([{"k": "step", "e": e["id"], "col": task["col"], "i": i, "rank": rank} for i in range(len(cells))])


def task_step(ctx: Ctx, task: dict) -> None:
    e = m.enemy(ctx.s, task["e"])
    if e is None:
        return
    step = rows(ctx.s)[e["type"]][task["col"] - 1][task["i"]]
    rank = task["rank"]
    branch, which = None, None
    if able_action(ctx.s, e, step["do"], rank):
        branch, which = step["do"], "do"
    elif step["else"] and able_action(ctx.s, e, step["else"], rank):
        branch, which = step["else"], "else"
    # the step is named by its place in the activation table (words.py reads its text there)
    ctx.emit({"type": "enemy_step", "enemy": e["id"], "kind": e["type"], "col": task["col"], "step": task["i"],
              "did": which})
    if branch:
        ctx.push([{"k": "part", "e": e["id"], "part": p, "rank": rank} for p in branch["and"]])


def task_part(ctx: Ctx, task: dict) -> None:
    e = m.enemy(ctx.s, task["e"])
    if e is not None and able(ctx.s, e, task["part"], task["rank"]):  # A23: parts that can, in order
        perform(ctx, e, task["part"], task["rank"])


def task_cmd(ctx: Ctx, task: dict) -> None:
    """A commanded enemy acts as itself: own ranking, no fallback (A21)."""
    e = m.enemy(ctx.s, task["e"])
    if e is None:
        return
    rank = m.ranking(ctx.s)
    if able(ctx.s, e, task["part"], rank):
        perform(ctx, e, task["part"], rank)


# ---- able tests and targets -------------------------------------------------------------------------

def able_action(s: dict, e: dict, action: dict, rank: list[int]) -> bool:
    return any(able(s, e, p, rank) for p in action["and"])


def _rank(s: dict, part: dict, rank: list[int]) -> list[int]:
    return m.ranking(s, part["priority"]) if part.get("priority") else rank


def target_hero(s: dict, e: dict, part: dict, rank: list[int]) -> int | None:
    op = part["op"]
    for seat in _rank(s, part, rank):
        if not m.enemy_can_reach(s, e, seat):
            continue
        h = s["heroes"][seat]
        if op == "intimidate" and not intimidate_losses(s, seat, 1) and not _ally_redirect(s, seat, op, part.get("n", 1)):
            continue  # A27: a hero without discardable cards is not a viable target
        if op == "obstruct" and h["ap"] < 1:
            continue
        return seat
    return None


def support_area(s: dict, e: dict, typ: str, rank: list[int]) -> int | None:
    """Where Support X moves: the area with most *other* X; ties prefer Hero Areas by target priority,
    the Quest Area only as the unique maximum; staying put is "unable" (A20)."""
    counts: dict[int, int] = {}
    for x in s["enemies"]:
        if x is not e and matches(x, typ):
            counts[x["area"]] = counts.get(x["area"], 0) + 1
    if not counts:
        return None
    best = max(counts.values())
    tops = [a for a, c in counts.items() if c == best]
    if e["area"] in tops:
        return None
    if tops == [m.QUEST]:
        return m.QUEST
    for seat in rank:
        if seat in tops:
            return seat
    return None


def heal_candidates(s: dict, e: dict, typ: str) -> list[dict]:
    return [x for x in s["enemies"] if x["area"] == e["area"] and matches(x, typ) and x["att"]]


def commanded(s: dict, e: dict, part: dict) -> list[dict]:
    if part["op"] == "family":
        return [x for x in s["enemies"] if x is not e and x["area"] == e["area"]
                and CONTENT.enemies[x["type"]]["family"] == part["family"]]
    return [x for x in s["enemies"] if x["type"] == part["type"]]


def able(s: dict, e: dict, part: dict, rank: list[int]) -> bool:
    """Would performing this keyword change the board (section 1.13 step 5, H18)?"""
    op = part["op"]
    if op in ("attack", "poison", "intimidate", "obstruct"):
        return target_hero(s, e, part, rank) is not None
    if op == "engage":
        return e["area"] == m.QUEST and s["n"] > 0
    if op == "disengage":
        return e["area"] != m.QUEST
    if op == "reengage":
        return True  # A18: staying with the same hero counts as performed
    if op == "summon":
        return bool(s["summon"].get(part["type"]))
    if op == "support":
        return support_area(s, e, part["type"], rank) is not None
    if op == "heal":
        return bool(heal_candidates(s, e, part["type"]))
    if op in ("family", "all_named"):
        return any(able(s, x, part["act"], m.ranking(s)) for x in commanded(s, e, part))
    return False  # "Nothing"


# ---- performing -------------------------------------------------------------------------------------

def _move(ctx: Ctx, e: dict, area: int, why: str) -> None:
    if e["area"] != area:
        ctx.emit({"type": "enemy_move", "enemy": e["id"], "area": area, "why": why})


def perform(ctx: Ctx, e: dict, part: dict, rank: list[int]) -> None:
    s = ctx.s
    op = part["op"]
    if op == "attack":
        ctx.push([{"k": "e_attack", "e": e["id"], "hero": target_hero(s, e, part, rank)}])
    elif op == "engage":
        _move(ctx, e, _rank(s, part, rank)[0], "engage")
    elif op == "disengage":
        _move(ctx, e, m.QUEST, "disengage")
    elif op == "reengage":
        _move(ctx, e, _rank(s, part, rank)[0], "reengage")
    elif op == "summon":
        cid = s["summon"][part["type"]][0]
        ctx.emit({"type": "spawn", "enemy": new_enemy(ctx, cid, e["area"]), "from": "summon", "by": e["id"]})
    elif op == "support":
        area = support_area(s, e, part["type"], rank)
        area = present(area, "perform() runs only where able() just found this area, on the same state")
        _move(ctx, e, area, "support")
    elif op == "heal":
        heal(ctx, e, part)
    elif op in ("family", "all_named"):
        ctx.push(command_tasks(ctx, commanded(s, e, part), part["act"]))
    elif op in ("poison", "intimidate", "obstruct"):
        target = target_hero(s, e, part, rank)
        target = present(target, "perform() runs only where able() just found this target, on the same state")
        special_ability(ctx, e, op, part.get("n", 1), target)


def heal(ctx: Ctx, e: dict, part: dict) -> None:
    """Heal X Y: up to Y enemies of type X in the area lose one attachment each, Wound first, then
    Fatigue, then an attached hero card, the most recent of its kind (A28); when more qualify, the
    party's HEALCHOICE picks (default: the ones with most remaining health, A29)."""
    s = ctx.s
    order = {"most_health": lambda x: (-m.enemy_stat(s, x, "health"), x["seq"]),
             "least_health": lambda x: (m.enemy_stat(s, x, "health"), x["seq"]),
             "oldest": lambda x: x["seq"]}[s["party"]["healchoice"]]
    cands = sorted(heal_candidates(s, e, part["type"]), key=order)
    for x in cands[:part["n"]]:
        pick = None
        for want in ("wound", "fatigue", "hero"):
            mine = [a for a in x["att"] if m.kind(s, a["card"]) == want]
            if mine:
                pick = mine[-1]
                break
        pick = present(pick, "x has attachments (heal_candidates), and each is a Wound, a Fatigue or a hero card")
        ctx.emit({"type": "detach", "to": x["id"], "card": pick["card"], "why": "heal", "by": e["id"]})


# ---- special abilities and reactions ----------------------------------------------------------------

def _ally_redirect(s: dict, seat: int, ability: str, n: int) -> str | None:
    """The defender's standing ALLY setting for attacks, Poison and Intimidate (default never)."""
    setting = s["heroes"][seat]["plan"]["ally"]
    if setting == "never":
        return None
    for p in m.allies_of(s, seat):
        if setting == "always" or m.ally_stat(s, p, "health") > n:
            return "ally:" + p["card"]
    return None


def intimidate_losses(s: dict, seat: int, n: int) -> list[str]:
    """What Intimidate X takes (A27, section 3.3): hand cards by DISCARD-ORDER, then, with
    DISCARD-PERSISTENT, persistent cards in the hero's area (H24: whoever owns them)."""
    out = default_discards(s, seat, n)
    if len(out) < n and s["heroes"][seat]["plan"]["discard_persistent"]:
        out += [p["card"] for p in s["heroes"][seat]["area"]][:n - len(out)]
    return out


def reactors(s: dict, ability: str, target: int) -> list[list[str]]:
    """Per seat, the Reaction cards that could cancel this special ability aimed at `target`."""
    out: list[list[str]] = []
    for seat, h in enumerate(s["heroes"]):
        cards = []
        for c in h["hand"]:
            for md in modes(s, c):
                if md["type"] != "reaction" or md.get("window") != "on_special_ability" or md["cost"] > h["ap"]:
                    continue
                if md["range"] < m.dist_hero(seat, target):
                    continue
                if any(op["op"] == "cancel" and ability in op["what"] for op in md.get("effects", [])):
                    cards.append(c)
                    break
        out.append(cards)
    return out


def play_reaction(ctx: Ctx, seat: int, cid: str) -> None:
    md = [md for md in modes(ctx.s, cid) if md["type"] == "reaction"][0]
    pay(ctx, seat, md["cost"], "reaction")
    ctx.emit({"type": "play", "seat": seat, "card": cid, "as": "reaction"})
    ctx.emit({"type": "discard", "seat": seat, "from": "limbo", "cards": [cid]})


def special_ability(ctx: Ctx, e: dict, ability: str, n: int, target: int) -> None:
    s = ctx.s
    ctx.emit({"type": "special", "enemy": e["id"], "ability": ability, "n": n, "hero": target})
    task = {"k": "sa_resolve", "e": e["id"], "ability": ability, "n": n, "hero": target, "cancelled": False}
    react = reactors(s, ability, target)
    ask = [seat for seat, cards in enumerate(react) if cards and s["heroes"][seat]["mode"] == "ask"]
    for seat, cards in enumerate(react):  # standing REACT lines of the plans
        planned = [c for c in cards if s["cards"][c] in s["heroes"][seat]["plan"]["react"]]
        if planned and seat not in ask:
            play_reaction(ctx, seat, planned[0])
            ctx.emit({"type": "cancelled", "enemy": e["id"], "ability": ability, "by": seat})
            return
    ctx.push([task])
    if ask:
        ctx.prompt = {"kind": "react", "seats": ask, "window": "on_special_ability",
                      "cards": [cards if seat in ask else [] for seat, cards in enumerate(react)],
                      "ability": ability, "enemy": e["id"], "hero": target}


def answer_react(ctx: Ctx, seat: int, move: dict) -> None:
    p = ctx.prompt
    if move["type"] == "react":
        play_reaction(ctx, seat, move["card"])
        ctx.emit({"type": "cancelled", "enemy": p["enemy"], "ability": p["ability"], "by": seat})
        ctx.tasks[0] = dict(ctx.tasks[0], cancelled=True)
        ctx.prompt = None
        return
    p["seats"].remove(seat)
    if not p["seats"]:
        ctx.prompt = None


def task_sa_resolve(ctx: Ctx, task: dict) -> None:
    s = ctx.s
    if task["cancelled"] or m.enemy(s, task["e"]) is None:
        return
    seat, ability, n = task["hero"], task["ability"], task["n"]
    ally = _ally_redirect(s, seat, ability, 1 if ability == "poison" else n) if ability != "obstruct" else None
    if ability == "poison":
        if ally:
            attach_damage(ctx, ally, "wound", 1)  # Poison on an ally attaches a Wound (section 1.9)
            return
        pile, cid = supply(ctx, "fatigue", for_enemy=False)  # A26: no Fatigue -> a Wound
        ctx.emit({"type": "deck_top", "seat": seat, "card": cid, "pile": pile})
    elif ability == "intimidate":
        if ally:
            attach_damage(ctx, ally, "fatigue", n)  # H6
            return
        losses = intimidate_losses(s, seat, n)
        cards = [c for c in losses if c in s["heroes"][seat]["hand"]]
        if cards:
            ctx.emit({"type": "discard", "seat": seat, "from": "hand", "cards": cards, "why": "intimidate"})
        for c in losses[len(cards):]:
            ctx.emit({"type": "persist_gone", "card": c, "why": "intimidate"})
    elif ability == "obstruct":
        set_ap(ctx, seat, s["heroes"][seat]["ap"] - n, "obstruct")


# ---- enemy attacks and defense ----------------------------------------------------------------------

def defense_cards(s: dict, seat: int, ap: int) -> list[tuple[str, int]]:
    """(card, mode) pairs playable as Defense by this hero with `ap` left."""
    out = []
    for c in s["heroes"][seat]["hand"]:
        for i, md in enumerate(modes(s, c)):
            if md["type"] == "defense" and md["cost"] <= ap:
                out.append((c, i))
                break
    return out


def sanctuary(s: dict, seat: int) -> list[dict]:
    return [p for p in s["heroes"][seat]["area"] if p.get("bonus")]


def defense_total(s: dict, d: dict) -> int:
    total = sum(modes(s, c["card"])[c["mode"]]["value"] for c in d["cards"])
    if d["ally"]:
        ally = persistent_rec(s, d["ally"])
        ally = present(ally, "chosen from the hero's area as the defense opened; it can leave play only as the attack resolves")
        return m.ally_stat(s, ally, "defense") + total
    rate = m.board(s, d["hero"])["defense_rate"]
    total += d["units"] * rate["defense"]
    total += sum(m.cdef(s, w)["hero"]["n"] for w in d["wounds"])
    total += sum(p["bonus"] for p in sanctuary(s, d["hero"]))
    return total


def persistent_rec(s: dict, target: str) -> dict | None:
    for h in s["heroes"]:
        for p in h["area"]:
            if p["card"] == target[5:]:
                return p
    return None


def asked(s: dict, seat: int, e: dict) -> bool:
    """Defense mode (section 3.3): ask, auto, or ASK-IF damage>=2 or wounds>=handsize-2."""
    mode = s["heroes"][seat]["mode"]
    if mode == "ask":
        return True
    if mode == "auto":
        return False
    cond = s["heroes"][seat]["plan"]["ask_if"]
    wounds = cond.get("wounds_at_least")
    wounds = m.hand_size(s) - 2 if wounds is None else wounds
    # the conditions are alternatives ("or"): each one set asks on its own
    return m.damage_in_hand(s, seat) >= wounds or any(
        cond.get(k) is not None and condition_holds(s, {k: cond[k]}, e)
        for k in ("damage_at_least", "attack_at_least", "enemy"))


def aiders(s: dict, seat: int) -> list[int]:
    out = []
    for other, h in enumerate(s["heroes"]):
        if other == seat or h["mode"] == "auto":
            continue
        if any(modes(s, c)[i]["range"] >= 2 for c, i in defense_cards(s, other, h["ap"])):
            out.append(other)
    return out


def task_e_attack(ctx: Ctx, task: dict) -> None:
    s = ctx.s
    e = m.enemy(s, task["e"])
    if e is None:
        if task.get("reacted"):  # a reaction defeated the attacker: its "this attack" modifiers end too
            clear_mods(ctx, "this_attack")
        return
    seat = task["hero"]
    if not task.get("reacted"):  # the before_enemy_attack window comes first; the attack waits behind it
        ctx.push([dict(task, reacted=True)])
        open_window(ctx, "before_enemy_attack", seat, e["id"])
        return
    d = {"e": e["id"], "hero": seat, "ally": _ally_redirect(s, seat, "attack", _dmg_count(e)), "cards": [],
         "units": 0, "wounds": [], "waiting": [], "attack": m.enemy_stat(s, e, "attack")}
    ctx.emit({"type": "defense_state", "defense": d})
    ctx.push([{"k": "e_attack_resolve"}])
    if asked(s, seat, e):
        d = dict(d, waiting=[seat] + aiders(s, seat))
        ctx.emit({"type": "defense_state", "defense": d})
        ctx.prompt = {"kind": "defense", "seats": list(d["waiting"])}
    else:
        apply_plan(ctx, seat)
        for other in range(s["n"]):
            if other != seat and s["heroes"][other]["mode"] == "auto":
                mv = planned_aid(s, other)
                if mv:
                    _commit_defense_card(ctx, other, mv["card"], mv.get("mode", 0))


def planned_aid(s: dict, seat: int) -> dict | None:
    """The aider's standing AID line for this defense point, as a move, if one applies and is legal."""
    d = s["defense"]
    e = m.enemy(s, d["e"])
    if e is None:
        return None
    for line in s["heroes"][seat]["plan"]["aid"]:
        if line.get("to") != d["hero"] or _dmg_count(e) < line.get("damage_at_least", 0):
            continue
        if any(c["seat"] == seat and s["cards"][c["card"]] == line.get("card") for c in d["cards"]):
            continue  # one card per line and defense point
        for mv in defense_moves(s, seat):
            if mv["type"] == "aid_defense" and s["cards"][mv["card"]] == line.get("card"):
                return mv
    return None


def _dmg_count(e: dict) -> int:
    dmg = CONTENT.enemies[e["type"]]["damage"]
    return dmg["wound"] + dmg["fatigue"]


def defense_moves(s: dict, seat: int) -> list[dict]:
    d = s["defense"]
    h = s["heroes"][seat]
    if seat != d["hero"]:
        out = [dict({"type": "aid_defense", "card": c}, **({"mode": i} if len(modes(s, c)) > 1 else {}))
               for c, i in defense_cards(s, seat, h["ap"]) if modes(s, c)[i]["range"] >= 2]
        return out + [{"type": "no_aid"}]
    out = [dict({"type": "defend", "card": c}, **({"mode": i} if len(modes(s, c)) > 1 else {}))
           for c, i in defense_cards(s, seat, h["ap"])]
    if not d["ally"]:
        rate = m.board(s, seat)["defense_rate"]
        if h["ap"] >= rate["ap"]:
            out.append({"type": "spend"})
        total = defense_total(s, d)
        for c in h["hand"]:
            hd = m.damage_side(s, c)
            if hd and hd["type"] == "defense" and total + hd["n"] >= 1:  # A8
                out.append({"type": "defend_wound", "card": c})
        if not d["cards"] and not d["units"] and not d["wounds"]:
            out += [{"type": "to_ally", "ally": p["card"]} for p in m.allies_of(s, seat)]
    for c in h["hand"]:
        hd = m.damage_side(s, c)
        if hd and hd["type"] == "ap" and h["ap"] + hd["n"] >= 0:  # A9: AP-kind wounds at a defense prompt
            out.append({"type": "wound", "card": c})
    return out + [{"type": "plan"}, {"type": "confirm"}]


def _commit_defense_card(ctx: Ctx, seat: int, cid: str, mode: int) -> None:
    s = ctx.s
    pay(ctx, seat, modes(s, cid)[mode]["cost"], "defense")
    ctx.emit({"type": "play", "seat": seat, "card": cid, "as": "defense"})
    d = s["defense"]
    ctx.emit({"type": "defense_state", "defense": dict(d, cards=d["cards"] + [{"card": cid, "seat": seat, "mode": mode}])})


def _close_for(ctx: Ctx, seat: int) -> None:
    d = ctx.s["defense"]
    waiting = [x for x in d["waiting"] if x != seat]
    ctx.emit({"type": "defense_state", "defense": dict(d, waiting=waiting)})
    ctx.prompt = {"kind": "defense", "seats": waiting} if waiting else None


def answer_defense(ctx: Ctx, seat: int, move: dict) -> None:
    s = ctx.s
    t = move["type"]
    d = s["defense"]
    if t in ("defend", "aid_defense"):
        mode = move.get("mode", [i for i, md in enumerate(modes(s, move["card"])) if md["type"] == "defense"][0])
        _commit_defense_card(ctx, seat, move["card"], mode)
    elif t == "spend":
        rate = m.board(s, seat)["defense_rate"]
        pay(ctx, seat, rate["ap"], "defense")
        ctx.emit({"type": "defense_state", "defense": dict(d, units=d["units"] + 1)})
    elif t == "defend_wound":
        ctx.emit({"type": "play", "seat": seat, "card": move["card"], "as": "defense_wound"})
        ctx.emit({"type": "defense_state", "defense": dict(d, wounds=d["wounds"] + [move["card"]])})
    elif t == "wound":
        hd = m.cdef(s, move["card"])["hero"]
        ctx.emit({"type": "play", "seat": seat, "card": move["card"], "as": "wound"})
        set_ap(ctx, seat, s["heroes"][seat]["ap"] + hd["n"], "wound")
        ctx.emit({"type": "discard", "seat": seat, "from": "limbo", "cards": [move["card"]]})
    elif t == "to_ally":
        ctx.emit({"type": "defense_state", "defense": dict(d, ally="ally:" + move["ally"])})
    elif t == "plan":
        apply_plan(ctx, seat)
        _close_for(ctx, seat)
    elif t in ("confirm", "no_aid"):
        _close_for(ctx, seat)


def apply_plan(ctx: Ctx, seat: int) -> None:
    """The defender's standing plan (section 3.3): reach TARGET = attack + margin greedily, Defense cards
    cheapest per point first, then AP at the board rate, within RESERVE and MAXSPEND; if the target is out
    of reach, play only cost-0 Defense cards (ELSE free-cards)."""
    s = ctx.s
    d = s["defense"]
    h = s["heroes"][seat]
    plan = h["plan"]
    e = m.enemy(s, d["e"])
    e = present(e, "the attacker: in play while its defense is open (defense moves resolve no effects)")
    target = d["attack"] + margin_for(s, plan, e)
    budget = h["ap"] // 2 if plan["maxspend"] == "half" else (h["ap"] if plan["maxspend"] == "all" else int(plan["maxspend"]))
    budget = max(0, min(budget, h["ap"] - plan["reserve"]))
    rate = m.board(s, seat)["defense_rate"]
    total = defense_total(s, d)
    cards = sorted(defense_cards(s, seat, h["ap"]),
                   key=lambda ci: (modes(s, ci[0])[ci[1]]["cost"] / max(1, modes(s, ci[0])[ci[1]]["value"]), ci[0]))
    chosen, units, spent = [], 0, 0
    for c, i in cards:
        if total >= target:
            break
        md = modes(s, c)[i]
        if spent + md["cost"] <= budget:
            chosen.append((c, i))
            spent += md["cost"]
            total += md["value"]
    while total < target and not d["ally"] and spent + rate["ap"] <= budget:
        units += 1
        spent += rate["ap"]
        total += rate["defense"]
    if total < target and plan["else"] == "free-cards":
        chosen = [(c, i) for c, i in cards if modes(s, c)[i]["cost"] == 0]
        units = 0
    for c, i in chosen:
        _commit_defense_card(ctx, seat, c, i)
    if units:
        pay(ctx, seat, units * rate["ap"], "defense")
        d = s["defense"]
        ctx.emit({"type": "defense_state", "defense": dict(d, units=d["units"] + units)})
    if plan["use_wounds"] and not s["defense"]["ally"]:
        for c in list(h["hand"]):
            hd = m.damage_side(s, c)
            if hd and hd["type"] == "defense" and defense_total(s, s["defense"]) + hd["n"] >= 1:
                d = s["defense"]
                ctx.emit({"type": "play", "seat": seat, "card": c, "as": "defense_wound"})
                ctx.emit({"type": "defense_state", "defense": dict(d, wounds=d["wounds"] + [c])})


def task_e_attack_resolve(ctx: Ctx, task: dict) -> None:
    s = ctx.s
    d = s["defense"]
    e = m.enemy(s, d["e"])
    if e is not None:
        defense = defense_total(s, d)
        r = draw_response(ctx, "enemy_attack")
        attack = m.enemy_stat(s, e, "attack") + r["value"]
        hit = attack > defense  # tie: no damage
        ctx.emit({"type": "enemy_attack", "enemy": e["id"], "hero": d["hero"], "ally": d["ally"], "attack": attack,
                  "defense": defense, "hit": hit})
        dmg = CONTENT.enemies[e["type"]]["damage"]
        if hit and d["ally"]:
            if dmg["wound"]:
                attach_damage(ctx, d["ally"], "wound", dmg["wound"])
            if dmg["fatigue"]:
                attach_damage(ctx, d["ally"], "fatigue", dmg["fatigue"])
        elif hit:
            for p in sanctuary(s, d["hero"]):
                ctx.emit({"type": "persist_gone", "card": p["card"], "why": "hit_once"})
            hero_takes(ctx, d["hero"], dmg)
    left = [c["card"] for c in d["cards"] if c["card"] in s["limbo"]] + [w for w in d["wounds"] if w in s["limbo"]]
    if left:
        ctx.emit({"type": "discard", "seat": d["hero"], "from": "limbo", "cards": left})
    ctx.emit({"type": "defense_state", "defense": None})
    clear_mods(ctx, "this_attack")
    if e is not None and hit and not d["ally"]:
        open_window(ctx, "after_enemy_hit", d["hero"], e["id"])
