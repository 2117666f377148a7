"""Riftwalker's events, moves and power steps as messages (engine/messages.py, issue #26): keys and
facts, no words.  The words are the catalog's (service/games/riftwalker_catalog.py, English, and
service/translations/<language>/LC_MESSAGES/riftwalker.po); `KEYS` lists every key a message here may
use, and tests/engine/test_riftwalker_messages.py plays games to hold the code to it.

Each function mirrors its sentence in words.py (kept for render_text and the views' rules text), and
`event_messages` words the event as `redact.redact_event` gives it to the viewer, so a message cannot
carry what the viewer may not see, although the state it is handed is whole.
"""

from __future__ import annotations

from engine.messages import Card, Cards, Clause, Count, Joined, Message, Number, Place, Seat, Term, msg

from .cards import CARDS
from .powers import chooser
from .redact import redact_event
from .state import find_explored
from .words import pending_op

ANY = "any"  # the steps' "any element"


def slot(i: int) -> Place:
    return Place("slot", i)


def element(el: str) -> Term:
    return Term("element", el)


# ---- power steps ---------------------------------------------------------------------------------------

def _selector(step, noun: str = "explored") -> Message:
    """The rifts a step may choose: "one of your other Fire explored rifts worth 3"."""
    whose = step.get("whose", "you")
    el = step.get("el")
    other = bool(step.get("other"))
    if el == "this":
        kind: Message | None = msg("adj.other_matching" if other else "adj.matching")
    elif el and el != ANY:
        kind = msg("adj.other_element" if other else "adj.element", element=element(el))
    else:
        kind = msg("adj.other") if other else None
    worth = msg("worth", value=Number(step["worth"])) if step.get("worth") is not None else None
    return msg(f"sel.{whose}.{noun}", kind=kind, worth=worth)


def step_message(step) -> Message:
    """A power step's rules as a message (words.step_text's words)."""
    op = step["op"]
    n = step.get("n", 1)
    body = _step_body(step, op, n)
    return msg("step.must", step=body) if step.get("mandatory") else body


def _step_body(step, op, n) -> Message:
    if op == "cost":
        return msg("step.cost", pay=Clause(step_message(step["pay"])),
                   then=Joined(tuple(step_message(s) for s in step["then"]), "sep.semicolon"))
    if op == "choose":
        return msg("step.choose", options=Joined(tuple(
            msg("step.option", steps=Joined(tuple(step_message(s) for s in o), "sep.semicolon"))
            for o in step["options"]), "sep.or"))
    if op == "_offer":
        return msg("step.offer", card=Card(step["rift"]))
    if op == "flip":
        return msg("step.flip", count=Count(n))
    if op == "place":
        return msg("step.place", count=Count(n))
    if op == "grow":
        what = msg("any_element") if step["el"] == ANY else element(step["el"])
        return msg("step.grow.times", element=what, n=Number(n)) if n > 1 else msg("step.grow", element=what)
    if op == "swap":
        return msg("step.swap.times", n=Number(n)) if n > 1 else msg("step.swap")
    if op == "explore":
        el = step.get("el", ANY)
        key = "step.explore.activate" if step.get("activate") else "step.explore"
        return msg(key + ".any") if el == ANY else msg(key, element=Term("element.a", el))
    if op == "shift":
        return msg("step.shift.activate" if step.get("activate") else "step.shift", rifts=_selector(step))
    if op in ("activate", "return", "force_burst"):
        return msg(f"step.{op}", rifts=_selector(step))
    if op == "discard":
        if step["zone"] == "hand":
            whose = step.get("whose", "you")
            owner_chooses = chooser(step) == "owner" and whose != "you"
            return msg(f"step.discard.hand.{whose}" + (".owner" if owner_chooses else ""), count=Count(n))
        noun = "scored" if step["zone"] == "score" else "explored"
        return (msg("step.discard.cards", rifts=_selector(step, noun), count=Count(n)) if n > 1
                else msg("step.discard", rifts=_selector(step, noun)))
    if op == "burst_step":
        el = step.get("el", ANY)
        worth = msg("worth", value=Number(step["worth"])) if step.get("worth") else None
        return msg("step.burst_step", kind=None if el == ANY else msg("adj.element", element=element(el)),
                   worth=worth)
    if op == "extra_burst":
        return msg("step.extra_burst", count=Count(n))
    if op == "draw":
        return msg("step.draw", count=Count(n))
    if op == "search":
        el = step.get("el", ANY)
        take = step.get("take", 1)
        what = msg("cards.n", count=Count(take)) if el == ANY else msg("cards.element", count=Count(take),
                                                                           element=element(el))
        return msg("step.search", count=Count(n), take=what)
    if op == "tuck":
        src = step["src"]
        face = step["face"]
        if src == "explored":
            return msg(f"step.tuck.explored.{face}", count=Count(n), rifts=_selector(step))
        return msg(f"step.tuck.{src}.{face}", count=Count(n))
    raise ValueError(f"no message for power step {op!r}")


