"""Solo play against the trainer (rules §11, house rules Q6-Q11 and Q17).

Setup: 6 of the 18 summoners are offered at random and the player keeps 4 (`pick` moves).  Then,
as the rule says ("from all the remaining guilds, the trainer gets any 4, the player's choice"),
the trainer's 4 guilds come from the 14 the player did not keep, the 2 offered and set aside
included, by the standing choice made at creation (option "trainer_guilds"):

- "choose" (the default): the player gives the trainer 4 guilds one at a time (`give` moves, a
  follow-up decision of the same turn as the keep);
- "random": 4 drawn at random from the 14, with the rng of the move that completes the keep;
- 4 named guilds: given after the keep; a named guild the player kept cannot be given (house rule
  Q17), so the player chooses that many more from the 14, the named ones still free given first.

The trainer is stored as seat 1: its 36 elementals are bots with their own draw and discard piles,
one bot is put at each location, and the plan pile is built as the rules say (3 attack plans then a
control plan, five times) and lies face up.

Games set up before rules_version "3" fixed the trainer's guilds at creation, before the 6 were
drawn from the other 14: their `draft` event names them (`"trainer"`), and such a game goes on
exactly as it was set up (the keep's last pick deals at once).

A round is the player's action, then the top plan carried out automatically inside the same
`play` call: a bot placed at the plan's location, then for a control plan 1 RF per location the
trainer controls, for an attack plan each number in turn activating one eligible bot of that
number (each bot at most once per plan).  Where several bots qualify, or a bot ability offers a
choice, the player decides (Q6): the plan waits in `pending` ({"kind": "plan", ...}) for seat 0's
answer, a follow-up move like any other.

End (§11, Q11): once either side reached 12 the current plan is finished; then the game ends
unless the scores are tied, in which case full rounds go on until a round ends untied.
"""

from __future__ import annotations

import json
import pathlib
import random
from typing import Any

from engine.errors import IllegalMove

from . import trainer
from .cards import ALL_GUILDS, NUMBER, deck_for
from .effects import Effects
from .state import LOCATIONS, controls

_PLANS = json.loads((pathlib.Path(__file__).with_name("plans.json")).read_text())
# Q7: the plan deck is a placeholder (only 3 attack plans and 1 control plan are known).
PLANS_PLACEHOLDER: bool = _PLANS["placeholder"]
PLANS: dict[str, dict[str, Any]] = {p["id"]: p for p in _PLANS["plans"]}
KEEP, OFFERED, STACKS = 4, 6, 5
HAND_SIZE = 7


def plan_loc(plan: str) -> int:
    """Plans mark squares 1-5, left to right as the player sees the row (Q6); data uses 0-4."""
    return PLANS[plan]["square"] - 1


TRAINER_CHOICES = ("choose", "random")  # the standing choices besides 4 named guilds


def normalize_options(players: Any, options: dict) -> dict:
    if players != 1:
        raise IllegalMove("solo play is for 1 player", "bad_options")
    allowed = {"mode", "guilds", "stars", "and", "trainer_guilds"}
    if set(options) - allowed or options.get("guilds", "all") != "all":
        raise IllegalMove("solo options: stars, and, trainer_guilds (all 18 guilds are used)",
                          "bad_options")
    stars = options.get("stars", {})
    if not isinstance(stars, dict) or set(stars) - {"5", "6", "7"} or any(
            isinstance(v, bool) or v not in (1, 2, 3, 4) for v in stars.values()):
        raise IllegalMove("stars: {\"5\": 1-4, \"6\": 1-4, \"7\": 1-4}", "bad_options")
    out: dict[str, Any] = {"mode": "solo", "guilds": "all",
                           "stars": {n: stars.get(n, 1) for n in ("5", "6", "7")}, "and": None}
    amp = options.get("and")
    if amp is not None:
        if (not isinstance(amp, dict) or set(amp) != {"number", "end"}
                or isinstance(amp["number"], bool) or amp["number"] not in (5, 6, 7)
                or amp["end"] not in ("A", "B")):
            raise IllegalMove("and: {\"number\": 5|6|7, \"end\": \"A\"|\"B\"}", "bad_options")
        out["and"] = {"number": amp["number"], "end": amp["end"]}
    chosen = options.get("trainer_guilds", "choose")
    if isinstance(chosen, str) and chosen in TRAINER_CHOICES:
        out["trainer_guilds"] = chosen
    elif (isinstance(chosen, list) and len(chosen) == KEEP
            and all(isinstance(g, str) and g in ALL_GUILDS for g in chosen)
            and len(set(chosen)) == KEEP):
        out["trainer_guilds"] = list(chosen)
    else:
        raise IllegalMove("trainer_guilds: \"choose\" (after your keep), \"random\", or 4 "
                          "different guild names", "bad_options")
    return out


