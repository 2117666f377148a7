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

from engine.beyond_the_rift import messages as btr
from engine.beyond_the_rift import model
from engine.beyond_the_rift.content import CONTENT, PARTS
from engine.beyond_the_rift.messages import reason_message
from engine.beyond_the_rift.model import def_of
from engine.beyond_the_rift.words import SECTIONS, card_text, reason
from engine.messages import Count, Message, Number, Seat, Term, msg
from service import lang
from service.errors import Invalid
from service.games import beyond_the_rift_text as text_board
from service.games.base import FOLLOW_UP_TITLE, Adapter, FollowUp, FormData, GameCatalog
from service.games.beyond_the_rift_catalog import CATALOG, KINDS, STAT_WORDS, family_word
from service.lang import N_, Nf_, Nn_

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
def hero_class(hero: str) -> str:
    """A hero's class (warrior, mage, ...): the icon of the hero's tile is the class's."""
    return str(CONTENT.board(hero, "standard")["class"])


def _mode_face(md: Mapping[str, Any]) -> dict[str, Any]:
    """One action type of a card: its kind, the words on its band ("Attack 3+?") and its costs.  `word`,
    `value` and `detail` are the English; the board words the rest in the reader's language: `number`
    (the value's digits and ?), `keywords`, `costs` [(what, n)]: ("cost", n), ("add", n), ("not_added",
    None), ("range", n), ("window", window)."""
    kind = md["type"]
    word, number, costs = KINDS[kind], "", []
    keywords: list[str] = []
    if kind == "attack":
        v = md["value"]
        number = "+".join(([str(v["n"])] if v["n"] or not v["q"] else []) + ["?"] * v["q"])
        if md["primary"] is not None:
            costs.append(("cost", md["primary"]))
        costs.append(("add", md["secondary"]) if md["secondary"] is not None else ("not_added", None))
    else:
        if kind in ("ap", "defense"):
            number = str(md["value"])
        keywords = list(md.get("keywords", []))
        costs.append(("cost", md["cost"]))
    costs.append(("range", md["range"]))
    if kind == "reaction":
        costs.append(("window", str(md["window"])))
    value = " ".join(filter(None, [number, *(k.capitalize() for k in keywords)]))
    detail = ", ".join(_COSTS[what].format(n=n) for what, n in costs)
    return {"kind": kind, "word": word, "value": value, "detail": detail, "number": number, "keywords": keywords,
            "costs": costs}


_COSTS = {"cost": "cost {n}", "add": "add {n}", "not_added": "not added", "range": "range {n}", "window": "{n}"}


