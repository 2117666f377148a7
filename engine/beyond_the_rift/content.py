"""The content pack (rules file section 2) loaded from the JSON files in data/ and validated.

Everything the rules engine knows about heroes, cards, enemies, decks, terrain, scenarios and items comes
from here.  Validation is strict and runs once at import: a malformed record raises ContentError naming
the file and record, so a bad edit to the pack never reaches a running game.
"""

from __future__ import annotations

import json
from importlib import resources

from .activation import DEFAULT_ROW, ActivationError, parse_cell


class ContentError(ValueError):
    pass


MODE_TYPES = ("attack", "ap", "defense", "special", "reaction")
PARTS = ("head", "torso", "left_arm", "right_arm", "legs")
STATS = ("health", "attack", "defense", "engage", "range")
WINDOWS = ("hero_phase", "before_enemy_attack", "after_enemy_hit", "on_special_ability", "after_quest_spawn",
           "own_attack_response", "end_phase")
TARGETS = ("self", "hero", "enemy", "own_area_enemy", "other_area_enemy", "quest_enemy", "attack_target",
           "attacker", "spawned_enemy", "this_ally", "same", "area_owner", "each_hero")
# Effect ops of section 2.1 (+ peek_deck for Tamsin's board) and the parameters each one needs.
OPS = {
    "gain_ap": ("n", "target"), "lose_ap": ("n", "target"), "draw": ("n", "target"),
    "reveal": ("n",), "heal_wound": ("n", "target"), "recover_fatigue": ("n", "target"),
    "attach_wound": ("n", "target"), "attach_fatigue": ("n", "target"),
    "attach_self": ("target", "mods", "until"), "move_enemy": ("target", "to"),
    "mod": ("stat", "n", "target", "dur"), "defense_bonus": ("n", "protects", "discard_when"),
    "cancel": ("what",), "response_pick": ("draw", "keep"), "peek_response": ("n",), "peek_deck": (),
    "ally": ("stats",), "ally_attack": ("value", "target"), "persistent": (), "bonus": ("when", "do"),
    "choose": ("options",),
}
SCENARIO_OPS = ("threat", "spawn", "spawn_terrain_if_none", "arrive", "lose_if_threat", "win_if",
                "recover_fatigue", "all_named")


