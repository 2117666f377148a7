"""What people see: views (nothing hidden leaks), redacted events, sentences, the plain-text board."""

from __future__ import annotations

import re

from . import model as m
from .content import CONTENT
from .evolve import jcopy
from .orders import describe_setting, summary

WHY = {"activation": " for the activation", "attack_q": " for a ?", "attack_q_pick": " for a ? (Keen Eye)",
       "enemy_defense": " for the enemy's defense", "door_defense": " for the door's defense", "door": " for the door",
       "enemy_attack": " for the enemy's attack", "ally_attack_defense": " for the enemy's defense"}
PHASES = {"setup": "Setup", "hero": "Hero phase", "enemy": "Enemy phase", "quest": "Quest phase",
          "draw": "Draw phase", "end": "End phase", "over": "Scenario over"}


def def_of(cid: str) -> dict | None:
    """A card's definition from its physical id alone (ids are the definition id plus a letter)."""
    if cid in CONTENT.cards:
        return CONTENT.cards[cid]
    base = re.sub(r"[a-z]+$|\d+$", "", cid) if not cid.startswith("IT-") else re.sub(r"[a-z]+$", "", cid)
    return CONTENT.cards.get(base)


def cname(cid) -> str:
    if not isinstance(cid, str):
        return "a card"
    d = def_of(cid)
    return d["name"] if d else cid


def card_text(d: dict) -> str:
    parts = []
    for md in d.get("modes", []):
        t = md["type"]
        if t == "attack":
            v = md["value"]
            val = "+".join(x for x in ([str(v["n"])] if v["n"] or not v["q"] else []) + ["?"] * v["q"])
            cost = f"primary {md['primary'] if md['primary'] is not None else '-'} / secondary " \
                   f"{md['secondary'] if md['secondary'] is not None else '-'}"
            parts.append(f"Attack {val} ({cost}, range {md['range']})")
        elif t in ("ap", "defense"):
            parts.append(f"{'AP' if t == 'ap' else 'Defense'} {md['value']} (cost {md['cost']}, range {md['range']})")
        else:
            extra = f", {md['window'].replace('_', ' ')}" if t == "reaction" else ""
            kw = " ".join(md.get("keywords", []))
            parts.append(f"{t.capitalize()}{' ' + kw if kw else ''} (cost {md['cost']}, range {md['range']}{extra})")
    if "hero" in d and d.get("kind") in ("wound", "fatigue"):
        parts.append(f"{d['kind'].capitalize()}: {d['hero']['type']} {d['hero']['n']:+d}")
    sep = " or " if d.get("choose_one") else " and "
    return sep.join(parts)


# ---- views --------------------------------------------------------------------------------------

# What the party is waiting on, with H7's default deadline for it (the service owns the clock).
DEADLINES = {"hero_phase": 48, "attack_window": 12, "defense": 12, "reaction": 12, "choice": 48}


def waiting_on(s: dict) -> dict | None:
    if s["result"] is not None:
        return None
    p = s["prompt"]
    if p is not None:
        kind = {"defense": "defense", "react": "reaction"}.get(p["kind"], "choice")
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
            "attachments": [cname(a["card"]) for a in e["att"]]}


