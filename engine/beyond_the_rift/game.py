"""Beyond the Rift behind the engine contract (engine/core.py).

Decisions are step-wise: every move is one atomic decision (one button, one emailed link).  Moves by
context:

* hero phase, active hero: attack (with `nopledge` to refuse pledged aid) / play / wound / draw / cycle /
  discard_ap / engage / disengage / board / open / interact / pledge / unpledge / done / done_final; a
  DONE hero has `undone`.  A hero with a deferred discard-down (section 3.5) first has only `discard` (one
  card each) or done / done_final, which apply the DISCARD-ORDER default (so the default can never take a
  card another move is using).
* standing orders (orders.py): `mode` and `setting` moves, one setting each, for every hero at any time
  (section 3.1: "always editable"): DONE and DONE FINAL heroes, heroes during another's prompt or attack
  window.  Such heroes are not in `to_act` (nobody waits on them), yet they have legal moves: `to_act`
  lists the seats the game waits on, not every seat that may act.
* an action being built asks one target at a time (`choose` ... / `cancel`); opening a door asks the AP
  to spend (`spend`); cycling picks cards one by one (`pick` / `finish`).
* an open attack: the attacker has add / add_wound / resolve, the other heroes aid / no_aid.
* pledges (section 3.2): `pledge` a card to another hero's next attack this phase (then `choose` "any"
  or one enemy / door: PLEDGE ... ON <enemy>), `unpledge`; a pledged card joins that attack when it is
  declared, if still legal, unless the attacker attacked with `nopledge`.
* the enemy phase stops only at defense points of heroes who asked to be consulted (defense mode ask,
  or ask_if: damage >= 2 or Wounds+Fatigue in hand >= hand size - 2; other heroes in ask/ask_if mode
  holding a range-2 Defense card are asked to aid) and at Reactions to special abilities of heroes in
  ask mode (others react by their plan's REACT list): defend / spend / defend_wound / wound / to_ally /
  plan / confirm, aid_defense / no_aid, react / pass.  Quest-phase reactions never ask (section 3.4).
* H25: when the Door of "A Debt Paid in Ash" opens, each hero holding a Fatigue whose standing order
  `recover_fatigue` is `ask` (the default) is asked: `recover` <Fatigue card> or `keep`.
* H26: on a campaign win that draws items, a hero whose standing order `rewards` is `ask` places each
  item they drew (phase "rewards"): `reward` <item> equip <seat> / stash / return.  With `auto` (the
  default) nobody is asked and the automatic rule of rewards.py places them.

Timeout defaults (`default_move`, section 3.9): hero phase -> done (after the default discard-down);
an open attack -> the attacker resolves, the others do not aid; a target choice, a door amount or a cycle
-> cancel; a reveal pick -> finish (keep nothing more); a peek -> keep; a choose-op -> its first option;
a defense prompt -> `plan` (the defender's standing defense plan applied on top of what they committed);
defense aid -> the aider's standing AID line if one applies (then no_aid), else no_aid; a reaction
prompt -> the plan's REACT line if it names one of the cards, else pass; the Door's Fatigue (H25) ->
recover the last Fatigue in hand (what `always` does); a reward (H26) -> the automatic rule's choice.
Policy "skip" plays `pass` where a reaction prompt offers it, else the same.  `view()["waiting_on"]` names
the kind of decision with H7's default deadline (48 h hero phase and rewards; 12 h attack window,
defense, reaction and the Door's Fatigue, which hold up the whole party).
"""

from __future__ import annotations

import json
import random
from typing import ClassVar

from ..core import Game, Result, Turn
from ..errors import IllegalMove
from ..kit import result as kit_result
from ..messages import Message
from . import answers, messages, notation, rewards, views, words
from . import bot as bots
from . import enemy_phase as ep
from . import hero_phase as hp
from . import model as m
from .evolve import copy_live, copy_state
from .evolve import evolve as _evolve
from .phases import run
from .primitives import Ctx, Stop, fatigue_in_hand
from .setup import OPTIONS_SCHEMA, start_events
from .upcast import upcast


