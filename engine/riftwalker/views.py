"""What a seat may see now: `view(state, seat)`, plain data (DESIGN.md hidden information, §2, H7).

Hands are seen by their owner only; the rift-deck order and the element deck below its top card by
nobody; face-down cards beneath a rift by the player who put them there and the owner of the host
rift; cards looked at in a search by the searcher.  A view carries card names and rules text taken
from the card data (worded by words.py), never sentences about the game: those are made from the
view by `words.render_text` and `words.pending_text`.
"""

from __future__ import annotations

from . import flow, messages, scoring, words
from .cards import CARDS
from .state import THRESHOLD, line_positions, value


def card_info(cid) -> dict:
    card = CARDS.rifts[cid]
    return {"id": cid, "name": card.name, "elements": list(card.elements), "track": list(card.track),
            "power": words.power_text(card), "bonus": words.bonus_text(card), "text": card.text,
            # the same rules as messages (engine/messages.py JSON), worded by the service for its reader
            "power_message": messages.power_message(card).to_json(),
            "bonus_message": _json(messages.bonus_message(card)),
            "text_message": _json(messages.text_message(card))}


def _json(message) -> dict | None:
    return None if message is None else message.to_json()


def _can_see_beneath(b, host_owner, seat) -> bool:
    return b["face"] == "up" or (seat is not None and seat in (b["by"], host_owner))  # H7


def _rift_view(rift, owner, seat) -> dict:
    out = card_info(rift["id"])
    out["rot"] = rift["rot"]
    out["value"] = value(rift)
    out["beneath"] = [
        {"id": b["id"], "name": CARDS.rifts[b["id"]].name, "face": b["face"], "by": b["by"]}
        if _can_see_beneath(b, owner, seat) else {"id": None, "name": None, "face": "down", "by": b["by"]}
        for b in rift["beneath"]]
    return out


def pending(state, decider) -> dict | None:
    """The power step being decided now, as data (None between the steps of a turn): the seat that
    decides, the rift whose power resolves (None for the offer to activate the rift just explored or
    shifted), the primitive (§9.3 op) and that step's rules text.  The same for every viewer: it
    names no hidden card."""
    if state["over"] or not state["stack"]:
        return None
    frame = state["stack"][-1]
    cur = frame["cur"]
    if cur is None:  # never at rest (flow.advance starts the next step), kept for safety
        return None
    step = cur["step"]
    return {"seat": decider, "rift": frame["card"], "op": step["op"], "rules": words.step_text(step),
            "step_message": messages.step_message(step).to_json()}


def view(state, seat) -> dict:
    n = state["players"]
    grid = [{"slot": i, "card": s[0], "up": CARDS.element_cards[s[0]][s[1]],
             "down": CARDS.element_cards[s[0]][1 - s[1]]} for i, s in enumerate(state["grid"])]
    top = state["edeck"][0]
    seats = []
    for s in range(n):
        entry = {
            "seat": s,
            "hand_size": len(state["hands"][s]),
            "explored": [_rift_view(r, s, seat) for r in state["explored"][s]],
            "score_pile": [_rift_view(r, s, seat) for r in state["scored"][s]],
            "points": sum(value(r) for r in state["scored"][s]),
            "bursts": len(state["scored"][s]),
        }
        if seat == s:
            entry["hand"] = [card_info(c) for c in state["hands"][s]]
        seats.append(entry)
    turn = state["turn"]
    decider, _ = flow.decision(state)
    return {
        "game": "riftwalker",
        "players": n,
        "viewer": seat,
        "grid": grid,
        "lines": [{"element": el, "slots": list(pos)} for el, pos in line_positions(state)],
        "element_deck": {"size": len(state["edeck"]),
                         "top": {"card": top, "faces": list(CARDS.element_cards[top])}},
        "rift_deck": {"size": len(state["rdeck"]), "exhausted": state["exhausted"]},
        "seats": seats,
        "threshold": THRESHOLD[n],
        "turn": None if turn is None else {
            # powers resolve inside the rift step, though flow.py already points the turn at the burst
            "seat": turn["seat"], "number": turn["number"], "step": "rift" if state["stack"] else turn["step"],
            "element": turn["element"], "placing": turn["placing"],
            "bursts_left": max(0, turn["allowance"] - turn["bursts"]),
            "burst_powers": [g["rift"] for g in turn["grants"] if not g["used"]],
            "activated": list(turn["activated"]),
        },
        "to_act": [] if decider is None else [decider],
        "pending": pending(state, decider),
        "searching": {"seat": turn["seat"], "count": len(state["limbo"]),
                      "cards": [card_info(c) for c in state["limbo"]] if seat == turn["seat"] else None}
        if state["limbo"] else None,
        "end": {"triggered_by": state["end"]["by"], "reason": state["end"]["reason"],
                "final_turns_left": list(state["end"]["left"])},
        "over": state["over"],
        "result": scoring.result(state),
    }