# ---- a card's rules and the turn's steps, for the board -------------------------------------------------

# A card's own sentence (cards.json "text"), by card id: the catalog's key.
TEXT_KEYS = {"FI-06": "text.lock", "SP-01": "text.venture", "SP-02": "text.venture", "SP-03": "text.venture",
             "SP-04": "text.shadowlands"}
STEP_NAMES = ("element", "element_place", "rift", "burst", "refresh")


def power_message(card) -> Message:
    """A card's power as a message (words.power_text's words)."""
    steps = Joined(tuple(step_message(s) for s in card.power), "sep.semicolon")
    if not card.protect:
        return msg("power", steps=steps)
    return msg("power.protect", steps=steps,
               kinds=Joined(tuple(msg(f"protect.{k}") for k in sorted(card.protect)), "sep.comma"))


def bonus_key(bonus) -> str:
    return f"bonus.{bonus['when']}" + (".other" if bonus.get("other") else "") + (".max" if bonus.get("max") else "")


def bonus_message(card) -> Message | None:
    """A card's end bonus as a message (words.bonus_text's words); None without one."""
    b = card.bonus
    if not b:
        return None
    a, c = b["values"]
    el = b.get("el")
    return msg(bonus_key(b), a=Number(a), c=Number(c), max=Number(b["max"]) if b.get("max") else None,
               min=Number(b["min"]) if b.get("min") is not None else None,
               element=element(el) if el else None)


def text_message(card) -> Message | None:
    """A card's own sentence (its "text") as a message; None without one."""
    return msg(TEXT_KEYS[card.id]) if card.text else None


def step_name(step: str) -> Message:
    """A step of the turn by name ("Rift step")."""
    return msg(f"turn_step.{step}")


# ---- moves ---------------------------------------------------------------------------------------------

def _owned(key: str, cid: str, state) -> Message:
    owner = find_explored(state, cid)[0] if state is not None else None
    if owner is None:
        return msg(key, card=Card(cid))
    return msg(key + ".owned", card=Card(cid), owner=Seat(owner))


def move_message(move, state=None) -> Message:
    """A move as a message (words.describe_move's words): for buttons, links and confirm pages."""
    t = move.get("type") if isinstance(move, dict) else None
    ctx = pending_op(state)
    if t == "flip":
        if state is not None:
            s = state["grid"][move["slot"]]
            a, b = CARDS.element_cards[s[0]][s[1]], CARDS.element_cards[s[0]][1 - s[1]]
            return msg("move.flip.use" if ctx is None else "move.flip.power", slot=slot(move["slot"]),
                       up=element(a), down=element(b))
        return msg("move.flip", slot=slot(move["slot"]))
    if t == "place":
        return msg("move.place.use" if ctx is None else "move.place.power", element=element(move["element"]))
    if t == "put":
        return msg("move.put", slot=slot(move["slot"]))
    if t == "grow":
        if state is not None:
            s = state["grid"][move["slot"]]
            return msg("move.grow", element=element(CARDS.element_cards[s[0]][1 - s[1]]), slot=slot(move["slot"]))
        return msg("move.grow.slot", slot=slot(move["slot"]))
    if t in ("swap", "swap_with"):
        return msg(f"move.{t}", slot=slot(move["slot"]))
    if t in ("explore", "discard", "tuck", "take", "bottom"):
        return msg(f"move.{t}", card=Card(move["card"]))
    if t in ("shift", "activate", "return", "force_burst"):
        return _owned(f"move.{t}", move["rift"], state)
    if t == "target":
        return msg("move.target", seat=Seat(move["seat"]))
    if t == "do":
        if ctx is not None:
            return msg("move.do.step", step=Clause(step_message(state["stack"][-1]["cur"]["step"])))
        return msg("move.do")
    if t == "tuck_top":
        return msg("move.tuck_top")
    if t == "draw":
        return msg("move.draw", count=Count(move["n"]))
    if t == "search":
        return msg("move.search")
    if t == "choose":
        if state is not None and ctx == "choose":
            step = state["stack"][-1]["cur"]["step"]
            return msg("move.choose.steps", steps=Joined(tuple(step_message(s) for s in step["options"][move["option"]]),
                                                         "sep.semicolon"))
        return msg("move.choose", n=Number(move["option"] + 1))
    if t == "burst":
        if move.get("via") == "line":
            return msg("move.burst.line", card=Card(move["rift"]))
        if state is not None and state["turn"]:
            return msg("move.burst.power", card=Card(move["rift"]),
                       power=Card(state["turn"]["grants"][move["grant"]]["rift"]))
        return msg("move.burst.step", card=Card(move["rift"]))
    if t == "done":
        return msg("move.done")
    if t == "skip":
        if state is not None and not state["over"] and not state["stack"]:
            return msg({"rift": "move.skip.rift", "burst": "move.skip.burst"}.get(state["turn"]["step"], "move.skip"))
        if ctx == "_offer":
            return msg("move.skip.offer")
        if ctx == "search" and state["stack"][-1]["cur"].get("phase") in ("take", "bottom"):
            return msg("move.skip.search")
        return msg("move.skip.power")
    if t == "order":
        return msg("move.order")
    return msg("move.unknown")


