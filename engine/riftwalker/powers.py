"""The power interpreter: resolves the primitive language of §9.3 one decision at a time.

A power in progress is a frame on `state["stack"]`:

    {"card": id of the rift whose power resolves (None for the rift-step activation offer),
     "queue": steps still to resolve, "cur": the step in progress or None}

and `cur` holds the step with its progress ("done", "need", "phase", "picked", "targets"...).
Everything here is plain JSON so a pending power survives in a stored state between emails.

Readings of the rules file used throughout (§5, A16–A19):
* "you" is always the active player, whoever owns the rift being resolved;
* activating is optional, and once activated every step is optional ("up to") unless it is marked
  mandatory; a cost's payment is optional too, but the "then" part happens only if it was paid
  in full;
* "opp" lets the active player pick among all opponents' cards (choosing the card chooses the
  opponent), except where the owner chooses (chooser=owner), when the active player first names
  the opponent; "each_opp" visits the opponents in turn order from the active player;
* protect (static) stops other players' powers of the listed kinds from choosing that rift.
"""

from __future__ import annotations

from engine import kit

from .cards import CARDS
from .state import find_explored, value

SKIP = {"type": "skip"}


def active(state) -> int:
    return state["turn"]["seat"]


def _need(step) -> int:
    return step.get("n", 1)


def chooser(step) -> str:
    """Who picks the cards of a discard: the owner for hands (A17), else the active player (§5)."""
    return step.get("chooser", "owner" if step.get("zone") == "hand" else "active")


def new_cur(state, step, frame) -> dict:
    cur = {"step": step, "done": 0, "need": _need(step), "picked": []}
    op = step["op"]
    whose = step.get("whose", "you")
    if op in ("place", "swap"):
        cur["phase"] = "a"
    elif op == "search":
        cur["phase"] = "start"
    elif op == "discard" and chooser(step) == "owner" and whose in ("opp", "each_opp"):
        cur["phase"] = "target" if whose == "opp" else "confirm"
        if whose == "each_opp":
            cur["targets"] = kit.others(active(state), state["players"])
            cur["need"] = _need(step) * len(cur["targets"])
    elif op == "discard" and whose == "each_opp":  # the active player picks, opponent by opponent
        cur["phase"] = "pick"
        cur["targets"] = kit.others(active(state), state["players"])
        cur["need"] = _need(step) * len(cur["targets"])
        _next_target(state, cur, frame)
    return cur


def host_elements(frame) -> tuple:
    cid = frame["card"]
    return CARDS.rifts[cid].elements if cid else ()


def _el_ok(rift_card, el, frame) -> bool:
    if el is None or el == "any":
        return True
    if el == "this":
        els = host_elements(frame)
        return rift_card.wild or "*" in els or any(rift_card.matches(e) for e in els)
    return rift_card.matches(el)


def _seats(state, whose, cur=None) -> list[int]:
    me = active(state)
    if cur is not None and cur.get("targets"):
        return cur["targets"][:1]  # each_opp / a named opponent: the current target only
    if whose == "you":
        return [me]
    if whose in ("opp", "each_opp"):
        return kit.others(me, state["players"])
    return [me] + kit.others(me, state["players"])


def rift_pool(state, frame, cur, zone="explored", purpose=None, seats=None) -> list[tuple[int, dict]]:
    """Rifts (owner, rift) that this step may choose, by its selectors (§9.3)."""
    step = cur["step"]
    me = active(state)
    el, worth, other = step.get("el"), step.get("worth"), step.get("other", False)
    out = []
    for seat in seats if seats is not None else _seats(state, step.get("whose", "you"), cur):
        for rift in state[zone][seat]:
            card = CARDS.rifts[rift["id"]]
            if other and rift["id"] == frame["card"]:
                continue
            if worth is not None and card.track[rift["rot"]] != worth:
                continue
            if not _el_ok(card, el, frame):
                continue
            if purpose and seat != me and purpose in card.protect:
                continue
            out.append((seat, rift))
    return out


