"""Every word Riftwalker shows people, and the only module of the package that makes any: card
rules text (made from the §9.3 primitives), the plain-text rendering of a view, moves and events
in words.  Everything here reads data (card data, views, moves, events, states) and returns text.

`describe_event` words the event as `redact.redact_event` gives it to the viewer, so a sentence
cannot tell what the viewer may not see, although the state it is handed is whole.
"""

from __future__ import annotations

from .cards import CARDS
from .powers import chooser
from .redact import redact_event
from .state import find_explored

SLOT_NAMES = ["top left", "top middle", "top right", "middle left", "centre", "middle right",
              "bottom left", "bottom middle", "bottom right"]
STEP_NAMES = {"element": "Element step", "element_place": "Element step (placing)", "rift": "Rift step",
              "burst": "Burst step", "refresh": "Refresh step"}


def who(seat) -> str:
    return f"Player {seat + 1}"


def slot_name(i) -> str:
    return f"slot {i + 1} ({SLOT_NAMES[i]})"


def name(cid) -> str:
    return CARDS.rifts[cid].name if cid in CARDS.rifts else str(cid)


# ---- power text, generated from the primitives ------------------------------------------------------

_WHOSE = {"you": "your", "opp": "an opponent's", "each_opp": "each opponent's", "any": "any player's"}


def _plural(n, word):
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _rift_sel(step, noun="explored rift") -> str:
    """The rifts a step may choose, in words: "one of your other Fire explored rifts worth 3"."""
    whose = step.get("whose", "you")
    el = step.get("el")
    words = ("other " if step.get("other") else "") + (
        "matching " if el == "this" else (f"{el} " if el and el != "any" else ""))
    worth = f" worth {step['worth']}" if step.get("worth") is not None else ""
    if whose == "you":
        return f"one of your {words}{noun}s{worth}"
    if whose == "opp":
        return f"an opponent's {words}{noun}{worth}"
    if whose == "each_opp":
        return f"each opponent's {words}{noun}{worth}"
    return f"any {words}{noun}{worth}"


def step_text(step) -> str:
    op = step["op"]
    n = step.get("n", 1)
    bang = " (must)" if step.get("mandatory") else ""
    if op == "cost":
        pay = step_text(step["pay"])
        return f"You may {pay[0].lower() + pay[1:]}; if you do: " + "; ".join(
            step_text(s) for s in step["then"])
    if op == "choose":
        return "Choose one: " + ", or ".join("; ".join(step_text(s) for s in o) for o in step["options"])
    if op == "_offer":
        return f"activate {name(step['rift'])}"
    text = {
        "flip": lambda: f"Flip {_plural(n, 'grid card')}",
        "place": lambda: f"Place the top element card {n} time{'s' if n > 1 else ''}",
        "grow": lambda: f"Grow {step['el'] if step['el'] != 'any' else 'any element'}"
                        + (f" ×{n}" if n > 1 else ""),
        "swap": lambda: "Swap two grid cards" + (f", {n} times" if n > 1 else ""),
        "explore": lambda: f"Explore a{'n' if step.get('el', 'any')[0] in 'AEIOU' else ''} "
                           f"{step.get('el', 'any')} rift from your hand"
                           + (" and activate it" if step.get("activate") else ""),
        "shift": lambda: f"Shift {_rift_sel(step)}" + (" and activate it" if step.get("activate") else ""),
        "activate": lambda: f"Activate {_rift_sel(step)}",
        "return": lambda: f"Return {_rift_sel(step)} to its owner's hand",
        "discard": lambda: (f"Discard {_plural(n, 'card')} from {_WHOSE[step.get('whose', 'you')]} hand"
                            + (" (its owner chooses)" if chooser(step) == "owner"
                               and step.get("whose", "you") != "you" else ""))
        if step["zone"] == "hand" else
        f"Discard {_rift_sel(step, 'scored rift' if step['zone'] == 'score' else 'explored rift')}"
        + (f" ({n} cards)" if n > 1 else ""),
        "force_burst": lambda: f"Burst {_rift_sel(step)} into its owner's score pile",
        "burst_step": lambda: "At your burst step you may burst one of your "
                              + ("" if step.get("el", "any") == "any" else step["el"] + " ")
                              + "rifts" + (f" worth {step['worth']}" if step.get("worth") else "")
                              + " without a line (this is your burst)",
        "extra_burst": lambda: f"You may burst {_plural(n, 'more rift')} this turn (lines still needed)",
        "draw": lambda: f"Draw {_plural(n, 'card')}",
        "search": lambda: f"Look at the top {_plural(n, 'card')} of the rift deck, take up to "
                          + _plural(step.get("take", 1), ("" if step.get("el", "any") == "any" else step["el"] + " ")
                                    + "card")
                          + ", put the rest at the bottom",
        "tuck": lambda: f"Put {_plural(n, 'card')} "
                        + {"hand": "from your hand", "deck_top": "from the top of the rift deck",
                           "explored": f"({_rift_sel(step)})"}[step["src"]]
                        + f" face {step['face']} beneath this rift",
    }[op]()
    return text + bang


