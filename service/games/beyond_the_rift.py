"""Beyond the Rift in the service: the start form's scenario and heroes, and the campaign follow-up.

The campaign ("Old Friends") is the engine's: a won scenario's `result["rewards"]` is the next
scenario's `options["carry"]` (items by body part, unlocked sides, which scenarios were won).  A
finished campaign game offers its party one follow-up (service/play/followups.py starts it):

- after a win, the campaign's next scenario with the rewards as the carry-over (none after the last);
- after a loss, the same scenario again with the same carry-over (a replay).

The press that starts it may re-arrange the party's equipment from the stash and choose unlocked
alternate sides (rules 1.21): the engine's `equip` and `heroes` options, which the engine checks.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.beyond_the_rift import model
from engine.beyond_the_rift.content import CONTENT, PARTS
from engine.beyond_the_rift.messages import reason_message
from engine.beyond_the_rift.model import cname, def_of
from engine.beyond_the_rift.words import card_text, reason
from engine.kit import plural
from engine.messages import Message
from service import lang
from service.errors import Invalid
from service.games.base import FOLLOW_UP_TITLE, Adapter, FollowUp, FormData, GameCatalog, and_words
from service.games.beyond_the_rift_catalog import CATALOG
from service.lang import N_, Nn_

MAX_SEATS = 4
WHERE = {"stash": "kept in the stash", "reward_deck": "back under the reward deck"}  # else a body part


def hero_name(hero: str) -> str:
    return CONTENT.board(hero, "standard")["name"]


def item_name(item: str) -> str:
    return CONTENT.items[item]["name"]


def item_words(item: str) -> str:
    """An item's name and the cards it puts into the deck, e.g. "Company Brigandine: 2x Brigandine of
    the Ninth (Defense 3 (cost 0, range 1))"."""
    cards = ", ".join(f"{c['count']}x {c['name']} ({card_text(c)})" for c in CONTENT.items[item]["cards"])
    return f"{item_name(item)}: {cards}"


# ---- the board's look ------------------------------------------------------------------------------
# templates/games/beyond-the-rift/board.html draws every card as a tile whose kind has a colour class
# (static/board/beyond-the-rift.css), an icon on pages (a <symbol> of static/board/beyond-the-rift-icons.svg,
# same id as the class) and always a word, so colour never carries a meaning alone and an email with
# images off reads the same.  Kinds: a hero card's action types, Wound and Fatigue (in a hand),
# allies and other persistent cards in a hero's area, doors and other terrain; enemies by family;
# heroes by their own colour and their class's icon.
KINDS = {"attack": "Attack", "ap": "AP", "defense": "Defense", "special": "Special", "reaction": "Reaction",
         "wound": "Wound", "fatigue": "Fatigue", "ally": "Ally", "persistent": "In play", "door": "Door",
         "terrain": "Terrain"}
STAT_WORDS = {"ap": "AP", "attack": "attack", "defense": "defense"}  # a Wound or Fatigue card's hero side


def family_word(family: str) -> str:
    return family.capitalize()


def hero_class(hero: str) -> str:
    """A hero's class (warrior, mage, ...): the icon of the hero's tile is the class's."""
    return str(CONTENT.board(hero, "standard")["class"])


def _mode_face(md: Mapping[str, Any]) -> dict[str, str]:
    """One action type of a card: its kind, the words on its band ("Attack 3+?") and its costs."""
    kind = md["type"]
    word, value, costs = KINDS[kind], "", []
    if kind == "attack":
        v = md["value"]
        value = "+".join(([str(v["n"])] if v["n"] or not v["q"] else []) + ["?"] * v["q"])
        if md["primary"] is not None:
            costs.append(f"cost {md['primary']}")
        costs.append(f"add {md['secondary']}" if md["secondary"] is not None else "not added")
    else:
        if kind in ("ap", "defense"):
            value = str(md["value"])
        keywords = [k.capitalize() for k in md.get("keywords", [])]
        value = " ".join(filter(None, [value, *keywords]))
        costs.append(f"cost {md['cost']}")
    costs.append(f"range {md['range']}")
    if kind == "reaction":
        costs.append(str(md["window"]).replace("_", " "))
    return {"kind": kind, "word": word, "value": value, "detail": ", ".join(costs)}