def card_face(cid: str) -> dict[str, Any]:
    """A hero-side card (from a hand) as the board draws it: {card, def (its definition's id, which the
    catalog names), name (English), kind (the first face's), faces: [{kind, word, value, detail, ...}],
    join: "or" (choose one) / "and"}; a Wound's or Fatigue's face has `side` and `n` (its hero side)."""
    d = def_of(cid)
    if d is None:  # not in the content pack: its id alone
        return {"card": cid, "def": cid, "name": cid, "kind": "special", "faces": [], "join": "and"}
    if d.get("kind") in ("wound", "fatigue"):
        side = d["hero"]
        faces = [{"kind": d["kind"], "word": KINDS[d["kind"]], "value": "", "side": side["type"], "n": side["n"],
                  "detail": f"{STAT_WORDS.get(side['type'], side['type'])} {side['n']:+d}"}]
    else:
        faces = [_mode_face(md) for md in d.get("modes", [])]
    return {"card": cid, "def": d.get("id", cid), "name": d["name"], "kind": faces[0]["kind"] if faces else "special",
            "faces": faces, "join": "or" if d.get("choose_one") else "and"}


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
    enemies = {e["id"]: {"cls": f"fam-{e['family']}", "word": family_word(e["family"]), "family": e["family"],
                         "short": short_name(e["name"], e["family"]), "deals": _deals(e["damage"]),
                         "wound": e["damage"].get("wound", 0), "fatigue": e["damage"].get("fatigue", 0)}
               for e in view["enemies"]}
    area = {p["card"]: {"kind": "ally" if p.get("ally") else "persistent"}
            for h in view["heroes"] for p in h["area"]}
    hand = [dict(card_face(c["card"]), text=c["text"]) for c in view.get("hand") or []]
    rewards = _drawn({"drawn": view["rewards"]["placed"]}) if view.get("rewards") else []
    orders = [{"section": Term("section", o["key"]), "value": Message.from_json(o["value"])}
              for o in view.get("orders_said") or []]
    return {"heroes": heroes, "enemies": enemies, "area": area, "hand": hand, "kinds": KINDS, "rewards": rewards,
            "orders": orders}


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
    board_translated = True  # its board's words are the reader's language's (issue #26)
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
        why the scenario ended (the result holds a reason code); `item_cards(item, words)`, an item's cards
        with their rules text in the reader's language (beyond_the_rift_text.item_cards)."""
        words: dict[str, Any] = {"look": board_look(view), "item_cards": text_board.item_cards}
        result = view.get("result")
        if result:
            words["end_reason"] = reason_message(dict(result), view["scenario"]["id"], view["threat"],
                                             [f"{h['hero']}/{h['side']}" for h in view["heroes"]])
        return words

    def text_board(self, view: Mapping[str, Any], words: Any) -> str | None:
        """Another language's text board (service/games/beyond_the_rift_text.py); English keeps the engine's."""
        if words is None or words.language == lang.ENGLISH:
            return None
        return text_board.render(view, words, words.names or {})

    def orders_words(self, view: Mapping[str, Any], words: Any) -> list[dict[str, str]]:
        """The standing orders of the view (`orders_said`: messages) in the reader's words."""
        if words is None:
            return super().orders_words(view, words)
        return [{"name": SECTIONS.get(o["key"], "Other WHEN lines"), "title": words.term("section", o["key"]),
                 "value": words.arg(Message.from_json(o["value"]))} for o in view.get("orders_said") or []]

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
            details={"heroes": heroes, "drawn": _drawn(rewards), "equipment": _equipment(heroes, carry),
                     # an item's cards with their rules text in the reader's language (the stash's choices)
                     "item_cards": text_board.item_cards},
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
            raise Invalid(Nf_("Cannot choose a side for %(heroes)s: not a hero of this party.",
                              heroes=", ".join(sorted(strangers))), FOLLOW_UP_TITLE)
        options = dict(offer.options)
        if equip:
            options["equip"] = equip
        picks = [(hero, sides.get(hero, side)) for hero, side in party]
        if picks != party:
            options["heroes"] = [hero if side == "standard" else {"hero": hero, "side": side} for hero, side in picks]
        return options

    # ---- what people read of a game of the party against the rift ---------------------------------

    against = N_("the rift")  # cooperative: the party plays against the game
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
        the threat.  Enemies are `enemy_label` messages, heroes their seats (the reader's own is worded
        "you" by the `.you` forms), "ally" an ally, None a hero not known."""
        if state is None:
            return None
        s = dict(state)
        kind = event.get("type")

        def hero(seat: Any) -> int | None:
            return seat if isinstance(seat, int) and not isinstance(seat, bool) else None

        if kind == "enemy_attack":
            return {"k": "hit" if event["hit"] else "miss", "enemy": btr.enemy_label(s, event["enemy"]),
                    "hero": "ally" if event.get("ally") else hero(event.get("hero")), "terms": _terms(s)}
        if kind == "take" and event.get("pile") in self.HURT:
            return {"k": "hurt", "hero": hero(event.get("seat")), "pile": event["pile"], "terms": _terms(s)}
        if kind == "special":
            return {"k": "special", "enemy": btr.enemy_label(s, event["enemy"]), "hero": hero(event.get("hero")),
                    "ability": Term("ability", str(event["ability"])), "terms": _terms(s)}
        if kind == "enemy_dies":
            return {"k": "dies", "enemy": btr.enemy_label(s, event["enemy"])}
        if kind == "enemy_move" and isinstance(event.get("area"), int) and event["area"] >= 0:
            return {"k": "engage", "enemy": btr.enemy_label(s, event["enemy"]), "hero": hero(event["area"]),
                    "terms": _terms(s)}
        if kind == "spawn":
            return {"k": "spawn", "enemy": msg("label", name=btr.card(event["enemy"]["card"]),
                                               id=Term("id", str(event["enemy"]["id"])))}
        if kind == "threat":
            return {"k": "threat", "threat": event["threat"], "loss": scenario_of(s)["threat_loss"]}
        return None

    def headline(self, run: Sequence[Any], viewer: int | None) -> list[str | Message] | None:
        """The rift's own run (its phases) in a few messages, what hurts first: "The rift's turn: Boneworm
        E2 hit you (1 Wound).", "Cultist Acolyte E1 attacked Isolde Marr: no damage.", "Threat is now 4
        (the party loses at 10).", "New enemy: Cultist Acolyte E5."  A hero's run: the default."""
        if run[0].doer is not None:
            return None
        notes = [event.note for event in run if event.note]
        said: list[Message] = rift_news(notes, viewer)
        if not said:
            return None
        said[0] = msg("rift.turn", news=said[0])
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
        elif why is None:  # a caller that words no message: the engine's English
            why = reason(dict(result), str(result.get("scenario")), 0, [])
        if result["outcome"] == "win":  # the whole party: "Ana and Bo won: the road is clear."
            won = super().result_words(result, names, viewer, language).rstrip(".\u3002")
            return words.gettext("%(won)s: %(why)s.") % {"won": won, "why": why}
        return words.gettext("The rift won: %(why)s.") % {"why": why}


def scenario_of(state: dict) -> dict:
    return model.scenario(state)


def _terms(state: dict) -> list[Term]:
    """The party's heroes as terms, by seat (a note names a hero by seat)."""
    return [btr.hero_term(state, seat) for seat in range(len(state["heroes"]))]


