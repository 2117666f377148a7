"""Riftwalker's message catalog in English: the source of the `riftwalker` gettext domain (issue #26,
docs/i18n.md "Game messages").

Each engine message key (engine/riftwalker/messages.py) is a gettext context here, and its English
sentence the msgid (a pair: singular and plural, chosen by the message's `Count`): translators read
English and the key, and `pybabel update` marks a translation fuzzy when its English changes, which
the lint refuses.  A key with a `.you` twin has a form for the reader who is its `actor` ("Turn 4:
your turn.").  Terms (elements) and card names are entries of their own (contexts "element",
"element.a" and "card").  `make i18n-extract` writes service/translations/riftwalker.pot from this
module (tools/game_catalogs.py).
"""

from __future__ import annotations

from engine.riftwalker.cards import CARDS, WILD
from service.games.base import GameCatalog

_SRC = {"hand": "from their hand", "deck_top": "from the top of the rift deck", "explored": "from the explored rifts"}
_STEP_SRC = {"hand": "from your hand", "deck_top": "from the top of the rift deck", "explored": "({rifts})"}
_WHOSE_HAND = {"you": "your", "opp": "an opponent's", "each_opp": "each opponent's", "any": "any player's"}
_SEL = {"you": "one of your {kind}%ss{worth}", "opp": "an opponent's {kind}%s{worth}",
        "each_opp": "each opponent's {kind}%s{worth}", "any": "any {kind}%s{worth}"}
_SLOTS = ["top left", "top middle", "top right", "middle left", "centre", "middle right",
          "bottom left", "bottom middle", "bottom right"]

