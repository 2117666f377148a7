"""The trainer's bots in solo play (rules §11): the 12 challenge abilities, the & card, eligibility.

A bot has only the challenge ability of its number (summoner abilities are ignored).  Its "enemies"
are the player's elementals (side 0); the trainer is seat 1.  Abilities are resumable step
functions like the guilds' (abilities.py): `fn(fx, bot, stage, data, choice)` returns None when
done or an ask for a choice the *player* makes (house rule Q6: where a bot ability offers a
choice, the player picks, "in the way that is best for you"):

    "aim"    6★★: which adjacent location's first elemental the bot strikes and pulls
    "push"   6★★★: where the struck elemental is pushed
    "target" 5★★★★: which of the equally most-damaged elementals is struck

Only choices that change the outcome are asked: 6★★ offers only adjacent locations holding one of
your elementals (the bot must damage one, see `eligible`), and `run` takes a lone option itself.
"""

from __future__ import annotations

import json
import pathlib
from collections.abc import Callable
from typing import Any

from .cards import NUMBER
from .effects import Effects
from .state import locate

_DATA = json.loads((pathlib.Path(__file__).with_name("challenges.json")).read_text())
# CHALLENGES["5"]["2"] -> {"effect": "last_repeat", "amount": 2, "text": ...}
CHALLENGES: dict[str, dict[str, dict[str, Any]]] = _DATA["challenges"]
AND_ENDS: dict[str, dict[str, str]] = _DATA["and"]
PLAYER, TRAINER = 0, 1

Ask = dict[str, Any]


def challenge(s, number: int) -> dict[str, Any]:
    """The challenge card end in play for bots of this number (options "stars")."""
    return CHALLENGES[str(number)][str(s["options"]["stars"][str(number)])]


def challenge_id(s, number: int) -> str:
    return f"{number}-{s['options']['stars'][str(number)]}"


def _ask(what: str, bot: str, stage: int, options: list, data: dict | None = None) -> Ask:
    return {"what": what, "fn": "bot", "card": bot, "stage": stage, "data": data or {},
            "options": options}


def _mine(fx: Effects, loc: int) -> list[str]:
    """The player's elementals at `loc` (the bots' enemies), front first."""
    return fx.s["board"][loc][PLAYER]


# ---- the challenge effects (challenges.json "effect") ----------------------------------------------

def _first(fx, bot, loc, c, stage, data, choice):
    st = _mine(fx, loc)
    if st:
        fx.hit(st[0], c["amount"], bot)


def _last(fx, bot, loc, c, stage, data, choice):
    st = _mine(fx, loc)
    if st:
        fx.hit(st[-1], c["amount"], bot)


def _last_repeat(fx, bot, loc, c, stage, data, choice):
    st = _mine(fx, loc)
    if st and fx.hit(st[-1], c["amount"], bot):
        st = _mine(fx, loc)  # Q1: the destroyed card is gone; the new last is struck once more
        if st:
            fx.hit(st[-1], c["amount"], bot)


def _first_second(fx, bot, loc, c, stage, data, choice):
    st = _mine(fx, loc)
    if st:
        fx.hit(st[0], c["amount"], bot)
        st = _mine(fx, loc)  # Q1: "second" is worked out from what is left
        if len(st) > 1:
            fx.hit(st[1], c["second"], bot)


def _most_damaged(fx, bot, loc, c, stage, data, choice):
    if stage == 1:
        fx.hit(choice, c["amount"], bot)
        return None
    st = _mine(fx, loc)
    if not st:
        return None
    top = max(fx.damage_of(x) for x in st)
    return _ask("target", bot, 1, [x for x in st if fx.damage_of(x) == top])


def _pull(fx, bot, loc, c, stage, data, choice):
    if stage == 0:
        return _ask("aim", bot, 1, [l for l in fx.adjacent(loc) if _mine(fx, l)])
    target = _mine(fx, choice)[0]
    if not fx.hit(target, c["amount"], bot):
        fx.move(target, loc)  # like Plant: a destroyed elemental is not moved (Q2)
    return None


def _push(fx, bot, loc, c, stage, data, choice):
    if stage == 0:
        st = _mine(fx, loc)
        if not st or fx.hit(st[0], c["amount"], bot):
            return None
        return _ask("push", bot, 1, fx.adjacent(loc), {"target": st[0]})
    fx.move(data["target"], choice)
    return None


def _adjacent_firsts(fx, bot, loc, c, stage, data, choice):
    for l in fx.adjacent(loc):
        st = _mine(fx, l)
        if st:
            fx.hit(st[0], c["amount"], bot)


def _first_and_last(fx, bot, loc, c, stage, data, choice):
    st = _mine(fx, loc)
    # Q6: the damage goes to the set of distinct targets, so a lone elemental takes it once.
    for target in dict.fromkeys([st[0], st[-1]] if st else []):
        fx.hit(target, c["amount"], bot)