# ---- events --------------------------------------------------------------------------------------------

def _shown(cid) -> Message | Card:
    return msg("a_card") if cid is None else Card(cid)


def event_messages(event, seat=None, state=None) -> list[Message]:
    """The event as messages for `seat` (None: a spectator); [] for bookkeeping.  Every fact is in the
    event itself (redacted for the seat), so `state` is not read."""
    e = redact_event(event, seat)
    t = e["type"]
    actor = Seat(e["seat"]) if isinstance(e.get("seat"), int) else None
    one = _event(e, t, actor)
    return [] if one is None else [one]


def _event(e, t, actor) -> Message | None:
    if t == "setup":
        return msg("event.setup", players=Number(e["players"]), rifts=Number(e["rdeck_size"]), first=Seat(e["first"]))
    if t == "deal":
        if e["cards"] is None:
            return msg("event.deal", actor=actor, count=Count(e["count"]))
        return msg("event.deal.own", cards=Cards(tuple(e["cards"])))
    if t == "turn":
        return msg("event.turn.final" if e.get("final") else "event.turn", number=Number(e["number"]), actor=actor)
    if t == "flip":
        return msg("event.flip.use" if e.get("use") else "event.flip", actor=actor, slot=slot(e["slot"]),
                   **{"from": element(e["from"])}, to=element(e["to"]))
    if t == "grow":
        return msg("event.grow", actor=actor, slot=slot(e["slot"]), to=element(e["to"]), **{"from": element(e["from"])})
    if t == "place":
        return msg("event.place.use" if e.get("use") else "event.place", actor=actor, slot=slot(e["slot"]),
                   element=element(e["element"]))
    if t == "swap":
        return msg("event.swap", actor=actor, a=slot(e["a"]), b=slot(e["b"]))
    if t == "explore":
        return msg("event.explore", actor=actor, card=Card(e["card"]))
    if t == "shift":
        value = Number(CARDS.rifts[e["rift"]].track[e["rot"]])
        if e["owner"] == e["seat"]:
            return msg("event.shift", actor=actor, card=Card(e["rift"]), value=value)
        return msg("event.shift.other", actor=actor, owner=Seat(e["owner"]), card=Card(e["rift"]), value=value)
    if t == "activate":
        if e["owner"] == e["seat"] or e["owner"] is None:
            return msg("event.activate", actor=actor, card=Card(e["rift"]))
        return msg("event.activate.other", actor=actor, owner=Seat(e["owner"]), card=Card(e["rift"]))
    if t == "return":
        return msg("event.return", actor=actor, owner=Seat(e["owner"]), card=Card(e["rift"]))
    if t == "discard":
        if e["zone"] == "hand":
            key = "event.discard.hand" + ("" if e["owner"] == e["seat"] else ".forced")
            return msg(key, owner=Seat(e["owner"]), card=_shown(e["card"]), actor=actor)
        return msg(f"event.discard.{e['zone']}", actor=actor, owner=Seat(e["owner"]), card=Card(e["card"]))
    if t == "burst":
        value = Number(CARDS.rifts[e["rift"]].track[e["rot"]])
        if e["via"] == "force":
            return msg("event.burst.force", actor=actor, owner=Seat(e["owner"]), card=Card(e["rift"]), value=value)
        return msg("event.burst.line" if e["via"] == "line" else "event.burst.power", actor=actor,
                   card=Card(e["rift"]), value=value)
    if t == "draw":
        if e["cards"] is None:
            return msg("event.draw", actor=actor, count=Count(e["count"]))
        return msg("event.draw.own", cards=Cards(tuple(e["cards"]))) if e["cards"] else None
    if t == "look":
        if e["cards"] is None:
            return msg("event.look", actor=actor, count=Count(e["count"]))
        return msg("event.look.own", cards=Cards(tuple(e["cards"])))
    if t == "take":
        return msg("event.take", actor=actor, card=_shown(e["card"]))
    if t == "tuck":
        what = msg("a_face_down_card") if e["card"] is None else Card(e["card"])
        return msg(f"event.tuck.{e['src']}.{e['face']}", actor=actor, card=what, host=Card(e["host"]))
    if t == "grant":
        if e.get("burst_step"):
            return msg("event.grant.burst_step", actor=actor, card=Card(e["rift"]))
        return msg("event.grant.extra", actor=actor, count=Count(e["extra"]), card=Card(e["rift"]))
    if t == "end_triggered":
        return msg("event.end.deck" if e["reason"] == "deck" else "event.end.bursts", actor=actor)
    if t == "game_over":
        return msg("event.game_over")
    return None  # "bottom" (part of the search's sentence) and control: bookkeeping