def power_text(card) -> str:
    text = "; ".join(step_text(s) for s in card.power) + "."
    if card.protect:
        kinds = {"discard": "discard", "return": "return", "force_burst": "force-burst", "tuck": "tuck"}
        text += " Other players' powers cannot " + ", ".join(kinds[k] for k in sorted(card.protect)) + " it."
    return text


def bonus_text(card) -> str:
    b = card.bonus
    if not b:
        return ""
    a, c = b["values"]
    when = b["when"]
    cap = f" (max {b['max']})" if b.get("max") else ""
    other = " other" if b.get("other") else ""
    cond = {
        "always": "always",
        "per_beneath": f"per card beneath{cap}",
        "score_count": f"if at least {b.get('min')}{other} {b.get('el')} rifts are in your score pile",
        "per_score": f"per{other} {b.get('el')} rift in your score pile{cap}",
        "distinct_elements": f"if your score pile has at least {b.get('min')} different elements",
        "most_burst": "if no one has burst more rifts than you",
    }[when]
    return f"Bonus +{a}/+{c} {cond}"


# ---- views in words --------------------------------------------------------------------------------------

def pending_text(v) -> str | None:
    """What is being decided now, from a view: the power step in progress, else the turn's step."""
    turn = v["turn"]
    if v["over"] or turn is None:
        return None
    p = v["pending"]
    if p is None:
        return f"{who(turn['seat'])}: {STEP_NAMES[turn['step']]}" + (
            f" (element in use: {turn['element']})" if turn["element"] else "")
    source = f"{name(p['rift'])}: " if p["rift"] else ""
    if p["op"] == "discard" and p["seat"] != turn["seat"]:  # an opponent discards from their own hand
        return f"{source}{who(p['seat'])} chooses a card to discard"
    return source + p["rules"]


WIDTH = 76  # the plain-text board's lines wrap here (an email's plain part reads well under 78)


def _elements(c) -> str:
    return "any element" if c["elements"] == ["*"] else "+".join(c["elements"])


_GLUE = "\u00a0"  # a space the plain-text board never breaks a line at (inside a card's name)


def _glued(text) -> str:
    return text.replace(" ", _GLUE)


def _beneath(r, viewer) -> str:
    """What lies beneath a rift, as the view gives it: names the viewer may see, the rest counted."""
    known = [_glued(b["name"] + (" face down" if b["face"] == "down" else "")) for b in r["beneath"] if b["id"]]
    hidden: dict[int, int] = {}
    for b in r["beneath"]:
        if not b["id"]:
            hidden[b["by"]] = hidden.get(b["by"], 0) + 1
    known += [_glued(("a face-down card" if n == 1 else f"{n} face-down cards")
                     + f" from {'you' if by == viewer else who(by)}") for by, n in hidden.items()]
    return "; beneath:" + _GLUE + ", ".join(known) if known else ""


def _rift_chip(r, viewer, scored=False) -> str:
    """A rift in play in a few words: "Cinder Reach (Fire 3->7)": its value now and, while it can
    still be shifted, after the next shift."""
    nxt = f"->{r['track'][r['rot'] + 1]}" if not scored and r["rot"] < 2 else ""
    els = "any" if r["elements"] == ["*"] else "+".join(r["elements"])
    return _glued(f"{r['name']} ({els} {r['value']}{nxt}") + _beneath(r, viewer) + ")"


def _wrapped(label, items, indent=2) -> list[str]:
    """`label`, then the items comma-separated, wrapped under each other after the label; a line
    never breaks inside a card's name."""
    import textwrap

    head = " " * indent + label + " "
    return [line.replace(_GLUE, " ") for line in textwrap.wrap(
        ", ".join(items), WIDTH, initial_indent=head, subsequent_indent=" " * len(head),
        break_long_words=False, break_on_hyphens=False)]