def view(s: dict, seat: int | None, to_act: list[int]) -> dict:
    sc = m.scenario(s)
    heroes = []
    for i, h in enumerate(s["heroes"]):
        b = m.board(s, i)
        heroes.append({
            "seat": i, "hero": h["hero"], "name": b["name"], "side": h["side"], "ap": h["ap"], "status": h["status"],
            "mode": h["mode"], "hand_count": len(h["hand"]), "wounds_in_hand": m.wounds_in_hand(s, i),
            "fatigue_in_hand": m.damage_in_hand(s, i) - m.wounds_in_hand(s, i), "deck_count": len(h["deck"]),
            "discard": [cname(c) for c in h["discard"]], "discard_down": h["discard_down"],
            # A pledge is announced to the party (section 3.2), but its card is still in the pledger's
            # hand, which is private (3.1): only the pledger and the hero it is pledged to see which.
            "pledges": [{"card": cname(p["card"]) if seat in (i, p["to"]) else None, "to": p["to"], "on": p.get("on")}
                        for p in h["pledges"]],
            "area": [{"card": p["card"], "name": cname(p["card"]), "ally": p.get("ally") and {
                k: m.ally_stat(s, p, k) for k in ("range", "attack", "defense", "health")},
                "bonus": p.get("bonus"), "attachments": [cname(a["card"]) for a in p["att"]]} for p in h["area"]],
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
        "attack": None, "defense": None, "prompt": None, "result": jcopy(s["result"]), "waiting_on": waiting_on(s),
        "party": {"tiebreak": [m.hero_name(s, x) for x in s["tiebreak"]], "rotates": s["party"]["tiebreak"] == "rotate",
                  "healchoice": s["party"]["healchoice"], "hound_target": s["party"]["hound_target"]},
    }
    if s["attack"]:
        a = s["attack"]
        from .hero_phase import attack_fixed_total

        fixed, q = attack_fixed_total(s, a)
        v["attack"] = {"by": a["by"], "target": a["target"], "cards": [cname(c["card"]) for c in a["cards"]],
                       "wounds": [cname(w) for w in a["wounds"]], "passed": a["passed"], "fixed_total": fixed,
                       "question_marks": q}
    if s["defense"]:
        d = s["defense"]
        from .enemy_phase import defense_total

        counts = m.response_counts(s)
        left = sum(counts.values()) or 1
        total = defense_total(s, d)
        # "if your defense is D you are hit with probability P", from the remaining Response deck (3.3)
        chances = [{"defense": dv, "hit_chance": round(sum(k for v, k in counts.items() if d["attack"] + int(v) > dv)
                                                       / left, 2)}
                   for dv in range(max(0, d["attack"]), d["attack"] + 5)]
        v["defense"] = {"enemy": d["e"], "hero": d["hero"], "ally": d["ally"], "enemy_attack": d["attack"],
                        "cards": [cname(c["card"]) for c in d["cards"]], "ap_units": d["units"], "total": total,
                        "hit_chances": chances}
    if s["prompt"]:
        p = s["prompt"]
        v["prompt"] = {"kind": p["kind"], "seats": p["seats"]}
        if seat in p["seats"] and p["kind"] in ("choose", "amount", "pick", "bottom"):
            v["prompt"]["options"] = [cname(o) if isinstance(o, str) and p["kind"] in ("pick", "bottom") else o
                                      for o in p["options"]]
    if seat is not None and 0 <= seat < s["n"]:
        v["plan"] = jcopy(s["heroes"][seat]["plan"])
        v["orders"] = summary(s, seat)
        v["hand"] = [{"card": c, "name": cname(c), "text": card_text(m.cdef(s, c))} for c in s["heroes"][seat]["hand"]]
    return v


def _area_name(v: dict, area: int) -> str:
    return "the Quest Area" if area == m.QUEST else f"{v['heroes'][area]['name']}'s area"


def _n(k: int, word: str) -> str:
    return f"{k} {word}{'' if k == 1 else 's'}"


def render(v: dict) -> str:
    lines = [f"Beyond the Rift - {v['scenario']['title']}",
             f"Round {v['round']}, {PHASES.get(v['phase'], v['phase'])}. Threat {v['threat']} (lose at {v['threat_loss']}).",
             ""]
    if v.get("result"):
        r = v["result"]
        lines += [f"The scenario is over: {'WON' if r['outcome'] == 'win' else 'LOST'} ({r['reason']}).", ""]
    lines.append("Heroes:")
    for h in v["heroes"]:
        you = " (you)" if h["seat"] == v["seat"] else ""
        lines.append(f"  {h['name']}{you}: {h['ap']} AP, {_n(h['hand_count'], 'card')} in hand "
                     f"({_n(h['wounds_in_hand'], 'Wound')}, {h['fatigue_in_hand']} Fatigue), deck {h['deck_count']}, "
                     f"{h['status']}, defense mode {h['mode'].replace('_', '-')}")
        for p in h["area"]:
            extra = f" ally {p['ally']}" if p["ally"] else (f" +{p['bonus']} defense" if p["bonus"] else "")
            lines.append(f"    in play: {p['name']}{extra}")
    lines.append("")
    lines.append("Enemies:")
    if not v["enemies"]:
        lines.append("  none")
    for e in v["enemies"]:
        st = e["stats"]
        att = f"; attached: {', '.join(e['attachments'])}" if e["attachments"] else ""
        lines.append(f"  {e['id']} {e['name']} in {_area_name(v, e['area'])}: attack {st['attack']}, "
                     f"defense {st['defense']}, health {e['health']}, range {st['range']}, engage {st['engage']}{att}")
    lines.append("")
    lines.append("Terrain in the Quest Area: " + (", ".join(
        f"{t['id']} {t['name']}" + (f" (lock {t['lock']}, defense {t['defense']})" if t["door"] else "")
        for t in v["terrain"]) or "none"))
    p = v["piles"]
    lines.append(f"Enemy deck {p['enemy']}, Response deck {p['response']}, Wounds left {p['wound'] + p['wound_discard']}.")
    if v["attack"]:
        a = v["attack"]
        lines.append(f"Attack in progress by {v['heroes'][a['by']]['name']} on {a['target']}: {', '.join(a['cards'])} "
                     f"({a['fixed_total']}{' + ?' * a['question_marks']} so far).")
    if v["defense"]:
        d = v["defense"]
        lines.append(f"{d['enemy']} attacks {v['heroes'][d['hero']]['name']} (attack {d['enemy_attack']} + a Response "
                     f"card); defense so far {d['total']}: {', '.join(d['cards']) or 'no cards'}, {d['ap_units']} AP units.")
        lines.append("  Chance to be hit: " + ", ".join(f"defense {c['defense']}: {round(100 * c['hit_chance'])}%"
                                                        for c in d["hit_chances"]) + ".")
    if "hand" in v:
        me = v["heroes"][v["seat"]]
        lines += ["", f"Your hand ({me['ap']} AP):"]
        lines += [f"  {c['card']} {c['name']}: {c['text']}" for c in v["hand"]] or ["  (empty)"]
        if me["discard_down"]:
            lines.append(f"You must discard {me['discard_down']} card(s) down to hand size {v['hand_size']}.")
    if v["to_act"]:
        what = (v.get("waiting_on") or {}).get("kind", "").replace("_", " ")
        lines += ["", f"Waiting for ({what}): " + ", ".join(v["heroes"][s]["name"] for s in v["to_act"]) + "."]
    return "\n".join(lines)


# ---- moves and events in words ------------------------------------------------------------------

def _thing(x, state) -> str:
    if isinstance(x, int):
        return m.hero_name(state, x) if state else f"hero {x + 1}"
    if isinstance(x, str) and state:
        e = m.enemy(state, x)
        if e:
            return m.enemy_name(state, e)
        if x in state["terrain"]:
            return f"{m.terrain_name(state, x)} {x}"
    return str(x)


def describe_move(mv: dict, state: dict | None = None) -> str:
    t = mv.get("type")
    c = cname(mv["card"]) if "card" in mv else ""
    mode = ""
    if isinstance(mv.get("mode"), int):
        d = def_of(mv["card"]) if "card" in mv else None
        kind = d["modes"][mv["mode"]]["type"] if d and mv["mode"] < len(d.get("modes", [])) else None
        mode = f" as {'AP' if kind == 'ap' else kind}" if kind else f" (option {mv['mode'] + 1})"
    simple = {"draw": "Pay AP to draw a card", "cycle": "Cycle cards (pay AP, discard, draw as many)",
              "board": "Use your hero board action", "done": "Done (reopen if something changes)",
              "done_final": "Done for this phase (final)", "undone": "Reopen: I want to act again",
              "resolve": "Resolve the attack now", "no_aid": "Do not aid", "cancel": "Cancel",
              "finish": "Finish", "keep": "Leave it where it is", "pass": "Do not react",
              "plan": "Defend by my standing plan", "confirm": "Confirm my defense",
              "spend": f"Spend {mv.get('n', 1)} AP" if "n" in mv else "Spend AP at your board's rate for +defense"}
    if t in simple:
        return simple[t]
    if t == "attack":
        return f"Attack with {c}{mode}" + (", refusing the pledged aid" if mv.get("nopledge") else "")
    if t == "play":
        return f"Play {c}{mode}"
    if t == "wound":
        return f"Play {c} from hand (lose AP)"
    if t == "discard_ap":
        return f"Discard {c} to gain AP"
    if t == "discard":
        return f"Discard {c} (hand size)"
    if t in ("engage", "disengage"):
        return f"{t.capitalize()} {_thing(mv['enemy'], state)}"
    if t == "open":
        return f"Open {_thing(mv['door'], state)} with AP"
    if t == "interact":
        return f"Use {_thing(mv['terrain'], state)}"
    if t == "mode":
        return {"auto": "Defend automatically by my plan", "ask": "Ask me at every enemy attack",
                "ask_if": "Ask me only at dangerous enemy attacks"}[mv["mode"]]
    if t == "choose":
        return "Choose: any target" if mv["value"] == "any" else f"Choose {_thing(mv['value'], state)}"
    if t == "setting":
        return describe_setting(mv, state)
    if t == "add":
        return f"Add {c}{mode} to your attack"
    if t == "add_wound":
        return f"Add {c} to your attack"
    if t == "aid":
        return f"Aid the attack with {c}{mode}"
    if t == "pick":
        return f"Take {c}"
    if t == "pledge":
        return f"Pledge {c} to the next attack of {_thing(mv['to'], state)} (then choose: any target or one)"
    if t == "unpledge":
        return f"Withdraw the pledge of {c}"
    if t == "bottom":
        return f"Move {c} away (bottom / discard)"
    if t == "option":
        return f"Choose option {mv['value'] + 1}"
    if t == "react":
        return f"React with {c}"
    if t in ("defend", "aid_defense"):
        return f"Defend with {c}{mode}"
    if t == "defend_wound":
        return f"Add {c} to your defense"
    if t == "to_ally":
        return f"Send the attack to your ally {c}"
    return str(mv)


def redact_event(ev: dict, seat: int | None) -> dict:
    t = ev["type"]
    if t == "setup":
        st = jcopy(ev["state"])
        for i, h in enumerate(st["heroes"]):
            h["deck"] = len(h["deck"])
            if i != seat:
                h["hand"] = len(h["hand"])
        for k in ("enemy", "terrain", "response", "wound", "fatigue"):
            st["piles"][k] = len(st["piles"][k])
        if st.get("campaign") and st["campaign"].get("reward_deck") is not None:
            st["campaign"] = dict(st["campaign"], reward_deck=len(st["campaign"]["reward_deck"]))
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
    if t == "flow":
        p = ev["prompt"]
        own = p is not None and seat in p.get("seats", [])
        if own and "cards" in p:  # a reaction prompt lists each asked hero's own cards
            p = dict(p, cards=[v if i == seat else [] for i, v in enumerate(p["cards"])])
        return {"type": "flow", "prompt": p if own else (p and {"kind": p["kind"], "seats": p["seats"]}),
                "action": ev["action"] if ev["action"] and ev["action"]["seat"] == seat else None, "tasks": len(ev["tasks"])}
    return ev


def describe_event(ev: dict, seat: int | None) -> str | None:
    line = _describe(ev, seat)
    if line is None:
        return None
    you = ev.get("seat") is not None and ev.get("seat") == seat
    return line.replace("(s)", "" if you else "s")


def _describe(ev: dict, seat: int | None) -> str | None:
    t = ev["type"]
    who = "You" if ev.get("seat") is not None and ev.get("seat") == seat else ev.get("who", "A hero")
    en = f"{ev.get('enemy_name', 'the enemy')} {ev.get('enemy', '')}".strip()
    if t == "setup":
        return f"A new scenario begins with {len(ev['state']['heroes'])} hero(es)."
    if t == "phase":
        return f"Round {ev['round']}: {PHASES.get(ev['phase'], ev['phase'])}."
    if t == "draw":
        if isinstance(ev["cards"], int):
            return f"{who} draws {ev['cards']} card{'s' if ev['cards'] != 1 else ''}."
        return f"{who} draw(s) {', '.join(cname(c) for c in ev['cards'])}."
    if t == "hero_shuffle":
        return f"{who} reshuffle(s) the discard pile with two Fatigue cards into a new deck."
    if t == "pile_shuffle":
        return f"The {ev['pile']} discard pile is shuffled into a new deck."
    if t == "response":
        sig = " with the Rift sigil" if ev["sigil"] else ""
        why = WHY.get(ev.get("why"), "")
        return f"Response card{why}: {ev['value']}{sig}."
    if t == "ap":
        return f"{who} now {'have' if who == 'You' else 'has'} {ev['ap']} AP ({ev['delta']:+d})."
    if t == "take":
        return f"{who} take(s) a {ev['pile']} card into hand" + (f": {cname(ev['card'])}." if "card" in ev else ".")
    if t == "deck_top":
        return f"A {ev['pile']} card is put on top of {'your' if who == 'You' else who + chr(39) + 's'} deck."
    if t == "play":
        return f"{who} play(s) {cname(ev['card'])}."
    if t == "discard":
        return f"{who} discard(s) {', '.join(cname(c) for c in ev['cards'])}."
    if t == "reveal":
        return f"{who} reveal(s) {', '.join(cname(c) for c in ev['cards'])}."
    if t == "to_hand":
        return f"{who} take(s) {cname(ev['card'])} into hand."
    if t == "heal":
        return f"{who} remove(s) {cname(ev['card'])} from hand."
    if t == "spawn":
        where = "the Quest Area" if ev["enemy"]["area"] == m.QUEST else "a Hero Area"
        how = {"summon": "is summoned", "aside": "arrives"}.get(ev["from"], "appears")
        return f"{cname(ev['enemy']['card'])} {ev['enemy']['id']} {how} in {where}."
    if t == "terrain_in":
        return f"Terrain appears: {ev.get('name', cname(ev['card']))} {ev['card']}."
    if t == "terrain_out":
        return f"{ev.get('name', cname(ev['card']))} {ev['card']} is removed ({ev['how']})."
    if t == "enemy_move":
        where = "the Quest Area" if ev["area"] == m.QUEST else f"{ev.get('area_name', 'a hero')}'s area"
        return f"{en} moves to {where} ({ev['why']})."
    if t == "attach":
        return f"{cname(ev['card'])} is attached to {ev.get('to_name', 'an ally' if ev['to'].startswith('ally:') else ev['to'])}."
    if t == "detach":
        return f"{cname(ev['card'])} is removed from {ev.get('to_name', 'an ally')} ({ev['why']})."
    if t == "enemy_dies":
        return f"{en} is defeated."
    if t == "persist":
        return f"{cname(ev['card'])} stays in play in {ev.get('area_name', 'a hero')}'s area."
    if t == "persist_gone":
        return f"{cname(ev['card'])} leaves play."
    if t == "threat":
        return f"Threat is now {ev['threat']}."
    if t == "stat_mod":
        until = {"this_attack": "for this attack", "this_round": "this round"}.get(ev["dur"], ev["dur"])
        return f"{ev['stat'].capitalize()} {ev['n']:+d} {until} for {'an ally' if ev['to'].startswith('ally:') else ev['to']}."
    if t == "attack_result":
        q = f" (? draws: {', '.join(map(str, ev['q']))})" if ev["q"] else ""
        return (f"{who} attack(s) {ev.get('target_name', ev['target'])}: {ev['attack']}{q} against defense {ev['defense']} - "
                f"{'hit' if ev['hit'] else 'miss'}.")
    if t == "door_open":
        return (f"{who} spend(s) {ev['spent']} AP on {ev.get('door_name', 'the door')} against {ev['value']}: "
                f"{'open' if ev['ok'] else 'still shut'}.")
    if t == "activation":
        return f"The enemies activate in column {ev['value']}" + (" (Rift sigil)." if ev["sigil"] else ".")
    if t == "enemy_step":
        if ev["did"] is None:
            return f"{en}: '{ev['text']}' - unable, nothing happens."
        return None
    if t == "enemy_attack":
        target = "an ally" if ev["ally"] else ev.get("hero_name", "a hero")
        return f"{en} attacks {target}: {ev['attack']} against defense {ev['defense']} - {'hit' if ev['hit'] else 'no damage'}."
    if t == "special":
        return f"{en} uses {ev['ability'].capitalize()} on {ev.get('hero_name', 'a hero')}."
    if t == "cancelled":
        return f"{ev['ability'].capitalize()} is cancelled by a reaction."
    if t == "ally_attack":
        return f"{cname(ev['ally'])} attacks {en}: {ev['attack']} against {ev['defense']} - {'hit' if ev['hit'] else 'miss'}."
    if t == "board_action":
        return f"{who} use(s) {ev['name']}."
    if t == "interact":
        return f"{who} use(s) {ev.get('terrain_name', cname(ev['terrain']))}."
    if t == "peek":
        if isinstance(ev["cards"], int):
            return f"{who} look(s) at a hidden card."
        if ev["pile"] == "response":
            return f"{who} see(s) the top Response card(s): {', '.join(map(str, ev.get('values', [])))}."
        return f"{who} see(s) {', '.join(cname(c) for c in ev['cards'])} on top of the deck."
    if t == "response_bottom":
        return f"{who} put(s) the top Response card on the bottom."
    if t == "deck_discard":
        return f"{who} discard(s) {cname(ev['card'])} from the top of the deck."
    if t == "tiebreak":
        return None
    if t == "hero_set" and ev["key"] == "pledges" and ev.get("why") in ("pledge", "pledge_used"):
        return f"{who} {'pledge(s) a card to another hero' if ev['why'] == 'pledge' else 'aid(s) with a pledged card'}."
    if t == "hero_set" and ev["key"] == "plan":
        return f"{who} change(s) {'your' if who == 'You' else 'their'} standing orders ({ev.get('setting', 'plan')})."
    if t == "set" and ev["key"] == "party":
        return f"The party's standing orders change ({ev.get('setting', 'settings')})."
    if t == "hero_set" and ev["key"] == "mode":
        return f"{who} set(s) the defense mode to {ev['value'].replace('_', '-')}."
    if t == "hero_set" and ev["key"] == "status":
        return f"{who} {'are' if who == 'You' else 'is'} {'active again' if ev['value'] == 'active' else ev['value']}."
    if t == "result":
        r = ev["result"]
        return f"The heroes {'win' if r['outcome'] == 'win' else 'lose'}: {r['reason']}."
    return None
