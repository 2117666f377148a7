"""Riftwalker's plain-text board in the reader's language (issue #26): the email's plain part and the
history's text boards, made here from the view, as engine/riftwalker/words.py `render_text` makes the
English one for the command line (DESIGN.md: the engine keeps its English).

The board's own words are gettext's (the messages domain, the same messages as the HTML board,
templates/games/riftwalker/board.html, where they say the same); the game's (elements, cards, rules,
steps, players) the game's `Wording` for this reader (service/views/wording.py, handed in: the
adapters sit below service.views).  English readers keep `render_text` (with the players' names put
in): service/views/positions.py `text_board` chooses.  Lines wrap at `WIDTH`
columns, a CJK character counting two, and never inside a card's name.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.messages import Seat
from engine.riftwalker.messages import step_name
from service import lang
from service.games.textcols import pad, width

Wording = Any  # service.views.wording.Wording: a game's words for one reader (the caller's)

WIDTH = 76
_GLUE = "\u00a0"  # a space no line breaks at (inside a card's name)


def _wrap(line: str, indent: int = 2, first: str = "") -> list[str]:
    """`line` in lines of at most WIDTH columns, broken at spaces (or, where a run holds no space,
    between two wide characters: Chinese has no spaces), its continuation indented by `indent`."""
    out: list[str] = []
    current = first
    rest = line
    while rest:
        if width(current + rest) <= WIDTH:
            current += rest
            break
        # the longest head of `rest` that fits, ending at a space or between wide characters
        cut = 0
        for i in range(1, len(rest) + 1):
            if width(current + rest[:i]) > WIDTH:
                break
            ch, nxt = rest[i - 1], rest[i] if i < len(rest) else ""
            if nxt == " " or (width(ch) == 2 and nxt and width(nxt) == 2):
                cut = i
        if cut == 0:  # nothing fits: the whole word goes on this line
            space = rest.find(" ")
            cut = len(rest) if space < 0 else space
        out.append((current + rest[:cut]).rstrip())
        current = " " * indent
        rest = rest[cut:].lstrip(" ")
    if current.strip():
        out.append(current.rstrip())
    return [piece.replace(_GLUE, " ") for piece in out]


def render(view: Mapping[str, Any], words: Wording) -> str:
    """The board as plain text for `words`' reader, in `words`' language."""
    language = words.language
    _, ngettext = lang.speaker(language)

    viewer = view["viewer"]
    turn = view["turn"]

    def who(seat: int) -> str:
        return words.arg(Seat(seat))

    def whom(seat: int) -> str:
        return _("you") if seat == viewer else who(seat)

    def el(element: str) -> str:
        return words.term("element", element)

    def names_of(seats: Sequence[int]) -> str:
        return _(", ").join(whom(s) for s in seats)

    out: list[str] = []
    if view["over"]:
        res = view["result"]
        winners = lang.and_list([who(s) for s in res["winners"]], language)
        out.append(ngettext("Riftwalker, game over. Winner: %(names)s (decided by %(how)s).",
                      "Riftwalker, game over. Winners: %(names)s (decided by %(how)s).", len(res["winners"]),
                      names=winners, how=_decided(language, res["decided_by"])))
    elif turn:
        whose = _("your turn") if turn["seat"] == viewer else _("%(name)s’s turn", name=who(turn["seat"]))
        head = _("Riftwalker, turn %(number)s: %(whose)s, %(step)s", number=turn["number"], whose=whose,
                 step=words(step_name(turn["step"])))
        if turn["element"]:
            head = _("%(head)s, element in use: %(element)s", head=head, element=el(turn["element"]))
        waiting = names_of(view["to_act"])
        pending = view["pending"]
        if pending is None:
            out.append(_("%(head)s; waiting for %(names)s.", head=head, names=waiting))
        else:
            out.append(_("%(head)s.", head=head))
            out.append(_("Now: %(what)s (waiting for %(names)s).", what=_pending(language, words, turn, pending, who),
                         names=waiting))
        end = view["end"]
        if end["triggered_by"] is not None:
            why = _("the rift deck ran out") if end["reason"] == "deck" else _("enough rifts burst")
            left = end["final_turns_left"]
            out.append(_("Last turns: %(name)s triggered the end (%(why)s); still to play: %(names)s.",
                         name=who(end["triggered_by"]), why=why, names=names_of(left)) if left else
                       _("Last turns: %(name)s triggered the end (%(why)s); this turn is the last.",
                         name=who(end["triggered_by"]), why=why))
    out.append("")
    lined = {i for ln in view["lines"] for i in ln["slots"]}
    out.append(_("Element grid, face up [back]; * marks a card in a line of three"))
    for row in range(3):
        cells = [f"{'*' if c['slot'] in lined else ' '}{c['slot'] + 1} {pad(el(c['up']), 5)} [{el(c['down'])}]"
                 for c in view["grid"][row * 3:row * 3 + 3]]
        out.append(("  " + "".join(pad(cell, 18) for cell in cells)).rstrip())
    if view["lines"]:
        found = _("; ").join(_("%(element)s (slots %(slots)s)", element=el(ln["element"]),
                               slots=_(", ").join(str(s + 1) for s in ln["slots"])) for ln in view["lines"])
        out.append(ngettext("Line of three: %(lines)s.", "Lines of three: %(lines)s.", len(view["lines"]), lines=found))
    else:
        out.append(_("No line of three: no rift can be burst with a line now."))
    top = view["element_deck"]["top"]["faces"]
    rift_deck = view["rift_deck"]
    decks = dict(size=view["element_deck"]["size"], up=el(top[0]), down=el(top[1]), rift=rift_deck["size"])
    out.append(_("Element deck %(size)s, next card %(up)s/%(down)s; rift deck %(rift)s (it has run out once: the end "
                 "is due).", **decks) if rift_deck["exhausted"] else
               _("Element deck %(size)s, next card %(up)s/%(down)s; rift deck %(rift)s.", **decks))
    out.append(_("%(num)s rifts burst into one score pile end the game.", num=view["threshold"]))
    for s in view["seats"]:
        out.append("")
        name = _("%(name)s (you)", name=who(s["seat"])) if viewer == s["seat"] else who(s["seat"])
        if view["over"]:
            points = ngettext("%(num)d point with bonus", "%(num)d points with bonus", view["result"]["points"][s["seat"]])
        else:
            points = ngettext("%(num)d point", "%(num)d points", s["points"])
        out.append(_("%(name)s: %(points)s, %(done)s of %(all)s rifts burst, %(hand)s in hand.", name=name,
                     points=points, done=s["bursts"], all=view["threshold"], hand=s["hand_size"]))
        explored = [_chip(language, words, r, viewer, who) for r in s["explored"]] or [_("none")]
        out.extend(_labelled(_("explored"), explored, _(", ")))
        if s["score_pile"]:
            out.extend(_labelled(_("score pile"), [_chip(language, words, r, viewer, who, scored=True)
                                                   for r in s["score_pile"]], _(", ")))
    for s in view["seats"]:
        if "hand" in s:
            out.append("")
            out.append(ngettext("Your hand, %(num)d card.", "Your hand, %(num)d cards.", len(s["hand"])) if s["hand"]
                       else _("Your hand: empty."))
            for c in s["hand"]:
                text = _("%(card)s (%(elements)s, track %(track)s).", card=words.card(c["id"]),
                         elements=_elements(words, c), track="/".join(map(str, c["track"])))
                gap = lang.sentence_gap(language)
                text += gap + words(c["power_message"])
                if c.get("bonus_message"):
                    text += gap + _("%(bonus)s.", bonus=words(c["bonus_message"]))
                if c.get("text_message"):
                    text += gap + words(c["text_message"])
                out.extend(_wrap(text, 4, "  - "))
    if view.get("searching") and view["searching"]["cards"]:
        out.append("")
        looked = _(", ").join(_("%(card)s (%(elements)s)", card=words.card(c["id"]), elements=_elements(words, c))
                              for c in view["searching"]["cards"])
        out.append(_("You are looking at %(cards)s.", cards=looked))
    if view["over"]:
        out.append("")
        out.append(_("Final scores: %(scores)s.", scores=_(", ").join(
            f"{who(s)} {p}" for s, p in enumerate(view["result"]["points"]))))
    return "\n".join(fitted for line in out for fitted in (_wrap(line) if line else [""])) + "\n"


def _decided(language: str, how: str) -> str:
    _, _n = lang.speaker(language)
    return {"points": _("points"), "bursts": _("the most rifts burst (a tie on points)"),
            "explored": _("the value of the explored rifts still in play (a tie on points and bursts)"),
            "shared": _("nothing: a shared win")}.get(how, how)


def _pending(language: str, words: Wording, turn, pending, who) -> str:
    _, _n = lang.speaker(language)
    if pending["op"] == "discard" and pending["seat"] != turn["seat"]:
        return _("%(card)s: %(name)s chooses a card to discard", card=words.card(pending["rift"]),
                 name=who(pending["seat"]))
    rules = words(pending["step_message"])
    rules = rules[:1].upper() + rules[1:]
    return _("%(card)s: %(rules)s", card=words.card(pending["rift"]), rules=rules) if pending["rift"] else rules


def _elements(words: Wording, card) -> str:
    return "+".join(words.term("element", e) for e in card["elements"])


def _chip(language: str, words: Wording, rift, viewer, who, scored: bool = False) -> str:
    """A rift in play: its name, element(s), value now and, while it can still be shifted, after the
    next shift, and what lies beneath it as the view shows it; glued (no line breaks inside)."""
    _, ngettext = lang.speaker(language)
    nxt = f"->{rift['track'][rift['rot'] + 1]}" if not scored and rift["rot"] < 2 else ""
    known = [_("%(card)s (face down)", card=words.card(b["id"])) if b["face"] == "down" else words.card(b["id"])
             for b in rift["beneath"] if b["id"]]
    hidden: dict[int, int] = {}
    for b in rift["beneath"]:
        if not b["id"]:
            hidden[b["by"]] = hidden.get(b["by"], 0) + 1
    for by, n in hidden.items():
        if n == 1:
            known.append(_("a face-down card from you") if by == viewer else
                         _("a face-down card from %(name)s", name=who(by)))
        else:
            known.append(ngettext("%(num)d face-down card from you", "%(num)d face-down cards from you", n)
                         if by == viewer else
                         ngettext("%(num)d face-down card from %(name)s", "%(num)d face-down cards from %(name)s", n,
                                  name=who(by)))
    beneath = ("; " + _("beneath:") + " " + _(", ").join(known)) if known else ""
    return f"{words.card(rift['id'])} ({_elements(words, rift)} {rift['value']}{nxt}{beneath})".replace(" ", _GLUE)


def _labelled(label: str, items: list[str], separator: str) -> list[str]:
    """`label`, then the items, wrapped under each other after the label."""
    head = "  " + label + " "
    lines = _wrap(separator.join(items), width(head), head)
    return lines
