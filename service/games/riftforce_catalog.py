"""Riftforce's message catalog in English: the source of the `riftforce` gettext domain (issue #26,
docs/i18n.md "Game messages").

Each engine message key (engine/riftforce/messages.py) is a gettext context here, and its English
sentence the msgid (a pair, singular and plural, chosen by the message's `Count`).  A key with a `.you`
twin has a form for the reader who is its `actor` ("You drew 2 cards.", "your Fire 5").  Guild names
are terms (context "guild"), card names entries of context "card" ("Fire 5": a guild and a number).
The English is what engine/riftforce/words.py says (tests/i18n/test_riftforce_messages.py holds it
to that over random games of every mode).  `make i18n-extract` writes service/translations/riftforce.pot
from this module (tools/game_catalogs.py).
"""

from __future__ import annotations

from engine.riftforce.cards import GUILD, GUILD_ABILITY, GUILD_NAME, NUMBER
from engine.riftforce.trainer import AND_ENDS, CHALLENGES
from engine.riftforce.words import GUILD_LETTERS
from service.games.base import GameCatalog

_ASK = {
    "move_to": "Choose where {card} moves.",
    "aim": "Choose the adjacent location {card} strikes.",
    "place": "Choose where to play the enemy captured by {card}.",
    "target": "Choose the enemy {card} strikes.",
    "heal": "Choose the ally {card} heals.",
    "push": "Choose where the trainer's {card} pushes your elemental.",
}
_ASK_PLAN = {
    "aim": "Choose which adjacent location the trainer's {card} strikes (and pulls from).",
    "target": "Choose which of your equally damaged elementals the trainer's {card} strikes.",
    "push": "Choose where the trainer's {card} pushes your elemental.",
}


def _you(key: str, other: str | tuple[str, str], you: str | tuple[str, str]) -> dict[str, str | tuple[str, str]]:
    return {key: other, f"{key}.you": you}


