"""Campaign rewards on a win (section 2.11's reward procedure, H26), as the next scenario's carry-over.

"Draw N" means: each hero in turn (seat order) draws N item selection cards from the reward deck; the
party gives each drawn item to a hero who meets its requirement (equipped now, if that body part is free)
or puts it in the stash; a hero keeps at most `keep_each` of their draws; the rest go back under the
reward deck at once (a later hero may draw them).

The drawing hero decides (H26), item by item, through the standing order `rewards`:

* `auto` (the default, and rules version 2's fixed rule, so by default nobody is asked): keep up to
  `keep_each` of the draws, preferring items the drawer meets the requirement of (H27: an alternate side
  keeps its hero's name, class and alignment), equipped on the drawer if that body part is free, else
  into the stash; a hero who can use none keeps the first for the stash; the rest go back;
* `ask`: a prompt ("reward") per item: equip it on any hero who may use it and has that part free,
  stash it, or return it.  The timeout default is what `auto` would do.

Events: `won` (the scenario is won, its result still pending; phase "rewards"), `reward_draw` (a hero's
draws), `reward` (one item placed), then `result` with the campaign state as `rewards`.  A win with
nothing to draw (the tutorial, a replayed win (H8), scenario 3's fixed rewards) goes straight to `result`.
Players re-arrange equipment between scenarios with the `equip` start option.
"""

from __future__ import annotations

from ..kit import jcopy
from . import model as m
from .content import CONTENT


def start(ctx, res: dict) -> bool:
    """Begin handing out the rewards of a win.  False: `res` now holds them and the caller emits the
    result; True: a hero is asked (ctx.prompt), the scenario waits in the "rewards" phase.  When every
    item is placed without asking, the result is emitted here (and the emit stops the move)."""
    s = ctx.s
    camp = s["campaign"]
    rw = m.scenario(s).get("rewards", {})
    if camp is None:
        res["rewards"], res["campaign"] = {}, None
        return False
    first_win = s["scenario"] not in camp["won"]
    if not (first_win and rw.get("draw_each") and camp["reward_deck"]):
        camp = jcopy(camp)
        if first_win:
            camp["won"].append(s["scenario"])
        res["rewards"], res["campaign"] = settle(s, camp, [], first_win)
        return False
    ctx.emit({"type": "won", "result": dict(res)})
    ctx.tasks, ctx.action = [], None
    return advance(ctx)


def advance(ctx) -> bool:
    """Place drawn items until a hero must be asked (True) or none is left, then emit the result."""
    s = ctx.s
    rw = m.scenario(s)["rewards"]
    while True:
        r = s["reward"]
        if r["hand"]:
            seat, item = r["seat"], r["hand"][0]
            if s["heroes"][seat]["plan"]["rewards"] == "ask" and len(choices(s, seat)) > 1:
                ctx.prompt = {"kind": "reward", "seats": [seat], "item": item}
                return True
            ctx.emit(event(s, seat, automatic(s, seat)))
            continue
        following = 0 if r["seat"] is None else r["seat"] + 1
        deck = r["camp"]["reward_deck"]
        if following < s["n"] and deck:
            ctx.emit({"type": "reward_draw", "seat": following, "items": deck[:rw["draw_each"]]})
            continue
        res = dict(r["result"])
        res["rewards"], res["campaign"] = settle(s, jcopy(r["camp"]), jcopy(r["drawn"]), True)
        ctx.emit({"type": "result", "result": res})


def settle(s: dict, camp: dict, drawn: list, first_win: bool) -> tuple[dict, dict]:
    """The scenario's fixed rewards (an unlocked side, items straight into the stash), on a first win;
    returns (the result's `rewards`: the campaign state with the items `drawn` and the scenario, the
    campaign state)."""
    rw = m.scenario(s).get("rewards", {})
    if first_win:
        if "unlock_side" in rw:
            hero, side = rw["unlock_side"]
            sides = camp["unlocked_sides"].setdefault(hero, [])
            if side not in sides:
                sides.append(side)
        for item in rw.get("stash", []):
            camp["stash"].append(item)
            drawn.append({"hero": None, "item": item, "to": "stash"})
    return dict(jcopy(camp), drawn=drawn, scenario=s["scenario"]), camp


def allowed(s: dict, seat: int, item: str) -> bool:
    """H27: the requirement is checked against the hero, whichever side of the board is in play."""
    return CONTENT.item_allowed(item, s["heroes"][seat]["hero"])


def choices(s: dict, seat: int) -> list[dict]:
    """The moves of the drawing hero for the item at hand: equip it on a hero (who may use it and has
    that body part free), stash it, return it; only return once `keep_each` items are kept."""
    r = s["reward"]
    item = r["hand"][0]
    out = []
    if r["kept"] < m.scenario(s)["rewards"].get("keep_each", 0):
        part = CONTENT.items[item]["part"]
        for other, h in enumerate(s["heroes"]):
            if allowed(s, other, item) and part not in r["camp"]["equipped"].get(h["hero"], {}):
                out.append({"type": "reward", "item": item, "to": "equip", "seat": other})
        out.append({"type": "reward", "item": item, "to": "stash"})
    return out + [{"type": "reward", "item": item, "to": "return"}]


def automatic(s: dict, seat: int) -> dict:
    """The `auto` order's choice for the item at hand, as a move (rules version 2's rule, item by item:
    the keep set is chosen over the whole draw)."""
    r = s["reward"]
    item = r["hand"][0]
    keep_each = m.scenario(s)["rewards"].get("keep_each", 0)
    usable = [it for it in r["got"] if allowed(s, seat, it)]
    keep = (usable or r["got"])[:keep_each]
    if item not in keep or r["kept"] >= keep_each:
        return {"type": "reward", "item": item, "to": "return"}
    part = CONTENT.items[item]["part"]
    if item in usable and part not in r["camp"]["equipped"].get(s["heroes"][seat]["hero"], {}):
        return {"type": "reward", "item": item, "to": "equip", "seat": seat}
    return {"type": "reward", "item": item, "to": "stash"}


def event(s: dict, seat: int, move: dict) -> dict:
    """The `reward` event of a move: `to` is the body part, "stash" or "reward_deck"; `on` the seat of
    the hero who equips it, when that is not the drawer."""
    to = move["to"]
    ev = {"type": "reward", "seat": seat, "item": move["item"],
          "to": CONTENT.items[move["item"]]["part"] if to == "equip" else {"return": "reward_deck"}.get(to, to)}
    if to == "equip" and move["seat"] != seat:
        ev["on"] = move["seat"]
    return ev


def answer(ctx, seat: int, move: dict) -> None:
    """The drawing hero's answer to a "reward" prompt; then the next item, or the next hero's draw."""
    ctx.prompt = None
    ctx.emit(event(ctx.s, seat, move))
    advance(ctx)
