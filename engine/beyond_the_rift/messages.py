"""Beyond the Rift's events and moves as messages (engine/messages.py, issue #26): keys and facts, no
words.  The words are the catalog's (service/games/beyond_the_rift_catalog.py, English, and
service/translations/<language>/LC_MESSAGES/beyond_the_rift.po); `KEYS` lists every key a message here
may use and `TERMS` every word of the game's vocabulary (heroes, items, phases, ...), and
tests/engine/beyond_the_rift/test_btr_messages.py plays games to hold the code to them.

Each function mirrors its sentence in words.py (kept for the plain-text board, card rules text and the
standing orders' summary).  `event_messages` words the event as `views.redact_event` gives it to the
viewer, so a message cannot carry a card the viewer may not see; the state it is handed (the state
before the event) only names things: a hero by their board, an enemy by its card, a terrain by its
scenario rule.

Arguments: a hero is `Term("hero", "<hero>/<side>")` (a seat's name in this game is its hero's, as it
was before messages) beside `actor=Seat(n)`, which picks the `.you` form for that seat's reader; a card
is `Card(<definition id>)`; an enemy or terrain in play `msg("label", name=..., id=Term("id", "E3"))`
(an id no catalog translates, worded as it is); a signed number `msg("signed.plus"/"signed.minus")`.
"""

from __future__ import annotations

from engine.messages import Arg, Card, Cards, Count, Joined, Message, Number, Seat, Term, msg

from . import model as m
from .content import CONTENT, PARTS
from .views import redact_event

QUEST = m.QUEST


# ---- names -------------------------------------------------------------------------------------------

def card(cid) -> Message | Card:
    """A card by its physical id: its definition's name ("a card" for a hidden one)."""
    if not isinstance(cid, str):
        return msg("a_card")
    d = m.def_of(cid)
    return Card(d["id"]) if d and "id" in d else Card(cid)


def cards(ids) -> Cards:
    return Cards(tuple(c.id if isinstance(c := card(x), Card) else str(x) for x in ids))


def hero_term(state: dict, seat: int) -> Term:
    h = state["heroes"][seat]
    return Term("hero", f"{h['hero']}/{h['side']}")


def _id(x) -> Term:
    return Term("id", str(x))


def signed(n: int) -> Message:
    return msg("signed.plus", n=Number(n)) if n >= 0 else msg("signed.minus", n=Number(-n))


def numbers(values) -> Joined:
    return Joined(tuple(msg("number", n=Number(v)) for v in values), "sep.comma")


def enemy_label(s: dict | None, eid) -> Message:
    """"Orc Grunt E3": the enemy with that id in play by name and id, else "the enemy"."""
    e = m.enemy(s, eid) if isinstance(eid, str) and s else None
    if e:
        return msg("label", name=Card(e["type"]), id=_id(eid))
    return msg("the_enemy.id", id=_id(eid)) if isinstance(eid, str) else msg("the_enemy")


def _enemy_name(e: dict) -> Message:
    return msg("label", name=Card(e["type"]), id=_id(e["id"]))


def terrain_name(s: dict, cid: str) -> Term | Message | Card:
    rule = m.terrain_rule(s, cid).get("name")
    return Term("terrain", rule) if rule else card(s["cards"][cid])


def _hero(s: dict, x) -> Term | Message:
    return hero_term(s, x) if isinstance(x, int) and s else msg("a_hero")


def _target(s: dict, to: str, fallback: Message | Term) -> Message | Term:
    if to.startswith("ally:"):
        return msg("an_ally")
    e = m.enemy(s, to)
    return _enemy_name(e) if e else fallback


def _step_text(s: dict, ev: dict) -> str:
    for typ, cells in m.scenario(s)["rows"]:
        if typ == ev["kind"]:
            return cells[ev["col"] - 1][ev["step"]]["text"]
    return "?"