MESSAGES: dict[str, str | tuple[str, str]] = {
    # ---- pieces
    "list.none": "nothing",
    "list.two": "{a} and {b}",
    "list.more": "{a}, {rest}",
    "trainer": "The trainer",
    **_you("card.of", "{actor}'s {card}", "your {card}"),
    **_you("card.of.to", "{actor}'s {card}", "your {card}"),
    **_you("card.of.obj", "{actor}'s {card}", "your {card}"),
    "card.trainer": "the trainer's {card}",
    "card.trainer.to": "the trainer's {card}",
    "card.trainer.obj": "the trainer's {card}",
    **_you("card.own.to", "their own {card}", "your own {card}"),
    **_you("card.player.to", "the player's {card}", "your {card}"),
    "ord.0": "first",
    "ord.1": "second",
    "ord.2": "third",
    "ord.n": "{n}th",
    "position": " ({ordinal} at {loc})",
    "position.hurt": (" ({ordinal} at {loc}, {damage})", " ({ordinal} at {loc}, {damage})"),
    "damage": ("{count} damage", "{count} damage"),
    "riftforce": ("{count} Riftforce", "{count} Riftforce"),
    "team.n": "Team {n}",
    "team.own": "your team",
    "team.other": "the opposing team",
    "number": "{n}",
    "sep.dash": "-",
    "sep.semicolon": "; ",
    "sep.comma": ", ",
    "itself": "itself",
    "itself.from": "itself",
    **_you("got", "{actor} got {guild}", "you got {guild}"),
    "the_elemental": "The elemental",
    "the_captured_enemy": "the captured enemy",
    "card_at": "{card} at {loc}",
    "place.location": "location {n}",
    "place.location.in": "location {n}",
    "place.location.to": "location {n}",
    **{f"challenge.{n}": f"{{n}} {'*' * n}" for n in range(1, 5)},
    # ---- plans, prompts, summaries
    "plan.control": "control: a bot at {loc}, then 1 Riftforce per location the trainer controls",
    "plan.attack": "attack {numbers}: a bot at {loc}, then a bot of each number in turn",
    "ask.bot": "Choose which of the trainer's {number}s acts (each would damage one of your elementals).",
    **{f"ask.{what}": text for what, text in _ASK.items()},
    **{f"ask.plan.{what}": text for what, text in _ASK_PLAN.items()},
    **_you("summary.play", "{actor} played {cards} at {loc}.", "You played {cards} at {loc}."),
    **_you("summary.play.spread", "{actor} played {parts}.", "You played {parts}."),
    **_you("summary.activate", "{actor} discarded {card} and activated {cards}.",
           "You discarded {card} and activated {cards}."),
    "summary.where": (" (location {locs})", " (locations {locs})"),
    **_you("summary.check", ("{actor} checked: scored {points}{where} and drew {count} card.",
                             "{actor} checked: scored {points}{where} and drew {count} cards."),
           ("You checked: scored {points}{where} and drew {count} card.",
            "You checked: scored {points}{where} and drew {count} cards.")),
    # ---- what the seat to act is asked (the board's "Your decision: ...")
    "asked.trainer_offer": ("choose the trainer's guilds from those not kept ({count} of {of} so far).",
                            "choose the trainer's guilds from those not kept ({count} of {of} so far)."),
    "asked.keep": ("keep {quota} of the summoners on offer ({count} kept so far).",
                   "keep {quota} of the summoners on offer ({count} kept so far)."),
    "asked.pick": "pick a summoner from those on offer.",
    "asked.play": "add another card to the Play, or end it.",
    "asked.activate": ("activate another of your elementals ({count} of 3 so far), or stop.",
                       "activate another of your elementals ({count} of 3 so far), or stop."),
    "asked.actions.full": "Play or Activate.",
    "asked.actions.empty": "Check & Draw.",
    "asked.actions": "Play, Activate, or Check & Draw.",
    # ---- moves
    "move.unknown": "A move of another version of the game",
    "move.pick": "Pick {guild}",
    "move.give": "Give {guild} to the trainer",
    "move.play": "Play {card} at {loc}",
    "move.play.also": "Also play {card} at {loc}",
    "move.end_play": "End the play here",
    "move.activate": "Activate: discard {card}",
    "move.activate_elemental": "Activate {card}{where}",
    "move.done": "Stop activating",
    "move.done.nothing": "Activate nothing (the discard alone)",
    "move.check": "Check & Draw",
    "move.check.counts": "Check & Draw (score {score}, draw {draw})",
    "move.bot": "The trainer's {card}{where} acts",
    "move.plan.aim": "The trainer's {actor} strikes {loc}",
    "move.plan.push": "The trainer's {actor} pushes your elemental to {loc}",
    "move.plan.target": "The trainer's {actor} strikes your {card}{where}",
    "move.push": "Push to {loc}",
    "move.move_to": "Move {actor} to {loc}",
    "move.aim": "{actor} strikes {loc}",
    "move.place": "Play {card} at {loc}",
    "move.target": "{actor} strikes {card}{where}",
    "move.heal": "{actor} heals {card}{where}",
    # ---- events
    **_you("event.first_turn", "{actor} takes the first turn.", "You take the first turn."),
    **_you("event.picks_first", "{actor} picks first.", "You pick first."),
    **_you("event.pick", "{actor} picked {guild}.", "You picked {guild}."),
    **_you("event.give", "{actor} gave {guild} to the trainer.", "You gave {guild} to the trainer."),
    "event.draft_end": "The draft is over ({left} left out).",
    **_you("event.deck", ("{actor}'s {count} elemental was shuffled into a draw pile.",
                          "{actor}'s {count} elementals were shuffled into a draw pile."),
           ("Your {count} elemental was shuffled into a draw pile.",
            "Your {count} elementals were shuffled into a draw pile.")),
    **_you("event.reshuffle", ("{actor}'s discard pile ({count} card) was shuffled into a new draw pile.",
                               "{actor}'s discard pile ({count} cards) was shuffled into a new draw pile."),
           ("Your discard pile ({count} card) was shuffled into a new draw pile.",
            "Your discard pile ({count} cards) was shuffled into a new draw pile.")),
    **_you("event.draw", ("{actor} drew {count} card.", "{actor} drew {count} cards."),
           ("You drew {count} card.", "You drew {count} cards.")),
    "event.draw.own": ("You drew {count} card: {cards}.", "You drew {count} cards: {cards}."),
    **_you("event.enter", "{actor} played {card} at {loc}.", "You played {card} at {loc}."),
    **_you("event.enter.deck", "{actor} put {card} from the top of the draw pile at {loc}.",
           "You put {card} from the top of the draw pile at {loc}."),
    **_you("event.enter.capture", "{actor} played the captured {card} at {loc}.",
           "You played the captured {card} at {loc}."),
    **_you("event.discard", "{actor} discarded {card} to activate.", "You discarded {card} to activate."),
    **_you("event.activated", "{actor} activated {card} at {loc}.", "You activated {card} at {loc}."),
    "event.damage": "{by} dealt {amount} to {victim}.",
    "event.heal": "{by} removed {amount} from {card}.",
    "event.move": "{card} moved from {from} to {to}.",
    "event.destroyed": "{card} at {loc} was destroyed.",
    "event.captured": "{by} captured {card}.",
    **_you("event.score.check", "{actor} gained {points} for controlled locations (now {total}).",
           "You gained {points} for controlled locations (now {total})."),
    **_you("event.score.kill", "{actor} gained {points} for a destroyed enemy (now {total}).",
           "You gained {points} for a destroyed enemy (now {total})."),
    "event.score.team.check": "{team} gained {points} for controlled locations (now {total}).",
    "event.score.team.kill": "{team} gained {points} for a destroyed enemy (now {total}).",
    **_you("event.game_over", "The game is over: {actor} wins, {high} to {low}.",
           "The game is over: You win, {high} to {low}."),
    "event.game_over.team": "The game is over: {team} wins, {high} to {low}.",
    "event.game_over.tie": "The game is over: a tie at {score}.",
    "event.draft": "Draft: {got}; on offer: {offer}.",
    "event.draft.none": "Draft: on offer: {offer}.",
    "event.draft.secret": "Draft: you got {guild}, {other} got a summoner you will see when the draft ends; "
                          "on offer: {offer}.",
    "event.draft.hidden": "Draft: each player got a summoner only they know until the draft ends; on offer: {offer}.",
    "rule.trainer.random": "Once 4 are kept, the trainer gets 4 of the 14 guilds not kept, at random.",
    **_you("rule.trainer.named", "Once 4 are kept, the trainer gets {guilds}, named at setup; for each of them "
                                 "kept, the player chooses another from the guilds not kept.",
           "Once 4 are kept, the trainer gets {guilds}, named at setup; for each of them kept, you choose "
           "another from the guilds not kept."),
    **_you("rule.trainer.choose", "Once 4 are kept, the player chooses the trainer's 4 guilds from the 14 not kept.",
           "Once 4 are kept, you choose the trainer's 4 guilds from the 14 not kept."),
    **_you("event.trainer_draft.choose", "Now the player chooses the trainer's 4 guilds from the 14 not kept.",
           "Now you choose the trainer's 4 guilds from the 14 not kept."),
    "event.trainer_draft.random": "The trainer gets {guilds}, drawn at random from the 14 guilds not kept.",
    "event.trainer_draft.named": "The trainer gets {guilds}, as named at setup.",
    **_you("event.trainer_draft.some",
           ("The trainer gets {guilds}, as named at setup; {kept} was kept, so the player chooses {need} more "
            "from the guilds not kept.",
            "The trainer gets {guilds}, as named at setup; {kept} were kept, so the player chooses {need} more "
            "from the guilds not kept."),
           ("The trainer gets {guilds}, as named at setup; {kept} was kept, so you choose {need} more from the "
            "guilds not kept.",
            "The trainer gets {guilds}, as named at setup; {kept} were kept, so you choose {need} more from the "
            "guilds not kept.")),
    **_you("event.trainer_draft.none",
           ("The trainer gets none of the guilds named at setup; {kept} was kept, so the player chooses {need} "
            "from the guilds not kept.",
            "The trainer gets none of the guilds named at setup; {kept} were kept, so the player chooses {need} "
            "from the guilds not kept."),
           ("The trainer gets none of the guilds named at setup; {kept} was kept, so you choose {need} from the "
            "guilds not kept.",
            "The trainer gets none of the guilds named at setup; {kept} were kept, so you choose {need} from the "
            "guilds not kept.")),
    "event.solo.draft": "Solo setup: keep 4 of {guilds}.",
    "event.solo.trainer_plays": "The trainer plays {guilds}.",
    "event.solo.setup_over": "The setup is over: the trainer plays {guilds}.",
    "event.plans": ("The trainer's {count} plan lies face up.", "The trainer's {count} plans lie face up."),
    "event.plans.placeholder": ("The trainer's {count} plan lies face up (our placeholder plan deck, not the "
                                "printed one).",
                                "The trainer's {count} plans lie face up (our placeholder plan deck, not the "
                                "printed one)."),
    "event.plan": "The trainer carries out its plan: {plan}.",
    "event.plans_recycled": "The trainer's plan pile is turned face up again, in the same order.",
    "event.solo.enter": "The trainer put a bot, {card}, at {loc}.",
    "event.solo.activated": "The trainer's bot {card} at {loc} acts ({challenge}).",
    "event.solo.damage": "The trainer's bot {card} dealt {amount} to {victim}.",
    "event.solo.score.control": "The trainer gained {points} for controlled locations (now {total}).",
    "event.solo.score.kill": "The trainer gained {points} for a destroyed elemental (now {total}).",
    "event.solo.score.other": "The trainer gained {points}  (now {total}).",
    **_you("event.game_over.solo.won", "The game is over: {actor} beat the trainer, {a} to {b}.",
           "The game is over: you beat the trainer, {a} to {b}."),
    "event.game_over.solo.lost": "The game is over: the trainer wins, {b} to {a}.",
}

CATALOG = GameCatalog(
    domain="riftforce",
    messages=MESSAGES,
    # Guilds' names; a summoner's ability, the trainer's challenge abilities ("5-2": the 5s at 2 stars) and
    # the & card's ends, as the board shows them.
    terms={**{("guild", g): name for g, name in GUILD_NAME.items()},
           **{("ability", g): text for g, text in GUILD_ABILITY.items()},
           **{("challenge", f"{n}-{stars}"): c["text"] for n, levels in CHALLENGES.items()
              for stars, c in levels.items()},
           **{("and", end): c["text"] for end, c in AND_ENDS.items()},
           ("score", "riftforce"): "Riftforce",  # the score's column
           # a guild's letters on a card where its name does not fit (unique in each language)
           **{("letters", g): letters for g, letters in GUILD_LETTERS.items()}},
    card_names={card: f"{GUILD_NAME[g]} {NUMBER[card]}" for card, g in GUILD.items()},
)