def _matching_hand(state, seat, el, frame) -> list[str]:
    return [c for c in state["hands"][seat] if _el_ok(CARDS.rifts[c], el, frame)]


def _host_in_play(state, frame) -> bool:
    return frame["card"] is not None and find_explored(state, frame["card"])[0] is not None


# ---- options: (deciding seat, moves) for the step in progress --------------------------------------

def options(state, frame) -> tuple[int, list[dict]]:
    cur = frame["cur"]
    step = cur["step"]
    op = step["op"]
    me = active(state)
    optional = not step.get("mandatory", False)
    if cur["done"] >= cur["need"] and op not in ("search",):
        return me, []
    moves: list[dict] = []
    skippable = optional
    who = me
    if op == "_offer":
        rid = step["rift"]
        if rid not in state["turn"]["activated"] and find_explored(state, rid)[0] is not None:
            moves = [{"type": "activate", "rift": rid}]
        skippable = True
    elif op == "flip":
        moves = [{"type": "flip", "slot": i} for i in range(9) if i not in cur["picked"]]
    elif op == "grow":
        els = _grow_elements(step, frame)
        moves = [{"type": "grow", "slot": i} for i, s in enumerate(state["grid"])
                 if i not in cur["picked"] and (els is None or CARDS.element_cards[s[0]][1 - s[1]] in els)]
    elif op == "place":
        if cur["phase"] == "a":
            faces = CARDS.element_cards[state["edeck"][0]]
            moves = [{"type": "place", "element": f} for f in faces]
        else:
            moves = [{"type": "put", "slot": i} for i in range(9)]
            skippable = False  # the card is already in hand: it must go somewhere
    elif op == "swap":
        if cur["phase"] == "a":
            moves = [{"type": "swap", "slot": i} for i in range(9)]
        else:
            moves = [{"type": "swap_with", "slot": j} for j in range(9) if j != cur["a"]]
            skippable = False
    elif op == "explore":
        moves = [{"type": "explore", "card": c} for c in _matching_hand(state, me, step.get("el"), frame)]
    elif op == "shift":
        moves = [{"type": "shift", "rift": r["id"]} for _, r in rift_pool(state, frame, cur)
                 if r["rot"] < 2]
    elif op == "activate":
        done = state["turn"]["activated"]
        moves = [{"type": "activate", "rift": r["id"]} for _, r in rift_pool(state, frame, cur)
                 if r["id"] not in done]  # H1
    elif op == "return":
        moves = [{"type": "return", "rift": r["id"]} for _, r in rift_pool(state, frame, cur, purpose="return")]
    elif op == "force_burst":
        moves = [{"type": "force_burst", "rift": r["id"]}
                 for _, r in rift_pool(state, frame, cur, purpose="force_burst") if value(r) > 0]
    elif op == "discard":
        who, moves, skippable = _discard_options(state, frame, cur, optional)
    elif op == "tuck":
        moves = _tuck_options(state, frame, cur)
    elif op == "draw":
        k = min(cur["need"] - cur["done"], len(state["rdeck"]))
        moves = [{"type": "draw", "n": i} for i in range(k, 0, -1)]
        if not optional:
            moves = moves[:1]  # mandatory: as many as possible
    elif op == "search":
        who, moves, skippable = _search_options(state, cur, optional)
    elif op == "choose":
        moves = [{"type": "choose", "option": i} for i in range(len(step["options"]))]
    if moves and skippable:
        moves.append(SKIP)
    return who, moves


def _grow_elements(step, frame):
    el = step.get("el", "any")
    if el == "any":
        return None
    if el == "this":
        els = host_elements(frame)
        return None if "*" in els else els
    return (el,)