def render_text(v) -> str:
    """The board as plain text (the plain part of every email): short aligned lines, every label
    followed by what it labels, so no line reads as a form's blank to fill in."""
    out = []
    turn = v["turn"]
    viewer = v["viewer"]

    def whom(seat):
        return "you" if seat == viewer else who(seat)

    if v["over"]:
        res = v["result"]
        out.append("Riftwalker, game over. " + ("Winners" if len(res["winners"]) > 1 else "Winner") + ": "
                   + " and ".join(who(s) for s in res["winners"]) + f" (decided by {res['decided_by']}).")
    elif turn:
        whose = "your turn" if turn["seat"] == viewer else f"{who(turn['seat'])}'s turn"
        waiting = ", ".join(whom(s) for s in v["to_act"])
        head = (f"Riftwalker, turn {turn['number']}: {whose}, {STEP_NAMES[turn['step']]}"
                + (f", element in use: {turn['element']}" if turn["element"] else ""))
        if v["pending"] is None:
            out.append(f"{head}; waiting for {waiting}.")
        else:
            out.append(head + ".")
            out.append(f"Now: {pending_text(v)} (waiting for {waiting}).")
        if v["end"]["triggered_by"] is not None:
            left = ", ".join(whom(s) for s in v["end"]["final_turns_left"])
            why = "the rift deck ran out" if v["end"]["reason"] == "deck" else "enough rifts burst"
            out.append(f"Last turns: {who(v['end']['triggered_by'])} triggered the end ({why}); "
                       + (f"still to play: {left}." if left else "this turn is the last."))
    out.append("")
    lined = {i for ln in v["lines"] for i in ln["slots"]}
    out.append("Element grid, face up [back]; * marks a card in a line of three")
    for row in range(3):
        cells = [f"{'*' if g['slot'] in lined else ' '}{g['slot'] + 1} {g['up']:<5} [{g['down']}]"
                 for g in v["grid"][row * 3:row * 3 + 3]]
        out.append("  " + "".join(f"{c:<18}" for c in cells).rstrip())
    if v["lines"]:
        out.append("Lines of three: " + "; ".join(
            f"{ln['element']} (slots {', '.join(str(s + 1) for s in ln['slots'])})" for ln in v["lines"]) + ".")
    else:
        out.append("No line of three: no rift can be burst with a line now.")
    top = v["element_deck"]["top"]["faces"]
    rd = v["rift_deck"]
    out.append(f"Element deck {v['element_deck']['size']}, next card {top[0]}/{top[1]}; rift deck {rd['size']}"
               + (" (it has run out once: the end is due)" if rd["exhausted"] else "") + ".")
    out.append(f"{v['threshold']} rifts burst into one score pile end the game.")
    for s in v["seats"]:
        out.append("")
        me = " (you)" if viewer == s["seat"] else ""
        if v["over"]:
            points = f"{_plural(v['result']['points'][s['seat']], 'point')} with bonus"
        else:
            points = f"{s['points']} point{'s' if s['points'] != 1 else ''}"
        out.append(f"{who(s['seat'])}{me}: {points}, {s['bursts']} of {v['threshold']} rifts burst, "
                   f"{s['hand_size']} in hand.")
        explored = [_rift_chip(r, viewer) for r in s["explored"]] or ["none"]
        out.extend(_wrapped("explored  ", explored))
        if s["score_pile"]:
            out.extend(_wrapped("score pile", [_rift_chip(r, viewer, scored=True) for r in s["score_pile"]]))
    for s in v["seats"]:
        if "hand" in s:
            out.append("")
            out.append(f"Your hand, {len(s['hand'])} card{'s' if len(s['hand']) != 1 else ''}"
                       + ("." if s["hand"] else ": empty."))
            for c in s["hand"]:
                text = (f"- {c['name']} ({_elements(c)}, track {'/'.join(map(str, c['track']))}). {c['power']}"
                        + (f" {c['bonus']}." if c["bonus"] else "") + (f" {c['text']}" if c["text"] else ""))
                out.extend(_wrap_item(text))
    if v.get("searching") and v["searching"]["cards"]:
        out.append("")
        out.append("You are looking at " + ", ".join(f"{c['name']} ({_elements(c)})" for c in v["searching"]["cards"])
                   + ".")
    if v["over"]:
        res = v["result"]
        out.append("")
        out.append("Final scores: " + ", ".join(f"{who(s)} {p}" for s, p in enumerate(res["points"])) + ".")
    return "\n".join(fitted for line in out for fitted in _fit(line)) + "\n"


def _fit(line) -> list[str]:
    """A line as it is when it fits, else wrapped with its continuation indented under it."""
    import textwrap

    if len(line) <= WIDTH:
        return [line]
    indent = " " * (len(line) - len(line.lstrip()) + 2)
    return textwrap.wrap(line, WIDTH, subsequent_indent=indent, break_long_words=False, break_on_hyphens=False)


