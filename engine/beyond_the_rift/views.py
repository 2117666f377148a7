"""What each seat may see: views (data, nothing hidden leaks) and redacted events.

Views are data: ids, numbers, seats, keys, and names or rules text taken from the card data.  The one
exception is `orders`, the seat's standing orders in words (words.orders_summary), which the play page
shows beside the drop-downs of those settings.  Hidden here: other heroes' hands, every deck's order and
contents, the face-down piles (enemy, terrain, Response, Wound and Fatigue supplies) and the campaign's
reward deck; a pledged card is named only to the pledger and the hero it is pledged to (section 3.2).
"""

from __future__ import annotations

from ..kit import jcopy
from . import model as m
from .content import CONTENT, PARTS
from .enemy_phase import defense_total
from .hero_phase import attack_fixed_total
from .primitives import fatigue_in_hand
from .words import card_text, orders_summary

# What the party is waiting on, with H7's default deadline for it (the service owns the clock).  The
# H25 question (a Fatigue freed by the Door) holds up the hero phase like a defense prompt; the H26 one
# (rewards) comes after the scenario, at the pace of a hero phase.
DEADLINES = {"hero_phase": 48, "attack_window": 12, "defense": 12, "reaction": 12, "choice": 48, "recover": 12,
             "reward": 48}


def waiting_on(s: dict) -> dict | None:
    if s["result"] is not None:
        return None
    p = s["prompt"]
    if p is not None:
        kind = {"defense": "defense", "react": "reaction", "recover": "recover", "reward": "reward"}.get(
            p["kind"], "choice")
        if p["kind"] == "react" and p.get("window") == "own_attack_response":
            kind = "choice"
    elif s["attack"] is not None:
        kind = "attack_window"
    elif s["phase"] == "hero":
        kind = "hero_phase"
    else:
        return None
    return {"kind": kind, "default_deadline_hours": DEADLINES[kind]}


def _enemy_view(s: dict, e: dict) -> dict:
    d = CONTENT.enemies[e["type"]]
    return {"id": e["id"], "name": d["name"], "family": d["family"], "area": e["area"],
            "stats": {k: m.enemy_stat(s, e, k) for k in ("engage", "range", "attack", "defense")},
            "health": m.enemy_stat(s, e, "health"), "damage": d["damage"],
            "attachments": [m.cname(a["card"]) for a in e["att"]]}


def public_result(res: dict | None) -> dict | None:
    """A result as anyone may see it: the campaign's reward deck is face down (its size only)."""
    if res is None:
        return None
    out = jcopy(res)
    for key in ("rewards", "campaign"):
        if isinstance(out.get(key), dict) and isinstance(out[key].get("reward_deck"), list):
            out[key]["reward_deck"] = len(out[key]["reward_deck"])
    return out