# ---- every key -----------------------------------------------------------------------------------------

_WHOSE = ("you", "opp", "each_opp", "any")
KEYS = frozenset({
    # events
    "event.setup", "event.deal", "event.deal.own", "event.turn", "event.turn.final", "event.flip", "event.flip.use",
    "event.grow", "event.place", "event.place.use", "event.swap", "event.explore", "event.shift", "event.shift.other",
    "event.activate", "event.activate.other", "event.return", "event.discard.hand", "event.discard.hand.forced",
    "event.discard.explored", "event.discard.score", "event.burst.force", "event.burst.line", "event.burst.power",
    "event.draw", "event.draw.own", "event.look", "event.look.own", "event.take",
    *(f"event.tuck.{src}.{face}" for src in ("hand", "deck_top", "explored") for face in ("up", "down")),
    "event.grant.burst_step", "event.grant.extra", "event.end.deck", "event.end.bursts", "event.game_over",
    "a_card", "a_face_down_card",
    # moves
    "move.flip", "move.flip.use", "move.flip.power", "move.place.use", "move.place.power", "move.put", "move.grow",
    "move.grow.slot", "move.swap", "move.swap_with", "move.explore", "move.discard", "move.tuck", "move.take",
    "move.bottom", *(f"move.{t}{o}" for t in ("shift", "activate", "return", "force_burst") for o in ("", ".owned")),
    "move.target", "move.do", "move.do.step", "move.tuck_top", "move.draw", "move.search", "move.choose",
    "move.choose.steps", "move.burst.line", "move.burst.power", "move.burst.step", "move.done", "move.skip",
    "move.skip.rift", "move.skip.burst", "move.skip.offer", "move.skip.search", "move.skip.power", "move.order",
    "move.unknown",
    # power steps
    "step.must", "step.cost", "step.choose", "step.option", "step.offer", "step.flip", "step.place", "step.grow",
    "step.grow.times", "step.swap", "step.swap.times", "step.explore", "step.explore.any", "step.explore.activate",
    "step.explore.activate.any", "step.shift", "step.shift.activate", "step.activate", "step.return",
    "step.force_burst", *(f"step.discard.hand.{w}" for w in _WHOSE),
    *(f"step.discard.hand.{w}.owner" for w in _WHOSE if w != "you"), "step.discard", "step.discard.cards",
    "step.burst_step", "step.extra_burst", "step.draw", "step.search", "cards.n", "cards.element",
    *(f"step.tuck.{src}.{face}" for src in ("hand", "deck_top", "explored") for face in ("up", "down")),
    "any_element", "adj.matching", "adj.other_matching", "adj.element", "adj.other_element", "adj.other", "worth",
    *(f"sel.{w}.{noun}" for w in _WHOSE for noun in ("explored", "scored")),
    "sep.semicolon", "sep.or", "sep.comma",
    # a card's rules and the turn's steps (the board)
    "power", "power.protect", *(f"protect.{k}" for k in ("discard", "return", "force_burst", "tuck")),
    *{bonus_key(c.bonus) for c in CARDS.rifts.values() if c.bonus}, *set(TEXT_KEYS.values()),
    *(f"turn_step.{s}" for s in STEP_NAMES),
    # places: the grid's nine slots
    *(f"place.slot.{i}" for i in range(9)),
})
# The words of the game's vocabulary its messages use, by context: they are in the catalogs too.
TERMS = {"element": tuple(CARDS.elements), "element.a": tuple(CARDS.elements)}
