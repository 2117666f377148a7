"""Decisions: which moves are legal now, and what a move does (as events).

Every action is a sequence of small decisions by the acting seat (lead's decision 1).  Between
them, `state["pending"]` records the action in progress:

    Play:     {"kind": "play", "seat": s, "cards": [id...], "locs": [loc...], "ask": ask | None}
    Activate: {"kind": "activate", "seat": s, "discarded": id, "activated": [id...],
               "by": ["number", "symbol"] (the options still consistent with what was activated),
               "ask": ask | None}

`ask` is a choice inside an ability or an on-play effect (see abilities.py).  A forced
continuation is resolved without asking, and the turn passes as soon as the action is complete.

Team play (team.py) changes who acts next, what Check & Draw scores and lets the number option
activate a teammate's elementals; solo (solo.py) carries out the trainer's plan after each action,
pausing in a third kind of pending record, {"kind": "plan", ...}, when the player must choose.
"""

from __future__ import annotations

import random
from typing import Any

from engine import kit
from engine.errors import IllegalMove

from . import solo, team
from .abilities import on_play, run
from .cards import GUILD, NUMBER, deck_for
from .effects import Effects
from .state import MIDDLE, State, controls, owner

Move = dict[str, Any]
HAND_SIZE = 7
MAX_CARDS = 3  # per Play and per Activate (rules §4)


# ---- legal moves ------------------------------------------------------------------------------------

def _distinct(cards: list[str]) -> list[str]:
    """One representative per (guild, number): identical copies are the same decision."""
    seen: set[str] = set()
    out = []
    for c in cards:
        key = c[:-1]  # "fire-5a" -> "fire-5": guild and number
        if key not in seen:
            seen.add(key)
            out.append(c)
    return out


def _ask_moves(ask: dict) -> list[Move]:
    what = ask["what"]
    key = "loc" if what in ("move_to", "aim", "place", "push") else "card"
    return [{"type": what, key: o} for o in ask["options"]]


def _play_options(s: State, p: dict) -> list[Move]:
    """Further cards for a Play in progress: same number or same symbol as all placed so far,
    and either the same location or extending the run of adjacent locations (rules §4A)."""
    cards, locs = p["cards"], p["locs"]
    if len(cards) >= MAX_CARDS:
        return []
    n = len(s["board"])
    if len(locs) == 1:
        spots = [l for l in (locs[0] - 1, locs[0], locs[0] + 1) if 0 <= l < n]
    elif locs[0] == locs[1]:
        spots = [locs[0]]
    else:
        spots = [l for l in (min(locs) - 1, max(locs) + 1) if 0 <= l < n]
    numbers = {NUMBER[c] for c in cards}
    guilds = {GUILD[c] for c in cards}
    out: list[Move] = []
    for c in _distinct(s["hand"][p["seat"]]):
        if (len(numbers) == 1 and NUMBER[c] in numbers) or (len(guilds) == 1 and GUILD[c] in guilds):
            out.extend({"type": "play", "card": c, "loc": l} for l in spots)
    return out


def _activate_options(s: State, p: dict) -> list[Move]:
    """Own board elementals sharing the discarded card's number or symbol (whichever options are
    still open), each at most once per action, up to 3 (rules §4B).  In team play the number
    option also reaches the teammate's elementals; the symbol option only your own (§10)."""
    if len(p["activated"]) >= MAX_CARDS:
        return []
    seat, d, by, done = p["seat"], p["discarded"], p["by"], p["activated"]
    num, gld = NUMBER[d], GUILD[d]
    by_num, by_sym = "number" in by, "symbol" in by
    out = []
    for sides in s["board"]:
        for c in sides[seat & 1]:
            if c not in done and ((by_num and NUMBER[c] == num) or (by_sym and GUILD[c] == gld
                                                                     and _mine(s, c, seat))):
                out.append({"type": "activate_elemental", "card": c})
    return out


def _mine(s: State, card: str, seat: int) -> bool:
    return s["mode"] != "team" or owner(s, card, seat & 1) == seat