def plan_pile(rng: random.Random) -> list[str]:
    """§11: 15 attack plans in 5 stacks of 3, a control plan on each, piled and turned face up,
    so the pile runs 3 attack plans then 1 control plan, five times (index 0 = top)."""
    attacks = [p for p, d in PLANS.items() if d["kind"] == "attack"]
    control = [p for p, d in PLANS.items() if d["kind"] == "control"]
    rng.shuffle(attacks)
    rng.shuffle(control)
    pile = []
    for i in range(STACKS):
        pile += attacks[3 * i: 3 * i + 3] + [control[i]]
    return pile


def start_events(options: dict, rng: random.Random) -> list[dict]:
    """The setup: 6 of all 18 summoners offered (the trainer's guilds come after the keep)."""
    pool = ALL_GUILDS[:]
    rng.shuffle(pool)
    order = plan_pile(rng)
    return [
        {"type": "setup", "players": 1, "mode": "solo", "options": options},
        {"type": "draft", "removed": [], "dealt": [], "offer": pool[:OFFERED], "first": 0,
         "order": [0], "quota": [KEEP, 0]},
        {"type": "plans", "order": order, "count": len(order), "placeholder": PLANS_PLACEHOLDER},
    ]


def after_draft(fx: Effects) -> None:
    """The player kept 4: the trainer's guilds by the standing choice (module docstring), then,
    once it has 4, the deal.  A game set up before rules_version "3" named them at creation."""
    d = fx.s["draft"]
    if "trainer" in d:
        _deal(fx)
        return
    kept = d["picks"][0]
    # The 14 not kept: the 2 offered and set aside first (the player has just read them), then the
    # others in the guilds' order.
    pool = d["offer"] + [g for g in ALL_GUILDS if g not in kept and g not in d["offer"]]
    standing = fx.s["options"].get("trainer_guilds", "choose")
    if standing == "random":
        given = sorted(fx.rng.sample(pool, KEEP), key=pool.index)
        how = "random"
    elif isinstance(standing, list):
        given = [g for g in standing if g not in kept]  # Q17: a kept guild cannot be given
        how = "named"
    else:
        given = []
        how = "choose"
    fx.emit({"type": "trainer_draft", "seat": 0, "how": how, "given": given,
             "offer": [g for g in pool if g not in given]})
    if len(given) == KEEP:
        _deal(fx)


def give(fx: Effects, guild: str) -> None:
    """The player gives the trainer one of the guilds not kept; the fourth completes the setup."""
    fx.emit({"type": "give", "seat": 0, "guild": guild})
    if len(fx.s["draft"]["trainer"]) == KEEP:
        _deal(fx)


def _deal(fx: Effects) -> None:
    """Both sides have 4 guilds: decks, the opening hand, a bot at each location, the first turn."""
    d = fx.s["draft"]
    trainer_guilds = d["trainer"][:]
    fx.emit({"type": "draft_end", "removed": [g for g in d["offer"] if g not in trainer_guilds],
             "start": 0, "trainer": trainer_guilds})
    for seat in (0, 1):
        order = deck_for(fx.s["guilds"][seat])
        fx.rng.shuffle(order)
        fx.emit({"type": "deck", "seat": seat, "order": order, "count": len(order)})
    fx.draw(0, HAND_SIZE)
    for loc in range(LOCATIONS):
        place_bot(fx, loc)
    fx.emit({"type": "turn", "seat": 0})


