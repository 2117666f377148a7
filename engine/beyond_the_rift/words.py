"""Every word the game says: events as sentences (from the event and the state it was applied to), moves
as button labels, the plain-text board, card rules text, the standing orders and the end of a scenario.

The only module with prose: events hold facts (ids, numbers, seats, keys) and views hold data, so the
wording can change, or be translated, without touching a stored log.  Names come from the state (a hero's
board, an enemy's card, a terrain's scenario rule) as it was when the event happened, which is what the
events of rules versions 1 and 2 carried as `who`, `enemy_name`, ... (see upcast.py): old logs read the
same.
"""

from __future__ import annotations

from . import model as m
from .content import CONTENT
from .orders import HEAVY, heavy_margin, offers_recover, offers_rewards

WHY = {"activation": " for the activation", "attack_q": " for a ?", "attack_q_pick": " for a ? (Keen Eye)",
       "enemy_defense": " for the enemy's defense", "door_defense": " for the door's defense", "door": " for the door",
       "enemy_attack": " for the enemy's attack", "ally_attack_defense": " for the enemy's defense"}
PHASES = {"setup": "Setup", "hero": "Hero phase", "enemy": "Enemy phase", "quest": "Quest phase",
          "draw": "Draw phase", "end": "End phase", "rewards": "Scenario won, rewards", "over": "Scenario over"}
PARTS = {"head": "head", "torso": "torso", "left_arm": "left arm", "right_arm": "right arm", "legs": "legs"}


def card_text(d: dict) -> str:
    """A card's rules in one line, from its definition (the service's campaign pages use it for items)."""
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


# ---- the end of a scenario ---------------------------------------------------------------------------

def reason(res: dict, scenario: str, threat: int, heroes: list[tuple[str, str]]) -> str:
    """Why the scenario ended, from the result's reason code (primitives.end); `heroes` are the party's
    (hero id, name) by seat."""
    code = res["reason"]
    if code == "threat":
        return f"Threat reached {threat}"
    if code == "hero_died":
        # a death logged by rules version 1 or 2 names the hero (upcast.py), later ones the seat
        seat = res["seat"] if "seat" in res else [h for h, _ in heroes].index(res["hero"])
        return f"{heroes[seat][1]} died"
    if code == "boss_defeated":
        return f"{CONTENT.enemies[CONTENT.scenarios[scenario]['win']['defeated']]['name']} is defeated"
    return {"response_deck": "the Response deck ran out", "wound_supply": "the Wound supply ran out",
            "way_out_open": "the way out is open", "road_clear": "the road is clear"}.get(code, code)


def _reason(res: dict, s: dict) -> str:
    return reason(res, s["scenario"], s["threat"], [(h["hero"], m.hero_name(s, i)) for i, h in enumerate(s["heroes"])])


# ---- the plain-text board ------------------------------------------------------------------------------
# The plain-text part of every email and the history's text board: compact, aligned in columns, and no
# line is a bare label ending in a colon (mail filters read such lines as a form to fill in).

WAITS = {"hero_phase": "the heroes' actions; each hero says DONE when finished",
         "attack_window": "an attack to be completed; the attacker adds cards, the others may aid",
         "defense": "a defense decision", "reaction": "a reaction to an enemy's ability",
         "choice": "a choice to complete an action", "recover": "a choice whether to discard a Fatigue as the Door opens",
         "reward": "a choice where the items drawn as rewards go"}
STATUS = {"active": "acting", "done": "DONE", "final": "DONE (final)"}


def _area_name(v: dict, area: int) -> str:
    return "the Quest Area" if area == m.QUEST else f"{v['heroes'][area]['name']}'s area"


def _n(k: int, word: str) -> str:
    return f"{k} {word}{'' if k == 1 else 's'}"


def _columns(rows: list[list[str]], indent: str) -> list[str]:
    """Rows of cells, each column padded to its widest cell (the last one left as it is)."""
    widths = [max(len(r[i]) for r in rows if i < len(r)) for i in range(max(map(len, rows), default=0))]
    return [indent + "  ".join(c.ljust(widths[i]) if i < len(r) - 1 else c for i, c in enumerate(r)).rstrip()
            for r in rows]


