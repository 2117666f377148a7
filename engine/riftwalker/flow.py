"""The turn as a sequence of decisions: setup, the four steps, the end of the game, whole-turn orders.

Control fields of the state (see state.py for the physical ones):

    turn   {"seat", "number", "step": element | element_place | rift | burst | refresh,
            "element": element in use, "placing": face chosen for an element-step Place,
            "activated": rift ids activated this turn (H1), "allowance": bursts allowed,
            "bursts": bursts made, "grants": burst-step powers [{"el", "worth", "line", "rift", "used"}]}
    stack  power frames (powers.py); while it is not empty its top frame asks the next decision
    end    {"by": seat that triggered the end, "reason": deck | score, "left": seats still to play}
    over   the game is finished

`play` runs on a private copy: every physical change is an event folded in with `evolve` at once
(so the copy always equals the replay), control changes are made directly, and a closing
"control" event records them.  After each decision `advance` resolves everything forced (a single
legal move, including a lone "skip") so the state always rests at a real choice.
"""

from __future__ import annotations

import json
import random

from engine import kit
from engine.errors import IllegalMove

from . import powers
from .cards import CARDS
from .state import HAND, THRESHOLD, copy_state, copy_turn, evolve, find_explored, lines, value

SKIP = {"type": "skip"}


def new_turn(seat: int, number: int) -> dict:
    return {"seat": seat, "number": number, "step": "element", "element": None, "placing": None,
            "activated": [], "allowance": 1, "bursts": 0, "grants": []}


def control_event(state) -> dict:
    e = state["end"]
    return {"type": "control", "turn": copy_turn(state["turn"]),
            "stack": kit.jcopy(state["stack"]) if state["stack"] else [],
            "end": {"by": e["by"], "reason": e["reason"], "left": e["left"][:]}, "over": state["over"]}


# ---- setup ------------------------------------------------------------------------------------------

def start_events(players: int, seed: int) -> list[dict]:
    rng = random.Random(seed)
    ecards = list(CARDS.element_cards)
    rng.shuffle(ecards)
    grid = [[c, rng.randrange(2)] for c in ecards[:9]]  # §3 PROPOSAL: a random face per card
    rifts = list(CARDS.rifts)
    rng.shuffle(rifts)
    first = rng.randrange(players)  # H2
    sim = Sim(None)
    sim.emit({"type": "setup", "players": players, "first": first, "grid": grid,
              "edeck": ecards[9:], "rdeck": rifts})
    for seat in range(players):
        sim.emit({"type": "deal", "seat": seat, "cards": rifts[seat * HAND:(seat + 1) * HAND]})
    sim.state["turn"] = new_turn(first, 1)
    sim.emit({"type": "turn", "seat": first, "number": 1})
    advance(sim)
    sim.events.append(control_event(sim.state))
    return sim.events


# ---- the simulation a play runs on ---------------------------------------------------------------------

class Sim(kit.Sink):
    """A private state plus the events that produced its physical changes (control changes are made
    on the state directly, and `control_event` records them at the end of the move)."""

    def __init__(self, state):
        super().__init__(state, evolve)

    @property
    def state(self):
        return self.s

    def activate(self, rid: str) -> None:
        """Really activate a rift (its own power, "you" = the active player), once a turn (H1)."""
        state = self.state
        owner = find_explored(state, rid)[0]
        state["turn"]["activated"].append(rid)
        self.emit({"type": "activate", "seat": state["turn"]["seat"], "owner": owner, "rift": rid})
        state["stack"].append({"card": rid, "queue": [dict(s) for s in CARDS.rifts[rid].power], "cur": None})

    def place(self, slot: int, face: str, use: bool) -> None:
        state = self.state
        card = state["edeck"][0]
        self.emit({"type": "place", "seat": state["turn"]["seat"], "slot": slot, "card": card,
                   "up": CARDS.element_cards[card].index(face), "element": face,
                   "replaced": state["grid"][slot][0], "use": use})


# ---- decisions ----------------------------------------------------------------------------------------------

def decision(state) -> tuple[int | None, list[dict]]:
    """(seat to decide, its legal moves) at a resting state; (None, []) once the game is over."""
    if state["over"]:
        return None, []
    if state["stack"]:
        return powers.options(state, state["stack"][-1])
    return turn_options(state)


def turn_options(state) -> tuple[int, list[dict]]:
    turn = state["turn"]
    seat = turn["seat"]
    step = turn["step"]
    if step == "element":
        moves = [{"type": "flip", "slot": i} for i in range(9)]
        moves += [{"type": "place", "element": f} for f in CARDS.element_cards[state["edeck"][0]]]
        return seat, moves
    if step == "element_place":
        return seat, [{"type": "put", "slot": i} for i in range(9)]
    if step == "rift":
        el = turn["element"]
        moves = [{"type": "explore", "card": c} for c in state["hands"][seat] if CARDS.rifts[c].matches(el)]
        moves += [{"type": "shift", "rift": r["id"]} for r in state["explored"][seat]
                  if r["rot"] < 2 and CARDS.rifts[r["id"]].matches(el)]
        return seat, moves + [SKIP]
    if step == "burst":
        return seat, burst_options(state) + [SKIP]
    # refresh
    return seat, [{"type": "discard", "card": c} for c in state["hands"][seat]] + [{"type": "done"}]