def _first_then_others(fx, bot, loc, c, stage, data, choice):
    st = _mine(fx, loc)
    if not st:
        return
    first = st[0]
    fx.hit(first, c["amount"], bot)
    for other in [x for x in _mine(fx, loc) if x != first]:
        fx.hit(other, c["others"], bot)


EFFECTS: dict[str, Callable[..., Ask | None]] = {
    "first": _first, "last": _last, "last_repeat": _last_repeat, "first_second": _first_second,
    "most_damaged": _most_damaged, "pull": _pull, "push": _push,
    "adjacent_firsts": _adjacent_firsts, "first_and_last": _first_and_last,
    "first_then_others": _first_then_others,
}

# Effects whose targets sit at adjacent locations rather than the bot's own.
_REACHES_ADJACENT = {"pull", "adjacent_firsts"}


def _would_damage_from(fx: Effects, effect: str, loc: int) -> bool:
    """Rules §11: only a bot that would put damage on at least one of your elementals may act."""
    if effect in _REACHES_ADJACENT:
        return any(_mine(fx, l) for l in fx.adjacent(loc))
    return bool(_mine(fx, loc))


def and_end(s, number: int) -> str | None:
    """"A" or "B" when the & card applies to bots of this number, else None (rules §11, Q9)."""
    a = s["options"].get("and")
    return a["end"] if a is not None and a["number"] == number else None


def eligible(fx: Effects, bot: str) -> bool:
    number = NUMBER[bot]
    effect = challenge(fx.s, number)["effect"]
    loc = locate(fx.s, bot)[0]
    if and_end(fx.s, number) == "A":  # Q6: eligible if some destination would let it damage
        return any(_would_damage_from(fx, effect, l) for l in fx.others(loc))
    return _would_damage_from(fx, effect, loc)


# ---- the & card automation (house rule Q6) ----------------------------------------------------------

def _damage_dealt(fx: Effects, bot: str, effect: str, c: dict, loc: int) -> int:
    """Damage a bot's challenge would deal to the player from `loc`, answering any choice with its
    first option: a dry run on a private copy (events discarded)."""
    trial = Effects(fx.s, None)
    trial.acting = TRAINER
    trial.move(bot, loc)
    stage: int = 0
    data: dict[str, Any] = {}
    choice: Any = None
    while True:
        ask = EFFECTS[effect](trial, bot, loc, c, stage, data, choice)
        if not ask or not ask["options"]:
            break
        stage, data, choice = ask["stage"], ask["data"], ask["options"][0]
    return sum(e["amount"] for e in trial.events if e["type"] == "damage" and e["seat"] == PLAYER)


def _and_a_destination(fx: Effects, bot: str, effect: str, c: dict) -> int:
    """End A: the other location where the challenge deals the most damage (ties: lowest index)."""
    here = locate(fx.s, bot)[0]
    best, best_loc = -1, here
    for l in fx.others(here):
        if _would_damage_from(fx, effect, l):
            dealt = _damage_dealt(fx, bot, effect, c, l)
            if dealt > best:
                best, best_loc = dealt, l
    return best_loc


def _and_b_heal(fx: Effects, bot: str) -> None:
    """End B: 1 damage off the most-damaged bot (ties: lowest location index, then front-most)."""
    best, pick = 0, None
    for sides in fx.s["board"]:
        for b in sides[TRAINER]:
            d = fx.damage_of(b)
            if d > best:
                best, pick = d, b
    if pick is not None:
        fx.heal(pick, 1, bot)


# ---- running a bot --------------------------------------------------------------------------------

def bot(fx: Effects, actor: str, stage: int, data: dict, choice: Any) -> Ask | None:
    """One bot's activation from `stage` (0: the & part first, then the challenge)."""
    number = NUMBER[actor]
    c = challenge(fx.s, number)
    effect = c["effect"]
    if stage == 0:
        end = and_end(fx.s, number)
        if end == "A":
            fx.move(actor, _and_a_destination(fx, actor, effect, c))
        elif end == "B":
            _and_b_heal(fx, actor)
    loc = locate(fx.s, actor)[0]
    return EFFECTS[effect](fx, actor, loc, c, stage, data, choice)


def run(fx: Effects, actor: str, stage: int = 0, data: dict | None = None,
        choice: Any = None) -> Ask | None:
    """Run a bot until done or a real choice of the player's (two or more options)."""
    fx.acting = TRAINER
    try:
        while True:
            ask = bot(fx, actor, stage, data or {}, choice)
            if ask is None or not ask["options"]:
                return None
            if len(ask["options"]) > 1:
                return ask
            stage, data, choice = ask["stage"], ask["data"], ask["options"][0]
    finally:
        fx.acting = None