def view(s: dict, seat: int | None, to_act: list[int]) -> dict:
    sc = m.scenario(s)
    heroes = []
    for i, h in enumerate(s["heroes"]):
        b = m.board(s, i)
        heroes.append({
            "seat": i, "hero": h["hero"], "name": b["name"], "side": h["side"], "ap": h["ap"], "status": h["status"],
            "mode": h["mode"], "hand_count": len(h["hand"]), "wounds_in_hand": m.wounds_in_hand(s, i),
            "fatigue_in_hand": m.damage_in_hand(s, i) - m.wounds_in_hand(s, i), "deck_count": len(h["deck"]),
            "discard": [m.cname(c) for c in h["discard"]], "discard_down": h["discard_down"],
            # A pledge is announced to the party (section 3.2), but its card is still in the pledger's
            # hand, which is private (3.1): only the pledger and the hero it is pledged to see which.
            "pledges": [{"card": m.cname(p["card"]) if seat in (i, p["to"]) else None, "to": p["to"], "on": p.get("on")}
                        for p in h["pledges"]],
            "area": [{"card": p["card"], "name": m.cname(p["card"]), "ally": p.get("ally") and {
                k: m.ally_stat(s, p, k) for k in ("range", "attack", "defense", "health")},
                "bonus": p.get("bonus"), "attachments": [m.cname(a["card"]) for a in p["att"]]} for p in h["area"]],
            # Campaign items the hero carries (public: the game's options say them), by body part.
            "equipped": [{"part": part, "item": h["equipped"][part], "name": CONTENT.items[h["equipped"][part]]["name"]}
                         for part in PARTS if part in h.get("equipped", {})],
            "board": {"start_ap": b["start_ap"], "draw_cost": b["draw_cost"], "cycle_cost": b["cycle_cost"],
                      "discard_gain": b["discard_gain"], "defense_rate": b["defense_rate"],
                      "action": b["action"]["name"], "action_cost": b["action"]["cost"]},
        })
    v = {
        "game": "beyond-the-rift", "scenario": {"id": sc["id"], "title": sc["title"]}, "round": s["round"],
        "phase": s["phase"], "threat": s["threat"], "threat_loss": sc["threat_loss"], "hand_size": m.hand_size(s),
        "seat": seat, "to_act": to_act, "heroes": heroes,
        "enemies": [_enemy_view(s, e) for e in s["enemies"]],
        "terrain": [{"id": t, "name": m.terrain_name(s, t), "door": m.is_door(s, t),
                     **(dict(zip(("lock", "defense"), m.door_values(s, t))) if m.is_door(s, t) else {})}
                    for t in s["terrain"]],
        "piles": {"enemy": len(s["piles"]["enemy"]), "terrain": len(s["piles"]["terrain"]),
                  "response": len(s["piles"]["response"]), "response_remaining": m.response_counts(s),
                  "wound": len(s["piles"]["wound"]), "wound_discard": len(s["piles"]["wound_discard"]),
                  "fatigue": len(s["piles"]["fatigue"]), "fatigue_discard": len(s["piles"]["fatigue_discard"])},
        "attack": None, "defense": None, "prompt": None, "result": public_result(s["result"]),
        "waiting_on": waiting_on(s), "rewards": None,
        "party": {"tiebreak": [m.hero_name(s, x) for x in s["tiebreak"]], "rotates": s["party"]["tiebreak"] == "rotate",
                  "healchoice": s["party"]["healchoice"], "hound_target": s["party"]["hound_target"]},
    }
    if s["attack"]:
        a = s["attack"]
        fixed, q = attack_fixed_total(s, a)
        v["attack"] = {"by": a["by"], "target": a["target"], "cards": [m.cname(c["card"]) for c in a["cards"]],
                       "wounds": [m.cname(w) for w in a["wounds"]], "passed": a["passed"], "fixed_total": fixed,
                       "question_marks": q}
    if s["defense"]:
        d = s["defense"]
        counts = m.response_counts(s)
        left = sum(counts.values()) or 1
        total = defense_total(s, d)
        # "if your defense is D you are hit with probability P", from the remaining Response deck (3.3)
        chances = [{"defense": dv, "hit_chance": round(sum(k for v, k in counts.items() if d["attack"] + int(v) > dv)
                                                       / left, 2)}
                   for dv in range(max(0, d["attack"]), d["attack"] + 5)]
        v["defense"] = {"enemy": d["e"], "hero": d["hero"], "ally": d["ally"], "enemy_attack": d["attack"],
                        "cards": [m.cname(c["card"]) for c in d["cards"]], "ap_units": d["units"], "total": total,
                        "hit_chances": chances}
    if s["reward"] is not None:  # H26: the items drawn so far are face up, the reward deck is not
        r = s["reward"]
        v["rewards"] = {"seat": r["seat"], "undecided": [{"item": it, "name": CONTENT.items[it]["name"]}
                                                         for it in r["hand"]],
                        "placed": jcopy(r["drawn"])}
    if s["prompt"]:
        p = s["prompt"]
        v["prompt"] = {"kind": p["kind"], "seats": p["seats"]}
        if seat in p["seats"] and p["kind"] in ("choose", "amount", "pick", "bottom"):
            v["prompt"]["options"] = [m.cname(o) if isinstance(o, str) and p["kind"] in ("pick", "bottom") else o
                                      for o in p["options"]]
        if seat is not None and seat in p["seats"] and p["kind"] == "recover":
            v["prompt"]["options"] = [m.cname(c) for c in fatigue_in_hand(s, seat)]
        if p["kind"] == "reward":
            item = CONTENT.items[p["item"]]
            v["prompt"]["item"] = {"id": p["item"], "name": item["name"], "part": item["part"],
                                   "cards": [{"name": c["name"], "count": c["count"], "text": card_text(c)}
                                             for c in item["cards"]]}
    if seat is not None and 0 <= seat < s["n"]:
        v["plan"] = jcopy(s["heroes"][seat]["plan"])
        v["orders"] = orders_summary(s, seat)
        v["hand"] = [{"card": c, "name": m.cname(c), "text": card_text(m.cdef(s, c))} for c in s["heroes"][seat]["hand"]]
    return v


