"""Campaign rewards on a win (section 2.11's reward procedure), as the next scenario's carry-over.

The reward procedure asks the party to hand out drawn items; the engine does it by a fixed rule so that
the game ends without another round of questions: the hero who draws an item keeps it if they meet its
requirement (equipped if that body part is free, else put in the stash); an item nobody keeps goes back
under the reward deck, except that a hero who could keep none of their draws puts the first in the stash.
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
            kept = 0
            for item in got:
                if kept < rw.get("keep_each", 0) and CONTENT.item_allowed(item, h["hero"]):
                    kept += 1
                    part = CONTENT.items[item]["part"]
                    mine = camp["equipped"].setdefault(h["hero"], {})
                    if part in mine:
                        camp["stash"].append(item)
                        drawn.append({"hero": h["hero"], "item": item, "to": "stash"})
                    else:
                        mine[part] = item
                        drawn.append({"hero": h["hero"], "item": item, "to": part})
                elif kept == 0 and item == got[-1] and rw.get("keep_each", 0):
                    camp["stash"].append(item)
                    drawn.append({"hero": h["hero"], "item": item, "to": "stash"})
                    kept += 1
                else:
                    camp["reward_deck"].append(item)
                    drawn.append({"hero": h["hero"], "item": item, "to": "reward_deck"})
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
