"""A move carried out: routed to the rules it answers.  Standing orders first (they change at any time,
section 3.1, and answer nothing that is asked), then the open question (a prompt), the open attack window,
or an action of the hero phase.  Here, not in hero_phase.py, because the enemy phase's questions (defense
points, reactions) are answered by enemy_phase.py, which itself builds on hero_phase.py."""

from __future__ import annotations

from . import enemy_phase as ep
from . import hero_phase as hp
from .orders import apply_setting
from .primitives import Ctx
from .reactions import PROMPTED, answer_window


def perform(ctx: Ctx, seat: int, move: dict) -> None:
    s = ctx.s
    t = move["type"]
    if t == "mode":
        ctx.emit({"type": "hero_set", "seat": seat, "key": "mode", "value": move["mode"]})
    elif t == "setting":
        apply_setting(ctx, seat, move["key"], move["value"])
    elif s["prompt"] is not None:
        answer(ctx, seat, move)
    elif s["attack"] is not None:
        hp.attack_window(ctx, seat, move)
    else:
        hp.hero_action(ctx, seat, move)


def answer(ctx: Ctx, seat: int, move: dict) -> None:
    p = ctx.prompt
    if p["kind"] == "defense":
        ep.answer_defense(ctx, seat, move)
    elif p["kind"] == "react" and p["window"] in PROMPTED:
        answer_window(ctx, seat, move)
    elif p["kind"] == "react" and p["window"] == "on_special_ability":
        ep.answer_react(ctx, seat, move)
    else:
        hp.answer_prompt(ctx, seat, move)