def _deals(damage: dict) -> str:
    return " ".join(f"{n}{k[0].upper()}" for k, n in (("wound", damage.get("wound", 0)),
                                                      ("fatigue", damage.get("fatigue", 0))) if n)


def _enemy_row(e: dict) -> list[str]:
    st = e["stats"]
    att = f"attached: {', '.join(e['attachments'])}" if e["attachments"] else ""
    stats = f"A{st['attack']} D{st['defense']} H{e['health']} R{st['range']} C{st['engage']}"
    return [e["id"], e["name"], stats, " ".join(filter(None, [_deals(e["damage"]), att]))]


def render(v: dict) -> str:
    p = v["piles"]
    lines = [f"Beyond the Rift - {v['scenario']['title']}",
             f"Round {v['round']}, {PHASES.get(v['phase'], v['phase'])}. Threat {v['threat']}; "
             f"the party loses at {v['threat_loss']}.",
             f"Hand size {v['hand_size']}. Enemy deck {p['enemy']}, Response deck {p['response']}, "
             f"Wounds left {p['wound'] + p['wound_discard']}, Fatigue left {p['fatigue'] + p['fatigue_discard']}."]
    if v.get("result"):
        r = v["result"]
        why = reason(r, v["scenario"]["id"], v["threat"], [(h["hero"], h["name"]) for h in v["heroes"]])
        lines += ["", f"The scenario is over: {'WON' if r['outcome'] == 'win' else 'LOST'} ({why})."]
    elif v["to_act"]:
        what = WAITS.get((v.get("waiting_on") or {}).get("kind", ""), "a decision")
        names = [v["heroes"][s]["name"] + (" (you)" if s == v["seat"] else "") for s in v["to_act"]]
        lines += ["", f"Waiting on {', '.join(names)}, for {what}."]

    lines += ["", f"The party ({len(v['heroes'])} hero{'' if len(v['heroes']) == 1 else 'es'})"]
    rows = []
    for h in v["heroes"]:
        hurt = ", ".join(x for x in (_n(h["wounds_in_hand"], "Wound") if h["wounds_in_hand"] else "",
                                     f"{h['fatigue_in_hand']} Fatigue" if h["fatigue_in_hand"] else "") if x)
        hand = f"hand {h['hand_count']}" + (f" ({hurt})" if hurt else "")
        # Who plays the hero: "(you)", else "(Player 2)", which the service turns into the player's name.
        rows.append([h["name"] + (" (you)" if h["seat"] == v["seat"] else f" (Player {h['seat'] + 1})"), f"{h['ap']} AP", hand,
                     f"deck {h['deck_count']}", STATUS.get(h["status"], h["status"]),
                     f"defense {h['mode'].replace('_', '-')}"]
                    + ([f"must discard {h['discard_down']}"] if h["discard_down"] else []))
    lines += _columns(rows, "  ")
    for h in v["heroes"]:
        if h.get("equipped"):
            lines.append(f"  {h['name']} carries " + ", ".join(f"{e['name']} ({PARTS[e['part']]})"
                                                             for e in h["equipped"]) + ".")
    for h in v["heroes"]:
        for c in h["area"]:
            extra = (f" (ally: attack {c['ally']['attack']}, defense {c['ally']['defense']}, "
                     f"health {c['ally']['health']})" if c["ally"] else (f" (+{c['bonus']} defense)" if c["bonus"] else ""))
            att = f"; attached: {', '.join(c['attachments'])}" if c["attachments"] else ""
            lines.append(f"  In play in {h['name']}'s area, {c['name']}{extra}{att}.")

    lines += ["", f"Enemies ({len(v['enemies'])})"]
    rows, groups = [], []
    for area in [m.QUEST, *range(len(v["heroes"]))]:
        here = [e for e in v["enemies"] if e["area"] == area]
        if here:
            where = "in the Quest Area" if area == m.QUEST else f"engaged with {v['heroes'][area]['name']}"
            groups.append((f"  {len(here)} {where}", len(rows), len(here)))
            rows += [_enemy_row(e) for e in here]
    table = _columns(rows, "    ") if rows else []
    for title, first, count in groups:
        lines += [title, *table[first:first + count]]
    if rows:
        lines += ["  Key: A attack, D defense, H health, R range, C the AP it costs to engage;",
                  "  a hit deals W Wounds and F Fatigue."]
    else:
        lines.append("  None on the board.")
    lines.append("Terrain in the Quest Area: " + (", ".join(
        f"{t['id']} {t['name']}" + (f" (lock {t['lock']}, defense {t['defense']})" if t["door"] else "")
        for t in v["terrain"]) or "none") + ".")

    if v["attack"]:
        a = v["attack"]
        lines += ["", f"Attack in progress by {v['heroes'][a['by']]['name']} on {a['target']}, "
                      f"{', '.join(a['cards']) or 'no cards yet'} ({a['fixed_total']}{' + ?' * a['question_marks']} so far)."]
    if v["defense"]:
        d = v["defense"]
        lines += ["", f"{d['enemy']} attacks {v['heroes'][d['hero']]['name']} (attack {d['enemy_attack']} + a Response "
                      f"card); defense so far {d['total']}, {', '.join(d['cards']) or 'no cards'}, {d['ap_units']} AP units.",
                  "  Chance to be hit at defense " + ", ".join(f"{c['defense']}: {round(100 * c['hit_chance'])}%"
                                                               for c in d["hit_chances"]) + "."]
    if v.get("rewards"):
        rw = v["rewards"]
        lines += ["", "Rewards so far: " + ("; ".join(_placed(v, d) for d in rw["placed"]) or "none") + "."]
        if rw["undecided"]:
            lines.append(f"{v['heroes'][rw['seat']]['name']} still places "
                         + ", ".join(x["name"] for x in rw["undecided"]) + ".")
    prompt = v.get("prompt") or {}
    if prompt.get("kind") == "reward":
        it = prompt["item"]
        lines.append(f"Item to place: {it['name']} ({PARTS[it['part']]}), "
                     + ", ".join(f"{c['count']}x {c['name']} ({c['text']})" for c in it["cards"]) + ".")
    if prompt.get("kind") == "recover" and "options" in prompt:
        lines.append("The freed prisoners help: you may put one of these on the Fatigue discard, "
                     + ", ".join(prompt["options"]) + ".")
    if "hand" in v:
        me = v["heroes"][v["seat"]]
        if v["hand"]:
            lines += ["", f"Your hand, {_n(len(v['hand']), 'card')} ({me['ap']} AP to spend)"]
            lines += _columns([[c["card"], c["name"], c["text"]] for c in v["hand"]], "  ")
        else:
            lines += ["", f"Your hand is empty ({me['ap']} AP to spend)."]
        if me["discard_down"]:
            lines.append(f"You must discard {_n(me['discard_down'], 'card')} down to hand size {v['hand_size']}.")
    return "\n".join(lines)