def reason_message(res: dict, scenario: str, threat: int, heroes: list[str]) -> Message | Term:
    """Why the scenario ended (words.reason): `heroes` are the party's "<hero>/<side>" by seat."""
    code = res["reason"]
    if code == "threat":
        return msg("reason.threat", threat=Number(threat))
    if code == "hero_died":
        hero_ids = [key.split("/")[0] for key in heroes]
        seat = res["seat"] if "seat" in res else hero_ids.index(res["hero"])
        return msg("reason.hero_died", hero=Term("hero", heroes[seat]))
    if code == "boss_defeated":
        return msg("reason.boss_defeated", enemy=Card(CONTENT.scenarios[scenario]["win"]["defeated"]))
    if code in REASONS:
        return msg(f"reason.{code}")
    return Term("reason", str(code))  # unknown: said as it is


REASONS = ("response_deck", "wound_supply", "way_out_open", "road_clear")


def _reason(res: dict, s: dict) -> Message | Term:
    return reason_message(res, s["scenario"], s["threat"], [f"{h['hero']}/{h['side']}" for h in s["heroes"]])


# ---- events ------------------------------------------------------------------------------------------

def event_messages(event: dict, seat: int | None, state: dict | None) -> list[Message]:
    """The event as messages for `seat` (None: a spectator); [] for bookkeeping."""
    ev = redact_event(event, seat)
    one = _event(ev, state)
    return [] if one is None else [one]