def card_face(cid: str) -> dict[str, Any]:
    """A hero-side card (from a hand) as the board draws it: {card, name, kind (the first face's),
    faces: [{kind, word, value, detail}], join: "or" (choose one) / "and"}."""
    d = def_of(cid)
    if d is None:  # not in the content pack: its id alone
        return {"card": cid, "name": cid, "kind": "special", "faces": [], "join": "and"}
    if d.get("kind") in ("wound", "fatigue"):
        side = d["hero"]
        faces = [{"kind": d["kind"], "word": KINDS[d["kind"]], "value": "",
                  "detail": f"{STAT_WORDS.get(side['type'], side['type'])} {side['n']:+d}"}]
    else:
        faces = [_mode_face(md) for md in d.get("modes", [])]
    return {"card": cid, "name": d["name"], "kind": faces[0]["kind"] if faces else "special", "faces": faces,
            "join": "or" if d.get("choose_one") else "and"}


def short_name(name: str, family: str) -> str:
    """An enemy's name under its family's band: "Cultist Acolyte" is "Acolyte" there (the band says
    Cultist); a name that does not start with its family's word stays whole ("Cult Priest", "Boneworm")."""
    word = family_word(family)
    return name[len(word):].strip() if name.lower().startswith(word.lower() + " ") else name


def _deals(damage: Mapping[str, int]) -> str:
    """What an enemy's hit deals, short: "1W", "1W 1F" (the board's legend says W and F)."""
    return " ".join(f"{n}{letter}" for letter, n in (("W", damage.get("wound", 0)), ("F", damage.get("fatigue", 0)))
                    if n)


def board_look(view: Mapping[str, Any]) -> dict[str, Any]:
    """The faces of the cards a view shows: `heroes` by seat ({cls, icon}), `hand` (card_face each),
    `enemies` by id ({cls, word, short, deals}), `area` by card id ({kind}: ally or persistent), `kinds` (the
    word of each kind) and the `rewards` placed so far after a win, in words (see _drawn)."""
    heroes = {h["seat"]: {"cls": f"hero-{h['hero']}", "icon": f"cls-{hero_class(h['hero'])}"}
              for h in view["heroes"]}
    enemies = {e["id"]: {"cls": f"fam-{e['family']}", "word": family_word(e["family"]),
                         "short": short_name(e["name"], e["family"]), "deals": _deals(e["damage"])}
               for e in view["enemies"]}
    area = {p["card"]: {"kind": "ally" if p.get("ally") else "persistent"}
            for h in view["heroes"] for p in h["area"]}
    hand = [dict(card_face(c["card"]), text=c["text"]) for c in view.get("hand") or []]
    rewards = _drawn({"drawn": view["rewards"]["placed"]}) if view.get("rewards") else []
    return {"heroes": heroes, "enemies": enemies, "area": area, "hand": hand, "kinds": KINDS, "rewards": rewards}