def _discard_options(state, frame, cur, optional):
    step = cur["step"]
    me = active(state)
    zone = step["zone"]
    phase = cur.get("phase")
    if phase == "target":  # "an opponent" who then chooses their own card
        seats = [s for s in kit.others(me, state["players"]) if _discard_choices(state, frame, cur, s)]
        return me, [{"type": "target", "seat": s} for s in seats], optional
    if phase == "confirm":  # "each opponent": the active player decides whether the step happens
        if not any(_discard_choices(state, frame, cur, s) for s in cur["targets"]):
            return me, [], False
        return me, [{"type": "do"}], bool(optional)
    if phase in ("owner", "pick"):
        if not cur["targets"]:
            return me, [], False
        seat = cur["targets"][0]
        decider = seat if chooser(step) == "owner" else me
        moves = [{"type": "discard", "card": c} for c in _discard_choices(state, frame, cur, seat)]
        return decider, moves, False if decider != me or phase == "owner" else optional
    # whose you / opp (active chooses) / any: one pooled choice by the active player
    if zone == "hand":
        cards = _matching_hand(state, me, step.get("el"), frame)
        cards = [c for c in cards if c not in cur["picked"]]
    else:
        key = "explored" if zone == "explored" else "scored"
        cards = [r["id"] for _, r in rift_pool(state, frame, cur, key, purpose="discard")]
    return me, [{"type": "discard", "card": c} for c in cards], optional


def _discard_choices(state, frame, cur, seat) -> list[str]:
    step = cur["step"]
    zone = step["zone"]
    if zone == "hand":
        return [c for c in state["hands"][seat] if _el_ok(CARDS.rifts[c], step.get("el"), frame)]
    key = "explored" if zone == "explored" else "scored"
    return [r["id"] for _, r in rift_pool(state, frame, cur, key, purpose="discard", seats=[seat])]


def _tuck_options(state, frame, cur):
    step = cur["step"]
    if not _host_in_play(state, frame):
        return []
    src = step["src"]
    me = active(state)
    if src == "deck_top":
        return [{"type": "tuck_top"}] if state["rdeck"] else []
    if src == "hand":
        return [{"type": "tuck", "card": c} for c in _matching_hand(state, me, step.get("el"), frame)]
    return [{"type": "tuck", "card": r["id"]} for _, r in rift_pool(state, frame, cur, purpose="tuck")
            if r["id"] != frame["card"]]


def _takes(state, cur) -> list[dict]:
    step = cur["step"]
    el = step.get("el", "any")
    if cur["taken"] >= step.get("take", 1):
        return []
    return [{"type": "take", "card": c} for c in state["limbo"] if el == "any" or CARDS.rifts[c].matches(el)]


def _search_options(state, cur, optional):
    me = active(state)
    phase = cur["phase"]
    if phase == "start":
        if not state["rdeck"]:
            return me, [], False
        return me, [{"type": "search"}], optional
    if phase == "take":
        takes = _takes(state, cur)
        if takes:
            return me, takes, True
    # bottom: the player orders the rest; skip keeps the order shown
    if len(state["limbo"]) >= 2:
        return me, [{"type": "bottom", "card": c} for c in state["limbo"]], True
    return me, [{"type": "bottom", "card": c} for c in state["limbo"]], False


# ---- applying a decision ------------------------------------------------------------------------------