def _event(ev: dict, s: dict | None) -> Message | None:
    t = ev["type"]
    if t == "setup":
        return msg("event.setup", count=Count(len(ev["state"]["heroes"])))
    if s is None:  # only a game's first event, its setup, comes without a state
        return None
    me: dict[str, Arg]
    if isinstance(ev.get("seat"), int):
        me = {"actor": Seat(ev["seat"]), "who": hero_term(s, ev["seat"])}
    else:
        me = {"actor": None, "who": msg("a_hero")}

    def said(key: str, **args) -> Message:
        return msg(key, **me, **args)

    if t == "phase":
        return msg("event.phase", round=Number(ev["round"]), phase=Term("phase", ev["phase"]))
    if t == "draw":
        if isinstance(ev["cards"], int):
            return said("event.draw", count=Count(ev["cards"]))
        return said("event.draw.cards", cards=cards(ev["cards"]))
    if t == "hero_shuffle":
        return said("event.hero_shuffle")
    if t == "pile_shuffle":
        return msg("event.pile_shuffle", pile=Term("pile", ev["pile"]))
    if t == "response":
        why = ev.get("why")
        return msg("event.response", why=msg(f"why.{why}") if why in WHY else None, value=Number(ev["value"]),
                   sigil=msg("with_sigil") if ev["sigil"] else None)
    if t == "ap":
        return said("event.ap", ap=Number(ev["ap"]), delta=signed(ev["delta"]))
    if t == "take":
        if "card" in ev:
            return said("event.take.card", pile=Term("pile", ev["pile"]), card=card(ev["card"]))
        return said("event.take", pile=Term("pile", ev["pile"]))
    if t == "deck_top":
        return said("event.deck_top", pile=Term("pile", ev["pile"]))
    if t in ("play", "to_hand", "heal", "deck_discard"):
        return said(f"event.{t}", card=card(ev["card"]))
    if t in ("discard", "reveal"):
        return said(f"event.{t}", cards=cards(ev["cards"]))
    if t == "spawn":
        how = ev["from"] if ev["from"] in ("summon", "aside") else "appears"
        where = "quest" if ev["enemy"]["area"] == QUEST else "hero"
        return msg(f"event.spawn.{how}.{where}", enemy=msg("label", name=card(ev["enemy"]["card"]),
                                                           id=_id(ev["enemy"]["id"])))
    if t == "terrain_in":
        return msg("event.terrain_in", terrain=msg("label", name=terrain_name(s, ev["card"]), id=_id(ev["card"])))
    if t == "terrain_out":
        return msg("event.terrain_out", terrain=msg("label", name=terrain_name(s, ev["card"]), id=_id(ev["card"])),
                   how=Term("how", ev["how"]))
    if t == "enemy_move":
        why = Term("why.move", ev["why"])
        if ev["area"] == QUEST:
            return msg("event.enemy_move.quest", enemy=enemy_label(s, ev["enemy"]), why=why)
        return msg("event.enemy_move.hero", enemy=enemy_label(s, ev["enemy"]), hero=_hero(s, ev["area"]), why=why)
    if t == "attach":
        return msg("event.attach", card=card(ev["card"]), target=_target(s, ev["to"], _id(ev["to"])))
    if t == "detach":
        return msg("event.detach", card=card(ev["card"]), target=_target(s, ev["to"], msg("an_ally")),
                   why=Term("why.detach", ev["why"]))
    if t == "enemy_dies":
        return msg("event.enemy_dies", enemy=enemy_label(s, ev["enemy"]))
    if t == "persist":
        return msg("event.persist", card=card(ev["card"]), hero=_hero(s, ev["area"]))
    if t == "persist_gone":
        return msg("event.persist_gone", card=card(ev["card"]))
    if t == "threat":
        return msg("event.threat", threat=Number(ev["threat"]))
    if t == "stat_mod":
        return msg("event.stat_mod", stat=Term("stat", ev["stat"]), n=signed(ev["n"]), dur=Term("dur", ev["dur"]),
                   target=msg("an_ally") if ev["to"].startswith("ally:") else _id(ev["to"]))
    if t == "attack_result":
        e = m.enemy(s, ev["target"])
        target = _enemy_name(e) if e else msg("label", name=terrain_name(s, ev["target"]), id=_id(ev["target"]))
        q = msg("q_draws", values=numbers(ev["q"])) if ev["q"] else None
        return said("event.attack_result." + ("hit" if ev["hit"] else "miss"), target=target,
                    attack=Number(ev["attack"]), q=q, defense=Number(ev["defense"]))
    if t == "door_open":
        return said("event.door_open." + ("open" if ev["ok"] else "shut"), spent=Number(ev["spent"]),
                    door=terrain_name(s, ev["door"]), value=Number(ev["value"]))
    if t == "activation":
        return msg("event.activation.sigil" if ev["sigil"] else "event.activation", column=Number(ev["value"]))
    if t == "enemy_step":
        if ev["did"] is None:
            return msg("event.enemy_step.unable", enemy=enemy_label(s, ev["enemy"]),
                       step=Term("enemy_step", _step_text(s, ev)))
        return None
    if t == "enemy_attack":
        whom: Message | Term = msg("an_ally") if ev["ally"] else _hero(s, ev["hero"])
        return msg("event.enemy_attack." + ("hit" if ev["hit"] else "miss"), enemy=enemy_label(s, ev["enemy"]),
                   target=whom, attack=Number(ev["attack"]), defense=Number(ev["defense"]))
    if t == "special":
        return msg("event.special", enemy=enemy_label(s, ev["enemy"]), ability=Term("ability", ev["ability"]),
                   hero=_hero(s, ev["hero"]))
    if t == "cancelled":
        return msg("event.cancelled", ability=Term("ability", ev["ability"]))
    if t == "ally_attack":
        return msg("event.ally_attack." + ("hit" if ev["hit"] else "miss"), ally=card(ev["ally"]),
                   enemy=enemy_label(s, ev["enemy"]), attack=Number(ev["attack"]), defense=Number(ev["defense"]))
    if t == "board_action":
        return said("event.board_action", action=Term("action", m.board(s, ev["seat"])["action"]["name"]))
    if t == "interact":
        return said("event.interact", terrain=terrain_name(s, ev["terrain"]))
    if t == "peek":
        if isinstance(ev["cards"], int):
            return said("event.peek.hidden")
        if ev["pile"] == "response":
            values = ev.get("values", [])
            return said("event.peek.response", count=Count(len(values)), values=numbers(values))
        return said("event.peek.deck", cards=cards(ev["cards"]))
    if t == "response_bottom":
        return said("event.response_bottom")
    if t == "hero_set" and ev["key"] == "pledges" and ev.get("why") in ("pledge", "pledge_used"):
        return said(f"event.{ev['why']}")
    if t == "hero_set" and ev["key"] == "plan":
        return said("event.plan", setting=Term("setting", ev.get("setting", "plan")))
    if t == "set" and ev["key"] == "party":
        return msg("event.party", setting=Term("setting", ev.get("setting", "settings")))
    if t == "hero_set" and ev["key"] == "mode":
        return said("event.mode", mode=Term("mode", ev["value"]))
    if t == "hero_set" and ev["key"] == "status":
        return said("event.status", status=Term("status", ev["value"]))
    if t == "won":
        return msg("event.won", reason=_reason(ev["result"], s))
    if t == "reward_draw":
        return said("event.reward_draw",
                    items=Joined(tuple(msg("item", item=Term("item", it)) for it in ev["items"]), "sep.comma"))
    if t == "reward":
        item = Term("item", ev["item"])
        if ev["to"] in ("stash", "reward_deck"):
            return said(f"event.reward.{ev['to']}", item=item)
        if "on" in ev:
            return said("event.reward.give", item=item, hero=_hero(s, ev["on"]), part=Term("part", ev["to"]))
        return said("event.reward.equip", item=item, part=Term("part", ev["to"]))
    if t == "result":
        r = ev["result"]
        return msg("event.result." + ("win" if r["outcome"] == "win" else "loss"), reason=_reason(r, s))
    return None