def burst_options(state) -> list[dict]:
    """Bursts by a line (§4.3) and by unused burst-step powers, while the allowance lasts."""
    turn = state["turn"]
    if turn["bursts"] >= turn["allowance"]:
        return []
    seat = turn["seat"]
    lined = lines(state)
    moves = []
    for rift in state["explored"][seat]:
        v = value(rift)
        if v <= 0:  # §4.3 PROPOSAL: a 0-point rift never bursts
            continue
        card = CARDS.rifts[rift["id"]]
        by_line = any(card.matches(el) for el in lined)
        if by_line:
            moves.append({"type": "burst", "rift": rift["id"], "via": "line"})
        seen = set()
        for k, g in enumerate(turn["grants"]):
            if g["used"]:
                continue
            el = g["el"]
            if not (el == "any" or any(card.matches(e) for e in el)):
                continue
            if g["worth"] is not None and v != g["worth"]:
                continue
            if g["line"] and not by_line:
                continue
            key = (json.dumps(el), g["worth"], g["line"])
            if key in seen:  # two identical grants give the same choices
                continue
            seen.add(key)
            moves.append({"type": "burst", "rift": rift["id"], "via": "power", "grant": k})
    return moves


def apply_move(sim: Sim, move: dict) -> None:
    state = sim.state
    if state["stack"]:
        powers.apply(sim, state["stack"][-1], move)
        return
    turn = state["turn"]
    seat = turn["seat"]
    step = turn["step"]
    t = move["type"]
    if step == "element":
        if t == "flip":
            slot = state["grid"][move["slot"]]
            before = CARDS.element_cards[slot[0]][slot[1]]
            sim.emit({"type": "flip", "seat": seat, "slot": move["slot"], "card": slot[0], "from": before,
                      "to": CARDS.element_cards[slot[0]][1 - slot[1]], "use": True})
            turn["element"] = before  # A1: the face that was up before the flip
            turn["step"] = "rift"
        else:
            turn["placing"] = move["element"]
            turn["step"] = "element_place"
    elif step == "element_place":
        sim.place(move["slot"], turn["placing"], use=True)
        turn["element"] = turn["placing"]
        turn["placing"] = None
        turn["step"] = "rift"
    elif step == "rift":
        turn["step"] = "burst"  # one rift-step action (A3); its power resolves on the stack first
        if t == "explore":
            sim.emit({"type": "explore", "seat": seat, "card": move["card"], "by_power": None})
            state["stack"].append({"card": None, "queue": [{"op": "_offer", "rift": move["card"]}], "cur": None})
        elif t == "shift":
            rift = state["explored"][seat][find_explored(state, move["rift"])[1]]
            sim.emit({"type": "shift", "seat": seat, "owner": seat, "rift": move["rift"],
                      "rot": rift["rot"] + 1, "by_power": None})
            state["stack"].append({"card": None, "queue": [{"op": "_offer", "rift": move["rift"]}], "cur": None})
    elif step == "burst":
        if t == "skip":
            turn["step"] = "refresh"
            return
        owner, i = find_explored(state, move["rift"])
        sim.emit({"type": "burst", "seat": seat, "owner": owner, "rift": move["rift"],
                  "rot": state["explored"][owner][i]["rot"], "via": move["via"], "by_power": None})
        turn["bursts"] += 1
        if move["via"] == "power":
            turn["grants"][move["grant"]]["used"] = True
        if turn["bursts"] >= turn["allowance"]:
            turn["step"] = "refresh"
    else:  # refresh
        if t == "discard":
            sim.emit({"type": "discard", "seat": seat, "zone": "hand", "owner": seat, "card": move["card"],
                      "beneath": [], "refresh": True})
        else:
            end_turn(sim)


def end_turn(sim: Sim) -> None:
    state = sim.state
    seat = state["turn"]["seat"]
    n = state["players"]
    need = HAND - len(state["hands"][seat])  # H3: no hand limit, so never negative draws
    if need > 0 and state["rdeck"]:
        sim.emit({"type": "draw", "seat": seat, "cards": state["rdeck"][:need], "by_power": None})
    end = state["end"]
    if end["by"] is None:  # §7: checked for the player who just played; the game ends only once
        reason = None
        if state["exhausted"]:
            reason = "deck"
        elif len(state["scored"][seat]) >= THRESHOLD[n]:
            reason = "score"
        if reason:
            state["end"] = end = {"by": seat, "reason": reason, "left": kit.others(seat, n)}
            sim.emit({"type": "end_triggered", "seat": seat, "reason": reason, "left": list(end["left"])})
    if end["by"] is not None:
        if not end["left"]:
            state["over"] = True
            state["turn"] = None
            state["stack"] = []
            sim.emit({"type": "game_over"})
            return
        nxt = end["left"].pop(0)
    else:
        nxt = kit.next_seat(seat, n)
    number = state["turn"]["number"] + 1
    state["turn"] = new_turn(nxt, number)
    sim.emit({"type": "turn", "seat": nxt, "number": number, "final": end["by"] is not None})