class BeyondTheRift(Adapter):
    listing_order = 3
    catalog: GameCatalog | None = CATALOG  # its events and moves are messages (issue #26)
    summary = N_("Cooperative: 1 to 4 heroes play their decks together against the rift's enemies, in a "
                 "tutorial or the three-part campaign \u201cOld Friends\u201d.")
    rules_template = "games/beyond-the-rift/rules.html"
    form_template = "games/beyond-the-rift/_form.html"
    cli_help = ("Beyond the Rift: --option scenario=tutorial (or old-friends-1; later parts start from the "
                "won game's page) and --option heroes=brannoc,osric (one per address, in seat order).")
    follow_up_template = "games/beyond-the-rift/_follow_up"
    # The action a hero is taking (its prompt and chosen targets) and their own pledges.
    preview_own_events = frozenset({"flow", "hero_set"})
    # A hand-size discard is the first decision of a hero phase (rules 3.5): the email lists it first.
    first_moves = frozenset({"discard"})

    @property
    def form_fields(self) -> tuple[str, ...]:
        return ("btr_scenario",) + tuple(f"btr_hero{i}" for i in range(MAX_SEATS))

    def form_choices(self) -> dict[str, Any]:
        """{"scenarios": [(id, title)], "heroes": [(id, name)]} from the content pack."""
        return {
            "scenarios": [(sid, sc.get("title", sid)) for sid, sc in CONTENT.scenarios.items()],
            "heroes": [(hid, hero_name(hid)) for hid in CONTENT.hero_ids],
        }

    def form_options(self, data: FormData, typed: dict[str, Any], players: int) -> tuple[dict[str, Any], list[str]]:
        """The scenario and a hero per seat; the engine checks the combination (a campaign scenario
        needs the one before it won; no hero twice) and says what is wrong."""
        options: dict[str, Any] = {}
        errors: list[str] = []
        scenario = (data.get("btr_scenario") or "").strip()
        if scenario:
            options["scenario"] = scenario
        heroes = [(data.get(f"btr_hero{i}") or "").strip().lower() for i in range(MAX_SEATS)]
        chosen = [h for h in heroes[:players] if h]
        if chosen and "heroes" not in typed:
            if len(chosen) != players or any(heroes[players:]):
                errors.append(Nn_("Beyond the Rift: choose a hero for player %(num)d only, or none for the usual "
                                  "party.",
                                  "Beyond the Rift: choose the heroes of all %(num)d players in seat order, or "
                                  "none for the usual party.", players))
            else:
                options["heroes"] = chosen
        options.update(typed)
        return options, errors

    # ---- the campaign ----------------------------------------------------------------------------

    def board_words(self, view: Mapping[str, Any]) -> dict[str, Any]:
        """What the board draws beside the view's data: each card's face (`look`, see `board_look`) and
        why the scenario ended (the result holds a reason code)."""
        words: dict[str, Any] = {"look": board_look(view)}
        result = view.get("result")
        if result:
            heroes = [(h["hero"], h["name"]) for h in view["heroes"]]
            words["end_reason"] = reason(result, view["scenario"]["id"], view["threat"], heroes)
        return words

    def follow_up(self, game_options: Mapping[str, Any], result: Mapping[str, Any] | None,
                  state: dict[str, Any]) -> FollowUp | None:
        if not isinstance(result, Mapping):
            return None
        scenario = game_options.get("scenario", "tutorial")
        campaign = CONTENT.scenarios.get(scenario, {}).get("campaign")
        if campaign is None:
            return None
        order = CONTENT.campaigns[campaign]["scenarios"]
        outcome = result.get("outcome")
        if outcome == "win":
            following = order.index(scenario) + 1
            if following >= len(order):
                return None
            kind, target, carry = "next", order[following], result.get("rewards") or {}
        elif outcome == "loss":
            # The engine's campaign state, i.e. the carry-over with the lost game's own `equip` applied:
            # a replay keeps the equipment the party chose for it.
            kind, target, carry = "replay", scenario, state["campaign"]
        else:  # a forfeit on timeout: no outcome the campaign can build on
            return None
        options = {k: v for k, v in game_options.items() if k not in ("scenario", "carry", "equip")}
        options["scenario"] = target
        if carry:
            options["carry"] = carry
        rewards = result.get("rewards") if outcome == "win" else None
        heroes = [(h["hero"], h["side"]) for h in state["heroes"]]
        return FollowUp(
            kind=kind, campaign=campaign, campaign_title=CONTENT.campaigns[campaign]["title"],
            played=scenario, played_carry=game_options.get("carry"),
            part=target, title=CONTENT.scenarios[target]["title"], carry=carry or None,
            options=options, rewards=rewards,
            details={"heroes": heroes, "drawn": _drawn(rewards), "equipment": _equipment(heroes, carry)},
        )

    def follow_up_options(self, offer: FollowUp, form: FormData) -> dict[str, Any]:
        """The offer form's fields: `equip.<hero>.<part>` = "keep" (left out), "none" (unequip) or an item
        id; `side.<hero>` = a side.  The engine judges the values, so a tampered field gets its reason."""
        equip: dict[str, dict[str, str | None]] = {}
        sides: dict[str, str] = {}
        for name, value in form.items():
            kind, _, rest = name.partition(".")
            if kind == "equip" and value != "keep":
                hero, _, part = rest.partition(".")
                equip.setdefault(hero, {})[part] = None if value == "none" else value
            elif kind == "side":
                sides[rest] = value
        party = offer.details["heroes"]
        strangers = set(sides) - {hero for hero, _ in party}
        if strangers:
            raise Invalid(f"Cannot choose a side for {', '.join(sorted(strangers))}: not a hero of this party.",
                          FOLLOW_UP_TITLE)
        options = dict(offer.options)
        if equip:
            options["equip"] = equip
        picks = [(hero, sides.get(hero, side)) for hero, side in party]
        if picks != party:
            options["heroes"] = [hero if side == "standard" else {"hero": hero, "side": side} for hero, side in picks]
        return options

    # ---- what people read of a game of the party against the rift ---------------------------------

    against = N_("the rift")  # cooperative: the party plays against the game
    # The rift's headline (rift_news) is English sentences yet: an email in another language tells the
    # rift's turn by its events' own lines, which are worded in the reader's language (docs/i18n.md).
    english_headline = True
    # A hero's turn in a first line: the cards played and attacks made, not AP, orders, draws, phases.
    minor_events = frozenset({"ap", "hero_set", "set", "response", "phase", "draw", "deck_top", "hero_shuffle",
                              "pile_shuffle", "to_hand", "take"})

    # ---- what happened since: the rift's doings told first ---------------------------------------

    # The game's own phases: whatever happens in them (the enemies' attacks, the threat, new enemies,
    # the draw, even a hero's defense by their standing plan) is the rift's doing, though the last
    # hero's DONE set it off.
    RIFT_PHASES = frozenset({"enemy", "quest", "draw", "end"})
    # What the party most wants to hear: attacks on it, abilities, wounds, the threat, enemies arriving,
    # moving in or dying, a hero's attack and a door, the end.
    NEWS = frozenset({"enemy_attack", "special", "cancelled", "enemy_dies", "threat", "spawn", "enemy_move",
                      "ally_attack", "attack_result", "door_open", "won", "result"})
    HURT = frozenset({"wound", "fatigue"})

    def doer(self, event: Mapping[str, Any], actor: int, state: Mapping[str, Any] | None) -> int | None:
        if state is not None and (event.get("type") == "phase" or state.get("phase") in self.RIFT_PHASES):
            return None
        return actor

    def weight(self, event: Mapping[str, Any]) -> int:
        kind = event.get("type")
        if kind in self.NEWS or (kind == "take" and event.get("pile") in self.HURT):
            return 2
        return 0 if kind in self.minor_events else 1

    def note(self, event: Mapping[str, Any], state: Mapping[str, Any] | None, viewer: int | None,
             names: Mapping[int, str]) -> Any:
        """The public facts the rift's headline tells: who attacked whom and whether it hit, who took a
        Wound or Fatigue (how many, never which), abilities, enemies arriving, engaging and defeated,
        the threat."""
        if state is None:
            return None
        s = dict(state)
        kind = event.get("type")

        def hero(seat: Any) -> str | None:
            if not isinstance(seat, int) or isinstance(seat, bool):
                return None
            return "you" if seat == viewer else hero_label(s, seat)

        if kind == "enemy_attack":
            return {"k": "hit" if event["hit"] else "miss", "enemy": enemy_label(s, event["enemy"]),
                    "hero": "an ally" if event.get("ally") else hero(event.get("hero"))}
        if kind == "take" and event.get("pile") in self.HURT:
            return {"k": "hurt", "hero": hero(event.get("seat")), "pile": event["pile"]}
        if kind == "special":
            return {"k": "special", "enemy": enemy_label(s, event["enemy"]), "hero": hero(event.get("hero")),
                    "ability": str(event["ability"]).capitalize()}
        if kind == "enemy_dies":
            return {"k": "dies", "enemy": enemy_label(s, event["enemy"])}
        if kind == "enemy_move" and isinstance(event.get("area"), int) and event["area"] >= 0:
            return {"k": "engage", "enemy": enemy_label(s, event["enemy"]), "hero": hero(event["area"])}
        if kind == "spawn":
            return {"k": "spawn", "enemy": f"{cname(event['enemy']['card'])} {event['enemy']['id']}"}
        if kind == "threat":
            return {"k": "threat", "threat": event["threat"], "loss": scenario_of(s)["threat_loss"]}
        return None

    def headline(self, run: Sequence[Any], viewer: int | None) -> list[str | Message] | None:
        """The rift's own run (its phases) in a few sentences, what hurts first: "The rift's turn: Boneworm
        E2 hit you (1 Wound).", "Cultist Acolyte E1 attacked Isolde Marr: no damage.", "Threat is now 4
        (the party loses at 10).", "New enemy: Cultist Acolyte E5."  A hero's run: the default."""
        if run[0].doer is not None:
            return None
        notes = [event.note for event in run if event.note]
        said = rift_news(notes)
        if not said:
            return None
        said[0] = f"The rift's turn: {said[0]}"
        return list(said)

    def end_message(self, result: Mapping[str, Any]) -> Message | None:
        """The scenario's own reasons (the road is clear, a boss defeated...) as the game's message."""
        if result.get("outcome") not in ("win", "loss") or result.get("reason") in ("hero_died", "threat", None):
            return None
        found = reason_message(dict(result), str(result.get("scenario")), 0, [])
        return found if isinstance(found, Message) else None

    def result_words(self, result: Mapping[str, Any] | None, names: Mapping[int, str], viewer: int | None = None,
                     language: str = lang.ENGLISH, why: str | None = None) -> str:
        """The party won, or the rift did, and why ("The rift won: Ana's hero died."), in `language`
        (`why`: `end_message` worded by the caller; without it, English).  A forfeit on timeout has no
        outcome: the default words say who forfeited."""
        if not result or result.get("outcome") not in ("win", "loss"):
            return super().result_words(result, names, viewer, language, why)
        words = lang.translations(language)
        code = result.get("reason")
        seat = result.get("seat")
        if code == "hero_died":
            if isinstance(seat, int) and seat == viewer:
                why = words.gettext("your hero died")
            elif isinstance(seat, int) and seat in names:
                why = words.gettext("%(name)s's hero died") % {"name": names[seat]}
            else:
                why = words.gettext("a hero died")
        elif code == "threat":
            why = words.gettext("the threat reached its limit")
        elif why is None:
            why = reason(dict(result), str(result.get("scenario")), 0, [])
        if result["outcome"] == "win":  # the whole party: "Ana and Bo won: the road is clear."
            won = super().result_words(result, names, viewer, language).rstrip(".\u3002")
            return words.gettext("%(won)s: %(why)s.") % {"won": won, "why": why}
        return words.gettext("The rift won: %(why)s.") % {"why": why}