def place_bot(fx: Effects, loc: int) -> None:
    """The top bot of the trainer's pile to the back of its side at `loc`; an empty pile is
    refilled from the trainer's discard (Q10), and with no bot at all nothing is placed."""
    if not fx.s["deck"][1]:
        pile = fx.s["discard"][1]
        if not pile:
            return
        order = pile[:]
        fx.rng.shuffle(order)
        fx.emit({"type": "reshuffle", "seat": 1, "order": order, "count": len(order)})
    fx.emit({"type": "enter", "seat": 1, "card": fx.s["deck"][1][0], "loc": loc, "from": "deck"})


# ---- the trainer's plan ---------------------------------------------------------------------------

def carry_out_plan(fx: Effects) -> None:
    """After the player's action: the top plan, as far as it goes without a player's choice."""
    s = fx.s
    plan = s["plans"][0]
    info = PLANS[plan]
    fx.emit({"type": "plan", "plan": plan, "kind": info["kind"], "loc": plan_loc(plan),
             "numbers": list(info.get("numbers", []))})
    place_bot(fx, plan_loc(plan))
    if info["kind"] == "control":
        held = controls(s, 1)
        fx.score(1, len(held), "control")
        _finish_plan(fx)
        return
    _continue(fx, {"kind": "plan", "seat": 0, "plan": plan, "step": 0, "used": [], "ask": None})


def _continue(fx: Effects, p: dict) -> None:
    """Activate bots number by number until the plan is done or the player must choose."""
    numbers = PLANS[p["plan"]]["numbers"]
    while p["ask"] is None:
        if p["step"] >= len(numbers):
            _finish_plan(fx)
            return
        number = numbers[p["step"]]
        ready = [b for sides in fx.s["board"] for b in sides[1]
                 if NUMBER[b] == number and b not in p["used"] and trainer.eligible(fx, b)]
        if not ready:
            p["step"] += 1  # no bot of that number qualifies: the number is skipped
        elif len(ready) > 1:
            # Q6: the player chooses which eligible bot acts.
            p["ask"] = {"what": "bot", "fn": "choose", "card": None, "stage": 0,
                        "data": {"number": number}, "options": ready}
        else:
            _activate(fx, p, ready[0])
    fx.emit({"type": "pending", "pending": p})


def _activate(fx: Effects, p: dict, bot: str) -> None:
    loc = next(l for l, sides in enumerate(fx.s["board"]) if bot in sides[1])
    fx.emit({"type": "activated", "seat": 1, "card": bot, "loc": loc,
             "challenge": trainer.challenge_id(fx.s, NUMBER[bot])})
    p["used"] = p["used"] + [bot]
    p["step"] += 1
    p["ask"] = trainer.run(fx, bot)


def answer(fx: Effects, p: dict, choice: Any) -> None:
    """The player's answer to a plan's question: which bot acts, or a choice inside its ability."""
    ask = p["ask"]
    p = {**p, "ask": None}
    if ask["what"] == "bot":
        _activate(fx, p, choice)
    else:
        p["ask"] = trainer.run(fx, ask["card"], ask["stage"], ask["data"], choice)
    _continue(fx, p)


def _finish_plan(fx: Effects) -> None:
    s = fx.s
    fx.emit({"type": "plan_end", "plan": s["plan"]})
    if not s["plans"]:
        fx.emit({"type": "plans_recycled", "count": len(s["plan_discard"])})
    a, b = s["score"]
    if s["ending"] and a != b:
        fx.emit({"type": "game_over", "scores": [a, b], "reason": "score",
                 "winners": [0] if a > b else []})
    else:
        fx.emit({"type": "turn", "seat": 0})