WHY = ("activation", "attack_q", "attack_q_pick", "enemy_defense", "door_defense", "door", "enemy_attack",
       "ally_attack_defense")


# ---- moves -------------------------------------------------------------------------------------------

def _thing(x, state) -> Message | Term:
    if isinstance(x, int):
        return hero_term(state, x) if state else msg("hero_n", n=Number(x + 1))
    if isinstance(x, str) and x.startswith("ally:"):  # words.py said the id ("ally:TR11a")
        return msg("the_ally", card=card(x[5:]))
    if isinstance(x, str) and state:
        e = m.enemy(state, x)
        if e:
            return _enemy_name(e)
        if x in state["terrain"]:
            return msg("label", name=terrain_name(state, x), id=_id(x))
    return _id(x)


def _mode(mv: dict) -> Message | None:
    if not isinstance(mv.get("mode"), int):
        return None
    d = m.def_of(mv["card"]) if "card" in mv else None
    kind = d["modes"][mv["mode"]]["type"] if d and mv["mode"] < len(d.get("modes", [])) else None
    return msg("mode.as", kind=Term("mode_kind", kind)) if kind else msg("mode.option", n=Number(mv["mode"] + 1))


SIMPLE = ("draw", "cycle", "board", "done", "done_final", "undone", "resolve", "no_aid", "cancel", "finish", "pass",
          "plan", "confirm")
CARD_MOVES = ("wound", "discard_ap", "discard", "add_wound", "pick", "unpledge", "bottom", "react", "defend_wound",
              "to_ally", "recover")


def move_message(mv: dict, state: dict | None = None) -> Message:
    """A move as a message (words.describe_move's words): for buttons, links and confirm pages."""
    t = mv.get("type")
    c = card(mv["card"]) if "card" in mv else msg("nothing")
    asked = (state or {}).get("prompt") or {}
    if t in SIMPLE:
        return msg(f"move.{t}")
    if t == "keep":
        return msg("move.keep.recover" if asked.get("kind") == "recover" else "move.keep")
    if t == "spend":
        return msg("move.spend.n", n=Number(mv["n"])) if "n" in mv else msg("move.spend")
    if t == "attack":
        return msg("move.attack.nopledge" if mv.get("nopledge") else "move.attack", card=c, mode=_mode(mv))
    if t in ("play", "add", "aid"):
        return msg(f"move.{t}", card=c, mode=_mode(mv))
    if t in ("defend", "aid_defense"):
        return msg("move.defend", card=c, mode=_mode(mv))
    if t in CARD_MOVES:
        return msg(f"move.{t}", card=c)
    if t in ("engage", "disengage"):
        return msg(f"move.{t}", enemy=_thing(mv["enemy"], state))
    if t == "open":
        return msg("move.open", door=_thing(mv["door"], state))
    if t == "interact":
        return msg("move.interact", terrain=_thing(mv["terrain"], state))
    if t == "mode" and mv.get("mode") in ("auto", "ask", "ask_if"):
        return msg(f"move.mode.{mv['mode']}")
    if t == "choose":
        return msg("move.choose.any") if mv["value"] == "any" else msg("move.choose", target=_thing(mv["value"], state))
    if t == "setting":
        return setting_message(mv, state)
    if t == "pledge":
        return msg("move.pledge", card=c, hero=_thing(mv["to"], state))
    if t == "option":
        return msg("move.option", n=Number(mv["value"] + 1))
    if t == "reward" and mv.get("item") in CONTENT.items:
        item = Term("item", mv["item"])
        if mv["to"] == "equip":
            return msg("move.reward.equip", item=item, hero=_thing(mv["seat"], state),
                       part=Term("part", CONTENT.items[mv["item"]]["part"]))
        if mv["to"] == "stash":
            return msg("move.reward.stash", item=item)
        return msg("move.reward.return", item=item)
    return msg("move.unknown")


