"""Reaction windows whose cards simply resolve their effects (section 2.1): `before_enemy_attack` (a hero
is about to be attacked), `after_enemy_hit` (a hero was just hit) and `end_phase`.

No card of our pack uses them yet; they are wired so that a real card list can (section 2: card data
replaces ours without code).  The windows with special resolution live with their rules: cancelling an
ability (`on_special_ability`, enemy_phase.py), a spawned target (`after_quest_spawn`, phases.py),
replacing a "?" draw (`own_attack_response`, hero_phase.py).

Who reacts: a hero holding a Reaction of that window with its cost in AP and, for a window about
another hero, the range to reach them.  As in section 3.3, a hero in `ask` mode is asked during the
enemy phase (timeout: the plan's REACT line, else pass); every other hero plays their plan's REACT line
at once.  The end phase is automatic (section 3.6), so there only REACT lines play.  Targets are not
asked: "hero" is the hero the window is about (else the reactor), an enemy target is the attacker
(else the first legal one).
"""

from __future__ import annotations

from ..errors import present
from . import model as m
from .effects import candidates, slots_for_ops
from .primitives import Ctx, pay

PROMPTED = ("before_enemy_attack", "after_enemy_hit")


def reaction_mode(s: dict, cid: str, window: str) -> dict | None:
    return next((md for md in m.cdef(s, cid).get("modes", [])
                 if md["type"] == "reaction" and md.get("window") == window), None)


def window_cards(s: dict, window: str, hero: int | None) -> list[list[str]]:
    """Per seat, the Reaction cards playable in this window (hero None: each hero for themselves)."""
    out = []
    for seat, h in enumerate(s["heroes"]):
        cards = []
        for c in h["hand"]:
            md = reaction_mode(s, c, window)
            if md and md["cost"] <= h["ap"] and (hero is None or md["range"] >= m.dist_hero(seat, hero)):
                cards.append(c)
        out.append(cards)
    return out


def open_window(ctx: Ctx, window: str, hero: int | None, enemy: str | None, order: list[int] | None = None) -> None:
    """Standing REACT lines play now (in `order`); ask-mode heroes get a prompt (enemy phase only).
    Effects are queued in front of whatever the caller queued to run after the window."""
    s = ctx.s
    cards = window_cards(s, window, hero)
    ask = [seat for seat, cs in enumerate(cards) if cs and window in PROMPTED and s["heroes"][seat]["mode"] == "ask"]
    for seat in order or range(s["n"]):
        planned = [c for c in cards[seat] if s["cards"][c] in s["heroes"][seat]["plan"]["react"]]
        if planned and seat not in ask:
            play_window_card(ctx, seat, planned[0], window, hero, enemy)
    if ask:
        ctx.prompt = {"kind": "react", "seats": ask, "window": window, "hero": hero, "enemy": enemy,
                      "cards": [cards[seat] if seat in ask else [] for seat in range(s["n"])]}


def play_window_card(ctx: Ctx, seat: int, cid: str, window: str, hero: int | None, enemy: str | None) -> None:
    s = ctx.s
    md = reaction_mode(s, cid, window)
    md = present(md, "cid is one of window_cards(), which lists only cards with a mode for this window")
    pay(ctx, seat, md["cost"], "reaction")
    ctx.emit({"type": "play", "seat": seat, "card": cid, "as": "reaction", "window": window})
    chosen = {}
    for slot in slots_for_ops(md.get("effects", []), ""):
        cands = candidates(s, seat, slot, md["range"])
        prefer = (seat if hero is None else hero) if slot["kind"] == "hero" else enemy
        chosen[slot["key"]] = prefer if prefer in cands else (cands[0] if cands else None)
    env = {"seat": seat, "card": cid, "attacker": enemy, "chosen": chosen}
    ctx.push([{"k": "ops", "ops": md.get("effects", []), "env": env, "prefix": "", "start": 0},
              {"k": "finish_card", "card": cid, "seat": seat, "area": None, "group": []}])


def answer_window(ctx: Ctx, seat: int, move: dict) -> None:
    """One reaction per hero per window: `react` plays the card, `pass` declines."""
    p = ctx.prompt
    if move["type"] == "react":
        play_window_card(ctx, seat, move["card"], p["window"], p["hero"], p["enemy"])
    p["seats"].remove(seat)
    p["cards"][seat] = []
    if not p["seats"]:
        ctx.prompt = None