def _wrap_item(text) -> list[str]:
    import textwrap

    return textwrap.wrap(text, WIDTH, initial_indent="  ", subsequent_indent="    ", break_long_words=False,
                         break_on_hyphens=False)


# ---- moves in words ------------------------------------------------------------------------------------

def pending_op(state) -> str | None:
    """The op of the power step a move answers now (None: a free move, or no state to read)."""
    if state is None or state["over"] or not state["stack"] or not state["stack"][-1]["cur"]:
        return None
    return state["stack"][-1]["cur"]["step"]["op"]


def describe_move(move, state=None) -> str:
    t = move.get("type") if isinstance(move, dict) else None
    ctx = pending_op(state)
    if t == "flip":
        if state is not None:
            s = state["grid"][move["slot"]]
            a, b = CARDS.element_cards[s[0]][s[1]], CARDS.element_cards[s[0]][1 - s[1]]
            if ctx is None:
                return f"Flip {slot_name(move['slot'])}: use {a} (it turns to {b})"
            return f"Flip {slot_name(move['slot'])} ({a} turns to {b})"
        return f"Flip {slot_name(move['slot'])}"
    if t == "place":
        verb = "Take the top element card and use" if ctx is None else "Take the top element card, face up"
        return f"{verb} {move['element']}"
    if t == "put":
        return f"Put it on {slot_name(move['slot'])}"
    if t == "grow":
        if state is not None:
            s = state["grid"][move["slot"]]
            return f"Grow {CARDS.element_cards[s[0]][1 - s[1]]} at {slot_name(move['slot'])}"
        return f"Grow at {slot_name(move['slot'])}"
    if t == "swap":
        return f"Swap the card at {slot_name(move['slot'])}…"
    if t == "swap_with":
        return f"…with the card at {slot_name(move['slot'])}"
    if t == "explore":
        return f"Explore {name(move['card'])}"
    if t == "shift":
        return f"Shift {name(move['rift'])}" + _owner_suffix(move["rift"], state)
    if t == "activate":
        return f"Activate {name(move['rift'])}" + _owner_suffix(move["rift"], state)
    if t == "return":
        return f"Return {name(move['rift'])} to its owner's hand" + _owner_suffix(move["rift"], state)
    if t == "force_burst":
        return f"Make its owner burst {name(move['rift'])}" + _owner_suffix(move["rift"], state)
    if t == "discard":
        return f"Discard {name(move['card'])}"
    if t == "target":
        return f"Choose {who(move['seat'])}"
    if t == "do":
        if ctx is not None:
            text = step_text(state["stack"][-1]["cur"]["step"])
            return "Go ahead: " + text[0].lower() + text[1:]
        return "Go ahead"
    if t == "tuck":
        return f"Put {name(move['card'])} beneath"
    if t == "tuck_top":
        return "Put the top card of the rift deck beneath"
    if t == "draw":
        return f"Draw {_plural(move['n'], 'card')}"
    if t == "search":
        return "Search the rift deck"
    if t == "take":
        return f"Take {name(move['card'])}"
    if t == "bottom":
        return f"Put {name(move['card'])} next at the bottom of the rift deck"
    if t == "choose":
        if state is not None and ctx == "choose":
            step = state["stack"][-1]["cur"]["step"]
            return "Choose: " + "; ".join(step_text(s) for s in step["options"][move["option"]])
        return f"Choose option {move['option'] + 1}"
    if t == "burst":
        how = "with the line" if move.get("via") == "line" else (
            f"with the power of {name(state['turn']['grants'][move['grant']]['rift'])}"
            if state is not None and state["turn"] else "with a burst-step power")
        return f"Burst {name(move['rift'])} {how}"
    if t == "done":
        return "Draw up to 3 and end the turn"
    if t == "skip":
        if state is not None and not state["over"] and not state["stack"]:
            return {"rift": "Skip the rift step", "burst": "Skip the burst"}.get(state["turn"]["step"], "Skip")
        if ctx == "_offer":
            return "Don't activate"
        if ctx == "search" and state["stack"][-1]["cur"].get("phase") in ("take", "bottom"):
            return "Done (put the rest at the bottom in the order shown)"
        return "Skip (do no more of this)"
    if t == "order":
        return "Play a whole turn order"
    return str(move)


def _owner_suffix(cid, state) -> str:
    if state is None:
        return ""
    owner = find_explored(state, cid)[0]
    return "" if owner is None else f" ({who(owner)}'s)"


# ---- events in words ---------------------------------------------------------------------------------