def legal_moves(s: State, seat: int) -> list[Move]:
    if s["phase"] == "over" or s["turn"] != seat:
        return []
    if s["phase"] == "draft":
        d = s["draft"]
        if "trainer_offer" in d:  # solo, after the keep: the trainer's guilds (solo.py)
            return [{"type": "give", "guild": g} for g in d["trainer_offer"]]
        return [{"type": "pick", "guild": g} for g in d["offer"]]
    p = s["pending"]
    if p is not None:
        if p["ask"] is not None:
            return _ask_moves(p["ask"])
        if p["kind"] == "play":
            return _play_options(s, p) + [{"type": "end_play"}]
        return _activate_options(s, p) + [{"type": "done"}]
    hand = _distinct(s["hand"][seat])
    moves = [{"type": "play", "card": c, "loc": l} for c in hand for l in range(len(s["board"]))]
    moves += [{"type": "activate", "card": c} for c in hand]
    if len(s["hand"][seat]) < HAND_SIZE:
        moves.append({"type": "check"})
    return moves


def default_move(s: State, seat: int) -> Move:
    """The timeout move (documented in the package docstring)."""
    moves = legal_moves(s, seat)
    if not moves:
        raise IllegalMove("that seat has nothing to decide now", "not_your_turn")
    for wanted in ({"type": "check"}, {"type": "end_play"}, {"type": "done"}):
        if wanted in moves:
            return wanted
    # draft: the first offered (solo, the trainer's guilds: the first not kept, the 2 set aside
    # first); ask: the first option; full hand: the first card at location 1
    return moves[0]


# ---- applying a move --------------------------------------------------------------------------------

def check_move(s: State, seat: Any, move: Any) -> Move:
    """The legal move equal to `move`, or IllegalMove.

    The engine's own copy is returned because Python equality is loose (2.0 == 2, True == 1):
    what goes into events must be exactly the JSON the engine offered."""
    if not isinstance(move, dict) or not isinstance(move.get("type"), str):
        raise IllegalMove("a move is a JSON object with a \"type\"", "bad_move", move)
    if s["phase"] == "over":
        raise IllegalMove("the game is over", "game_over", move)
    if isinstance(seat, bool) or not isinstance(seat, int) or s["turn"] != seat:
        raise IllegalMove("it is not your turn", "not_your_turn", move)
    legal = legal_moves(s, seat)
    try:
        return legal[legal.index(move)]
    except ValueError:
        raise IllegalMove("that move is not allowed now", "illegal", move) from None


def play(s: State, seat: int, move: Move, rng: random.Random) -> list[dict]:
    move = check_move(s, seat, move)
    fx = Effects(s, rng)
    t = move["type"]
    if t == "pick":
        _pick(fx, seat, move["guild"])
        return fx.events
    if t == "give":
        solo.give(fx, move["guild"])
        return fx.events
    p = s["pending"]
    if p is not None and p["kind"] == "plan":  # solo: the player's choice for the trainer's plan
        solo.answer(fx, p, move["loc"] if "loc" in move else move["card"])
        return fx.events
    # A private, mutable copy of the pending record (the one in the state is shared, see state.py).
    if p is not None:
        p = {**p, **({"cards": p["cards"][:], "locs": p["locs"][:]} if p["kind"] == "play"
                     else {"activated": p["activated"][:], "by": p["by"][:]})}
    if t == "check":
        _check(fx, seat)
    elif t == "play":
        if p is None:
            p = {"kind": "play", "seat": seat, "cards": [], "locs": [], "ask": None}
        fx.emit({"type": "enter", "seat": seat, "card": move["card"], "loc": move["loc"], "from": "hand"})
        p["cards"].append(move["card"])
        p["locs"].append(move["loc"])
        p["ask"] = on_play(fx, move["card"], seat, move["loc"])
        _continue_play(fx, p)
    elif t == "end_play":
        _end_action(fx, {"seat": seat, "action": "play", "cards": p["cards"], "locs": p["locs"]})
    elif t == "activate":
        fx.emit({"type": "discard", "seat": seat, "card": move["card"]})
        p = {"kind": "activate", "seat": seat, "discarded": move["card"], "activated": [],
             "by": ["number", "symbol"], "ask": None}
        _continue_activate(fx, p)
    elif t == "activate_elemental":
        _activate_one(fx, p, move["card"])
    elif t == "done":
        _finish_activate(fx, p)
    else:  # an answer to an ask: move_to, aim, place (a location) or target, heal (a card)
        ask = p["ask"]
        choice = move["loc"] if "loc" in move else move["card"]
        p["ask"] = run(fx, ask["fn"], ask["card"], seat, ask["stage"], ask["data"], choice)
        if p["kind"] == "play":
            _continue_play(fx, p)
        else:
            _continue_activate(fx, p)
    return fx.events