# ---- redaction ------------------------------------------------------------------------------------

def _setup_public(st: dict, seat: int | None) -> None:
    """The setup state as `seat` sees it: deck orders and face-down piles by size, other hands by size,
    and the card and owner maps only for cards in view (the others are named when they come into view)."""
    for i, h in enumerate(st["heroes"]):
        h["deck"] = len(h["deck"])
        if i != seat:
            h["hand"] = len(h["hand"])
    for k in ("enemy", "terrain", "response", "wound", "fatigue"):
        st["piles"][k] = len(st["piles"][k])
    if st.get("campaign") and st["campaign"].get("reward_deck") is not None:
        st["campaign"] = dict(st["campaign"], reward_deck=len(st["campaign"]["reward_deck"]))
    shown = set(st["aside"]) | set(st["terrain"]) | set(st["limbo"]) | {c for cs in st["summon"].values() for c in cs}
    shown |= {e["card"] for e in st["enemies"]}
    for i, h in enumerate(st["heroes"]):
        if i == seat:
            shown |= set(h["hand"])
        shown |= set(h["discard"])
    st["cards"] = {c: d for c, d in st["cards"].items() if c in shown}
    st["owner"] = {c: o for c, o in st["owner"].items() if c in shown}


def redact_event(ev: dict, seat: int | None) -> dict:
    t = ev["type"]
    if t == "setup":
        st = jcopy(ev["state"])
        _setup_public(st, seat)
        return dict(ev, state=st)
    if t in ("hero_shuffle", "pile_shuffle"):
        return dict(ev, order=len(ev["order"]))
    if t == "draw" and ev["seat"] != seat:
        return dict(ev, cards=len(ev["cards"]))
    if t in ("take", "deck_top") and ev["seat"] != seat:
        return {k: v for k, v in ev.items() if k != "card"}
    if t == "peek" and ev["seat"] != seat:
        return {**{k: v for k, v in ev.items() if k != "values"}, "cards": len(ev["cards"])}
    if t == "hero_set" and ev["key"] == "pledges" and seat != ev["seat"]:  # see view(): pledged cards
        return dict(ev, value=[p if p["to"] == seat else dict(p, card=None) for p in ev["value"]])
    if t == "result":
        return dict(ev, result=public_result(ev["result"]))
    if t == "flow":
        p = ev["prompt"]
        own = p is not None and seat in p.get("seats", [])
        if own and "cards" in p:  # a reaction prompt lists each asked hero's own cards
            p = dict(p, cards=[v if i == seat else [] for i, v in enumerate(p["cards"])])
        return {"type": "flow", "prompt": p if own else (p and {"kind": p["kind"], "seats": p["seats"]}),
                "action": ev["action"] if ev["action"] and ev["action"]["seat"] == seat else None, "tasks": len(ev["tasks"])}
    return ev