def describe_event(event, seat=None, state=None) -> str | None:
    """The event as a sentence for `seat` (None: a spectator); None for bookkeeping.  Every fact the
    sentence needs is in the event itself, so `state` (the state the event was applied to) is not
    read: it is part of the contract for games whose events need it."""
    e = redact_event(event, seat)
    t = e["type"]
    actor = who(e["seat"]) if isinstance(e.get("seat"), int) else None
    if t == "setup":
        return (f"A {e['players']}-player game of Riftwalker begins: 9 element cards form the grid, "
                f"{e['rdeck_size']} rift cards are shuffled; {who(e['first'])} goes first.")
    if t == "deal":
        if e["cards"] is None:
            return f"{actor} is dealt {_plural(e['count'], 'rift card')}."
        return f"You are dealt {', '.join(name(c) for c in e['cards'])}."
    if t == "turn":
        return f"Turn {e['number']}: {actor}" + (" takes a last turn." if e.get("final") else "'s turn.")
    if t == "flip":
        use = " to use it" if e.get("use") else ""
        return f"{actor} flips {slot_name(e['slot'])} from {e['from']} to {e['to']}{use}."
    if t == "grow":
        return f"{actor} grows {e['to']} at {slot_name(e['slot'])} (was {e['from']})."
    if t == "place":
        use = f", using {e['element']}" if e.get("use") else ""
        return f"{actor} places the top element card on {slot_name(e['slot'])} with {e['element']} up{use}."
    if t == "swap":
        return f"{actor} swaps {slot_name(e['a'])} and {slot_name(e['b'])}."
    if t == "explore":
        return f"{actor} explores {name(e['card'])}."
    if t == "shift":
        whose = "" if e["owner"] == e["seat"] else f"{who(e['owner'])}'s "
        return f"{actor} shifts {whose}{name(e['rift'])} to {CARDS.rifts[e['rift']].track[e['rot']]}."
    if t == "activate":
        whose = "" if e["owner"] == e["seat"] or e["owner"] is None else f"{who(e['owner'])}'s "
        return f"{actor} activates {whose}{name(e['rift'])}."
    if t == "return":
        return f"{actor} returns {who(e['owner'])}'s {name(e['rift'])} to their hand."
    if t == "discard":
        if e["zone"] == "hand":
            what = "a card" if e["card"] is None else name(e["card"])
            why = "" if e["owner"] == e["seat"] else f" ({actor}'s power)"
            return f"{who(e['owner'])} discards {what} from their hand to the bottom of the rift deck{why}."
        where = "explored rifts" if e["zone"] == "explored" else "score pile"
        return (f"{actor} discards {name(e['card'])} from {who(e['owner'])}'s {where} to the bottom "
                f"of the rift deck.")
    if t == "burst":
        v = CARDS.rifts[e["rift"]].track[e["rot"]]
        if e["via"] == "force":
            return f"{actor} makes {who(e['owner'])} burst {name(e['rift'])} at {v}."
        how = "with a line" if e["via"] == "line" else "with a burst-step power"
        return f"{actor} bursts {name(e['rift'])} at {v} {how}."
    if t == "draw":
        if e["cards"] is None:
            return f"{actor} draws {_plural(e['count'], 'card')}."
        return f"You draw {', '.join(name(c) for c in e['cards'])}." if e["cards"] else None
    if t == "look":
        if e["cards"] is None:
            return f"{actor} looks at the top {_plural(e['count'], 'card')} of the rift deck."
        return f"You look at {', '.join(name(c) for c in e['cards'])}."
    if t == "take":
        return f"{actor} takes {'a card' if e['card'] is None else name(e['card'])} into their hand."
    if t == "bottom":
        return None  # the rest of a search going back: part of the search sentence
    if t == "tuck":
        what = "a face-down card" if e["card"] is None else name(e["card"])
        src = {"hand": "from their hand", "deck_top": "from the top of the rift deck",
               "explored": "from the explored rifts"}[e["src"]]
        return f"{actor} puts {what} {src} face {e['face']} beneath {name(e['host'])}."
    if t == "grant":
        if e.get("burst_step"):
            return f"{actor} may burst without a line this turn ({name(e['rift'])})."
        return f"{actor} may burst {e['extra']} more rift(s) this turn ({name(e['rift'])})."
    if t == "end_triggered":
        why = "the rift deck ran out" if e["reason"] == "deck" else "they have burst enough rifts"
        return f"The end of the game is triggered by {actor}: {why}. Everyone else gets one last turn."
    if t == "game_over":
        return "The game is over."
    return None  # control: bookkeeping