def _pick(fx: Effects, seat: int, guild: str) -> None:
    fx.emit({"type": "pick", "seat": seat, "guild": guild})
    d = fx.s["draft"]
    if "quota" in d:  # team and solo drafts
        if all(len(p) >= q for p, q in zip(d["picks"], d["quota"])):
            (team.after_draft if fx.s["mode"] == "team" else solo.after_draft)(fx)
        return
    if any(len(p) < 4 for p in d["picks"]):
        return
    # Draft over (rules §3, §9): the rest leaves the game; the first picker keeps the start marker.
    start = d["first"]
    fx.emit({"type": "draft_end", "removed": d["offer"][:], "start": start})
    for seat_ in (0, 1):
        order = deck_for(fx.s["guilds"][seat_])
        fx.rng.shuffle(order)
        fx.emit({"type": "deck", "seat": seat_, "order": order, "count": len(order)})
    for seat_ in (start, 1 - start):
        fx.draw(seat_, HAND_SIZE)
    second = 1 - start
    # The player without the start marker opens with the top card of their pile at the middle.
    fx.emit({"type": "enter", "seat": second, "card": fx.s["deck"][second][0], "loc": MIDDLE,
             "from": "deck"})
    fx.emit({"type": "turn", "seat": start})


def _check(fx: Effects, seat: int) -> None:
    held = team.scored_locations(fx.s, seat) if fx.s["mode"] == "team" else controls(fx.s, seat)
    fx.score(seat & 1, len(held), "check")
    drew = fx.draw(seat, HAND_SIZE - len(fx.s["hand"][seat]))
    _end_action(fx, {"seat": seat, "action": "check", "scored": len(held), "locs": held, "drew": drew})


def _continue_play(fx: Effects, p: dict) -> None:
    if p["ask"] is None and not _play_options(fx.s, p):
        _end_action(fx, {"seat": p["seat"], "action": "play", "cards": p["cards"], "locs": p["locs"]})
    else:
        fx.emit({"type": "pending", "pending": p})


def _continue_activate(fx: Effects, p: dict) -> None:
    if p["ask"] is None and not _activate_options(fx.s, p):
        _finish_activate(fx, p)
    else:
        fx.emit({"type": "pending", "pending": p})


def _activate_one(fx: Effects, p: dict, card: str) -> None:
    seat = p["seat"]
    loc = next(l for l, sides in enumerate(fx.s["board"]) if card in sides[seat & 1])
    fx.emit({"type": "activated", "seat": seat, "card": card, "loc": loc})
    p["activated"].append(card)
    d = p["discarded"]
    p["by"] = [b for b in p["by"]
               if (b == "number" and NUMBER[card] == NUMBER[d])
               or (b == "symbol" and GUILD[card] == GUILD[d] and _mine(fx.s, card, seat))]
    p["ask"] = run(fx, GUILD[card], card, seat)
    _continue_activate(fx, p)


def _finish_activate(fx: Effects, p: dict) -> None:
    _end_action(fx, {"seat": p["seat"], "action": "activate", "discarded": p["discarded"],
                    "activated": p["activated"]})


def _end_action(fx: Effects, summary: dict) -> None:
    """Close the action and pass the turn, or end the game (rules §6, Q4).

    Once a score reached 12 the round in progress is finished: the game ends after an action of
    the second player (the one without the start marker) unless the scores are tied, in which
    case each plays one more action and the check repeats.
    """
    s = fx.s
    seat = summary["seat"]
    fx.emit({"type": "action_end", "seat": seat, "summary": summary})
    if s["mode"] == "team":
        team.end_action(fx, seat)
        return
    if s["mode"] == "solo":
        solo.carry_out_plan(fx)
        return
    if s["ending"] and seat != s["start"] and s["score"][0] != s["score"][1]:
        reason = "score"
    elif _dead(s):
        reason = "stalemate"
    else:
        fx.emit({"type": "turn", "seat": kit.next_seat(seat, 2)})
        return
    best = max(s["score"])
    fx.emit({"type": "game_over", "scores": s["score"][:], "reason": reason,
             "winners": [i for i in (0, 1) if s["score"][i] == best]})


def _dead(s: State) -> bool:
    """Nothing can ever change again: no card off the board for either player (so Check & Draw
    is the only move, drawing nothing) and nobody controls a location (so it scores nothing).
    House rule Q14: the game ends there, most RF wins, a tie stands (both seats are winners) and
    the equal-actions rule does not apply."""
    if s["hand"][0] or s["hand"][1] or s["deck"][0] or s["deck"][1] or s["discard"][0] or s["discard"][1]:
        return False
    return not controls(s, 0) and not controls(s, 1)
