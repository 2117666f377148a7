"""What a Beyond the Rift bot may know (determinize) and a cheap worth of a position (evaluate).

Hidden from a hero (views.py): other heroes' hands (their sizes and how many Wounds and Fatigue they
hold are public), every deck's order, the face-down piles (enemy, terrain, Response, Wound and Fatigue
supplies) and the campaign's reward deck; a pledged card is seen by the pledger and the hero it is
pledged to; the cards a hero peeks at (the top of its deck, of the Response pile) are seen by that
hero while it decides whether to put them away.  Hidden cards are redealt class by class among the hidden places holding that class: a
hero's own cards among that hero's hand and deck, Wounds among the Wound supply and the Wounds in
hands and decks, Fatigue likewise, each face-down pile within itself.
"""

from __future__ import annotations

import random
from collections import defaultdict
from typing import Any

from engine.bots import redeal

from . import model as m
from .evolve import copy_live

PILES = ("enemy", "terrain", "response", "wound", "fatigue")


def determinize(s: dict, seat: int, rng: random.Random) -> dict:
    c = copy_live(s)
    places: dict[Any, list[tuple[list, int]]] = defaultdict(list)  # class -> hidden (list, index)

    def hide(cards: list, i: int, owner: int) -> None:
        k = m.kind(c, cards[i])
        places[k if k in ("wound", "fatigue") else ("hero", owner)].append((cards, i))

    p = c.get("prompt")
    peek = p if p and p["kind"] == "bottom" else None  # a peek at a deck's or the Response pile's top
    seen_top = set(peek["options"]) if peek and seat in peek["seats"] else set()
    for i, h in enumerate(c["heroes"]):
        for j in range(len(h["deck"])):
            if h["deck"][j] not in seen_top:
                hide(h["deck"], j, i)
        if i != seat:
            seen = {p["card"] for p in h["pledges"] if p["to"] == seat}
            for j, card in enumerate(h["hand"]):
                if card not in seen:
                    hide(h["hand"], j, i)
    for name in PILES:
        pile = c["piles"][name]
        for j in range(len(pile)):
            if pile[j] not in seen_top:
                places[("pile", name)].append((pile, j))
    for key in sorted(places, key=repr):
        spots = places[key]
        pool = redeal(rng, [[cards[i] for cards, i in spots]])[0]
        for (cards, i), card in zip(spots, pool):
            cards[i] = card
    if peek and not seen_top:
        # Another hero's peek: its cards are unseen, so the prompt names whatever now lies on top.
        who = peek["seats"][0]
        top = c["piles"]["response"] if peek["pile"] == "response" else c["heroes"][who]["deck"]
        c["prompt"] = dict(peek, options=top[:len(peek["options"])])
    if c.get("campaign") and isinstance(c["campaign"].get("reward_deck"), list):
        c["campaign"] = dict(c["campaign"], reward_deck=redeal(rng, [c["campaign"]["reward_deck"]])[0])
    r = c.get("reward")
    if r is not None and isinstance(r.get("camp", {}).get("reward_deck"), list):
        c["reward"] = dict(r, camp=dict(r["camp"], reward_deck=redeal(rng, [r["camp"]["reward_deck"]])[0]))
    return c


def skips(s: dict, seat: int, move: dict) -> bool:
    """A free engage: engaging an enemy whose engage cost is 0 AP, which a free disengage undoes.  A
    search that sees the end of the hero phase coming (an enemy phase, a Quest that loses at the
    threat line) would otherwise engage and disengage the same enemy for ever rather than pass.  A
    free disengage stays a choice: a hero must be unengaged to work terrain (section 1.20)."""
    if move.get("type") != "engage":
        return False
    e = next((e for e in s["enemies"] if e["id"] == move.get("enemy")), None)
    return e is not None and m.enemy_stat(s, e, "engage") == 0


def evaluate(s: dict, seat: int) -> float:
    """The party's standing (the same for every hero: they win or lose together), squashed into [0, 1]:
    threat against the scenario's loss line; the hero nearest to death (damage, Wounds and Fatigue,
    in hand against the hand size: a hero holding that much at a draw phase dies and the party loses)
    and the party's damage on average; enemies left and defeated; and the terrain removed of all the
    scenario's (the tutorial is won by the last terrain card, the Side Gate, others by clearing terrain
    or reaching an enemy that comes with it)."""
    loss = m.scenario(s)["threat_loss"]
    threat = s["threat"] / max(1, loss)
    size = max(1, m.hand_size(s))
    damage = [m.damage_in_hand(s, i) / size for i in range(s["n"])]
    enemies = len(s["enemies"]) / (2 + s["n"])
    defeated = len(s["defeated"]) / (4 + s["n"])
    removed = len(s["removed_terrain"])
    terrain = removed / max(1, removed + len(s["terrain"]) + len(s["piles"]["terrain"]))
    x = (0.9 - 1.2 * threat - 1.0 * max(damage) - 0.5 * sum(damage) / len(damage) - 0.3 * enemies
         + 0.4 * defeated + 0.8 * terrain)
    return min(1.0, max(0.0, 0.5 + 0.5 * x / (abs(x) + 0.5)))