def apply(sim, frame, move) -> None:
    """Carry out `move` (already checked legal) for the step in progress."""
    state = sim.state
    cur = frame["cur"]
    step = cur["step"]
    op = step["op"]
    t = move["type"]
    me = active(state)
    if t == "skip":
        if op == "search" and cur["phase"] in ("take", "bottom"):
            if cur["phase"] == "take" and _takes(state, cur):
                cur["phase"] = "bottom"  # stop taking; next the rest go to the bottom
                return
            for c in list(state["limbo"]):
                sim.emit({"type": "bottom", "seat": me, "card": c})
        finish(sim, frame)
        return
    if op == "_offer":
        finish(sim, frame)
        sim.activate(move["rift"])
        return
    if t in ("flip", "grow"):
        slot = state["grid"][move["slot"]]
        sim.emit({"type": t, "seat": me, "slot": move["slot"], "card": slot[0],
                  "from": CARDS.element_cards[slot[0]][slot[1]],
                  "to": CARDS.element_cards[slot[0]][1 - slot[1]]})
        cur["picked"].append(move["slot"])
        cur["done"] += 1
    elif t == "place":
        cur["face"] = move["element"]
        cur["phase"] = "b"
    elif t == "put":
        sim.place(move["slot"], cur["face"], use=False)
        cur["done"] += 1
        cur["phase"] = "a"
    elif t == "swap":
        cur["a"] = move["slot"]
        cur["phase"] = "b"
    elif t == "swap_with":
        sim.emit({"type": "swap", "seat": me, "a": cur["a"], "b": move["slot"]})
        cur["done"] += 1
        cur["phase"] = "a"
        del cur["a"]
    elif t == "explore":
        sim.emit({"type": "explore", "seat": me, "card": move["card"], "by_power": frame["card"]})
        cur["done"] += 1
        if step.get("activate"):
            frame["queue"].insert(0, {"op": "_offer", "rift": move["card"]})
    elif t == "shift":
        owner, i = find_explored(state, move["rift"])
        rot = state["explored"][owner][i]["rot"] + 1
        sim.emit({"type": "shift", "seat": me, "owner": owner, "rift": move["rift"], "rot": rot,
                  "by_power": frame["card"]})
        cur["done"] += 1
        if step.get("activate"):
            frame["queue"].insert(0, {"op": "_offer", "rift": move["rift"]})
    elif t == "activate":
        cur["done"] += 1
        finish(sim, frame)
        sim.activate(move["rift"])
        return
    elif t == "return":
        owner, i = find_explored(state, move["rift"])
        rift = state["explored"][owner][i]
        sim.emit({"type": "return", "seat": me, "owner": owner, "rift": move["rift"],
                  "beneath": [b["id"] for b in rift["beneath"]]})
        cur["done"] += 1
    elif t == "force_burst":
        owner, i = find_explored(state, move["rift"])
        sim.emit({"type": "burst", "seat": me, "owner": owner, "rift": move["rift"],
                  "rot": state["explored"][owner][i]["rot"], "via": "force", "by_power": frame["card"]})
        cur["done"] += 1
    elif t == "target":
        cur["targets"] = [move["seat"]]
        cur["phase"] = "owner"
    elif t == "do":
        cur["phase"] = "owner"
        _next_target(state, cur, frame)
        if not cur["targets"]:
            finish(sim, frame)
    elif t == "discard":
        _apply_discard(sim, frame, cur, move["card"])
    elif t == "tuck":
        _apply_tuck(sim, frame, cur, move["card"])
    elif t == "tuck_top":
        host_owner = find_explored(state, frame["card"])[0]
        sim.emit({"type": "tuck", "seat": me, "src": "deck_top", "card": state["rdeck"][0],
                  "host": frame["card"], "host_owner": host_owner, "face": step["face"], "owner": None})
        cur["done"] += 1
    elif t == "draw":
        sim.emit({"type": "draw", "seat": me, "cards": state["rdeck"][:move["n"]], "by_power": frame["card"]})
        cur["done"] += move["n"]
    elif t == "search":
        sim.emit({"type": "look", "seat": me, "cards": state["rdeck"][:step["n"]]})
        cur["phase"] = "take"
        cur["taken"] = 0
        cur["done"] = 1
    elif t == "take":
        sim.emit({"type": "take", "seat": me, "card": move["card"]})
        cur["taken"] += 1
    elif t == "bottom":
        sim.emit({"type": "bottom", "seat": me, "card": move["card"]})
        cur["phase"] = "bottom"
        if not state["limbo"]:
            finish(sim, frame)
    elif t == "choose":
        cur["done"] = 1
        chosen = step["options"][move["option"]]
        finish(sim, frame)
        frame["queue"][0:0] = [dict(s) for s in chosen]
    else:  # pragma: no cover - moves are checked against options() before they get here
        raise AssertionError(move)