def _hero_of(v: dict, hero: str | None) -> str:
    for h in v["heroes"]:
        if h["hero"] == hero:
            return h["name"]
    return CONTENT.board(hero, "standard")["name"] if hero else "the party"


def _placed(v: dict, d: dict) -> str:
    name = CONTENT.items[d["item"]]["name"]
    if d["to"] == "stash":
        return f"{name} in the stash"
    if d["to"] == "reward_deck":
        return f"{name} back under the reward deck"
    return f"{name} equipped by {_hero_of(v, d['hero'])} ({PARTS[d['to']]})"


# ---- moves in words ---------------------------------------------------------------------------------

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
    c = m.cname(mv["card"]) if "card" in mv else ""
    mode = ""
    if isinstance(mv.get("mode"), int):
        d = m.def_of(mv["card"]) if "card" in mv else None
        kind = d["modes"][mv["mode"]]["type"] if d and mv["mode"] < len(d.get("modes", [])) else None
        mode = f" as {'AP' if kind == 'ap' else kind}" if kind else f" (option {mv['mode'] + 1})"
    asked = (state or {}).get("prompt") or {}
    simple = {"draw": "Pay AP to draw a card", "cycle": "Cycle cards (pay AP, discard, draw as many)",
              "board": "Use your hero board action", "done": "End my turn (I act again if another hero's move involves me)",
              "done_final": "End my turn for this round (nothing reopens it)", "undone": "Reopen: I want to act again",
              "resolve": "Resolve the attack now", "no_aid": "Do not aid", "cancel": "Cancel",
              "finish": "Finish", "pass": "Do not react",
              "keep": "Keep the Fatigue in my hand" if asked.get("kind") == "recover" else "Leave it where it is",
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
    if t == "recover":
        return f"Put {c} on the Fatigue discard"
    if t == "reward" and mv.get("item") in CONTENT.items:
        item = CONTENT.items[mv["item"]]
        if mv["to"] == "equip":
            return f"Give {item['name']} to {_thing(mv['seat'], state)} (equipped, {PARTS[item['part']]})"
        if mv["to"] == "stash":
            return f"Put {item['name']} in the party's stash"
        return f"Return {item['name']} under the reward deck"
    return str(mv)


# ---- standing orders in words ---------------------------------------------------------------------------

SECTIONS = {
    "mode": "Defense mode",
    "margin": "Defense target: enemy attack + N",
    "heavy_margin": "Defense target against attacks dealing 2+ cards",
    "reserve": "AP kept in reserve during the enemy phase",
    "maxspend": "Most AP spent on one defense",
    "else": "When the target is out of reach",
    "use_wounds": "Defense-kind Wounds in my defense",
    "discard_persistent": "Intimidate may take my persistent cards",
    "ally": "Send attacks to my ally",
    "discard_first": "Discard first (Intimidate, hand size)",
    "ask_damage": "Ask me when an attack deals at least",
    "ask_wounds": "Ask me when Wounds+Fatigue in my hand reach",
    "react": "Standing reactions (REACT)",
    "aid": "Standing defense aid (AID)",
    "recover_fatigue": "A Fatigue the Door frees from my hand",
    "rewards": "Items I draw when the party wins",
    "tiebreak": "Party: tie-break order",
    "healchoice": "Party: which enemies an enemy Heal picks",
    "hound_target": "Party: whom an ally attacks in the end phase",
}
WORDS = {
    "free-cards": "play only free Defense cards", "nothing": "play nothing", "half": "half of my AP",
    "all": "all my AP", "never": "never", "always": "always", "if-health>damage": "only if it survives",
    "auto": "defend automatically by my plan", "ask": "ask me at every enemy attack",
    "ask_if": "ask me only at dangerous enemy attacks", "rotate": "rotate each round", "most_health": "most health left", "least_health": "least health left",
    "oldest": "oldest first", "lowest_health": "lowest health", "highest_attack": "highest attack",
    True: "yes", False: "no", None: "off",
}
KEY_WORDS = {
    "recover_fatigue": {"ask": "ask me", "always": "always discard it"},
    "rewards": {"auto": "hand them out by the automatic rule", "ask": "ask me item by item"},
}


def describe_value(key: str, value, state: dict | None) -> str:
    if key in KEY_WORDS and value in KEY_WORDS[key]:
        return KEY_WORDS[key][value]
    if key in ("react", "aid"):
        name = CONTENT.cards[value if key == "react" else value["card"]]["name"]
        if key == "react":
            return f"toggle {name}"
        to = m.hero_name(state, value["to"]) if state else f"hero {value['to'] + 1}"
        return f"toggle {name} for {to}"
    if key == "tiebreak" and isinstance(value, str) and value.startswith("first:"):
        seat = int(value.split(":")[1])
        return f"{m.hero_name(state, seat) if state else f'hero {seat + 1}'} first"
    if key == "heavy_margin" and value is None:
        return "same as any attack"
    if key in ("margin", "heavy_margin") and isinstance(value, int):
        return f"attack + {value}"
    if key == "discard_first":
        return {"ap": "AP cards"}.get(value, f"{value} cards")
    if key == "ask_damage" and isinstance(value, int):
        return f"{value} card{'s' if value != 1 else ''}"
    if key == "ask_wounds" and value is None:
        return "hand size - 2"
    if key == "maxspend" and isinstance(value, int):
        return f"{value} AP"
    if isinstance(value, bool) or value is None:  # before any int: True == 1 and False == 0 as dict keys
        return WORDS[value]
    if isinstance(value, str):
        return WORDS.get(value, value)
    return str(value)


def describe_setting(mv: dict, state: dict | None) -> str:
    key = str(mv.get("key"))
    return f"{SECTIONS.get(key, key)}: {describe_value(key, mv.get('value'), state)}"


def orders_summary(s: dict, seat: int) -> list[dict]:
    """This hero's standing orders and the party's, in words, for their own view."""
    plan, party = s["heroes"][seat]["plan"], s["party"]
    ask = plan["ask_if"]
    current = [
        ("mode", describe_value("mode", s["heroes"][seat]["mode"], s)),
        ("margin", describe_value("margin", plan["margin"], s)),
        ("heavy_margin", describe_value("heavy_margin", heavy_margin(plan), s)),
        ("reserve", str(plan["reserve"])), ("maxspend", describe_value("maxspend", plan["maxspend"], s)),
        ("else", describe_value("else", plan["else"], s)), ("use_wounds", describe_value("use_wounds", plan["use_wounds"], s)),
        ("ally", describe_value("ally", plan["ally"], s)),
        ("discard_first", ", ".join(plan["discard_order"])),
        ("discard_persistent", describe_value("discard_persistent", plan["discard_persistent"], s)),
        ("ask_damage", describe_value("ask_damage", ask["damage_at_least"], s)),
        ("ask_wounds", describe_value("ask_wounds", ask["wounds_at_least"], s)),
        ("react", ", ".join(CONTENT.cards[d]["name"] for d in plan["react"]) or "none"),
        ("aid", ", ".join(f"{CONTENT.cards[ln['card']]['name']} for {m.hero_name(s, ln['to'])}" for ln in plan["aid"])
         or "none"),
    ]
    if offers_recover(s):
        current.append(("recover_fatigue", describe_value("recover_fatigue", plan["recover_fatigue"], s)))
    if offers_rewards(s):
        current.append(("rewards", describe_value("rewards", plan["rewards"], s)))
    current += [
        ("tiebreak", ", ".join(m.hero_name(s, x) for x in s["tiebreak"])
         + (" (rotates each round)" if party["tiebreak"] == "rotate" else " (fixed)")),
        ("healchoice", describe_value("healchoice", party["healchoice"], s)),
        ("hound_target", describe_value("hound_target", party["hound_target"], s)),
    ]
    other = [ln for ln in plan["when"] if ln.get("if") != {"damage_at_least": HEAVY}]
    if other:
        current.insert(2, ("when", "; ".join(f"{', '.join(f'{k} {v}' for k, v in ln.get('if', {}).items()) or 'any'}: "
                                             f"attack + {ln['margin']}" for ln in other)))
    return [{"name": SECTIONS.get(k, "Other WHEN lines"), "value": v} for k, v in current]


# ---- events in words ----------------------------------------------------------------------------------

def describe_event(ev: dict, seat: int | None, s: dict | None) -> str | None:
    """The (already redacted) event as a sentence for `seat`, named from `s`, the state before it."""
    line = _describe(ev, seat, s)
    if line is None:
        return None
    you = ev.get("seat") is not None and ev.get("seat") == seat
    return line.replace("(s)", "" if you else "s")


def _enemy_label(s: dict, eid) -> str:
    """"Orc Grunt E3": the name of the enemy with that id in play, else "the enemy"."""
    e = m.enemy(s, eid) if isinstance(eid, str) and s else None
    name = CONTENT.enemies[e["type"]]["name"] if e else "the enemy"
    return f"{name} {eid if isinstance(eid, str) else ''}".strip()


def _hero(s: dict, x) -> str:
    return m.hero_name(s, x) if isinstance(x, int) and s else "a hero"


def _target(s: dict, to: str, fallback: str) -> str:
    """An attachment's holder: an enemy by name and id, an ally as "an ally"."""
    if to.startswith("ally:"):
        return "an ally"
    e = m.enemy(s, to)
    return m.enemy_name(s, e) if e else fallback


def _step_text(s: dict, ev: dict) -> str:
    for typ, cells in m.scenario(s)["rows"]:
        if typ == ev["kind"]:
            return cells[ev["col"] - 1][ev["step"]]["text"]
    return "?"


def _describe(ev: dict, seat: int | None, s: dict | None) -> str | None:
    t = ev["type"]
    if t == "setup":
        heroes = len(ev["state"]["heroes"])
        return f"A new scenario begins with {heroes} hero{'' if heroes == 1 else 'es'}."
    if s is None:  # only a game's first event, its setup, comes without a state
        return None
    if isinstance(ev.get("seat"), int):
        who = "You" if ev["seat"] == seat else m.hero_name(s, ev["seat"])
    else:
        who = "A hero"
    if t == "phase":
        return f"Round {ev['round']}: {PHASES.get(ev['phase'], ev['phase'])}."
    if t == "draw":
        if isinstance(ev["cards"], int):
            return f"{who} draws {ev['cards']} card{'s' if ev['cards'] != 1 else ''}."
        return f"{who} draw(s) {', '.join(m.cname(c) for c in ev['cards'])}."
    if t == "hero_shuffle":
        return f"{who} reshuffle(s) the discard pile with two Fatigue cards into a new deck."
    if t == "pile_shuffle":
        return f"The {ev['pile']} discard pile is shuffled into a new deck."
    if t == "response":
        sig = " with the Rift sigil" if ev["sigil"] else ""
        return f"Response card{WHY.get(str(ev.get('why')), '')}: {ev['value']}{sig}."
    if t == "ap":
        return f"{who} now {'have' if who == 'You' else 'has'} {ev['ap']} AP ({ev['delta']:+d})."
    if t == "take":
        return f"{who} take(s) a {ev['pile']} card into hand" + (f": {m.cname(ev['card'])}." if "card" in ev else ".")
    if t == "deck_top":
        return f"A {ev['pile']} card is put on top of {'your' if who == 'You' else who + chr(39) + 's'} deck."
    if t == "play":
        return f"{who} play(s) {m.cname(ev['card'])}."
    if t == "discard":
        return f"{who} discard(s) {', '.join(m.cname(c) for c in ev['cards'])}."
    if t == "reveal":
        return f"{who} reveal(s) {', '.join(m.cname(c) for c in ev['cards'])}."
    if t == "to_hand":
        return f"{who} take(s) {m.cname(ev['card'])} into hand."
    if t == "heal":
        return f"{who} remove(s) {m.cname(ev['card'])} from hand."
    if t == "spawn":
        where = "the Quest Area" if ev["enemy"]["area"] == m.QUEST else "a Hero Area"
        how = {"summon": "is summoned", "aside": "arrives"}.get(ev["from"], "appears")
        return f"{m.cname(ev['enemy']['card'])} {ev['enemy']['id']} {how} in {where}."
    if t == "terrain_in":
        return f"Terrain appears: {m.terrain_name(s, ev['card'])} {ev['card']}."
    if t == "terrain_out":
        return f"{m.terrain_name(s, ev['card'])} {ev['card']} is removed ({ev['how']})."
    if t == "enemy_move":
        where = "the Quest Area" if ev["area"] == m.QUEST else f"{_hero(s, ev['area'])}'s area"
        return f"{_enemy_label(s, ev['enemy'])} moves to {where} ({ev['why']})."
    if t == "attach":
        return f"{m.cname(ev['card'])} is attached to {_target(s, ev['to'], ev['to'])}."
    if t == "detach":
        return f"{m.cname(ev['card'])} is removed from {_target(s, ev['to'], 'an ally')} ({ev['why']})."
    if t == "enemy_dies":
        return f"{_enemy_label(s, ev['enemy'])} is defeated."
    if t == "persist":
        return f"{m.cname(ev['card'])} stays in play in {_hero(s, ev['area'])}'s area."
    if t == "persist_gone":
        return f"{m.cname(ev['card'])} leaves play."
    if t == "threat":
        return f"Threat is now {ev['threat']}."
    if t == "stat_mod":
        until = {"this_attack": "for this attack", "this_round": "this round"}.get(ev["dur"], ev["dur"])
        return f"{ev['stat'].capitalize()} {ev['n']:+d} {until} for {'an ally' if ev['to'].startswith('ally:') else ev['to']}."
    if t == "attack_result":
        e = m.enemy(s, ev["target"])
        target = m.enemy_name(s, e) if e else f"{m.terrain_name(s, ev['target'])} {ev['target']}"
        q = f" (? draws: {', '.join(map(str, ev['q']))})" if ev["q"] else ""
        return (f"{who} attack(s) {target}: {ev['attack']}{q} against defense {ev['defense']} - "
                f"{'hit' if ev['hit'] else 'miss'}.")
    if t == "door_open":
        return (f"{who} spend(s) {ev['spent']} AP on {m.terrain_name(s, ev['door'])} against {ev['value']}: "
                f"{'open' if ev['ok'] else 'still shut'}.")
    if t == "activation":
        return f"The enemies activate in column {ev['value']}" + (" (Rift sigil)." if ev["sigil"] else ".")
    if t == "enemy_step":
        if ev["did"] is None:
            return f"{_enemy_label(s, ev['enemy'])}: '{_step_text(s, ev)}' - unable, nothing happens."
        return None
    if t == "enemy_attack":
        target = "an ally" if ev["ally"] else _hero(s, ev["hero"])
        return (f"{_enemy_label(s, ev['enemy'])} attacks {target}: {ev['attack']} against defense {ev['defense']} - "
                f"{'hit' if ev['hit'] else 'no damage'}.")
    if t == "special":
        return f"{_enemy_label(s, ev['enemy'])} uses {ev['ability'].capitalize()} on {_hero(s, ev['hero'])}."
    if t == "cancelled":
        return f"{ev['ability'].capitalize()} is cancelled by a reaction."
    if t == "ally_attack":
        return (f"{m.cname(ev['ally'])} attacks {_enemy_label(s, ev['enemy'])}: {ev['attack']} against {ev['defense']} - "
                f"{'hit' if ev['hit'] else 'miss'}.")
    if t == "board_action":
        return f"{who} use(s) {m.board(s, ev['seat'])['action']['name']}."
    if t == "interact":
        return f"{who} use(s) {m.terrain_name(s, ev['terrain'])}."
    if t == "peek":
        if isinstance(ev["cards"], int):
            return f"{who} look(s) at a hidden card."
        if ev["pile"] == "response":
            values = ev.get("values", [])
            card = "card" if len(values) == 1 else "cards"
            return f"{who} see(s) the top Response {card}: {', '.join(map(str, values))}."
        return f"{who} see(s) {', '.join(m.cname(c) for c in ev['cards'])} on top of the deck."
    if t == "response_bottom":
        return f"{who} put(s) the top Response card on the bottom."
    if t == "deck_discard":
        return f"{who} discard(s) {m.cname(ev['card'])} from the top of the deck."
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
    if t == "won":
        return f"The heroes win: {_reason(ev['result'], s)}. The rewards are handed out."
    if t == "reward_draw":
        items = ", ".join(CONTENT.items[it]["name"] for it in ev["items"])
        return f"{who} draw(s) {items} from the reward deck."
    if t == "reward":
        item = CONTENT.items[ev["item"]]["name"]
        if ev["to"] == "stash":
            return f"{who} put(s) {item} in the party's stash."
        if ev["to"] == "reward_deck":
            return f"{who} put(s) {item} back under the reward deck."
        if "on" in ev:
            return f"{who} give(s) {item} to {_hero(s, ev['on'])}, who equips it ({PARTS[ev['to']]})."
        return f"{who} equip(s) {item} ({PARTS[ev['to']]})."
    if t == "result":
        r = ev["result"]
        return f"The heroes {'win' if r['outcome'] == 'win' else 'lose'}: {_reason(r, s)}."
    return None