def advance(sim: Sim) -> None:
    """Resolve forced continuations until a seat has a real choice (two or more moves) or the game ends."""
    state = sim.state
    while not state["over"]:
        stack = state["stack"]
        if stack:
            frame = stack[-1]
            if frame["cur"] is None:
                if not frame["queue"]:
                    stack.pop()
                else:
                    powers.start_step(sim, frame)
                continue
            _, moves = powers.options(state, frame)
            if not moves:
                powers.finish(sim, frame)
                continue
        else:
            _, moves = turn_options(state)
        if len(moves) == 1:
            apply_move(sim, moves[0])
            continue
        return


# ---- playing a move ----------------------------------------------------------------------------------------

def same_move(a: dict, b: dict) -> bool:
    """Exact equality of two flat moves, types included (True is not 1, "3" is not 3)."""
    if len(a) != len(b):
        return False
    for k, v in a.items():
        w = b.get(k, a)  # `a` itself never equals a move value: a missing key fails
        if type(v) is not type(w) or v != w:
            return False
    return True


def play(state, seat, move) -> tuple[list[dict], dict]:
    """The events of `move` by `seat`, and the state they lead to (`state` is left untouched)."""
    if not isinstance(move, dict):
        raise IllegalMove("a move must be an object", "malformed", move)
    if state["over"]:
        raise IllegalMove("the game is over", "game_over", move)
    if move.get("type") == "order":
        return play_order(state, seat, move)
    work = copy_state(state)
    return step(work, seat, move), work


def step(state, seat, move) -> list[dict]:
    """Like `play`, but on a state the caller owns and lets this call mutate (bench, playouts)."""
    who, moves = decision(state)
    if seat != who:
        raise IllegalMove("it is not your decision now", "not_your_turn", move)
    if not isinstance(move, dict) or not any(same_move(move, m) for m in moves):
        raise IllegalMove("that move is not allowed now", "illegal", move)
    sim = Sim(state)
    apply_move(sim, move)
    advance(sim)
    sim.events.append(control_event(state))
    return sim.events


# ---- H9: a whole turn sent as one order ------------------------------------------------------------

def _holds(state, cond) -> bool:
    if not isinstance(cond, dict) or len(cond) != 1:
        raise IllegalMove("an order's condition must be one of line / element / hand / not", "malformed")
    (kind, arg), = cond.items()
    if kind == "line":
        return arg in lines(state)
    if kind == "element":
        return state["turn"] is not None and state["turn"]["element"] == arg
    if kind == "hand":
        return state["turn"] is not None and arg in state["hands"][state["turn"]["seat"]]
    if kind == "not":
        return not _holds(state, arg)
    raise IllegalMove(f"unknown condition {kind!r} in an order", "malformed")


def play_order(state, seat, order) -> tuple[list[dict], dict]:
    """H9: play the order's steps while they stay legal and the turn stays this seat's.

    A step is a move, or {"if": condition, "then": [steps], "else": [steps]} with a condition
    {"line": element} | {"element": element} | {"hand": card} | {"not": condition}, checked when
    reached.  The first step that is illegal (or reached after the seat's decisions ended) stops
    the order there: what was played stands and the rest is asked step by step.  An order of
    which no step could be played is rejected.
    """
    steps = order.get("steps")
    if not isinstance(steps, list) or set(order) != {"type", "steps"}:
        raise IllegalMove("an order needs a list of steps", "malformed", order)
    current = state
    events: list[dict] = []
    todo = list(steps)
    played = 0
    while todo:
        step = todo.pop(0)
        if isinstance(step, dict) and "if" in step:
            branch = step.get("then" if _holds(current, step["if"]) else "else", [])
            if not isinstance(branch, list):
                raise IllegalMove("an order's branches must be lists", "malformed", order)
            todo[0:0] = branch
            continue
        if current["over"] or decision(current)[0] != seat:
            break
        if not isinstance(step, dict) or step.get("type") == "order":
            break
        try:
            new, current = play(current, seat, step)
        except IllegalMove:
            break
        events.extend(e for e in new if e["type"] != "control")
        played += 1
    if not played:
        raise IllegalMove("no step of that order can be played now", "illegal", order)
    events.append(control_event(current))
    return events, current
