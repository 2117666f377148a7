"""Beyond the Rift's plain-text board in the reader's language (issue #26): the email's plain part and
the page's text board, as engine/beyond_the_rift/words.py `render` draws it in English (the engine keeps
that one for the command line; an English reader still gets it, word for word).

The board's own words are the service's (`messages` domain, gettext); the game's (heroes, cards,
enemies, terrain, items, phases, defense modes, why the scenario ended) are the game's catalog's, worded
by the reader's `Wording` (service/views/wording.py), which the caller hands in: this module sits below
the views.  Columns are padded by display width, so a Chinese name (two columns a character) keeps
them aligned.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from engine.beyond_the_rift.content import CONTENT
from engine.beyond_the_rift.messages import reason_message
from engine.beyond_the_rift.model import QUEST, def_of
from service import lang
from service.games.textcols import columns

# The board's words, as the HTML board says them too (templates/games/beyond-the-rift/board.html).
N_ = lang.N_
WAITS = {
    "hero_phase": N_("the heroes' actions; each hero says DONE when finished"),
    "attack_window": N_("an attack to be completed; the attacker adds cards, the others may aid"),
    "defense": N_("a defense decision"),
    "reaction": N_("a reaction to an enemy's ability"),
    "choice": N_("a choice to complete an action"),
    "recover": N_("a choice whether to discard a Fatigue as the Door opens"),
    "reward": N_("a choice where the items drawn as rewards go"),
}
STATUS = {"active": N_("acting"), "done": N_("DONE"), "final": N_("DONE (final)")}


def card_words(d: Mapping[str, Any], words: Any, gettext: Callable[..., str]) -> str:
    """A card's rules in one line (words.card_text) in the reader's language."""
    parts = []
    for md in d.get("modes", []):
        kind = md["type"]
        face = words.term("face", kind)
        if kind == "attack":
            v = md["value"]
            value = "+".join(([str(v["n"])] if v["n"] or not v["q"] else []) + ["?"] * v["q"])
            dash = lambda n: "-" if n is None else n  # noqa: E731
            parts.append(
                gettext(
                    "%(kind)s %(value)s (primary %(primary)s / secondary %(secondary)s, range %(range)s)",
                    kind=face,
                    value=value,
                    primary=dash(md["primary"]),
                    secondary=dash(md["secondary"]),
                    range=md["range"],
                )
            )
        elif kind in ("ap", "defense"):
            parts.append(
                gettext(
                    "%(kind)s %(value)s (cost %(cost)s, range %(range)s)",
                    kind=face,
                    value=md["value"],
                    cost=md["cost"],
                    range=md["range"],
                )
            )
        else:
            said = " ".join([face, *(words.term("keyword", k) for k in md.get("keywords", []))])
            costs = [gettext("cost %(n)s", n=md["cost"]), gettext("range %(n)s", n=md["range"])]
            if kind == "reaction":
                costs.append(words.term("window", md["window"]))
            parts.append(gettext("%(kind)s (%(costs)s)", kind=said, costs=gettext(", ").join(costs)))
    if "hero" in d and d.get("kind") in ("wound", "fatigue"):
        parts.append(f"{words.term('face', d['kind'])}: {words.term('side', d['hero']['type'])} {d['hero']['n']:+d}")
    return (gettext(" or ") if d.get("choose_one") else gettext(" and ")).join(parts)


def item_cards(item: str, words: Any) -> list[tuple[int, str, str]]:
    """The cards an item puts into a deck, in the reader's language (`words`: their Wording): (count,
    name, rules text), the text as `card_words` says it (the HTML board's "Item to place", the
    follow-up's stash choices and this text board)."""
    gettext = lang.speaker(words.language)[0]
    return [
        (c["count"], words.card_named(c["name"]), card_words(c, words, gettext)) for c in CONTENT.items[item]["cards"]
    ]


def render(v: Mapping[str, Any], words: Any, names: Mapping[int, str]) -> str:
    """The text board of view `v` for its seat's reader (`words`: their Wording; `names`: the players by
    seat)."""
    gettext, ngettext = lang.speaker(words.language)

    comma = gettext(", ")
    hero = [words.term("hero", f"{h['hero']}/{h['side']}") for h in v["heroes"]]
    card = words.card_named
    p = v["piles"]
    lines = [
        gettext("Beyond the Rift - %(title)s", title=words.term("scenario", v["scenario"]["id"])),
        gettext(
            "Round %(round)s, %(phase)s. Threat %(threat)s; the party loses at %(loss)s.",
            round=v["round"],
            phase=words.term("phase", v["phase"]),
            threat=v["threat"],
            loss=v["threat_loss"],
        ),
        gettext(
            "Hand size %(hand)s. Enemy deck %(enemy)s, Response deck %(response)s, Wounds left %(wounds)s, "
            "Fatigue left %(fatigue)s.",
            hand=v["hand_size"],
            enemy=p["enemy"],
            response=p["response"],
            wounds=p["wound"] + p["wound_discard"],
            fatigue=p["fatigue"] + p["fatigue_discard"],
        ),
    ]
    if v.get("result"):
        r = v["result"]
        why = words.arg(
            reason_message(dict(r), v["scenario"]["id"], v["threat"], [f"{h['hero']}/{h['side']}" for h in v["heroes"]])
        )
        lines += [
            "",
            gettext("The scenario is over: WON (%(why)s).", why=why)
            if r["outcome"] == "win"
            else gettext("The scenario is over: LOST (%(why)s).", why=why),
        ]
    elif v["to_act"]:
        kind = (v.get("waiting_on") or {}).get("kind", "")
        what = gettext(WAITS[kind]) if kind in WAITS else gettext("a decision")
        who = [gettext("%(hero)s (you)", hero=hero[s]) if s == v["seat"] else hero[s] for s in v["to_act"]]
        lines += ["", gettext("Waiting on %(names)s, for %(what)s.", names=comma.join(who), what=what)]

    lines += ["", ngettext("The party (%(num)d hero)", "The party (%(num)d heroes)", len(v["heroes"]))]
    rows: list[list[str]] = []
    for h in v["heroes"]:
        s = h["seat"]
        hurt = comma.join(
            x
            for x in (
                ngettext("%(num)d Wound", "%(num)d Wounds", h["wounds_in_hand"]) if h["wounds_in_hand"] else "",
                gettext("%(n)s Fatigue", n=h["fatigue_in_hand"]) if h["fatigue_in_hand"] else "",
            )
            if x
        )
        played_by = (
            gettext("%(hero)s (you)", hero=hero[s])
            if s == v["seat"]
            else gettext("%(hero)s (%(name)s)", hero=hero[s], name=names.get(s) or gettext("Player %(n)s", n=s + 1))
        )
        rows.append(
            [
                played_by,
                gettext("%(n)s AP", n=h["ap"]),
                gettext("hand %(n)s", n=h["hand_count"]) + (f" ({hurt})" if hurt else ""),
                gettext("deck %(n)s", n=h["deck_count"]),
                gettext(STATUS[h["status"]]) if h["status"] in STATUS else h["status"],
                gettext("defense %(mode)s", mode=words.term("mode", h["mode"])),
            ]
            + ([gettext("must discard %(n)s", n=h["discard_down"])] if h["discard_down"] else [])
        )
    lines += columns(rows, "  ")
    for h in v["heroes"]:
        if h.get("equipped"):
            items = comma.join(
                gettext("%(item)s (%(part)s)", item=words.term("item", e["item"]), part=words.term("part", e["part"]))
                for e in h["equipped"]
            )
            lines.append("  " + gettext("%(hero)s carries %(items)s.", hero=hero[h["seat"]], items=items))
    for h in v["heroes"]:
        for c in h["area"]:
            extra = (
                gettext(" (ally: attack %(attack)s, defense %(defense)s, health %(health)s)", **c["ally"])
                if c["ally"]
                else (gettext(" (+%(n)s defense)", n=c["bonus"]) if c["bonus"] else "")
            )
            attached = (
                gettext("; attached: %(cards)s", cards=comma.join(map(card, c["attachments"])))
                if c["attachments"]
                else ""
            )
            lines.append(
                "  "
                + gettext(
                    "In play in %(hero)s's area, %(card)s%(extra)s%(attached)s.",
                    hero=hero[h["seat"]],
                    card=card(c["name"]),
                    extra=extra,
                    attached=attached,
                )
            )

    lines += ["", gettext("Enemies (%(n)s)", n=len(v["enemies"]))]
    rows, groups = [], []
    for area in [QUEST, *range(len(v["heroes"]))]:
        here = [e for e in v["enemies"] if e["area"] == area]
        if here:
            where = (
                gettext("%(n)s in the Quest Area", n=len(here))
                if area == QUEST
                else gettext("%(n)s engaged with %(hero)s", n=len(here), hero=hero[area])
            )
            groups.append(("  " + where, len(rows), len(here)))
            for e in here:
                st = e["stats"]
                deals = " ".join(
                    f"{n}{letter}"
                    for letter, n in (("W", e["damage"].get("wound", 0)), ("F", e["damage"].get("fatigue", 0)))
                    if n
                )
                att = (
                    gettext("attached: %(cards)s", cards=comma.join(map(card, e["attachments"])))
                    if e["attachments"]
                    else ""
                )
                rows.append(
                    [
                        e["id"],
                        card(e["name"]),
                        f"A{st['attack']} D{st['defense']} H{e['health']} R{st['range']} C{st['engage']}",
                        " ".join(filter(None, [deals, att])),
                    ]
                )
    table = columns(rows, "    ") if rows else []
    for title, first, count in groups:
        lines += [title, *table[first : first + count]]
    if rows:
        lines += [
            "  " + gettext("Key: A attack, D defense, H health, R range, C the AP it costs to engage;"),
            "  " + gettext("a hit deals W Wounds and F Fatigue."),
        ]
    else:
        lines.append("  " + gettext("None on the board."))
    terrain = comma.join(
        f"{x['id']} {card(words.term('terrain', x['name']))}"
        + (gettext(" (lock %(lock)s, defense %(defense)s)", lock=x["lock"], defense=x["defense"]) if x["door"] else "")
        for x in v["terrain"]
    )
    lines.append(gettext("Terrain in the Quest Area: %(terrain)s.", terrain=terrain or gettext("none")))

    if v["attack"]:
        a = v["attack"]
        lines += [
            "",
            gettext(
                "Attack in progress by %(hero)s on %(target)s, %(cards)s (%(total)s so far).",
                hero=hero[a["by"]],
                target=a["target"],
                cards=comma.join(map(card, a["cards"])) or gettext("no cards yet"),
                total=f"{a['fixed_total']}{' + ?' * a['question_marks']}",
            ),
        ]
    if v["defense"]:
        d = v["defense"]
        chances = comma.join(f"{c['defense']}: {round(100 * c['hit_chance'])}%" for c in d["hit_chances"])
        lines += [
            "",
            gettext(
                "%(enemy)s attacks %(hero)s (attack %(attack)s + a Response card); defense so far %(total)s, "
                "%(cards)s, %(units)s AP units.",
                enemy=d["enemy"],
                hero=hero[d["hero"]],
                attack=d["enemy_attack"],
                total=d["total"],
                cards=comma.join(map(card, d["cards"])) or gettext("no cards"),
                units=d["ap_units"],
            ),
            "  " + gettext("Chance to be hit at defense %(chances)s.", chances=chances),
        ]
    if v.get("rewards"):
        rw = v["rewards"]
        placed = []
        for x in rw["placed"]:
            item = words.term("item", x["item"])
            if x["to"] == "stash":
                placed.append(gettext("%(item)s in the stash", item=item))
            elif x["to"] == "reward_deck":
                placed.append(gettext("%(item)s back under the reward deck", item=item))
            else:
                owner = next((hero[h["seat"]] for h in v["heroes"] if h["hero"] == x.get("hero")), None)
                placed.append(
                    gettext(
                        "%(item)s equipped by %(hero)s (%(part)s)",
                        item=item,
                        part=words.term("part", x["to"]),
                        hero=owner
                        or (words.term("hero", f"{x['hero']}/standard") if x.get("hero") else gettext("the party")),
                    )
                )
        lines += ["", gettext("Rewards so far: %(placed)s.", placed="; ".join(placed) or gettext("none"))]
        if rw["undecided"]:
            lines.append(
                gettext(
                    "%(hero)s still places %(items)s.",
                    hero=hero[rw["seat"]],
                    items=comma.join(words.term("item", x["item"]) for x in rw["undecided"]),
                )
            )
    prompt = v.get("prompt") or {}
    if prompt.get("kind") == "reward":
        it = prompt["item"]
        cards = comma.join(
            gettext("%(count)sx %(name)s (%(text)s)", count=count, name=name, text=text)
            for count, name, text in item_cards(it["id"], words)
        )
        lines.append(
            gettext(
                "Item to place: %(item)s (%(part)s), %(cards)s.",
                item=words.term("item", it["id"]),
                part=words.term("part", it["part"]),
                cards=cards,
            )
        )
    if prompt.get("kind") == "recover" and "options" in prompt:
        lines.append(
            gettext(
                "The freed prisoners help: you may put one of these on the Fatigue discard, %(cards)s.",
                cards=comma.join(map(card, prompt["options"])),
            )
        )
    if "hand" in v:
        me = v["heroes"][v["seat"]]
        if v["hand"]:
            lines += [
                "",
                ngettext(
                    "Your hand, %(num)d card (%(ap)s AP to spend)",
                    "Your hand, %(num)d cards (%(ap)s AP to spend)",
                    len(v["hand"]),
                    ap=me["ap"],
                ),
            ]
            lines += columns(
                [[c["card"], card(c["name"]), card_words(def_of(c["card"]) or {}, words, gettext)] for c in v["hand"]],
                "  ",
            )
        else:
            lines += ["", gettext("Your hand is empty (%(ap)s AP to spend).", ap=me["ap"])]
        if me["discard_down"]:
            lines.append(
                ngettext(
                    "You must discard %(num)d card down to hand size %(size)s.",
                    "You must discard %(num)d cards down to hand size %(size)s.",
                    me["discard_down"],
                    size=v["hand_size"],
                )
            )
    return "\n".join(lines)