MESSAGES: dict[str, str | tuple[str, str]] = {
    # ---- events
    "event.setup": "A {players}-player game of Riftwalker begins: 9 element cards form the grid, {rifts} rift cards "
                   "are shuffled; {first} goes first.",
    "event.deal": ("{actor} is dealt {count} rift card.", "{actor} is dealt {count} rift cards."),
    "event.deal.own": "You are dealt {cards}.",
    "event.turn": "Turn {number}: {actor}'s turn.",
    "event.turn.you": "Turn {number}: your turn.",
    "event.turn.final": "Turn {number}: {actor} takes a last turn.",
    "event.turn.final.you": "Turn {number}: you take a last turn.",
    "event.flip": "{actor} flips {slot} from {from} to {to}.",
    "event.flip.use": "{actor} flips {slot} from {from} to {to} to use it.",
    "event.grow": "{actor} grows {to} at {slot} (was {from}).",
    "event.place": "{actor} places the top element card on {slot} with {element} up.",
    "event.place.use": "{actor} places the top element card on {slot} with {element} up, using {element}.",
    "event.swap": "{actor} swaps {a} and {b}.",
    "event.explore": "{actor} explores {card}.",
    "event.shift": "{actor} shifts {card} to {value}.",
    "event.shift.other": "{actor} shifts {owner}'s {card} to {value}.",
    "event.activate": "{actor} activates {card}.",
    "event.activate.other": "{actor} activates {owner}'s {card}.",
    "event.return": "{actor} returns {owner}'s {card} to their hand.",
    "event.discard.hand": "{owner} discards {card} from their hand to the bottom of the rift deck.",
    "event.discard.hand.forced": "{owner} discards {card} from their hand to the bottom of the rift deck "
                                 "({actor}'s power).",
    "event.discard.explored": "{actor} discards {card} from {owner}'s explored rifts to the bottom of the rift deck.",
    "event.discard.score": "{actor} discards {card} from {owner}'s score pile to the bottom of the rift deck.",
    "event.burst.force": "{actor} makes {owner} burst {card} at {value}.",
    "event.burst.line": "{actor} bursts {card} at {value} with a line.",
    "event.burst.power": "{actor} bursts {card} at {value} with a burst-step power.",
    "event.draw": ("{actor} draws {count} card.", "{actor} draws {count} cards."),
    "event.draw.own": "You draw {cards}.",
    "event.look": ("{actor} looks at the top {count} card of the rift deck.",
                   "{actor} looks at the top {count} cards of the rift deck."),
    "event.look.own": "You look at {cards}.",
    "event.take": "{actor} takes {card} into their hand.",
    **{f"event.tuck.{src}.{face}": f"{{actor}} puts {{card}} {words} face {face} beneath {{host}}."
       for src, words in _SRC.items() for face in ("up", "down")},
    "event.grant.burst_step": "{actor} may burst without a line this turn ({card}).",
    "event.grant.extra": ("{actor} may burst {count} more rift this turn ({card}).",
                          "{actor} may burst {count} more rifts this turn ({card})."),
    "event.end.deck": "The end of the game is triggered by {actor}: the rift deck ran out. "
                      "Everyone else gets one last turn.",
    "event.end.bursts": "The end of the game is triggered by {actor}: they have burst enough rifts. "
                        "Everyone else gets one last turn.",
    "event.game_over": "The game is over.",
    "a_card": "a card",
    "a_face_down_card": "a face-down card",
    # ---- moves
    "move.flip": "Flip {slot}",
    "move.flip.use": "Flip {slot}: use {up} (it turns to {down})",
    "move.flip.power": "Flip {slot} ({up} turns to {down})",
    "move.place.use": "Take the top element card and use {element}",
    "move.place.power": "Take the top element card, face up {element}",
    "move.put": "Put it on {slot}",
    "move.grow": "Grow {element} at {slot}",
    "move.grow.slot": "Grow at {slot}",
    "move.swap": "Swap the card at {slot}\u2026",
    "move.swap_with": "\u2026with the card at {slot}",
    "move.explore": "Explore {card}",
    "move.discard": "Discard {card}",
    "move.tuck": "Put {card} beneath",
    "move.take": "Take {card}",
    "move.bottom": "Put {card} next at the bottom of the rift deck",
    "move.shift": "Shift {card}",
    "move.shift.owned": "Shift {card} ({owner}'s)",
    "move.activate": "Activate {card}",
    "move.activate.owned": "Activate {card} ({owner}'s)",
    "move.return": "Return {card} to its owner's hand",
    "move.return.owned": "Return {card} to its owner's hand ({owner}'s)",
    "move.force_burst": "Make its owner burst {card}",
    "move.force_burst.owned": "Make its owner burst {card} ({owner}'s)",
    "move.target": "Choose {seat}",
    "move.do": "Go ahead",
    "move.do.step": "Go ahead: {step}",
    "move.tuck_top": "Put the top card of the rift deck beneath",
    "move.draw": ("Draw {count} card", "Draw {count} cards"),
    "move.search": "Search the rift deck",
    "move.choose": "Choose option {n}",
    "move.choose.steps": "Choose: {steps}",
    "move.burst.line": "Burst {card} with the line",
    "move.burst.power": "Burst {card} with the power of {power}",
    "move.burst.step": "Burst {card} with a burst-step power",
    "move.done": "Draw up to 3 and end the turn",
    "move.skip": "Skip",
    "move.skip.rift": "Skip the rift step",
    "move.skip.burst": "Skip the burst",
    "move.skip.offer": "Don't activate",
    "move.skip.search": "Done (put the rest at the bottom in the order shown)",
    "move.skip.power": "Skip (do no more of this)",
    "move.order": "Play a whole turn order",
    "move.unknown": "A move of another version of the game",
    # ---- power steps (a card's rules, as the moves "Go ahead" and "Choose" quote them)
    "step.must": "{step} (must)",
    "step.cost": "You may {pay}; if you do: {then}",
    "step.choose": "Choose one: {options}",
    "step.option": "{steps}",
    "step.offer": "activate {card}",
    "step.flip": ("Flip {count} grid card", "Flip {count} grid cards"),
    "step.place": ("Place the top element card {count} time", "Place the top element card {count} times"),
    "step.grow": "Grow {element}",
    "step.grow.times": "Grow {element} \u00d7{n}",
    "step.swap": "Swap two grid cards",
    "step.swap.times": "Swap two grid cards, {n} times",
    "step.explore": "Explore {element} rift from your hand",
    "step.explore.any": "Explore any rift from your hand",
    "step.explore.activate": "Explore {element} rift from your hand and activate it",
    "step.explore.activate.any": "Explore any rift from your hand and activate it",
    "step.shift": "Shift {rifts}",
    "step.shift.activate": "Shift {rifts} and activate it",
    "step.activate": "Activate {rifts}",
    "step.return": "Return {rifts} to its owner's hand",
    "step.force_burst": "Burst {rifts} into its owner's score pile",
    **{f"step.discard.hand.{whose}": (f"Discard {{count}} card from {words} hand",
                                      f"Discard {{count}} cards from {words} hand")
       for whose, words in _WHOSE_HAND.items()},
    **{f"step.discard.hand.{whose}.owner": (f"Discard {{count}} card from {words} hand (its owner chooses)",
                                            f"Discard {{count}} cards from {words} hand (its owner chooses)")
       for whose, words in _WHOSE_HAND.items() if whose != "you"},
    "step.discard": "Discard {rifts}",
    "step.discard.cards": ("Discard {rifts} ({count} card)", "Discard {rifts} ({count} cards)"),
    "step.burst_step": "At your burst step you may burst one of your {kind}rifts{worth} without a line "
                       "(this is your burst)",
    "step.extra_burst": ("You may burst {count} more rift this turn (lines still needed)",
                         "You may burst {count} more rifts this turn (lines still needed)"),
    "step.draw": ("Draw {count} card", "Draw {count} cards"),
    "step.search": ("Look at the top {count} card of the rift deck, take up to {take}, put the rest at the bottom",
                    "Look at the top {count} cards of the rift deck, take up to {take}, put the rest at the bottom"),
    "cards.n": ("{count} card", "{count} cards"),
    "cards.element": ("{count} {element} card", "{count} {element} cards"),
    **{f"step.tuck.{src}.{face}": (f"Put {{count}} card {words} face {face} beneath this rift",
                                   f"Put {{count}} cards {words} face {face} beneath this rift")
       for src, words in _STEP_SRC.items() for face in ("up", "down")},
    "any_element": "any element",
    "adj.matching": "matching ",
    "adj.other_matching": "other matching ",
    "adj.element": "{element} ",
    "adj.other_element": "other {element} ",
    "adj.other": "other ",
    "worth": " worth {value}",
    **{f"sel.{whose}.{noun}": text % f"{noun} rift" for whose, text in _SEL.items() for noun in ("explored", "scored")},
    "sep.semicolon": "; ",
    "sep.or": ", or ",
    "sep.comma": ", ",
    # ---- a card's rules (engine/riftwalker/messages.py power_message, bonus_message, text_message)
    "power": "{steps}.",
    "power.protect": "{steps}. Other players' powers cannot {kinds} it.",
    "protect.discard": "discard",
    "protect.return": "return",
    "protect.force_burst": "force-burst",
    "protect.tuck": "tuck",
    "bonus.per_beneath": "Bonus +{a}/+{c} per card beneath",
    "bonus.per_beneath.max": "Bonus +{a}/+{c} per card beneath (max {max})",
    "bonus.score_count.other": "Bonus +{a}/+{c} if at least {min} other {element} rifts are in your score pile",
    "bonus.per_score.other.max": "Bonus +{a}/+{c} per other {element} rift in your score pile (max {max})",
    "bonus.distinct_elements": "Bonus +{a}/+{c} if your score pile has at least {min} different elements",
    "bonus.most_burst": "Bonus +{a}/+{c} if no one has burst more rifts than you",
    "text.lock": "Locks an opponent's rift at 3.",
    "text.venture": "Explore, shift or burst with either element; never worth 3 or 7.",
    "text.shadowlands": "Matches any element to explore, shift or burst; counts as no element for bonus conditions.",
    # ---- the turn's steps, by name (the board)
    "turn_step.element": "Element step",
    "turn_step.element_place": "Element step (placing)",
    "turn_step.rift": "Rift step",
    "turn_step.burst": "Burst step",
    "turn_step.refresh": "Refresh step",
    # ---- places
    **{f"place.slot.{i}": f"slot {i + 1} ({where})" for i, where in enumerate(_SLOTS)},
}

# Words of the vocabulary, by (context, word): their English.  "element.a" is an element after "a"/"an".
TERMS: dict[tuple[str, str], str] = {
    **{("element", el): el for el in CARDS.elements},
    **{("element.a", el): ("an " if el[0] in "AEIOU" else "a ") + el for el in CARDS.elements},
    ("element", WILD): "Any",  # a card of every element (Shadowlands), on the board
}

CATALOG = GameCatalog(
    domain="riftwalker",
    messages=MESSAGES,
    terms=TERMS,
    card_names={cid: card.name for cid, card in CARDS.rifts.items()},
)