# ---- standing orders (the setting moves) ---------------------------------------------------------------

SECTIONS = ("mode", "margin", "heavy_margin", "reserve", "maxspend", "else", "use_wounds", "discard_persistent", "ally",
            "discard_first", "ask_damage", "ask_wounds", "react", "aid", "recover_fatigue", "rewards", "tiebreak",
            "healchoice", "hound_target")
# words.WORDS's values by their (string) key; True/False/None as "yes"/"no"/"off"
VALUES = ("free-cards", "nothing", "half", "all", "never", "always", "if-health>damage", "auto", "ask", "ask_if",
          "rotate", "most_health", "least_health", "oldest", "lowest_health", "highest_attack", "true", "false", "none")
KEY_VALUES = {"recover_fatigue": ("ask", "always"), "rewards": ("auto", "ask")}


def _seat_or_n(state, seat) -> Message | Term:
    return hero_term(state, seat) if state else msg("hero_n", n=Number(seat + 1))


def value_message(key: str, value, state: dict | None) -> Message:
    """A standing order's value (words.describe_value)."""
    if key in KEY_VALUES and value in KEY_VALUES[key]:
        return msg("value.term", word=Term(f"value.{key}", value))
    if key in ("react", "aid"):
        cid = value if key == "react" else value["card"]
        if key == "react":
            return msg("value.toggle", card=card(cid))
        return msg("value.toggle_for", card=card(cid), hero=_seat_or_n(state, value["to"]))
    if key == "tiebreak" and isinstance(value, str) and value.startswith("first:"):
        return msg("value.first", hero=_seat_or_n(state, int(value.split(":")[1])))
    if key == "heavy_margin" and value is None:
        return msg("value.same")
    if key in ("margin", "heavy_margin") and isinstance(value, int):
        return msg("value.margin", n=Number(value))
    if key == "discard_first":
        return msg("value.discard_first.ap") if value == "ap" else msg("value.discard_first",
                                                                       kind=Term("mode_kind", str(value)))
    if key == "ask_damage" and isinstance(value, int):
        return msg("value.cards", count=Count(value))
    if key == "ask_wounds" and value is None:
        return msg("value.hand_size")
    if key == "maxspend" and isinstance(value, int):
        return msg("value.ap", n=Number(value))
    if isinstance(value, bool) or value is None:
        return msg("value.term", word=Term("value", {True: "true", False: "false", None: "none"}[value]))
    if isinstance(value, str):
        return msg("value.term", word=Term("value", value))
    return msg("number", n=Number(value))