def enemy_label(state: dict, eid: Any) -> str:
    """"Boneworm E2": an enemy in play by name and id."""
    found = model.enemy(state, eid) if isinstance(eid, str) else None
    return model.enemy_name(state, found) if found else (eid if isinstance(eid, str) else "an enemy")


def hero_label(state: dict, seat: int) -> str:
    return model.hero_name(state, seat)


def scenario_of(state: dict) -> dict:
    return model.scenario(state)


def _start(text: str) -> str:
    return text[:1].upper() + text[1:]


def rift_news(notes: list[dict[str, Any]]) -> list[str]:
    """The rift's doings, from the notes of its run (BeyondTheRift.note), as sentences, what hurts the
    party first: hits and the Wounds and Fatigue they dealt, by hero (the reader, "you", first),
    attacks that did no damage, abilities, enemies defeated and engaging, the threat, new enemies."""
    heroes: list[str] = []
    hits: dict[str, list[str]] = {}
    misses: dict[str, list[str]] = {}
    hurt: dict[str, dict[str, int]] = {}
    engaged: dict[str, list[str]] = {}
    specials, dead, spawned = [], [], []
    threat = None
    for note in notes:
        k, whom = note["k"], note.get("hero") or "a hero"
        if whom not in heroes and k in ("hit", "miss", "hurt", "engage"):
            heroes.append(whom)
        if k == "hit":
            hits.setdefault(whom, []).append(note["enemy"])
        elif k == "miss":
            misses.setdefault(whom, []).append(note["enemy"])
        elif k == "hurt":
            counts = hurt.setdefault(whom, {})
            counts[note["pile"]] = counts.get(note["pile"], 0) + 1
        elif k == "engage":
            engaged.setdefault(whom, []).append(note["enemy"])
        elif k == "special":
            specials.append(f"{note['enemy']} used {note['ability']} on {note.get('hero') or 'a hero'}.")
        elif k == "dies":
            dead.append(note["enemy"])
        elif k == "spawn":
            spawned.append(note["enemy"])
        elif k == "threat":
            threat = note
    heroes.sort(key=lambda whom: whom != "you")
    said = []
    for whom in heroes:
        took = and_words([plural(n, pile.capitalize()) if pile == "wound" else f"{n} Fatigue"
                          for pile, n in sorted(hurt.get(whom, {}).items(), key=lambda item: item[0] != "wound")])
        if whom in hits:
            said.append(f"{and_words(_unique(hits[whom]))} hit {whom}" + (f" ({took})." if took else "."))
        elif took:
            said.append(f"{_start(whom)} took {took}.")
    said += [f"{and_words(_unique(misses[whom]))} attacked {whom}: no damage." for whom in heroes if whom in misses]
    said += [_start(text) for text in specials]
    if dead:
        said.append(f"{and_words(dead)} {'was' if len(dead) == 1 else 'were'} defeated.")
    said += [f"{and_words(_unique(engaged[whom]))} engaged {whom}." for whom in heroes if whom in engaged]
    if threat is not None:
        said.append(f"Threat is now {threat['threat']} (the party loses at {threat['loss']}).")
    if spawned:
        said.append(f"New {'enemy' if len(spawned) == 1 else 'enemies'}: {and_words(spawned)}.")
    return said