def _load(name: str) -> dict:
    try:
        return json.loads(resources.files(__package__).joinpath("data").joinpath(name).read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise ContentError(f"data/{name}: {exc}") from exc


def _need(rec: dict, keys, where: str) -> None:
    missing = [k for k in keys if k not in rec]
    if missing:
        raise ContentError(f"{where}: missing {', '.join(missing)}")


def _check_ops(ops, where: str) -> None:
    if not isinstance(ops, list):
        raise ContentError(f"{where}: effects must be a list")
    for op in ops:
        if not isinstance(op, dict) or op.get("op") not in OPS:
            raise ContentError(f"{where}: unknown effect op {op!r}")
        _need(op, OPS[op["op"]], f"{where} op {op['op']}")
        if "target" in op and op["target"] not in TARGETS:
            raise ContentError(f"{where}: unknown target {op['target']!r}")
        if op["op"] == "bonus":
            if op["when"] not in ("always", "hit", "miss"):
                raise ContentError(f"{where}: bonus 'when' must be always/hit/miss")
            _check_ops(op["do"], where + " bonus")
        if op["op"] == "choose":
            for opt in op["options"]:
                _check_ops(opt, where + " choose")
        if op["op"] in ("attach_self", "mod"):
            for stat in op.get("mods", {op.get("stat"): 0}):
                if stat not in STATS:
                    raise ContentError(f"{where}: unknown stat {stat!r}")
        if op["op"] == "ally":
            _need(op["stats"], ("range", "attack", "defense", "health"), where + " ally stats")
            for trig in op.get("triggers", []):
                if trig.get("window") not in WINDOWS:
                    raise ContentError(f"{where}: unknown trigger window {trig.get('window')!r}")
                _check_ops(trig["do"], where + " trigger")


def _check_card(card: dict, where: str) -> None:
    _need(card, ("id", "name", "count", "modes"), where)
    if not card["modes"] or not isinstance(card["modes"], list):
        raise ContentError(f"{where}: a card needs at least one mode")
    if len(card["modes"]) > 1 and "choose_one" not in card:
        raise ContentError(f"{where}: two modes need choose_one true/false")
    if card.get("part") not in (None,) + PARTS:
        raise ContentError(f"{where}: unknown body part {card.get('part')!r}")
    for i, mode in enumerate(card["modes"]):
        w = f"{where} mode {i}"
        if mode.get("type") not in MODE_TYPES:
            raise ContentError(f"{w}: unknown type {mode.get('type')!r}")
        if mode.get("range") not in (1, 2):
            raise ContentError(f"{w}: range must be 1 or 2")
        if mode["type"] == "attack":
            _need(mode, ("primary", "secondary", "value"), w)
            if not isinstance(mode["value"], dict) or set(mode["value"]) != {"n", "q"}:
                raise ContentError(f"{w}: attack value must be {{n, q}}")
            if mode["primary"] is None and mode["secondary"] is None:
                raise ContentError(f"{w}: an attack needs a primary or a secondary cost")
        else:
            _need(mode, ("cost",), w)
        if mode["type"] in ("ap", "defense"):
            _need(mode, ("value",), w)
        if mode["type"] == "ap" and mode.get("target", "self") not in ("self", "hero"):
            raise ContentError(f"{w}: ap target must be self or hero")
        if mode["type"] == "reaction" and mode.get("window") not in WINDOWS:
            raise ContentError(f"{w}: reaction needs a known window")
        _check_ops(mode.get("effects", []), w)


def _card_mods(rec: dict, where: str) -> None:
    _need(rec, ("id", "name", "enemy_mods", "hero"), where)
    for stat in rec["enemy_mods"]:
        if stat not in STATS:
            raise ContentError(f"{where}: unknown stat {stat!r}")
    if rec["hero"].get("type") not in ("ap", "attack", "defense") or not isinstance(rec["hero"].get("n"), int):
        raise ContentError(f"{where}: hero side needs type ap/attack/defense and an integer n")


def by_heroes(value, n: int):
    """A/B/C/D values (section 1.3): a list of four picks the hero count's entry; a number is itself."""
    return value[n - 1] if isinstance(value, list) else value


class Content:
    def __init__(self) -> None:
        heroes = _load("heroes.json")
        enemies = _load("enemies.json")
        decks = _load("decks.json")
        scen = _load("scenarios.json")
        items = _load("items.json")

        self.boards: dict[str, dict] = {}
        self.hero_ids: list[str] = []
        for b in heroes["boards"]:
            where = f"heroes.json board {b.get('hero')}/{b.get('side')}"
            _need(b, ("hero", "side", "name", "class", "alignment", "start_ap", "damage", "draw_cost", "cycle_cost",
                      "discard_gain", "defense_rate", "action"), where)
            _check_ops(b["action"]["effects"], where + " action")
            self.boards[f"{b['hero']}/{b['side']}"] = b
            if b["hero"] not in self.hero_ids:
                self.hero_ids.append(b["hero"])
        self.cards: dict[str, dict] = {}
        self.decks: dict[str, list[str]] = {h: [] for h in self.hero_ids}
        for c in heroes["cards"]:
            where = f"heroes.json card {c.get('id')}"
            _check_card(c, where)
            if c.get("hero") not in self.decks:
                raise ContentError(f"{where}: unknown hero {c.get('hero')!r}")
            self._add_card(dict(c, kind="hero"), where)
            self.decks[c["hero"]].append(c["id"])
        for h, ids in self.decks.items():
            total = sum(self.cards[i]["count"] for i in ids)
            if total != 26:
                raise ContentError(f"heroes.json: {h}'s deck has {total} cards, not 26")

        self.families = enemies["families"]
        self.enemies: dict[str, dict] = {}
        for e in enemies["enemies"]:
            where = f"enemies.json {e.get('id')}"
            _need(e, ("id", "name", "family", "engage", "range", "attack", "defense", "health", "damage", "copies"), where)
            if e["family"] not in self.families:
                raise ContentError(f"{where}: unknown family {e['family']!r}")
            self.enemies[e["id"]] = e
            self._add_card(dict(e, kind="enemy"), where)
        self.enemy_names = {e["name"].lower(): e["id"] for e in self.enemies.values()}

        self.response: list[dict] = []
        for r in decks["response"]:
            for i in range(r["copies"]):
                self.response.append({"value": r["value"], "sigil": i < r["sigil"]})
        for r in self.response:
            rid = f"R{r['value']}{'S' if r['sigil'] else ''}"
            self.cards.setdefault(rid, {"id": rid, "kind": "response", "name": f"Response {r['value']}", **r})
        self.wounds = [w["id"] for w in decks["wounds"]]
        self.fatigue = [f["id"] for f in decks["fatigue"]]
        for w in decks["wounds"]:
            _card_mods(w, f"decks.json wound {w.get('id')}")
            self._add_card(dict(w, kind="wound"), "wound " + w["id"])
        for f in decks["fatigue"]:
            _card_mods(f, f"decks.json fatigue {f.get('id')}")
            self._add_card(dict(f, kind="fatigue"), "fatigue " + f["id"])
        self.terrain: dict[str, dict] = {}
        for t in decks["terrain"]:
            where = f"decks.json terrain {t.get('id')}"
            _need(t, ("id", "name", "copies"), where)
            if not t.get("door") and "interact" not in t:
                raise ContentError(f"{where}: terrain is a door or has an interaction")
            if "interact" in t:
                _check_ops(t["interact"]["effects"], where)
            self.terrain[t["id"]] = t
            self._add_card(dict(t, kind="terrain"), where)

        self.items: dict[str, dict] = {}
        for it in items["items"]:
            where = f"items.json {it.get('id')}"
            _need(it, ("id", "name", "part", "requires", "cards"), where)
            if it["part"] not in PARTS:
                raise ContentError(f"{where}: unknown part")
            for key in it["requires"]:
                if key not in ("name", "class", "alignment"):
                    raise ContentError(f"{where}: unknown requirement {key!r}")
            for c in it["cards"]:
                _check_card(dict(c, part=it["part"]), f"{where} card {c.get('id')}")
                self._add_card(dict(c, kind="hero", part=it["part"], item=it["id"]), where)
            self.items[it["id"]] = it

        self.campaigns = {c["id"]: c for c in scen["campaigns"]}
        self.scenarios: dict[str, dict] = {}
        for s in scen["scenarios"]:
            self._check_scenario(s)
            self.scenarios[s["id"]] = s
        for c in self.campaigns.values():
            for sid in c["scenarios"]:
                if sid not in self.scenarios:
                    raise ContentError(f"campaign {c['id']}: unknown scenario {sid}")
            for it in c["reward_deck"] + c["set_aside"]:
                if it not in self.items:
                    raise ContentError(f"campaign {c['id']}: unknown item {it}")

    def _add_card(self, rec: dict, where: str) -> None:
        if rec["id"] in self.cards:
            raise ContentError(f"{where}: duplicate id {rec['id']}")
        self.cards[rec["id"]] = rec

    def _check_scenario(self, s: dict) -> None:
        where = f"scenarios.json {s.get('id')}"
        _need(s, ("id", "title", "enemy_deck", "terrain_deck", "threat", "setup_spawn", "activation", "quest",
                  "win", "threat_loss", "summon_pool", "terrain_rules"), where)
        for typ, _n in s["enemy_deck"]:
            if typ not in self.enemies:
                raise ContentError(f"{where}: unknown enemy {typ}")
        for typ in list(s["summon_pool"]) + s.get("set_aside", []) + s["quest_area"]["enemies"]:
            if typ not in self.enemies:
                raise ContentError(f"{where}: unknown enemy {typ}")
        td = s["terrain_deck"]
        for t in td.get("shuffled", []) + td.get("bottom", []) + td.get("ordered", []) + s["quest_area"]["terrain"]:
            if t not in self.terrain:
                raise ContentError(f"{where}: unknown terrain {t}")
        for t, rule in s["terrain_rules"].items():
            if t not in self.terrain:
                raise ContentError(f"{where}: rules for unknown terrain {t}")
            if self.terrain[t].get("door") and not ("lock" in rule or "defense" in rule):
                raise ContentError(f"{where}: door {t} needs lock/defense values")
            for op in rule.get("on_remove", []):
                if op.get("op") not in SCENARIO_OPS:
                    raise ContentError(f"{where}: unknown op {op!r} when {t} is removed")
        for op in s["quest"] + s.get("end", []) + s.get("sigil", []):
            if op.get("op") not in SCENARIO_OPS:
                raise ContentError(f"{where}: unknown scenario op {op!r}")
        rows = []
        try:
            for row in s["activation"]:
                if len(row) != 5:
                    raise ContentError(f"{where}: activation row {row[0]!r} needs 4 columns")
                typ = self.enemy_names.get(row[0].lower())
                if typ is None:
                    raise ContentError(f"{where}: activation row for unknown enemy {row[0]!r}")
                rows.append([typ, [parse_cell(c, self.enemy_names, self.families) for c in row[1:]]])
            default = parse_cell(DEFAULT_ROW, self.enemy_names, self.families)
            for op in s.get("sigil", []):
                if op["op"] == "all_named":
                    op["parsed"] = parse_cell(op["act"], self.enemy_names, self.families)
        except ActivationError as exc:
            raise ContentError(f"{where}: {exc}") from exc
        listed = {r[0] for r in rows}
        # H5: types that may appear but have no row get the default row, appended in a stable order.
        for typ in sorted({t for t, _ in s["enemy_deck"]} | set(s["summon_pool"]) | set(s.get("set_aside", []))
                          | set(s["quest_area"]["enemies"]) | set(s.get("enemy_deck_bottom", {}).get("insert", []))):
            if typ not in listed:
                rows.append([typ, [default] * 4])
        s["rows"] = rows

    # ---- lookups ------------------------------------------------------------------------------

    def board(self, hero: str, side: str) -> dict:
        return self.boards[f"{hero}/{side}"]

    def item_allowed(self, item_id: str, hero: str) -> bool:
        req = self.items[item_id]["requires"]
        b = self.board(hero, "standard")
        have = {"name": b["name"], "class": b["class"], "alignment": b["alignment"]}
        return all(have[k] in vals or have[k].lower() in [v.lower() for v in vals] for k, vals in req.items())


CONTENT = Content()