def orders_messages(s: dict, seat: int) -> list[tuple[str, Message]]:
    """This hero's standing orders and the party's as (section key, value message): words.orders_summary
    as messages, in its order."""
    from .orders import HEAVY, heavy_margin, offers_recover, offers_rewards

    plan, party = s["heroes"][seat]["plan"], s["party"]
    ask = plan["ask_if"]

    def listed(items: list[Message]) -> Message:
        return msg("value.list", items=Joined(tuple(items), "sep.comma")) if items else msg("value.none")

    current = [
        ("mode", value_message("mode", s["heroes"][seat]["mode"], s)),
        ("margin", value_message("margin", plan["margin"], s)),
        ("heavy_margin", value_message("heavy_margin", heavy_margin(plan), s)),
        ("reserve", msg("number", n=Number(plan["reserve"]))),
        ("maxspend", value_message("maxspend", plan["maxspend"], s)),
        ("else", value_message("else", plan["else"], s)),
        ("use_wounds", value_message("use_wounds", plan["use_wounds"], s)),
        ("ally", value_message("ally", plan["ally"], s)),
        ("discard_first", listed([msg("value.term", word=Term("mode_kind", str(k))) for k in plan["discard_order"]])),
        ("discard_persistent", value_message("discard_persistent", plan["discard_persistent"], s)),
        ("ask_damage", value_message("ask_damage", ask["damage_at_least"], s)),
        ("ask_wounds", value_message("ask_wounds", ask["wounds_at_least"], s)),
        ("react", listed([msg("value.card", card=Card(d)) for d in plan["react"]])),
        ("aid", listed([msg("value.aid", card=Card(ln["card"]), hero=hero_term(s, ln["to"])) for ln in plan["aid"]])),
    ]
    if offers_recover(s):
        current.append(("recover_fatigue", value_message("recover_fatigue", plan["recover_fatigue"], s)))
    if offers_rewards(s):
        current.append(("rewards", value_message("rewards", plan["rewards"], s)))
    order = Joined(tuple(msg("value.hero", hero=hero_term(s, x)) for x in s["tiebreak"]), "sep.comma")
    current += [
        ("tiebreak", msg("value.tiebreak.rotate" if party["tiebreak"] == "rotate" else "value.tiebreak.fixed",
                         heroes=order)),
        ("healchoice", value_message("healchoice", party["healchoice"], s)),
        ("hound_target", value_message("hound_target", party["hound_target"], s)),
    ]
    other = [ln for ln in plan["when"] if ln.get("if") != {"damage_at_least": HEAVY}]
    if other:  # WHEN lines of a plan typed by hand: their conditions in words (English: as typed)
        lines = tuple(msg("value.when", cond=when_condition(ln.get("if", {})), n=Number(ln["margin"])) for ln in other)
        current.insert(2, ("when", msg("value.list", items=Joined(lines, "sep.semicolon"))))
    return current


WHEN_KEYS = ("damage_at_least", "attack_at_least", "enemy")  # setup.CONDITION_KEYS, in a stable order


def when_condition(cond: dict) -> Arg:
    """A WHEN line's condition (setup.CONDITION_KEYS) in words: each part `when.<key>` (English says it
    as typed, "attack_at_least 3, enemy Goblin Archer"), `when.any` for none; a part with no value (null)
    stays as typed."""
    if not cond:
        return msg("when.any")
    enemies = {e["name"]: t for t, e in CONTENT.enemies.items()}
    parts = []
    for k, v in cond.items():
        if k == "enemy" and v in enemies:
            parts.append(msg("when.enemy", enemy=Card(enemies[v])))
        elif k in WHEN_KEYS[:2] and isinstance(v, int):
            parts.append(msg(f"when.{k}", n=Number(v)))
        else:
            parts.append(msg("value.term", word=Term("id", f"{k} {v}")))
    return Joined(tuple(parts), "sep.comma")


def setting_message(mv: dict, state: dict | None) -> Message:
    key = str(mv.get("key"))
    return msg("move.setting", section=Term("section", key), value=value_message(key, mv.get("value"), state))


# ---- every key and term --------------------------------------------------------------------------------