def _next_target(state, cur, frame) -> None:
    """Drop targets that have nothing left to give (each_opp steps)."""
    while cur["targets"] and not _discard_choices(state, frame, cur, cur["targets"][0]):
        cur["targets"].pop(0)


def _apply_discard(sim, frame, cur, cid) -> None:
    state = sim.state
    step = cur["step"]
    zone = step["zone"]
    owner = None
    if zone == "hand":
        for seat, hand in enumerate(state["hands"]):
            if cid in hand:
                owner = seat
        sim.emit({"type": "discard", "seat": active(state), "zone": "hand", "owner": owner, "card": cid,
                  "beneath": []})
    else:
        key = "explored" if zone == "explored" else "scored"
        for seat, pile in enumerate(state[key]):
            for rift in pile:
                if rift["id"] == cid:
                    owner, beneath = seat, [b["id"] for b in rift["beneath"]]
        sim.emit({"type": "discard", "seat": active(state), "zone": zone, "owner": owner, "card": cid,
                  "beneath": beneath})
    cur["done"] += 1
    if cur.get("targets") is not None and cur.get("phase") in ("owner", "pick"):
        cur["per"] = cur.get("per", 0) + 1
        if cur["per"] >= step.get("n", 1) or not _discard_choices(state, frame, cur, cur["targets"][0]):
            cur["targets"].pop(0)
            cur["per"] = 0
            _next_target(state, cur, frame)
        if not cur["targets"]:
            finish(sim, frame)


def _apply_tuck(sim, frame, cur, cid) -> None:
    state = sim.state
    step = cur["step"]
    me = active(state)
    host_owner = find_explored(state, frame["card"])[0]
    if step["src"] == "hand":
        sim.emit({"type": "tuck", "seat": me, "src": "hand", "card": cid, "host": frame["card"],
                  "host_owner": host_owner, "face": step["face"], "owner": me})
    else:
        owner, i = find_explored(state, cid)
        rift = state["explored"][owner][i]
        sim.emit({"type": "tuck", "seat": me, "src": "explored", "card": cid, "host": frame["card"],
                  "host_owner": host_owner, "face": step["face"], "owner": owner, "rot": rift["rot"],
                  "beneath": [b["id"] for b in rift["beneath"]]})
    cur["done"] += 1


def finish(sim, frame) -> None:
    """The step in progress is over; a fully paid cost releases its "then" steps."""
    cur = frame["cur"]
    frame["cur"] = None
    if cur is not None and "then" in cur and cur["done"] >= cur["need"]:
        frame["queue"][0:0] = [dict(s) for s in cur["then"]]


def start_step(sim, frame) -> None:
    """Take the next step off the frame's queue; grants (extra_burst, burst_step) resolve at once:
    declining one is the same as not using it later."""
    state = sim.state
    step = frame["queue"].pop(0)
    if step["op"] == "cost":
        cur = new_cur(state, step["pay"], frame)
        cur["then"] = step["then"]
        frame["cur"] = cur
        return
    frame["cur"] = new_cur(state, step, frame)
    op = step["op"]
    turn = state["turn"]
    if op == "extra_burst":
        turn["allowance"] += step.get("n", 1)
        sim.emit({"type": "grant", "seat": active(state), "rift": frame["card"], "extra": step.get("n", 1)})
        frame["cur"]["done"] = frame["cur"]["need"]
        finish(sim, frame)
    elif op == "burst_step":
        el = step.get("el", "any")
        if el == "this":
            els = host_elements(frame)
            el = "any" if "*" in els else list(els)
        elif el != "any":
            el = [el]
        turn["grants"].append({"el": el, "worth": step.get("worth"), "line": step.get("line", False),
                               "rift": frame["card"], "used": False})
        sim.emit({"type": "grant", "seat": active(state), "rift": frame["card"], "burst_step": True})
        frame["cur"]["done"] = frame["cur"]["need"]
        finish(sim, frame)