class BeyondTheRift(Game):
    name = "beyond-the-rift"
    title = "Beyond the Rift"
    # 2: the round's tie-break rotation applied; standing orders and party settings.
    # 3: events are facts (no names or sentences: upcast.py); result reasons are codes; H25 asks who
    #    frees a Fatigue at the Door, H26 hands out rewards by the drawing hero's standing order.
    rules_version = "3"
    min_players = 1
    max_players = 4

    # engine/bots.py: ~0.2 s (normal) and ~1 s (strong) a decision, measured with bench/bots.py
    bot_budgets: ClassVar[dict[str, tuple[int, int]]] = {"easy": (0, 0), "normal": (40, 8), "strong": (200, 10)}

    def options_schema(self) -> dict:
        return OPTIONS_SCHEMA

    def start(self, players: int, options: dict | None = None, seed: int = 0) -> list[dict]:
        return start_events(players, options, seed)

    def upcast(self, event: dict, rules_version: str) -> dict:
        return upcast(event, rules_version)

    # The module's function itself, not a method calling it: replay calls it once per event.
    evolve = staticmethod(_evolve)  # type: ignore[assignment]  # its parameters are named s, ev; callers pass them by position

    def copy_state(self, state):
        return copy_state(state)

    # ---- decisions ------------------------------------------------------------------------------

    def to_act(self, state: dict) -> list[int]:
        if state["result"] is not None:
            return []
        if state["prompt"] is not None:
            return list(state["prompt"]["seats"])
        if state["attack"] is not None:
            att = state["attack"]
            return [att["by"]] + [s for s in range(state["n"]) if s != att["by"] and hp.attack_window_moves(state, s)]
        if state["phase"] == "hero":
            return [s for s, h in enumerate(state["heroes"]) if h["status"] == "active"]
        return []

    def turn(self, state: dict) -> Turn:
        """A turn begins each time the game waits on heroes again after a moment it waited on nobody
        (evolve._count_turn): a new round's hero phase, a defense or reaction prompt the enemy phase
        stops at, the rewards of a win.  A hero phase's DONE/UNDONE, a prompt opened and answered in the
        hero phase, an attack window: no new turn.  The setup's hero phase is turn 1."""
        seats = () if state["result"] is not None else tuple(state["turn_seats"])
        return Turn(state["turns"], state["phase"], seats)

    def legal_moves(self, state: dict, seat: int) -> list[dict]:
        if state["result"] is not None or not isinstance(seat, int) or not 0 <= seat < state["n"]:
            return []
        # Standing orders are always editable (section 3.1), also by a hero nobody waits on; the
        # decisions asked come first (default_move's fallback takes the first).
        p = state["prompt"]
        if p is not None:
            asked = seat in p["seats"]
            own = (ep.defense_moves(state, seat) if p["kind"] == "defense" else hp.prompt_moves(state, seat)) if asked else []
            return own + hp.standing_moves(state, seat)
        if state["attack"] is not None:
            return hp.attack_window_moves(state, seat) + hp.standing_moves(state, seat)
        if state["phase"] == "hero":
            return hp.hero_moves(state, seat)
        return []  # the other phases run inside a move and rest only at a prompt

    def play(self, state: dict, seat: int, move: dict, rng: random.Random) -> list[dict]:
        if state["result"] is not None:
            raise IllegalMove("the scenario is over", "game_over", move)
        legal = self.legal_moves(state, seat)
        if not legal:
            raise IllegalMove("you have nothing to decide now", "not_your_turn", move)
        # compared as JSON: Python's True == 1 and 2.0 == 2 must not pass for a listed move
        if not isinstance(move, dict) or _strict(move) not in {_strict(mv) for mv in legal}:
            raise IllegalMove("that move is not allowed now", "illegal", move)
        ctx = Ctx(copy_live(state), rng)
        before = _touch_marks(ctx.s)
        try:
            answers.perform(ctx, seat, move)
            if state["prompt"] is not None and ctx.prompt is None:
                ctx.sync()  # the prompt is answered: from here on nobody may be waited on
            run(ctx)
            _reopen_done(ctx, seat, before)
        except Stop:
            pass
        return ctx.finish()

    def default_move(self, state: dict, seat: int) -> dict:
        moves = self.legal_moves(state, seat)
        if not moves or seat not in self.to_act(state):
            raise IllegalMove("that seat has nothing to decide", "not_your_turn")
        p = state["prompt"]
        if p is not None:
            k = p["kind"]
            if k == "defense":
                if seat == state["defense"]["hero"]:
                    return {"type": "plan"}
                return ep.planned_aid(state, seat) or {"type": "no_aid"}
            if k == "react":
                plan = state["heroes"][seat]["plan"]["react"]
                for mv in moves:
                    if mv["type"] == "react" and state["cards"][mv["card"]] in plan:
                        return mv
                return {"type": "pass"}
            if k == "recover":  # H25: what the standing order `always` does
                return {"type": "recover", "card": fatigue_in_hand(state, seat)[-1]}
            if k == "reward":  # H26: what the standing order `auto` does
                return rewards.automatic(state, seat)
            want = {"choose": "cancel", "amount": "cancel", "cycle": "cancel", "pick": "finish", "bottom": "keep"}
            if k in want:
                return {"type": want[k]}
            return moves[0]
        if state["attack"] is not None:
            return {"type": "resolve"} if seat == state["attack"]["by"] else {"type": "no_aid"}
        return {"type": "done"}

    # ---- moves as text --------------------------------------------------------------------------

    def move_text(self, state: dict, seat: int, move: dict) -> str:
        return notation.move_text(state, move)

    def parse_move(self, state: dict, seat: int, text: str) -> dict:
        return notation.parse_move(state, text)

    # ---- what people see ------------------------------------------------------------------------

    def determinize(self, state, seat, rng):
        return bots.determinize(state, seat, rng)

    def evaluate(self, state, seat):
        return bots.evaluate(state, seat)

    def bot_skips(self, state, seat, move):
        return bots.skips(state, seat, move)

    def view(self, state: dict, seat: int | None) -> dict:
        v = views.view(state, seat, self.to_act(state))
        if "orders" in v and seat is not None:  # the same standing orders as messages (JSON), for a reader in their language
            v["orders_said"] = [{"key": key, "value": value.to_json()}
                                for key, value in messages.orders_messages(state, seat)]
        return v

    def result(self, state: dict) -> Result | None:
        res = state["result"]
        if res is None:
            return None
        win = res["outcome"] == "win"
        extra = {"seat": res["seat"]} if "seat" in res else {}  # hero_died: whose death
        return kit_result([1 if win else 0] * state["n"], range(state["n"]) if win else [],
                          outcome=res["outcome"], reason=res["reason"], **extra, scenario=state["scenario"],
                          rounds=res["round"], rewards=res.get("rewards", {}) if win else {})

    def seats_affected(self, event: dict, state: dict | None) -> list[int]:
        """The hero who acts or is acted on (`seat`, `hero`: an enemy's attack or ability, `on`: given a
        reward), the owner of a card put into play, the hero whose area an enemy or card enters, the
        hero whose ally a card is attached to or taken from; every hero when the scenario ends."""
        out = {event[k] for k in ("seat", "owner", "hero", "on")
               if isinstance(event.get(k), int) and not isinstance(event.get(k), bool)}
        t = event["type"]
        if t in ("enemy_move", "persist") and event["area"] >= 0:
            out.add(event["area"])
        elif t == "spawn" and event["enemy"]["area"] >= 0:
            out.add(event["enemy"]["area"])
        elif t in ("attach", "detach", "stat_mod") and state is not None and event["to"].startswith("ally:"):
            out |= {seat for seat, h in enumerate(state["heroes"]) for p in h["area"] if p["card"] == event["to"][5:]}
        elif t == "result" and state is not None:
            out |= set(range(state["n"]))
        return sorted(out)

    def render_text(self, view: dict) -> str:
        return words.render(view)

    def deadline_share(self, state: dict, seat: int) -> float:
        """H7: defense and reaction prompts and attack windows get 12 of the hero phase's 48 hours."""
        waiting = views.waiting_on(state)
        return views.DEADLINES[waiting["kind"]] / views.DEADLINES["hero_phase"] if waiting else 1.0

    def move_section(self, move: dict) -> str | None:
        if move.get("type") == "mode":
            return words.SECTIONS["mode"]
        if move.get("type") == "setting":
            return words.SECTIONS.get(str(move.get("key")), "Standing orders")
        return None

    # Messages, not sentences (issue #26, messages.py): the service words them per reader and language.
    message_keys: ClassVar[frozenset[str]] = messages.KEYS

    def event_messages(self, event: dict, seat: int | None, state: dict | None) -> list[Message]:
        return messages.event_messages(event, seat, state)

    def move_message(self, move: dict, state: dict | None = None) -> Message:
        return messages.move_message(move, state)

    def describe_move(self, move: dict, state: dict | None = None) -> str:
        return words.describe_move(move, state)

    def describe_event(self, event: dict, seat: int | None, state: dict | None) -> str | None:
        return words.describe_event(self.redact_event(event, seat), seat, state)

    def redact_event(self, event: dict, seat: int | None) -> dict:
        return views.redact_event(event, seat)

    def redact_options(self, options: dict, seat: int | None) -> dict:
        carry = options.get("carry")
        if isinstance(carry, dict) and isinstance(carry.get("reward_deck"), list):  # its order is hidden
            return dict(options, carry=dict(carry, reward_deck=len(carry["reward_deck"])))
        return options


def _strict(move: dict) -> str:
    try:
        return json.dumps(move, sort_keys=True)
    except (TypeError, ValueError):
        return ""  # not JSON: never equal to a listed move


def _touch_marks(s: dict) -> list:
    return [(sorted(e["id"] for e in m.enemies_in(s, seat)), len(h["area"]), h["ap"], len(h["hand"]))
            for seat, h in enumerate(s["heroes"])]


def _reopen_done(ctx: Ctx, actor: int, before: list) -> None:
    """DONE is cleared when another hero's action touches this hero: AP or cards given, an enemy moved
    into or out of their area, a persistent card put in their area (section 3.2)."""
    s = ctx.s
    if s["phase"] != "hero" or s["result"] is not None:
        return
    after = _touch_marks(s)
    for seat, h in enumerate(s["heroes"]):
        if seat != actor and h["status"] == "done" and before[seat] != after[seat]:
            ctx.emit({"type": "hero_set", "seat": seat, "key": "status", "value": "active", "why": "touched"})