KEYS = frozenset({
    # events
    "event.setup", "event.phase", "event.draw", "event.draw.cards", "event.hero_shuffle", "event.pile_shuffle",
    "event.response", *(f"why.{w}" for w in WHY), "with_sigil", "event.ap", "event.take", "event.take.card",
    "event.deck_top", "event.play", "event.to_hand", "event.heal", "event.deck_discard", "event.discard",
    "event.reveal", *(f"event.spawn.{how}.{where}" for how in ("summon", "aside", "appears") for where in ("quest", "hero")),
    "event.terrain_in", "event.terrain_out", "event.enemy_move.quest", "event.enemy_move.hero", "event.attach",
    "event.detach", "event.enemy_dies", "event.persist", "event.persist_gone", "event.threat", "event.stat_mod",
    "event.attack_result.hit", "event.attack_result.miss", "q_draws", "event.door_open.open", "event.door_open.shut",
    "event.activation", "event.activation.sigil", "event.enemy_step.unable", "event.enemy_attack.hit",
    "event.enemy_attack.miss", "event.special", "event.cancelled", "event.ally_attack.hit", "event.ally_attack.miss",
    "event.board_action", "event.interact", "event.peek.hidden", "event.peek.response", "event.peek.deck",
    "event.response_bottom", "event.pledge", "event.pledge_used", "event.plan", "event.party", "event.mode",
    "event.status", "event.won", "event.reward_draw", "item", "event.reward.stash", "event.reward.reward_deck",
    "event.reward.give", "event.reward.equip", "event.result.win", "event.result.loss",
    "reason.threat", "reason.hero_died", "reason.boss_defeated", *(f"reason.{r}" for r in REASONS),
    # names and pieces
    "a_card", "a_hero", "an_ally", "the_ally", "the_enemy", "the_enemy.id", "label", "signed.plus", "signed.minus", "number",
    "sep.comma", "hero_n", "nothing",
    # moves
    *(f"move.{t}" for t in SIMPLE), "move.keep", "move.keep.recover", "move.spend", "move.spend.n", "move.attack",
    "move.attack.nopledge", "move.play", "move.add", "move.aid", "move.defend", *(f"move.{t}" for t in CARD_MOVES),
    "mode.as", "mode.option", "move.engage", "move.disengage", "move.open", "move.interact", "move.mode.auto",
    "move.mode.ask", "move.mode.ask_if", "move.choose", "move.choose.any", "move.pledge", "move.option",
    "move.reward.equip", "move.reward.stash", "move.reward.return", "move.unknown", "move.setting",
    # the rift's headline of its turn in an email's first line (service/games/beyond_the_rift.py rift_news)
    "rift.turn", "rift.hit", "rift.hit.took", "rift.took", "rift.wounds", "rift.fatigue", "rift.miss",
    "rift.special", "rift.dead", "rift.engaged", "rift.threat", "rift.spawn", "rift.hero", "rift.a_hero", "rift.an_ally", "list.two", "list.more",
    # standing orders' values
    "value.term", "value.toggle", "value.toggle_for", "value.first", "value.same", "value.margin",
    "value.discard_first", "value.discard_first.ap", "value.cards", "value.hand_size", "value.ap",
    # the standing orders in a view (orders_messages)
    "value.list", "value.none", "value.card", "value.aid", "value.hero", "value.tiebreak.rotate",
    "value.tiebreak.fixed", "value.when", "sep.semicolon", "when.any", *(f"when.{k}" for k in WHEN_KEYS),
})


def _step_texts() -> tuple[str, ...]:
    return tuple(sorted({step["text"] for sc in CONTENT.scenarios.values() for _typ, cells in sc["rows"]
                         for cell in cells for step in cell}))


# The words of the game's vocabulary its messages use, by context (the catalog has each one's English).
TERMS: dict[str, tuple[str, ...]] = {
    "hero": tuple(CONTENT.boards),
    "action": tuple(sorted({b["action"]["name"] for b in CONTENT.boards.values()})),
    "item": tuple(CONTENT.items),
    "part": PARTS,
    "phase": ("setup", "hero", "enemy", "quest", "draw", "end", "rewards", "over"),
    "pile": ("wound", "fatigue", "response", "enemy", "terrain"),
    "why.move": ("card", "engage", "disengage", "reengage", "support"),
    "why.detach": ("heal", "healed", "end_of_round"),
    "how": ("destroyed", "interact", "opened"),
    "stat": ("health", "attack", "defense", "engage", "range"),
    "dur": ("this_attack", "this_round"),
    "ability": ("poison", "intimidate", "obstruct"),
    "status": ("active", "done", "final"),
    "mode": ("auto", "ask", "ask_if"),
    "mode_kind": ("attack", "ap", "defense", "special", "reaction"),
    "setting": (*SECTIONS, "plan", "settings"),
    "section": SECTIONS,
    "value": VALUES,
    **{f"value.{key}": words for key, words in KEY_VALUES.items()},
    "enemy_step": _step_texts(),
    "terrain": tuple(sorted({r["name"] for sc in CONTENT.scenarios.values()
                             for r in sc["terrain_rules"].values() if r.get("name")})),
}