def _unique(items: list[str]) -> list[str]:
    return list(dict.fromkeys(items))


def _drawn(rewards: Mapping[str, Any] | None) -> list[dict[str, Any]]:
    """The items the win drew, named: {"hero": name or None (the party), "item": name, "where": words}."""
    return [{"hero": hero_name(d["hero"]) if d.get("hero") else None, "item": item_name(d["item"]),
             "where": WHERE.get(d["to"]) or "equipped, " + d["to"].replace("_", " ")}
            for d in (rewards or {}).get("drawn", [])]


def _equipment(heroes: list[tuple[str, str]], carry: Mapping[str, Any] | None) -> list[dict[str, Any]]:
    """Per hero, what the offer's form may change before the follow-up starts: for each body part the
    item equipped now and the stash items that fit that part and hero, [(id, words)]; the sides to
    choose from, [(side, words)], empty unless one is unlocked."""
    carry = carry or {}
    out = []
    for hero, side in heroes:
        equipped = carry.get("equipped", {}).get(hero, {})
        parts = [{"part": part, "label": part.replace("_", " ").capitalize(),
                  "now": item_name(equipped[part]) if equipped.get(part) else None,
                  "choices": [(item, item_words(item)) for item in carry.get("stash", [])
                              if CONTENT.items[item]["part"] == part and CONTENT.item_allowed(item, hero)]}
                 for part in PARTS]
        unlocked = carry.get("unlocked_sides", {}).get(hero, [])
        sides = [(s, CONTENT.board(hero, s)["name"] + (" (standard side)" if s == "standard" else ""))
                 for s in ["standard", *unlocked]] if unlocked else []
        out.append({"hero": hero, "name": hero_name(hero), "side": side, "sides": sides, "parts": parts})
    return out


ADAPTER = BeyondTheRift("beyond-the-rift", board_template="games/beyond-the-rift/board.html")
