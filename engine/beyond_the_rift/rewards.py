"""Campaign rewards on a win (section 2.11's reward procedure), as the next scenario's carry-over.

The reward procedure asks the party to hand out drawn items; the engine does it by a fixed rule so that
the game ends without another round of questions: each hero keeps up to `keep_each` of their draws,
preferring items they meet the requirement of (equipped if that body part is free, else into the stash);
a hero who can use none of their draws still keeps the first for the party's stash; the rest go back
under the reward deck.
Players re-arrange equipment between scenarios with the `equip` start option.
"""

from __future__ import annotations

from . import model as m
from .content import CONTENT
from .evolve import jcopy


def rewards_for(state: dict) -> tuple[dict, dict | None]:
    camp = state["campaign"]
    if camp is None:
        return {}, None
    sc = m.scenario(state)
    camp = jcopy(camp)
    first_win = sc["id"] not in camp["won"]
    if first_win:
        camp["won"].append(sc["id"])
    drawn = []
    rw = sc.get("rewards", {})
    if first_win:  # H8: a replayed win grants nothing twice
        for seat, h in enumerate(state["heroes"]):
            got = [camp["reward_deck"].pop(0) for _ in range(rw.get("draw_each", 0)) if camp["reward_deck"]]
            usable = [it for it in got if CONTENT.item_allowed(it, h["hero"])]
            keep = (usable or got)[:rw.get("keep_each", 0)]
            for item in got:
                part = CONTENT.items[item]["part"]
                mine = camp["equipped"].setdefault(h["hero"], {})
                if item not in keep:
                    camp["reward_deck"].append(item)  # nobody keeps it: back under the reward deck
                    to = "reward_deck"
                elif item in usable and part not in mine:
                    mine[part] = item
                    to = part
                else:
                    camp["stash"].append(item)
                    to = "stash"
                drawn.append({"hero": h["hero"], "item": item, "to": to})
        if "unlock_side" in rw:
            hero, side = rw["unlock_side"]
            sides = camp["unlocked_sides"].setdefault(hero, [])
            if side not in sides:
                sides.append(side)
        for item in rw.get("stash", []):
            camp["stash"].append(item)
            drawn.append({"hero": None, "item": item, "to": "stash"})
    rewards = dict(jcopy(camp), drawn=drawn, scenario=sc["id"])
    return rewards, camp