def and_message(items: Sequence[Message]) -> Message:
    """"A", "A and B", "A, B and C" as nested messages (`list.two`, `list.more`): each language its own."""
    if len(items) == 1:
        return items[0]
    if len(items) == 2:
        return msg("list.two", a=items[0], b=items[1])
    return msg("list.more", a=items[0], b=and_message(items[1:]))


def rift_news(notes: list[dict[str, Any]], viewer: int | None = None) -> list[Message]:
    """The rift's doings, from the notes of its run (BeyondTheRift.note), as messages, what hurts the
    party first: hits and the Wounds and Fatigue they dealt, by hero (the reader first), attacks that
    did no damage, abilities, enemies defeated and engaging, the threat, new enemies."""
    heroes: list[Any] = []
    terms: dict[int, Term] = {}
    hits: dict[Any, list[Message]] = {}
    misses: dict[Any, list[Message]] = {}
    hurt: dict[Any, dict[str, int]] = {}
    engaged: dict[Any, list[Message]] = {}
    specials: list[Message] = []
    dead: list[Message] = []
    spawned: list[Message] = []
    threat = None
    for note in notes:
        k, whom = note["k"], note.get("hero")
        for seat, term in enumerate(note.get("terms") or []):
            terms.setdefault(seat, term)
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
            specials.append(msg("rift.special", enemy=note["enemy"], ability=note["ability"], **_whom(whom, terms)))
        elif k == "dies":
            dead.append(note["enemy"])
        elif k == "spawn":
            spawned.append(note["enemy"])
        elif k == "threat":
            threat = note
    heroes.sort(key=lambda whom: whom is None or whom != viewer)
    said = []
    for whom in heroes:
        took = [msg("rift.wounds" if pile == "wound" else "rift.fatigue", count=Count(n))
                for pile, n in sorted(hurt.get(whom, {}).items(), key=lambda item: item[0] != "wound")]
        if whom in hits:
            if took:
                said.append(msg("rift.hit.took", enemies=and_message(_unique(hits[whom])), took=and_message(took),
                                **_whom(whom, terms)))
            else:
                said.append(msg("rift.hit", enemies=and_message(_unique(hits[whom])), **_whom(whom, terms)))
        elif took:
            said.append(msg("rift.took", took=and_message(took), **_whom(whom, terms)))
    said += [msg("rift.miss", enemies=and_message(_unique(misses[whom])), **_whom(whom, terms))
             for whom in heroes if whom in misses]
    said += specials
    if dead:
        said.append(msg("rift.dead", enemies=and_message(dead), count=Count(len(dead))))
    said += [msg("rift.engaged", enemies=and_message(_unique(engaged[whom])), **_whom(whom, terms))
             for whom in heroes if whom in engaged]
    if threat is not None:
        said.append(msg("rift.threat", threat=Number(threat["threat"]), loss=Number(threat["loss"])))
    if spawned:
        said.append(msg("rift.spawn", enemies=and_message(spawned), count=Count(len(spawned))))
    return said


def _whom(whom: Any, terms: Mapping[int, Term]) -> dict[str, Any]:
    """A note's hero as a message's arguments: a seat is its hero (`actor`: the reader's own picks the
    `.you` form), "ally" an ally, else "a hero"."""
    if isinstance(whom, int) and whom in terms:
        return {"actor": Seat(whom), "hero": msg("rift.hero", hero=terms[whom])}
    return {"hero": msg("rift.an_ally" if whom == "ally" else "rift.a_hero")}


def _unique(items: list[Message]) -> list[Message]:
    return list(dict.fromkeys(items))


def _drawn(rewards: Mapping[str, Any] | None) -> list[dict[str, Any]]:
    """The items the win drew, named in English: {"hero": name or None (the party), "item": name, "where":
    words}, and by id for the reader's language: `hero_id`, `item_id`, `to` (stash, reward_deck or a body
    part)."""
    return [{"hero": hero_name(d["hero"]) if d.get("hero") else None, "item": item_name(d["item"]),
             "where": WHERE.get(d["to"]) or "equipped, " + d["to"].replace("_", " "),
             "hero_id": d.get("hero"), "item_id": d["item"], "to": d["to"]}
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
                  "now": item_name(equipped[part]) if equipped.get(part) else None, "now_id": equipped.get(part),
                  "choices": [(item, item_words(item)) for item in carry.get("stash", [])
                              if CONTENT.items[item]["part"] == part and CONTENT.item_allowed(item, hero)]}
                 for part in PARTS]
        unlocked = carry.get("unlocked_sides", {}).get(hero, [])
        sides = [(s, CONTENT.board(hero, s)["name"] + (" (standard side)" if s == "standard" else ""))
                 for s in ["standard", *unlocked]] if unlocked else []
        out.append({"hero": hero, "name": hero_name(hero), "side": side, "sides": sides, "parts": parts})
    return out


ADAPTER = BeyondTheRift("beyond-the-rift", board_template="games/beyond-the-rift/board.html")
